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

// EmailLookupByKey reads the lookup holding the key, from the read pool.
func (db *DB) EmailLookupByKey(ctx context.Context, workspaceID, key string) (*prospector.EmailLookup, error) {
	l, err := scanEmailLookup(db.row(ctx, `SELECT `+emailLookupColumns+` FROM email_lookups
		WHERE workspace_id = ? AND idempotency_key = ?`, workspaceID, key))
	if err != nil && !errors.Is(err, prospector.ErrNotFound) {
		return nil, fmt.Errorf("sqlite: email lookup by key: %w", err)
	}
	return l, err
}

// RecordEmailLookup stores l and charges its credits in one write
// transaction, shared with other lookups waiting at the same moment
// (group.go). The writer is a single BEGIN IMMEDIATE connection, so the
// idempotency key is read and claimed with no other writer in between.
func (db *DB) RecordEmailLookup(ctx context.Context, l *prospector.EmailLookup, now time.Time) (*prospector.EmailLookup, bool, error) {
	if err := l.Validate(); err != nil {
		return nil, false, fmt.Errorf("sqlite: %w", err)
	}
	if err := db.writeStmts(ctx, qSpendInPeriod, qInsertLookup); err != nil {
		return nil, false, err
	}
	var (
		first    *prospector.EmailLookup
		replayed bool
	)
	err := db.grouped(ctx, func(ctx context.Context, tx *sql.Tx) error {
		var err error
		first, replayed, err = db.recordLookup(ctx, tx, l, now)
		return err
	})
	if err != nil {
		return nil, false, err
	}
	return first, replayed, nil
}

// recordLookup is RecordEmailLookup's transaction: the first lookup when
// l's key was used, else l charged and stored.
func (db *DB) recordLookup(ctx context.Context, tx *sql.Tx, l *prospector.EmailLookup, now time.Time) (*prospector.EmailLookup, bool, error) {
	if l.IdempotencyKey != "" {
		prev, err := lookupByKey(ctx, tx, l, now)
		if err != nil || prev != nil {
			return prev, prev != nil, err
		}
	}
	rec := *l
	rec.ID, rec.CreatedAt = prospector.NewID("eml"), now.UTC()
	if rec.Credits > 0 {
		if err := db.spendCredits(ctx, tx, rec.WorkspaceID, rec.Credits, now); err != nil {
			return nil, false, err
		}
	}
	insert, err := txStmt(ctx, db, tx, qInsertLookup)
	if err != nil {
		return nil, false, err
	}
	if _, err := insert.ExecContext(ctx, rec.ID, rec.WorkspaceID, nullString(rec.IdempotencyKey), rec.RequestHash, rec.Email,
		rec.Verified, rec.Confidence, rec.Credits, formatTime(rec.CreatedAt)); err != nil {
		return nil, false, fmt.Errorf("sqlite: write email lookup: %w", err)
	}
	return &rec, false, nil
}

// lookupByKey returns the first lookup of l's idempotency key, nil when
// the key is free (releasing it when it expired: the old answer stays on
// record with what it cost), or ErrIdempotencyMismatch.
func lookupByKey(ctx context.Context, tx *sql.Tx, l *prospector.EmailLookup, now time.Time) (*prospector.EmailLookup, error) {
	prev, err := scanEmailLookup(tx.QueryRowContext(ctx, `SELECT `+emailLookupColumns+` FROM email_lookups
		WHERE workspace_id = ? AND idempotency_key = ?`, l.WorkspaceID, l.IdempotencyKey))
	if errors.Is(err, prospector.ErrNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	replay, err := prospector.ReplayKey(prev.CreatedAt, prev.RequestHash, l.RequestHash, now)
	if err != nil {
		return nil, err
	}
	if replay {
		return prev, nil
	}
	if _, err := tx.ExecContext(ctx, `UPDATE email_lookups SET idempotency_key = NULL
		WHERE workspace_id = ? AND idempotency_key = ?`, l.WorkspaceID, l.IdempotencyKey); err != nil {
		return nil, fmt.Errorf("sqlite: release idempotency key: %w", err)
	}
	return nil, nil
}
