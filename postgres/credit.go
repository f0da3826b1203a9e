package postgres

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/prospectorhq/prospector"
)

// rollPeriod starts a new billing period when the stored one has ended.
// The UPDATE is conditional on the old end, so it is applied once however
// many callers race here. The new period is computed in Go, not SQL,
// because Go's and PostgreSQL's month arithmetic differ at month ends.
func (db *DB) rollPeriod(ctx context.Context, workspaceID string, now time.Time) error {
	var start, end time.Time
	err := db.pool.QueryRow(ctx, `SELECT period_start, period_end FROM workspaces WHERE id = $1`, workspaceID).Scan(&start, &end)
	if errors.Is(err, pgx.ErrNoRows) {
		return fmt.Errorf("postgres: workspace %s: %w", workspaceID, prospector.ErrNotFound)
	}
	if err != nil {
		return fmt.Errorf("postgres: read period: %w", err)
	}
	if now.Before(end) {
		return nil
	}
	// UTC, as SQLite keeps it: AddDate in a local zone would move the
	// period boundaries across daylight-saving changes.
	newStart, newEnd := prospector.BillingPeriod(start.UTC(), now)
	_, err = db.pool.Exec(ctx, `UPDATE workspaces SET period_start = $1, period_end = $2, credits_used = 0
		WHERE id = $3 AND period_end = $4`, newStart, newEnd, workspaceID, end)
	if err != nil {
		return fmt.Errorf("postgres: roll period: %w", err)
	}
	return nil
}

// CreditUsage returns the current period's usage.
func (db *DB) CreditUsage(ctx context.Context, workspaceID string, now time.Time) (*prospector.CreditUsage, error) {
	if err := db.rollPeriod(ctx, workspaceID, now); err != nil {
		return nil, err
	}
	var credits, radars, accounts int64
	s := workspaceScanTargets()
	err := db.pool.QueryRow(ctx, `SELECT `+workspaceColumns+`, credits_used, radars_used, network_accounts_used
		FROM workspaces WHERE id = $1`, workspaceID).
		Scan(append(s.targets(), &credits, &radars, &accounts)...)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, fmt.Errorf("postgres: workspace %s: %w", workspaceID, prospector.ErrNotFound)
	}
	if err != nil {
		return nil, fmt.Errorf("postgres: read usage: %w", err)
	}
	return prospector.NewCreditUsage(s.workspace(), credits, radars, accounts), nil
}

// ChargeCredits records c and spends its credits in one transaction.
//
// The ledger row is inserted before the credits are spent. A concurrent
// charge with the same idempotency key then blocks on that row until this
// transaction ends: on commit it finds the row and replays, on rollback
// (not enough credits) it takes the key itself. Every charge thus locks
// the ledger key before the workspace row, and the period roll-over runs
// before the transaction, so two charges never wait on each other in
// opposite orders.
func (db *DB) ChargeCredits(ctx context.Context, c *prospector.Charge, now time.Time) (bool, error) {
	if err := c.Validate(); err != nil {
		return false, fmt.Errorf("postgres: %w", err)
	}
	if err := db.rollPeriod(ctx, c.WorkspaceID, now); err != nil {
		return false, err
	}
	id, created := prospector.NewID("chg"), now.UTC().Truncate(time.Microsecond)
	replayed := false
	err := pgx.BeginFunc(ctx, db.pool, func(tx pgx.Tx) error {
		// A NULL idempotency key never conflicts, so a charge without one
		// always inserts.
		err := tx.QueryRow(ctx, `INSERT INTO credit_ledger (id, workspace_id, amount, reason, idempotency_key, created_at)
			VALUES ($1, $2, $3, $4, $5, $6)
			ON CONFLICT (workspace_id, idempotency_key) DO NOTHING RETURNING id`,
			id, c.WorkspaceID, c.Amount, c.Reason, nullString(c.IdempotencyKey), created).Scan(&id)
		if errors.Is(err, pgx.ErrNoRows) {
			err := tx.QueryRow(ctx, `SELECT id, amount, reason, created_at FROM credit_ledger
				WHERE workspace_id = $1 AND idempotency_key = $2`, c.WorkspaceID, c.IdempotencyKey).
				Scan(&c.ID, &c.Amount, &c.Reason, &c.CreatedAt)
			if err != nil {
				return fmt.Errorf("postgres: read ledger: %w", err)
			}
			replayed, c.CreatedAt = true, c.CreatedAt.UTC()
			return nil
		}
		if isPgError(err, codeForeignKeyViolation, "") {
			return fmt.Errorf("postgres: workspace %s: %w", c.WorkspaceID, prospector.ErrNotFound)
		}
		if err != nil {
			return fmt.Errorf("postgres: write ledger: %w", err)
		}
		tag, err := tx.Exec(ctx, `UPDATE workspaces SET credits_used = credits_used + $1
			WHERE id = $2 AND (credits_limit IS NULL OR credits_bypassed OR credits_used + $1 <= credits_limit)`,
			c.Amount, c.WorkspaceID)
		if err != nil {
			return fmt.Errorf("postgres: spend credits: %w", err)
		}
		if tag.RowsAffected() == 0 {
			return prospector.ErrInsufficientCredits // the rollback frees the key
		}
		c.ID, c.CreatedAt = id, created
		return nil
	})
	return replayed, err
}

// quotaColumns names the used, limit and bypass columns of each quota.
func quotaColumns(q prospector.Quota) (used, limit, bypassed string, err error) {
	switch q {
	case prospector.QuotaRadars:
		return "radars_used", "radars_limit", "radars_bypassed", nil
	case prospector.QuotaNetworkAccounts:
		return "network_accounts_used", "network_accounts_limit", "network_accounts_bypassed", nil
	}
	return "", "", "", fmt.Errorf("unknown quota %q", q)
}

// AcquireQuota takes one unit of q with a conditional UPDATE.
func (db *DB) AcquireQuota(ctx context.Context, workspaceID string, q prospector.Quota) error {
	// In a transaction, like every write of a request (see execTx).
	return pgx.BeginFunc(ctx, db.pool, func(tx pgx.Tx) error { return acquireQuota(ctx, tx, workspaceID, q) })
}

// acquireQuota is the step that takes one unit of q in tx:
// ErrQuotaExceeded at the limit, ErrNotFound for an unknown workspace.
func acquireQuota(ctx context.Context, tx pgx.Tx, workspaceID string, q prospector.Quota) error {
	used, limit, bypassed, err := quotaColumns(q)
	if err != nil {
		return fmt.Errorf("postgres: %w", err)
	}
	tag, err := tx.Exec(ctx, `UPDATE workspaces SET `+used+` = `+used+` + 1
		WHERE id = $1 AND (`+limit+` IS NULL OR `+bypassed+` OR `+used+` < `+limit+`)`, workspaceID)
	if err != nil {
		return fmt.Errorf("postgres: acquire %s: %w", q, err)
	}
	if tag.RowsAffected() > 0 {
		return nil
	}
	var exists bool
	if err := tx.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM workspaces WHERE id = $1)`, workspaceID).Scan(&exists); err != nil {
		return fmt.Errorf("postgres: acquire %s: %w", q, err)
	}
	if !exists {
		return fmt.Errorf("postgres: workspace %s: %w", workspaceID, prospector.ErrNotFound)
	}
	return prospector.ErrQuotaExceeded
}

// ReleaseQuota gives one unit of q back.
func (db *DB) ReleaseQuota(ctx context.Context, workspaceID string, q prospector.Quota) error {
	used, _, _, err := quotaColumns(q)
	if err != nil {
		return fmt.Errorf("postgres: %w", err)
	}
	if _, err := db.execTx(ctx, `UPDATE workspaces SET `+used+` = `+used+` - 1
		WHERE id = $1 AND `+used+` > 0`, workspaceID); err != nil {
		return fmt.Errorf("postgres: release %s: %w", q, err)
	}
	return nil
}
