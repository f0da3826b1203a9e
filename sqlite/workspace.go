package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/prospectorhq/prospector"
)

const workspaceColumns = `id, name, plan, owner_user_id, email, public_api,
	credits_limit, credits_bypassed, radars_limit, radars_bypassed,
	network_accounts_limit, network_accounts_bypassed, radar_signals_limit, radar_signals_bypassed,
	period_start, period_end, pending_plan, pending_plan_at, created_at`

// CreateWorkspace inserts w; ErrAlreadyExists when the name is taken.
func (db *DB) CreateWorkspace(ctx context.Context, w *prospector.Workspace) error {
	if err := w.Validate(); err != nil {
		return err
	}
	now := time.Now().UTC()
	w.Start(now)
	_, err := db.write.ExecContext(ctx, `INSERT INTO workspaces (`+workspaceColumns+`)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		w.ID, w.Name, w.Plan, w.OwnerUserID, w.Email, w.PublicAPI,
		nullInt(w.Credits.Limit), w.Credits.Bypassed, nullInt(w.Radars.Limit), w.Radars.Bypassed,
		nullInt(w.NetworkAccounts.Limit), w.NetworkAccounts.Bypassed, nullInt(w.RadarSignals.Limit), w.RadarSignals.Bypassed,
		formatTime(w.PeriodStart), formatTime(w.PeriodEnd), nullString(w.PendingPlan), formatTimePtr(w.PendingPlanAt), formatTime(now))
	if err != nil {
		if strings.Contains(err.Error(), "UNIQUE constraint failed: workspaces.name") {
			return fmt.Errorf("sqlite: workspace %q: %w", w.Name, prospector.ErrAlreadyExists)
		}
		return fmt.Errorf("sqlite: create workspace: %w", err)
	}
	return nil
}

// WorkspaceByName returns ErrNotFound for an unknown name.
func (db *DB) WorkspaceByName(ctx context.Context, name string) (*prospector.Workspace, error) {
	row := db.read.QueryRowContext(ctx, `SELECT `+workspaceColumns+` FROM workspaces WHERE name = ?`, name)
	return scanWorkspace(row)
}

// WorkspaceByID returns ErrNotFound for an unknown id.
func (db *DB) WorkspaceByID(ctx context.Context, id string) (*prospector.Workspace, error) {
	row := db.read.QueryRowContext(ctx, `SELECT `+workspaceColumns+` FROM workspaces WHERE id = ?`, id)
	return scanWorkspace(row)
}

// CountWorkspaces counts every workspace.
func (db *DB) CountWorkspaces(ctx context.Context) (int, error) {
	var n int
	if err := db.read.QueryRowContext(ctx, `SELECT count(*) FROM workspaces`).Scan(&n); err != nil {
		return 0, fmt.Errorf("sqlite: count workspaces: %w", err)
	}
	return n, nil
}

type rowScanner interface{ Scan(...any) error }

// wsScan holds the scan targets of workspaceColumns, so the workspace can
// be scanned alone or after the columns of a join.
type wsScan struct {
	w                                  prospector.Workspace
	credits, radars, accounts, signals sql.NullInt64
	periodStart, periodEnd, created    string
	pendingPlan, pendingAt             sql.NullString
}

func workspaceScanTargets() *wsScan { return &wsScan{} }

func (s *wsScan) targets() []any {
	w := &s.w
	return []any{&w.ID, &w.Name, &w.Plan, &w.OwnerUserID, &w.Email, &w.PublicAPI,
		&s.credits, &w.Credits.Bypassed, &s.radars, &w.Radars.Bypassed,
		&s.accounts, &w.NetworkAccounts.Bypassed, &s.signals, &w.RadarSignals.Bypassed,
		&s.periodStart, &s.periodEnd, &s.pendingPlan, &s.pendingAt, &s.created}
}

func (s *wsScan) workspace() *prospector.Workspace {
	w := s.w
	w.Credits.Limit, w.Radars.Limit = int64Ptr(s.credits), int64Ptr(s.radars)
	w.NetworkAccounts.Limit, w.RadarSignals.Limit = int64Ptr(s.accounts), int64Ptr(s.signals)
	w.PeriodStart, w.PeriodEnd, w.CreatedAt = parseTime(s.periodStart), parseTime(s.periodEnd), parseTime(s.created)
	w.PendingPlan, w.PendingPlanAt = s.pendingPlan.String, parseTimePtr(s.pendingAt)
	return &w
}

func scanWorkspace(row rowScanner) (*prospector.Workspace, error) {
	s := workspaceScanTargets()
	err := row.Scan(s.targets()...)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, prospector.ErrNotFound
	}
	if err != nil {
		return nil, fmt.Errorf("sqlite: scan workspace: %w", err)
	}
	return s.workspace(), nil
}

// prefixed qualifies every column of a comma-separated list.
func prefixed(prefix, columns string) string {
	parts := strings.Split(columns, ",")
	for i, c := range parts {
		parts[i] = prefix + strings.TrimSpace(c)
	}
	return strings.Join(parts, ", ")
}

func nullString(s string) any {
	if s == "" {
		return nil
	}
	return s
}
