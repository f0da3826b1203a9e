package postgres

import (
	"context"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"
	"github.com/prospectorhq/prospector"
)

// ListWorkspaces returns every workspace by name.
func (db *DB) ListWorkspaces(ctx context.Context) ([]*prospector.Workspace, error) {
	ws, err := queryList(ctx, db, `SELECT `+workspaceColumns+` FROM workspaces ORDER BY name`, scanWorkspace)
	if err != nil {
		return nil, fmt.Errorf("postgres: list workspaces: %w", err)
	}
	return ws, nil
}

// UpdateWorkspace writes the plan, switch and limits of w and moves its
// keys' tiers in one transaction.
func (db *DB) UpdateWorkspace(ctx context.Context, w *prospector.Workspace, move prospector.TierMove) (int, error) {
	if err := w.Validate(); err != nil {
		return 0, err
	}
	var moved int64
	err := pgx.BeginFunc(ctx, db.pool, func(tx pgx.Tx) error {
		tag, err := tx.Exec(ctx, `UPDATE workspaces SET plan = $1, public_api = $2,
			credits_limit = $3, credits_bypassed = $4, radars_limit = $5, radars_bypassed = $6,
			network_accounts_limit = $7, network_accounts_bypassed = $8, radar_signals_limit = $9, radar_signals_bypassed = $10,
			pending_plan = $11, pending_plan_at = $12
			WHERE id = $13`,
			w.Plan, w.PublicAPI, w.Credits.Limit, w.Credits.Bypassed, w.Radars.Limit, w.Radars.Bypassed,
			w.NetworkAccounts.Limit, w.NetworkAccounts.Bypassed, w.RadarSignals.Limit, w.RadarSignals.Bypassed,
			nullString(w.PendingPlan), w.PendingPlanAt, w.ID)
		if err != nil {
			return fmt.Errorf("postgres: update workspace: %w", err)
		}
		if tag.RowsAffected() == 0 {
			return fmt.Errorf("postgres: workspace %s: %w", w.ID, prospector.ErrNotFound)
		}
		if move.From == "" {
			return nil
		}
		tag, err = tx.Exec(ctx, `UPDATE api_keys SET tier = $1
			WHERE workspace_id = $2 AND tier = $3 AND revoked_at IS NULL`, move.To, w.ID, move.From)
		if err != nil {
			return fmt.Errorf("postgres: move key tiers: %w", err)
		}
		moved = tag.RowsAffected()
		return nil
	})
	return int(moved), err
}

// DeleteWorkspace locks the workspace row first: inserts that reference
// it (a radar, a lead, a key) take a key-share lock on it, so none can
// slip in between the deletes and every count is exact. It then deletes
// what the workspace owns, children first, and the workspace, in one
// transaction.
func (db *DB) DeleteWorkspace(ctx context.Context, id string) (*prospector.WorkspaceDeletion, error) {
	var d prospector.WorkspaceDeletion
	err := pgx.BeginFunc(ctx, db.pool, func(tx pgx.Tx) error {
		var found string
		err := tx.QueryRow(ctx, `SELECT id FROM workspaces WHERE id = $1 FOR UPDATE`, id).Scan(&found)
		if errors.Is(err, pgx.ErrNoRows) {
			return fmt.Errorf("postgres: workspace %s: %w", id, prospector.ErrNotFound)
		}
		if err != nil {
			return fmt.Errorf("postgres: delete workspace: %w", err)
		}
		var webhook, outreach int64
		for _, s := range []struct {
			count *int64
			query string
		}{
			{&d.LeadSignals, `DELETE FROM lead_signals WHERE lead_id IN (SELECT id FROM leads WHERE workspace_id = $1)`},
			{nil, `DELETE FROM lead_feedback WHERE workspace_id = $1`},
			{&d.Leads, `DELETE FROM leads WHERE workspace_id = $1`},
			{&d.Radars, `DELETE FROM radars WHERE workspace_id = $1`},
			{nil, `DELETE FROM radar_signal_usage WHERE workspace_id = $1`},
			{&d.Deliveries, `DELETE FROM deliveries WHERE workspace_id = $1`},
			{&d.FeedbackEvents, `DELETE FROM feedback_events WHERE workspace_id = $1`},
			{&webhook, `DELETE FROM webhook_settings WHERE workspace_id = $1`},
			{&outreach, `DELETE FROM outreach_integrations WHERE workspace_id = $1`},
			{&d.Charges, `DELETE FROM credit_ledger WHERE workspace_id = $1`},
			{&d.EmailLookups, `DELETE FROM email_lookups WHERE workspace_id = $1`},
			{&d.Keys, `DELETE FROM api_keys WHERE workspace_id = $1`},
			{nil, `DELETE FROM audit_events WHERE workspace_id = $1`},
			{nil, `DELETE FROM workspaces WHERE id = $1`},
		} {
			tag, err := tx.Exec(ctx, s.query, id)
			if err != nil {
				return fmt.Errorf("postgres: delete workspace: %w", err)
			}
			if s.count != nil {
				*s.count = tag.RowsAffected()
			}
		}
		d.Integrations = webhook + outreach
		return nil
	})
	if err != nil {
		return nil, err
	}
	return &d, nil
}
