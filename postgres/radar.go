package postgres

import (
	"context"
	"errors"
	"fmt"
	"math"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/prospectorhq/prospector"
)

const radarColumns = `id, workspace_id, name, config::text, cursor, backfill_through, backfilled_at, paused_at, created_at`

func scanRadar(row pgx.Row) (*prospector.Radar, error) {
	var (
		r      prospector.Radar
		config string
	)
	if err := row.Scan(&r.ID, &r.WorkspaceID, &r.Name, &config, &r.Cursor, &r.BackfillThrough, &r.BackfilledAt,
		&r.PausedAt, &r.CreatedAt); err != nil {
		return nil, err
	}
	c, err := prospector.UnmarshalRadarConfig(config)
	if err != nil {
		return nil, fmt.Errorf("postgres: radar %s config: %w", r.ID, err)
	}
	r.Config, r.BackfilledAt, r.PausedAt, r.CreatedAt = c, utcPtr(r.BackfilledAt), utcPtr(r.PausedAt), r.CreatedAt.UTC()
	return &r, nil
}

// CreateRadar inserts r with its cursor at the highest signal id, read in
// the same statement. Signal ids ascend in commit order, so every signal
// committed later has a higher id and falls to the scan.
func (db *DB) CreateRadar(ctx context.Context, r *prospector.Radar) error {
	now := nowUTC()
	// In a transaction, like every write of a request (see execTx).
	if err := pgx.BeginFunc(ctx, db.pool, func(tx pgx.Tx) error { return insertRadar(ctx, tx, r, now) }); err != nil {
		return err
	}
	r.BackfillThrough, r.CreatedAt, r.BackfilledAt = r.Cursor, now, nil
	return nil
}

// CreateRadarInQuota takes a unit of the workspace's radar quota, inserts
// r and enqueues backfill in one transaction, in that order: when a step
// fails, the transaction rolls the others back.
func (db *DB) CreateRadarInQuota(ctx context.Context, r *prospector.Radar, backfill *prospector.Job) error {
	now := nowUTC()
	var q queuedJob
	err := pgx.BeginFunc(ctx, db.pool, func(tx pgx.Tx) error {
		if err := acquireQuota(ctx, tx, r.WorkspaceID, prospector.QuotaRadars); err != nil {
			return err
		}
		if err := insertRadar(ctx, tx, r, now); err != nil {
			return err
		}
		var err error
		q, err = enqueueJob(ctx, tx, backfill, now)
		return err
	})
	if err != nil {
		return err
	}
	r.BackfillThrough, r.CreatedAt, r.BackfilledAt = r.Cursor, now, nil
	q.fill(backfill, now)
	return nil
}

// insertRadar is the step that inserts r in tx, setting its cursor.
func insertRadar(ctx context.Context, tx pgx.Tx, r *prospector.Radar, now time.Time) error {
	err := tx.QueryRow(ctx, `INSERT INTO radars (id, workspace_id, name, config, cursor, backfill_through,
		created_at, updated_at)
		SELECT $1, $2, $3, $4::jsonb, m, m, $5, $5 FROM (SELECT coalesce(max(id), 0) AS m FROM signals) s
		RETURNING cursor`, r.ID, r.WorkspaceID, r.Name, r.Config.MarshalConfig(), now).Scan(&r.Cursor)
	if isPgError(err, codeForeignKeyViolation, "") {
		return fmt.Errorf("postgres: radar of workspace %s: %w", r.WorkspaceID, prospector.ErrNotFound)
	}
	if err != nil {
		return fmt.Errorf("postgres: create radar: %w", err)
	}
	return appendAudit(ctx, tx, prospector.RadarAudit(ctx, prospector.AuditRadarCreate, r.WorkspaceID, r.ID, r.Name, now))
}

// Radar returns one radar; ErrNotFound when there is none.
func (db *DB) Radar(ctx context.Context, id string) (*prospector.Radar, error) {
	r, err := scanRadar(db.pool.QueryRow(ctx, `SELECT `+radarColumns+` FROM radars WHERE id = $1`, id))
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, fmt.Errorf("postgres: radar %s: %w", id, prospector.ErrNotFound)
	}
	if err != nil {
		return nil, fmt.Errorf("postgres: radar %s: %w", id, err)
	}
	return r, nil
}

// ListRadars returns every radar, oldest first.
func (db *DB) ListRadars(ctx context.Context) ([]*prospector.Radar, error) {
	return queryList(ctx, db, `SELECT `+radarColumns+` FROM radars ORDER BY created_at, id`, scanRadar)
}

// summaryColumns are a radar's columns and its counts, selected from
// radars r; each count walks the radar's part of an index
// (leads_radar_score, lead_signals_radar).
func summaryColumns() string {
	return prefixed("r.", radarColumns) + `,
		(SELECT count(*) FROM leads l WHERE l.radar_id = r.id),
		(SELECT count(*) FROM lead_signals s WHERE s.radar_id = r.id),
		r.scanned_at`
}

func scanSummary(row pgx.Row) (*prospector.RadarSummary, error) {
	var s prospector.RadarSummary
	r, err := scanRadar(scanAfter{row, []any{&s.Leads, &s.Signals, &s.LastScanAt}})
	if err != nil {
		return nil, err
	}
	s.Radar, s.LastScanAt = *r, utcPtr(s.LastScanAt)
	return &s, nil
}

// RadarSummaries reads the workspace's radars with their counts.
func (db *DB) RadarSummaries(ctx context.Context, workspaceID string) ([]*prospector.RadarSummary, error) {
	out, err := queryList(ctx, db, `SELECT `+summaryColumns()+`
		FROM radars r WHERE r.workspace_id = $1 ORDER BY r.created_at, r.id`, scanSummary, workspaceID)
	if err != nil {
		return nil, fmt.Errorf("postgres: radar summaries: %w", err)
	}
	return out, nil
}

// scanAfter scans a row into the targets its caller gives, then into
// more: a row of known columns followed by extra ones.
type scanAfter struct {
	row  pgx.Row
	more []any
}

func (s scanAfter) Scan(dest ...any) error { return s.row.Scan(append(dest, s.more...)...) }

// RadarBacklog reads the highest signal id (one step of the primary key
// index) and the radars' positions.
func (db *DB) RadarBacklog(ctx context.Context) (prospector.RadarBacklog, error) {
	var b prospector.RadarBacklog
	var minCursor *int64
	err := db.pool.QueryRow(ctx, `SELECT (SELECT coalesce(max(id), 0) FROM signals), count(*), min(cursor) FROM radars
		WHERE paused_at IS NULL`).
		Scan(&b.MaxSignalID, &b.Radars, &minCursor)
	if err != nil {
		return b, fmt.Errorf("postgres: radar backlog: %w", err)
	}
	b.MinCursor = b.MaxSignalID
	if minCursor != nil {
		b.MinCursor = *minCursor
	}
	ids, err := queryList(ctx, db, `SELECT id FROM radars WHERE backfilled_at IS NULL AND paused_at IS NULL
		ORDER BY created_at, id`,
		func(row pgx.Row) (string, error) {
			var id string
			return id, row.Scan(&id)
		})
	if err != nil {
		return b, fmt.Errorf("postgres: radar backlog: %w", err)
	}
	b.Unbackfilled = ids
	return b, nil
}

// BackfillSignals walks the signals backwards by id.
func (db *DB) BackfillSignals(ctx context.Context, s prospector.BackfillScan) ([]prospector.SignalRef, error) {
	before := s.Before
	if before <= 0 {
		before = math.MaxInt64
	}
	types := s.Types
	if types == nil {
		types = []string{}
	}
	rows, err := db.pool.Query(ctx, `SELECT id, type, coalesce(company_id, 0), coalesce(person_id, 0), detected_at
		FROM signals WHERE id <= $1 AND id < $2 AND detected_at >= $3
			AND (cardinality($4::text[]) = 0 OR type = ANY($4))
		ORDER BY id DESC LIMIT $5`, s.Through, before, s.Since, types, sqlLimit(s.Limit))
	if err != nil {
		return nil, fmt.Errorf("postgres: backfill signals: %w", err)
	}
	defer rows.Close()
	out := make([]prospector.SignalRef, 0, max(s.Limit, 0))
	for rows.Next() {
		var r prospector.SignalRef
		if err := rows.Scan(&r.ID, &r.Type, &r.CompanyID, &r.PersonID, &r.DetectedAt); err != nil {
			return nil, fmt.Errorf("postgres: backfill signals: %w", err)
		}
		r.DetectedAt = r.DetectedAt.UTC()
		out = append(out, r)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("postgres: backfill signals: %w", err)
	}
	return out, nil
}

// SignalsByID returns the signals with those ids.
func (db *DB) SignalsByID(ctx context.Context, ids []int64) ([]*prospector.Signal, error) {
	return queryByIDs(ctx, db, `SELECT `+signalColumns+` FROM signals WHERE id = ANY($1)`, scanSignal, ids)
}

// RadarSignalsUsed reads the workspace's counter for the period.
func (db *DB) RadarSignalsUsed(ctx context.Context, workspaceID string, periodStart time.Time) (int64, error) {
	var n int64
	err := db.pool.QueryRow(ctx, `SELECT coalesce((SELECT used FROM radar_signal_usage
		WHERE workspace_id = $1 AND period_start = $2), 0)`, workspaceID, periodStart).Scan(&n)
	if err != nil {
		return 0, fmt.Errorf("postgres: radar signals used: %w", err)
	}
	return n, nil
}
