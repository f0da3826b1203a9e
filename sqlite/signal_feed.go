package sqlite

import (
	"context"
	"database/sql"

	"github.com/prospectorhq/prospector"
)

// qSignalsFeed reads a signal with its text packed (feed.go).
const qSignalsFeed = `SELECT id, company_id, person_id, score, seq, external_id || char(0) || type || char(0) ||
	company_domain || char(0) || title || char(0) || detail || char(0) || source_url || char(0) || detected_at ||
	char(0) || created_at
	FROM signals WHERE seq > ? ORDER BY seq LIMIT ?`

// SignalsChangedSince walks the table by seq.
func (db *DB) SignalsChangedSince(ctx context.Context, seq int64, limit int) ([]*prospector.Signal, error) {
	return readFeed(ctx, db, "signals", qSignalsFeed, seq, limit, 8, scanSignalFeed, db.SignalsByID,
		func(s *prospector.Signal) (int64, *int64) { return s.ID, &s.Seq })
}

func scanSignalFeed(rows *sql.Rows, s *prospector.Signal, text *string, f []string) (bool, error) {
	var (
		company, person sql.NullInt64
		score           sql.NullFloat64
	)
	if err := rows.Scan(&s.ID, &company, &person, &score, &s.Seq, text); err != nil {
		return false, err
	}
	s.CompanyID, s.PersonID, s.Score = int64Ptr(company), int64Ptr(person), float64Ptr(score)
	ok := unpackFields(*text, f)
	s.ExternalID, s.Type, s.CompanyDomain, s.Title, s.Detail, s.SourceURL = f[0], f[1], f[2], f[3], f[4], f[5]
	s.DetectedAt, s.CreatedAt = parseTime(f[6]), parseTime(f[7])
	return ok, nil
}
