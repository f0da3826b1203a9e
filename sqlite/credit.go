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
	qReadPeriod = `SELECT period_start, period_end FROM workspaces WHERE id = ?`
	qRollPeriod = `UPDATE workspaces SET period_start = ?, period_end = ?, credits_used = 0
		WHERE id = ? AND period_end = ?`
	qSpendCredits = `UPDATE workspaces SET credits_used = credits_used + ?
		WHERE id = ? AND (credits_limit IS NULL OR credits_bypassed OR credits_used + ? <= credits_limit)`
	// qSpendInPeriod is qSpendCredits while the stored period still runs.
	qSpendInPeriod = `UPDATE workspaces SET credits_used = credits_used + ?
		WHERE id = ? AND period_end > ? AND (credits_limit IS NULL OR credits_bypassed OR credits_used + ? <= credits_limit)`
	qWriteLedger = `INSERT INTO credit_ledger (id, workspace_id, amount, reason, idempotency_key, created_at)
		VALUES (?, ?, ?, ?, ?, ?)`
)

// rollPeriod starts a new billing period when the stored one has ended.
// The UPDATE is conditional on the old end, so it is applied once however
// many callers race here.
func (db *DB) rollPeriod(ctx context.Context, tx *sql.Tx, workspaceID string, now time.Time) error {
	read, err := txStmt(ctx, db, tx, qReadPeriod)
	if err != nil {
		return err
	}
	var start, end string
	err = read.QueryRowContext(ctx, workspaceID).Scan(&start, &end)
	if errors.Is(err, sql.ErrNoRows) {
		return fmt.Errorf("sqlite: workspace %s: %w", workspaceID, prospector.ErrNotFound)
	}
	if err != nil {
		return fmt.Errorf("sqlite: read period: %w", err)
	}
	if now.Before(parseTime(end)) {
		return nil
	}
	newStart, newEnd := prospector.BillingPeriod(parseTime(start), now)
	_, err = tx.ExecContext(ctx, qRollPeriod, formatTime(newStart), formatTime(newEnd), workspaceID, end)
	if err != nil {
		return fmt.Errorf("sqlite: roll period: %w", err)
	}
	return nil
}

// spendCredits spends amount of the workspace's current period, rolling
// the period first when it has ended; ErrInsufficientCredits when the
// period's credits do not cover it. The common case, a running period, is
// a single statement: the period is read and rolled only when that
// statement matches nothing.
func (db *DB) spendCredits(ctx context.Context, tx *sql.Tx, workspaceID string, amount int64, now time.Time) error {
	spend, err := txStmt(ctx, db, tx, qSpendInPeriod)
	if err != nil {
		return err
	}
	n, err := rowsAffected(spend.ExecContext(ctx, amount, workspaceID, formatTime(now), amount))
	if err != nil {
		return fmt.Errorf("sqlite: spend credits: %w", err)
	}
	if n == 1 {
		return nil
	}
	if err := db.rollPeriod(ctx, tx, workspaceID, now); err != nil {
		return err
	}
	n, err = rowsAffected(tx.ExecContext(ctx, qSpendCredits, amount, workspaceID, amount))
	if err != nil {
		return fmt.Errorf("sqlite: spend credits: %w", err)
	}
	if n == 0 {
		return prospector.ErrInsufficientCredits
	}
	return nil
}

// CreditUsage returns the current period's usage. It reads from the
// reader pool and takes the write lock only when the period has ended.
func (db *DB) CreditUsage(ctx context.Context, workspaceID string, now time.Time) (*prospector.CreditUsage, error) {
	u, err := db.readUsage(ctx, workspaceID)
	if err != nil || now.Before(u.PeriodEnd) {
		return u, err
	}
	if err := db.tx(ctx, func(tx *sql.Tx) error { return db.rollPeriod(ctx, tx, workspaceID, now) }); err != nil {
		return nil, err
	}
	return db.readUsage(ctx, workspaceID)
}

func (db *DB) readUsage(ctx context.Context, workspaceID string) (*prospector.CreditUsage, error) {
	var credits, radars, accounts int64
	s := workspaceScanTargets()
	err := db.row(ctx, `SELECT `+workspaceColumns+`, credits_used, radars_used, network_accounts_used
		FROM workspaces WHERE id = ?`, workspaceID).
		Scan(append(s.targets(), &credits, &radars, &accounts)...)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("sqlite: workspace %s: %w", workspaceID, prospector.ErrNotFound)
	}
	if err != nil {
		return nil, fmt.Errorf("sqlite: read usage: %w", err)
	}
	return prospector.NewCreditUsage(s.workspace(), credits, radars, accounts), nil
}

// ChargeCredits records c and spends its credits in one transaction.
func (db *DB) ChargeCredits(ctx context.Context, c *prospector.Charge, now time.Time) (bool, error) {
	if err := c.Validate(); err != nil {
		return false, fmt.Errorf("sqlite: %w", err)
	}
	replayed := false
	err := db.tx(ctx, func(tx *sql.Tx) error {
		if c.IdempotencyKey != "" {
			var created string
			err := tx.QueryRowContext(ctx, `SELECT id, amount, reason, created_at FROM credit_ledger
				WHERE workspace_id = ? AND idempotency_key = ?`, c.WorkspaceID, c.IdempotencyKey).
				Scan(&c.ID, &c.Amount, &c.Reason, &created)
			if err == nil {
				replayed, c.CreatedAt = true, parseTime(created)
				return nil
			}
			if !errors.Is(err, sql.ErrNoRows) {
				return fmt.Errorf("sqlite: read ledger: %w", err)
			}
		}
		if err := db.spendCredits(ctx, tx, c.WorkspaceID, c.Amount, now); err != nil {
			return err
		}
		c.ID, c.CreatedAt = prospector.NewID("chg"), now.UTC()
		_, err := tx.ExecContext(ctx, qWriteLedger, c.ID, c.WorkspaceID, c.Amount, c.Reason, nullString(c.IdempotencyKey), formatTime(c.CreatedAt))
		if err != nil {
			return fmt.Errorf("sqlite: write ledger: %w", err)
		}
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
	return acquireQuota(ctx, db.write, workspaceID, q)
}

// execQuerier is the writer pool or a write transaction.
type execQuerier interface {
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

// acquireQuota is the step that takes one unit of q: ErrQuotaExceeded
// at the limit, ErrNotFound for an unknown workspace.
func acquireQuota(ctx context.Context, db execQuerier, workspaceID string, q prospector.Quota) error {
	used, limit, bypassed, err := quotaColumns(q)
	if err != nil {
		return fmt.Errorf("sqlite: %w", err)
	}
	res, err := db.ExecContext(ctx, `UPDATE workspaces SET `+used+` = `+used+` + 1
		WHERE id = ? AND (`+limit+` IS NULL OR `+bypassed+` OR `+used+` < `+limit+`)`, workspaceID)
	if err != nil {
		return fmt.Errorf("sqlite: acquire %s: %w", q, err)
	}
	if n, err := res.RowsAffected(); err != nil {
		return fmt.Errorf("sqlite: acquire %s: %w", q, err)
	} else if n > 0 {
		return nil
	}
	var exists bool
	if err := db.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM workspaces WHERE id = ?)`, workspaceID).Scan(&exists); err != nil {
		return fmt.Errorf("sqlite: acquire %s: %w", q, err)
	}
	if !exists {
		return fmt.Errorf("sqlite: workspace %s: %w", workspaceID, prospector.ErrNotFound)
	}
	return prospector.ErrQuotaExceeded
}

// ReleaseQuota gives one unit of q back.
func (db *DB) ReleaseQuota(ctx context.Context, workspaceID string, q prospector.Quota) error {
	used, _, _, err := quotaColumns(q)
	if err != nil {
		return fmt.Errorf("sqlite: %w", err)
	}
	if _, err := db.write.ExecContext(ctx, `UPDATE workspaces SET `+used+` = `+used+` - 1
		WHERE id = ? AND `+used+` > 0`, workspaceID); err != nil {
		return fmt.Errorf("sqlite: release %s: %w", q, err)
	}
	return nil
}
