package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/prospectorhq/prospector"
)

const (
	emailLookupColumns = `id, workspace_id, idempotency_key, request_hash, email, verified, confidence, credits, created_at`
	qInsertLookup      = `INSERT INTO email_lookups (` + emailLookupColumns + `) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`
)

func scanEmailLookup(row rowScanner) (*prospector.EmailLookup, error) {
	var (
		l       prospector.EmailLookup
		key     sql.NullString
		created string
	)
	err := row.Scan(&l.ID, &l.WorkspaceID, &key, &l.RequestHash, &l.Email, &l.Verified, &l.Confidence, &l.Credits, &created)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, prospector.ErrNotFound
	}
	if err != nil {
		return nil, fmt.Errorf("sqlite: scan email lookup: %w", err)
	}
	l.IdempotencyKey, l.CreatedAt = key.String, parseTime(created)
	return &l, nil
}

// RecordEmailLookup stores l and charges its credits in one write
// transaction, shared with other lookups waiting at the same moment
// (group.go). The writer is a single BEGIN IMMEDIATE connection, so the
// idempotency key is read and claimed with no other writer in between.
func (db *DB) RecordEmailLookup(ctx context.Context, l *prospector.EmailLookup, now time.Time) (*prospector.EmailLookup, bool, error) {
	if l.Credits < 0 {
		return nil, false, fmt.Errorf("sqlite: email lookup: negative credits %d", l.Credits)
	}
	var (
		first    *prospector.EmailLookup
		replayed bool
	)
	if err := db.writeStmts(ctx, qSpendInPeriod, qInsertLookup); err != nil {
		return nil, false, err
	}
	err := db.grouped(ctx, func(ctx context.Context, tx *sql.Tx) error {
		first, replayed = nil, false
		if l.IdempotencyKey != "" {
			prev, err := scanEmailLookup(tx.QueryRowContext(ctx, `SELECT `+emailLookupColumns+` FROM email_lookups
				WHERE workspace_id = ? AND idempotency_key = ?`, l.WorkspaceID, l.IdempotencyKey))
			switch {
			case errors.Is(err, prospector.ErrNotFound):
			case err != nil:
				return err
			case now.Sub(prev.CreatedAt) < prospector.IdempotencyWindow:
				if prev.RequestHash != l.RequestHash {
					return prospector.ErrIdempotencyMismatch
				}
				first, replayed = prev, true
				return nil
			default:
				// Expired: the key is free again, but the old answer stays
				// on record with what it cost.
				if _, err := tx.ExecContext(ctx, `UPDATE email_lookups SET idempotency_key = NULL
					WHERE workspace_id = ? AND idempotency_key = ?`, l.WorkspaceID, l.IdempotencyKey); err != nil {
					return fmt.Errorf("sqlite: release idempotency key: %w", err)
				}
			}
		}
		rec := *l
		rec.ID, rec.CreatedAt = prospector.NewID("eml"), now.UTC()
		if rec.Credits > 0 {
			if err := db.spendCredits(ctx, tx, rec.WorkspaceID, rec.Credits, now); err != nil {
				return err
			}
		}
		insert, _ := txStmt(ctx, db, tx, qInsertLookup) // prepared above: cannot fail
		_, err := insert.ExecContext(ctx, rec.ID, rec.WorkspaceID, nullString(rec.IdempotencyKey), rec.RequestHash, rec.Email, rec.Verified,
			rec.Confidence, rec.Credits, formatTime(rec.CreatedAt))
		if err != nil {
			return fmt.Errorf("sqlite: write email lookup: %w", err)
		}
		first = &rec
		return nil
	})
	if err != nil {
		return nil, false, err
	}
	return first, replayed, nil
}
