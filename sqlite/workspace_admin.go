package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/prospectorhq/prospector"
)

// ListWorkspaces returns every workspace by name.
func (db *DB) ListWorkspaces(ctx context.Context) ([]*prospector.Workspace, error) {
	ws, err := queryList(ctx, db.read, `SELECT `+workspaceColumns+` FROM workspaces ORDER BY name`, scanWorkspace)
	if err != nil {
		return nil, fmt.Errorf("sqlite: list workspaces: %w", err)
	}
	return ws, nil
}

// UpdateWorkspace writes the plan, switch and limits of w and moves its
// keys' tiers in one write transaction.
func (db *DB) UpdateWorkspace(ctx context.Context, w *prospector.Workspace, move prospector.TierMove) (int, error) {
	if err := w.Validate(); err != nil {
		return 0, err
	}
	var moved int64
	err := db.tx(ctx, func(tx *sql.Tx) error {
		n, err := rowsAffected(tx.ExecContext(ctx, `UPDATE workspaces SET plan = ?, public_api = ?,
			credits_limit = ?, credits_bypassed = ?, radars_limit = ?, radars_bypassed = ?,
			network_accounts_limit = ?, network_accounts_bypassed = ?, radar_signals_limit = ?, radar_signals_bypassed = ?,
			pending_plan = ?, pending_plan_at = ?
			WHERE id = ?`,
			w.Plan, w.PublicAPI, nullInt(w.Credits.Limit), w.Credits.Bypassed, nullInt(w.Radars.Limit), w.Radars.Bypassed,
			nullInt(w.NetworkAccounts.Limit), w.NetworkAccounts.Bypassed, nullInt(w.RadarSignals.Limit), w.RadarSignals.Bypassed,
			nullString(w.PendingPlan), formatTimePtr(w.PendingPlanAt), w.ID))
		if err != nil {
			return fmt.Errorf("sqlite: update workspace: %w", err)
		}
		if n == 0 {
			return fmt.Errorf("sqlite: workspace %s: %w", w.ID, prospector.ErrNotFound)
		}
		if move.From == "" {
			return nil
		}
		moved, err = rowsAffected(tx.ExecContext(ctx, `UPDATE api_keys SET tier = ?
			WHERE workspace_id = ? AND tier = ? AND revoked_at IS NULL`, move.To, w.ID, move.From))
		if err != nil {
			return fmt.Errorf("sqlite: move key tiers: %w", err)
		}
		return nil
	})
	return int(moved), err
}

// DeleteWorkspace deletes what the workspace owns, children first so each
// count is its table's, then the workspace, in one write transaction
// (SQLite's single writer: nothing can be added to the workspace
// meanwhile).
func (db *DB) DeleteWorkspace(ctx context.Context, id string) (*prospector.WorkspaceDeletion, error) {
	var d prospector.WorkspaceDeletion
	err := db.tx(ctx, func(tx *sql.Tx) error {
		var found string
		err := tx.QueryRowContext(ctx, `SELECT id FROM workspaces WHERE id = ?`, id).Scan(&found)
		if errors.Is(err, sql.ErrNoRows) {
			return fmt.Errorf("sqlite: workspace %s: %w", id, prospector.ErrNotFound)
		}
		if err != nil {
			return fmt.Errorf("sqlite: delete workspace: %w", err)
		}
		var webhook, outreach int64
		for _, s := range []struct {
			count *int64
			query string
		}{
			{&d.LeadSignals, `DELETE FROM lead_signals WHERE lead_id IN (SELECT id FROM leads WHERE workspace_id = ?)`},
			{nil, `DELETE FROM lead_feedback WHERE workspace_id = ?`},
			{&d.Leads, `DELETE FROM leads WHERE workspace_id = ?`},
			{&d.Radars, `DELETE FROM radars WHERE workspace_id = ?`},
			{nil, `DELETE FROM radar_signal_usage WHERE workspace_id = ?`},
			{&d.Deliveries, `DELETE FROM deliveries WHERE workspace_id = ?`},
			{&d.FeedbackEvents, `DELETE FROM feedback_events WHERE workspace_id = ?`},
			{&webhook, `DELETE FROM webhook_settings WHERE workspace_id = ?`},
			{&outreach, `DELETE FROM outreach_integrations WHERE workspace_id = ?`},
			{&d.Charges, `DELETE FROM credit_ledger WHERE workspace_id = ?`},
			{&d.EmailLookups, `DELETE FROM email_lookups WHERE workspace_id = ?`},
			{&d.Keys, `DELETE FROM api_keys WHERE workspace_id = ?`},
			{nil, `DELETE FROM audit_events WHERE workspace_id = ?`},
			{nil, `DELETE FROM workspaces WHERE id = ?`},
		} {
			n, err := rowsAffected(tx.ExecContext(ctx, s.query, id))
			if err != nil {
				return fmt.Errorf("sqlite: delete workspace: %w", err)
			}
			if s.count != nil {
				*s.count = n
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
