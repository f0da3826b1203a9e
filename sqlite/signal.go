package sqlite

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	"github.com/prospectorhq/prospector"
)

const signalColumns = `id, external_id, type, company_id, company_domain, person_id, title, detail, source_url,
	detected_at, score, created_at`

func signalSpec(now string) upsertSpec[*prospector.Signal] {
	return upsertSpec[*prospector.Signal]{
		table: "signals",
		columns: []string{"external_id", "type", "company_id", "company_domain", "person_id", "title", "detail",
			"source_url", "detected_at", "score", "created_at"},
		key:   func(s *prospector.Signal) string { return s.ExternalID },
		hash:  func(s *prospector.Signal) (int64, error) { return s.ContentHash(), nil },
		setID: func(s *prospector.Signal, id int64) { s.ID = id },
		values: func(s *prospector.Signal) []any {
			return []any{s.ExternalID, s.Type, nullInt(s.CompanyID), s.CompanyDomain, nullInt(s.PersonID), s.Title,
				s.Detail, s.SourceURL, formatTime(s.DetectedAt), nullFloat(s.Score), now}
		},
	}
}

// UpsertSignals upserts by external id in one transaction.
func (db *DB) UpsertSignals(ctx context.Context, ss []*prospector.Signal) (prospector.UpsertResult, error) {
	var res prospector.UpsertResult
	err := db.tx(ctx, func(tx *sql.Tx) error {
		var err error
		res, err = upsert(ctx, tx, signalSpec(formatTime(time.Now())), ss)
		return err
	})
	return res, err
}

func scanSignal(row rowScanner) (*prospector.Signal, error) {
	var (
		s                 prospector.Signal
		company, person   sql.NullInt64
		score             sql.NullFloat64
		detected, created string
	)
	if err := row.Scan(&s.ID, &s.ExternalID, &s.Type, &company, &s.CompanyDomain, &person, &s.Title, &s.Detail,
		&s.SourceURL, &detected, &score, &created); err != nil {
		return nil, fmt.Errorf("sqlite: scan signal: %w", err)
	}
	s.CompanyID, s.PersonID, s.Score = int64Ptr(company), int64Ptr(person), float64Ptr(score)
	s.DetectedAt, s.CreatedAt = parseTime(detected), parseTime(created)
	return &s, nil
}

// SignalsByCompany returns a company's signals, newest first.
func (db *DB) SignalsByCompany(ctx context.Context, companyID int64, limit int) ([]*prospector.Signal, error) {
	return queryPrepared(ctx, db, `SELECT `+signalColumns+` FROM signals WHERE company_id = ?
		ORDER BY detected_at DESC, id DESC LIMIT (? + 0)`, scanSignal, companyID, limit)
}

// ListSignals walks the table by id.
func (db *DB) ListSignals(ctx context.Context, after int64, limit int) ([]*prospector.Signal, error) {
	return queryList(ctx, db.read, `SELECT `+signalColumns+` FROM signals WHERE id > ? ORDER BY id LIMIT ?`, scanSignal, after, limit)
}

// CountSignals counts every signal.
func (db *DB) CountSignals(ctx context.Context) (int64, error) { return db.count(ctx, "signals") }
