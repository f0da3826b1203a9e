package postgres

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/jackc/pgx/v5"
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
	now := nowUTC()
	w.Start(now)
	_, err := db.pool.Exec(ctx, `INSERT INTO workspaces (`+workspaceColumns+`)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19)`,
		w.ID, w.Name, w.Plan, w.OwnerUserID, w.Email, w.PublicAPI,
		w.Credits.Limit, w.Credits.Bypassed, w.Radars.Limit, w.Radars.Bypassed,
		w.NetworkAccounts.Limit, w.NetworkAccounts.Bypassed, w.RadarSignals.Limit, w.RadarSignals.Bypassed,
		w.PeriodStart, w.PeriodEnd, nullString(w.PendingPlan), w.PendingPlanAt, w.CreatedAt)
	if err != nil {
		if isPgError(err, codeUniqueViolation, "workspaces_name_key") {
			return fmt.Errorf("postgres: workspace %q: %w", w.Name, prospector.ErrAlreadyExists)
		}
		return fmt.Errorf("postgres: create workspace: %w", err)
	}
	return nil
}

// WorkspaceByName returns ErrNotFound for an unknown name.
func (db *DB) WorkspaceByName(ctx context.Context, name string) (*prospector.Workspace, error) {
	row := db.pool.QueryRow(ctx, `SELECT `+workspaceColumns+` FROM workspaces WHERE name = $1`, name)
	return scanWorkspace(row)
}

// WorkspaceByID returns ErrNotFound for an unknown id.
func (db *DB) WorkspaceByID(ctx context.Context, id string) (*prospector.Workspace, error) {
	row := db.pool.QueryRow(ctx, `SELECT `+workspaceColumns+` FROM workspaces WHERE id = $1`, id)
	return scanWorkspace(row)
}

// CountWorkspaces counts every workspace.
func (db *DB) CountWorkspaces(ctx context.Context) (int, error) {
	var n int
	if err := db.pool.QueryRow(ctx, `SELECT count(*) FROM workspaces`).Scan(&n); err != nil {
		return 0, fmt.Errorf("postgres: count workspaces: %w", err)
	}
	return n, nil
}

// wsScan holds the scan targets of workspaceColumns, so the workspace can
// be scanned alone or after the columns of a join.
type wsScan struct {
	w           prospector.Workspace
	pendingPlan *string
}

func workspaceScanTargets() *wsScan { return &wsScan{} }

func (s *wsScan) targets() []any {
	w := &s.w
	return []any{&w.ID, &w.Name, &w.Plan, &w.OwnerUserID, &w.Email, &w.PublicAPI,
		&w.Credits.Limit, &w.Credits.Bypassed, &w.Radars.Limit, &w.Radars.Bypassed,
		&w.NetworkAccounts.Limit, &w.NetworkAccounts.Bypassed, &w.RadarSignals.Limit, &w.RadarSignals.Bypassed,
		&w.PeriodStart, &w.PeriodEnd, &s.pendingPlan, &w.PendingPlanAt, &w.CreatedAt}
}

func (s *wsScan) workspace() *prospector.Workspace {
	w := s.w
	w.PeriodStart, w.PeriodEnd, w.CreatedAt = w.PeriodStart.UTC(), w.PeriodEnd.UTC(), w.CreatedAt.UTC()
	w.PendingPlanAt = utcPtr(w.PendingPlanAt)
	if s.pendingPlan != nil {
		w.PendingPlan = *s.pendingPlan
	}
	return &w
}

func scanWorkspace(row pgx.Row) (*prospector.Workspace, error) {
	s := workspaceScanTargets()
	err := row.Scan(s.targets()...)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, prospector.ErrNotFound
	}
	if err != nil {
		return nil, fmt.Errorf("postgres: scan workspace: %w", err)
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
