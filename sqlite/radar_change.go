package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/prospectorhq/prospector"
)

// RadarSummaryPage reads a page of the workspace's radars with their
// counts, and how many it has.
func (db *DB) RadarSummaryPage(ctx context.Context, workspaceID string, offset, limit int) ([]*prospector.RadarSummary, int64, error) {
	var total int64
	if err := db.row(ctx, `SELECT count(*) FROM radars WHERE workspace_id = ?`, workspaceID).Scan(&total); err != nil {
		return nil, 0, fmt.Errorf("sqlite: radar page: %w", err)
	}
	out, err := queryList(ctx, db.read, `SELECT `+summaryColumns()+`
		FROM radars r WHERE r.workspace_id = ? ORDER BY r.created_at, r.id LIMIT ? OFFSET ?`,
		scanSummary, workspaceID, limit, offset)
	if err != nil {
		return nil, 0, fmt.Errorf("sqlite: radar page: %w", err)
	}
	return out, total, nil
}

// RadarSummary reads one radar with its counts.
func (db *DB) RadarSummary(ctx context.Context, id string) (*prospector.RadarSummary, error) {
	s, err := scanSummary(db.read.QueryRowContext(ctx, `SELECT `+summaryColumns()+` FROM radars r WHERE r.id = ?`, id))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("sqlite: radar %s: %w", id, prospector.ErrNotFound)
	}
	if err != nil {
		return nil, fmt.Errorf("sqlite: radar %s: %w", id, err)
	}
	return s, nil
}

// ChangeRadar applies c in one grouped write: SQLite's single writer
// orders it with the scan's batches, so a batch that read the radar
// before a pause finds its cursor refused (qMoveCursor) and writes
// nothing.
func (db *DB) ChangeRadar(ctx context.Context, c *prospector.RadarChange, now time.Time) (*prospector.Radar, error) {
	if err := db.writeStmts(ctx, qEnqueueJob); err != nil {
		return nil, err
	}
	stamp := formatTime(now)
	var q queuedJob
	enqueued := false
	err := db.grouped(ctx, func(ctx context.Context, tx *sql.Tx) error {
		r, err := scanRadar(tx.QueryRowContext(ctx, `SELECT `+radarColumns+` FROM radars WHERE id = ? AND workspace_id = ?`,
			c.ID, c.WorkspaceID))
		if errors.Is(err, sql.ErrNoRows) {
			return fmt.Errorf("sqlite: radar %s: %w", c.ID, prospector.ErrNotFound)
		}
		if err != nil {
			return fmt.Errorf("sqlite: change radar: %w", err)
		}
		step := func(query string, args ...any) error {
			if _, err := tx.ExecContext(ctx, query, args...); err != nil {
				return fmt.Errorf("sqlite: change radar: %w", err)
			}
			return nil
		}
		backfill := false
		if c.Config != nil {
			if r.BackfilledAt == nil {
				return prospector.ErrRadarBackfilling
			}
			if err := step(`UPDATE radars SET config = ?, backfill_through = cursor, backfilled_at = NULL WHERE id = ?`,
				c.Config.MarshalConfig(), c.ID); err != nil {
				return err
			}
			backfill = true
		}
		if c.Name != nil {
			if err := step(`UPDATE radars SET name = ? WHERE id = ?`, *c.Name, c.ID); err != nil {
				return err
			}
		}
		switch {
		case c.Paused == nil:
		case *c.Paused && r.PausedAt == nil:
			if err := step(`UPDATE radars SET paused_at = ? WHERE id = ?`, stamp, c.ID); err != nil {
				return err
			}
		case !*c.Paused && r.PausedAt != nil:
			// The signals stored while it was paused are skipped.
			if err := step(`UPDATE radars SET paused_at = NULL,
				cursor = max(cursor, (SELECT coalesce(max(id), 0) FROM signals)) WHERE id = ?`, c.ID); err != nil {
				return err
			}
			backfill = backfill || r.BackfilledAt == nil
		}
		if err := step(`UPDATE radars SET updated_at = ? WHERE id = ?`, stamp, c.ID); err != nil {
			return err
		}
		if backfill {
			if c.Backfill == nil {
				return fmt.Errorf("sqlite: change radar %s: no backfill job given", c.ID)
			}
			if q, err = enqueueJob(ctx, db, tx, c.Backfill, now); err != nil {
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

// DeleteRadar detaches the radar's leads, deletes it (its watches go
// with it) and gives its quota unit back, in one grouped write.
func (db *DB) DeleteRadar(ctx context.Context, workspaceID, id string) (*prospector.RadarDeletion, error) {
	var d prospector.RadarDeletion
	err := db.grouped(ctx, func(ctx context.Context, tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `UPDATE leads SET radar_id = NULL
			WHERE radar_id = ?1 AND EXISTS (SELECT 1 FROM radars WHERE id = ?1 AND workspace_id = ?2)`, id, workspaceID)
		if err != nil {
			return fmt.Errorf("sqlite: delete radar: %w", err)
		}
		d.LeadsKept, _ = res.RowsAffected()
		var name string
		err = tx.QueryRowContext(ctx, `DELETE FROM radars WHERE id = ? AND workspace_id = ? RETURNING name`, id, workspaceID).Scan(&name)
		if errors.Is(err, sql.ErrNoRows) {
			return fmt.Errorf("sqlite: radar %s: %w", id, prospector.ErrNotFound)
		}
		if err != nil {
			return fmt.Errorf("sqlite: delete radar: %w", err)
		}
		if err := appendAudit(ctx, tx, prospector.RadarAudit(ctx, prospector.AuditRadarDelete, workspaceID, id, name, time.Now())); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `UPDATE workspaces SET radars_used = radars_used - 1
			WHERE id = ? AND radars_used > 0`, workspaceID); err != nil {
			return fmt.Errorf("sqlite: delete radar: release quota: %w", err)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return &d, nil
}
