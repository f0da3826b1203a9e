package postgres

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/prospectorhq/prospector"
)

// RadarSummaryPage reads a page of the workspace's radars with their
// counts, and how many it has.
func (db *DB) RadarSummaryPage(ctx context.Context, workspaceID string, offset, limit int) ([]*prospector.RadarSummary, int64, error) {
	var total int64
	if err := db.pool.QueryRow(ctx, `SELECT count(*) FROM radars WHERE workspace_id = $1`, workspaceID).Scan(&total); err != nil {
		return nil, 0, fmt.Errorf("postgres: radar page: %w", err)
	}
	out, err := queryList(ctx, db, `SELECT `+summaryColumns()+`
		FROM radars r WHERE r.workspace_id = $1 ORDER BY r.created_at, r.id LIMIT $2 OFFSET $3`,
		scanSummary, workspaceID, limit, offset)
	if err != nil {
		return nil, 0, fmt.Errorf("postgres: radar page: %w", err)
	}
	return out, total, nil
}

// RadarSummary reads one radar with its counts.
func (db *DB) RadarSummary(ctx context.Context, id string) (*prospector.RadarSummary, error) {
	s, err := scanSummary(db.pool.QueryRow(ctx, `SELECT `+summaryColumns()+` FROM radars r WHERE r.id = $1`, id))
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, fmt.Errorf("postgres: radar %s: %w", id, prospector.ErrNotFound)
	}
	if err != nil {
		return nil, fmt.Errorf("postgres: radar %s: %w", id, err)
	}
	return s, nil
}

// lockRadar is the step that locks the workspace's radar row for the rest
// of tx, which also holds back new leads of the radar (their foreign key
// takes a share lock on it), and returns it; ErrNotFound when the
// workspace has no such radar.
func lockRadar(ctx context.Context, tx pgx.Tx, workspaceID, id string) (*prospector.Radar, error) {
	r, err := scanRadar(tx.QueryRow(ctx, `SELECT `+radarColumns+` FROM radars WHERE id = $1 AND workspace_id = $2
		FOR UPDATE`, id, workspaceID))
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, fmt.Errorf("postgres: radar %s: %w", id, prospector.ErrNotFound)
	}
	if err != nil {
		return nil, fmt.Errorf("postgres: radar %s: %w", id, err)
	}
	return r, nil
}

// ChangeRadar applies c in one transaction holding the radar's row: a
// scan batch that read the radar before a pause finds its cursor refused
// (the cursor update requires paused_at IS NULL) and writes nothing.
func (db *DB) ChangeRadar(ctx context.Context, c *prospector.RadarChange, now time.Time) (*prospector.Radar, error) {
	now = now.UTC().Truncate(time.Microsecond)
	var q queuedJob
	enqueued := false
	err := pgx.BeginFunc(ctx, db.pool, func(tx pgx.Tx) error {
		r, err := lockRadar(ctx, tx, c.WorkspaceID, c.ID)
		if err != nil {
			return err
		}
		step := func(query string, args ...any) error {
			if _, err := tx.Exec(ctx, query, args...); err != nil {
				return fmt.Errorf("postgres: change radar: %w", err)
			}
			return nil
		}
		backfill := false
		if c.Config != nil {
			if r.BackfilledAt == nil {
				return prospector.ErrRadarBackfilling
			}
			if err := step(`UPDATE radars SET config = $1::jsonb, backfill_through = cursor, backfilled_at = NULL
				WHERE id = $2`, c.Config.MarshalConfig(), c.ID); err != nil {
				return err
			}
			backfill = true
		}
		if c.Name != nil {
			if err := step(`UPDATE radars SET name = $1 WHERE id = $2`, *c.Name, c.ID); err != nil {
				return err
			}
		}
		switch {
		case c.Paused == nil:
		case *c.Paused && r.PausedAt == nil:
			if err := step(`UPDATE radars SET paused_at = $1 WHERE id = $2`, now, c.ID); err != nil {
				return err
			}
		case !*c.Paused && r.PausedAt != nil:
			// The signals stored while it was paused are skipped.
			if err := step(`UPDATE radars SET paused_at = NULL,
				cursor = greatest(cursor, (SELECT coalesce(max(id), 0) FROM signals)) WHERE id = $1`, c.ID); err != nil {
				return err
			}
			backfill = backfill || r.BackfilledAt == nil
		}
		if err := step(`UPDATE radars SET updated_at = $1 WHERE id = $2`, now, c.ID); err != nil {
			return err
		}
		if backfill {
			if c.Backfill == nil {
				return fmt.Errorf("postgres: change radar %s: no backfill job given", c.ID)
			}
			if q, err = enqueueJob(ctx, tx, c.Backfill, now); err != nil {
				return err
			}
			enqueued = true
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if enqueued {
		q.fill(c.Backfill, now)
	}
	return db.Radar(ctx, c.ID)
}

// DeleteRadar locks the radar (so no batch adds a lead to it meanwhile),
// detaches its leads, deletes it (its watches go with it) and gives its
// quota unit back, in one transaction.
func (db *DB) DeleteRadar(ctx context.Context, workspaceID, id string) (*prospector.RadarDeletion, error) {
	var d prospector.RadarDeletion
	err := pgx.BeginFunc(ctx, db.pool, func(tx pgx.Tx) error {
		if _, err := lockRadar(ctx, tx, workspaceID, id); err != nil {
			return err
		}
		tag, err := tx.Exec(ctx, `UPDATE leads SET radar_id = NULL WHERE radar_id = $1`, id)
		if err != nil {
			return fmt.Errorf("postgres: delete radar: %w", err)
		}
		d.LeadsKept = tag.RowsAffected()
		var name string
		if err := tx.QueryRow(ctx, `DELETE FROM radars WHERE id = $1 RETURNING name`, id).Scan(&name); err != nil {
			return fmt.Errorf("postgres: delete radar: %w", err)
		}
		if err := appendAudit(ctx, tx, prospector.RadarAudit(ctx, prospector.AuditRadarDelete, workspaceID, id, name, time.Now())); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `UPDATE workspaces SET radars_used = radars_used - 1
			WHERE id = $1 AND radars_used > 0`, workspaceID); err != nil {
			return fmt.Errorf("postgres: delete radar: release quota: %w", err)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return &d, nil
}
