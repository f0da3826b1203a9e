package postgres

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/prospectorhq/prospector"
)

const emailLookupColumns = `id, workspace_id, idempotency_key, request_hash, email, verified, confidence, credits, created_at`

func scanEmailLookup(row pgx.Row) (*prospector.EmailLookup, error) {
	var (
		l   prospector.EmailLookup
		key *string
	)
	err := row.Scan(&l.ID, &l.WorkspaceID, &key, &l.RequestHash, &l.Email, &l.Verified, &l.Confidence, &l.Credits, &l.CreatedAt)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, prospector.ErrNotFound
	}
	if err != nil {
		return nil, fmt.Errorf("postgres: scan email lookup: %w", err)
	}
	if key != nil {
		l.IdempotencyKey = *key
	}
	l.CreatedAt = l.CreatedAt.UTC()
	return &l, nil
}

// EmailLookupByKey reads the lookup holding the key.
func (db *DB) EmailLookupByKey(ctx context.Context, workspaceID, key string) (*prospector.EmailLookup, error) {
	l, err := scanEmailLookup(db.pool.QueryRow(ctx, `SELECT `+emailLookupColumns+` FROM email_lookups
		WHERE workspace_id = $1 AND idempotency_key = $2`, workspaceID, key))
	if err != nil && !errors.Is(err, prospector.ErrNotFound) {
		return nil, fmt.Errorf("postgres: email lookup by key: %w", err)
	}
	return l, err
}

// RecordEmailLookup stores l and charges its credits in one transaction.
//
// The transaction first locks the workspace row, which the charge would
// lock anyway. Lookups of one workspace thus run one after another, and
// under READ COMMITTED the key is read after the previous holder of the
// lock committed: of two calls with the same key the second sees the
// first's lookup and replays it. The unique (workspace_id,
// idempotency_key) constraint backs this up. FOR NO KEY UPDATE is the
// lock the UPDATE of credits_used takes; unlike FOR UPDATE it does not
// block inserts elsewhere that reference the workspace. The lookup row
// is the record of the charge (no ledger row), so the only lock taken
// is the workspace's. The period
// roll-over runs before the transaction, as in ChargeCredits.
//
// A plain charge (credits, no idempotency key) first goes through the
// batcher (charge_batch.go), with the answers of other calls waiting at
// the same moment; only one it could not charge takes this path.
func (db *DB) RecordEmailLookup(ctx context.Context, l *prospector.EmailLookup, now time.Time) (*prospector.EmailLookup, bool, error) {
	if err := l.Validate(); err != nil {
		return nil, false, fmt.Errorf("postgres: %w", err)
	}
	if l.Credits > 0 && l.IdempotencyKey == "" {
		rec := *l
		rec.ID, rec.CreatedAt = prospector.NewID("eml"), now.UTC().Truncate(time.Microsecond)
		charged, err := db.batchedLookup(ctx, &rec, now)
		if err != nil {
			return nil, false, err
		}
		if charged {
			return &rec, false, nil
		}
	}
	if err := db.rollPeriod(ctx, l.WorkspaceID, now); err != nil {
		return nil, false, err
	}
	var (
		first    *prospector.EmailLookup
		replayed bool
	)
	err := pgx.BeginFunc(ctx, db.pool, func(tx pgx.Tx) error {
		var id string
		err := tx.QueryRow(ctx, `SELECT id FROM workspaces WHERE id = $1 FOR NO KEY UPDATE`, l.WorkspaceID).Scan(&id)
		if errors.Is(err, pgx.ErrNoRows) {
			return fmt.Errorf("postgres: workspace %s: %w", l.WorkspaceID, prospector.ErrNotFound)
		}
		if err != nil {
			return fmt.Errorf("postgres: lock workspace: %w", err)
		}
		if l.IdempotencyKey != "" {
			prev, err := scanEmailLookup(tx.QueryRow(ctx, `SELECT `+emailLookupColumns+` FROM email_lookups
				WHERE workspace_id = $1 AND idempotency_key = $2`, l.WorkspaceID, l.IdempotencyKey))
			switch {
			case errors.Is(err, prospector.ErrNotFound):
			case err != nil:
				return err
			default:
				replay, err := prospector.ReplayKey(prev.CreatedAt, prev.RequestHash, l.RequestHash, now)
				if err != nil {
					return err
				}
				if replay {
					first, replayed = prev, true
					return nil
				}
				if _, err := tx.Exec(ctx, `UPDATE email_lookups SET idempotency_key = NULL
					WHERE workspace_id = $1 AND idempotency_key = $2`, l.WorkspaceID, l.IdempotencyKey); err != nil {
					return fmt.Errorf("postgres: release idempotency key: %w", err)
				}
			}
		}
		rec := *l
		rec.ID, rec.CreatedAt = prospector.NewID("eml"), now.UTC().Truncate(time.Microsecond)
		if rec.Credits > 0 {
			tag, err := tx.Exec(ctx, `UPDATE workspaces SET credits_used = credits_used + $1
				WHERE id = $2 AND (credits_limit IS NULL OR credits_bypassed OR credits_used + $1 <= credits_limit)`,
				rec.Credits, rec.WorkspaceID)
			if err != nil {
				return fmt.Errorf("postgres: spend credits: %w", err)
			}
			if tag.RowsAffected() == 0 {
				return prospector.ErrInsufficientCredits
			}
		}
		_, err = tx.Exec(ctx, `INSERT INTO email_lookups (`+emailLookupColumns+`) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
			rec.ID, rec.WorkspaceID, nullString(rec.IdempotencyKey), rec.RequestHash, rec.Email, rec.Verified,
			rec.Confidence, rec.Credits, rec.CreatedAt)
		if err != nil {
			return fmt.Errorf("postgres: write email lookup: %w", err)
		}
		first = &rec
		return nil
	})
	if err != nil {
		return nil, false, err
	}
	return first, replayed, nil
}
