package sqlite

import (
	"context"
	"database/sql"

	"github.com/prospectorhq/prospector"
)

// qSignalsFeed reads the fields of a signal the index keeps (feed.go).
const qSignalsFeed = `SELECT id, company_id, score, seq, external_id || char(0) || type || char(0) ||
	company_domain || char(0) || title || char(0) || detail || char(0) || source_url || char(0) || detected_at
	FROM signals WHERE seq > ? ORDER BY seq LIMIT ?`

// SignalsChangedSince walks the table by seq, filling the fields the
// interface names.
func (db *DB) SignalsChangedSince(ctx context.Context, seq int64, limit int) ([]*prospector.Signal, error) {
	return readFeed(ctx, db, "signals", qSignalsFeed, seq, limit, 7, scanSignalFeed, db.SignalsByID,
		func(s *prospector.Signal) (int64, *int64) { return s.ID, &s.Seq })
}

func scanSignalFeed(rows *sql.Rows, s *prospector.Signal, text *string, f []string) (bool, error) {
	var (
		company sql.NullInt64
		score   sql.NullFloat64
	)
	if err := rows.Scan(&s.ID, &company, &score, &s.Seq, text); err != nil {
		return false, err
	}
	s.CompanyID, s.Score = int64Ptr(company), float64Ptr(score)
	ok := unpackFields(*text, f)
	s.ExternalID, s.Type, s.CompanyDomain, s.Title, s.Detail, s.SourceURL = f[0], f[1], f[2], f[3], f[4], f[5]
	s.DetectedAt = parseTime(f[6])
	return ok, nil
}
