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

const radarColumns = `id, workspace_id, name, config::text, cursor, backfill_through, backfilled_at, created_at`

func scanRadar(row pgx.Row) (*prospector.Radar, error) {
	var (
		r      prospector.Radar
		config string
	)
	if err := row.Scan(&r.ID, &r.WorkspaceID, &r.Name, &config, &r.Cursor, &r.BackfillThrough, &r.BackfilledAt,
		&r.CreatedAt); err != nil {
		return nil, err
	}
	c, err := prospector.UnmarshalRadarConfig(config)
	if err != nil {
		return nil, fmt.Errorf("postgres: radar %s config: %w", r.ID, err)
	}
	r.Config, r.BackfilledAt, r.CreatedAt = c, utcPtr(r.BackfilledAt), r.CreatedAt.UTC()
	return &r, nil
}

// CreateRadar inserts r with its cursor at the highest signal id, read in
// the same statement. Signal ids ascend in commit order, so every signal
// committed later has a higher id and falls to the scan.
func (db *DB) CreateRadar(ctx context.Context, r *prospector.Radar) error {
	now := nowUTC()
	err := db.pool.QueryRow(ctx, `INSERT INTO radars (id, workspace_id, name, config, cursor, backfill_through,
		created_at, updated_at)
		SELECT $1, $2, $3, $4::jsonb, m, m, $5, $5 FROM (SELECT coalesce(max(id), 0) AS m FROM signals) s
		RETURNING cursor`, r.ID, r.WorkspaceID, r.Name, r.Config.MarshalConfig(), now).Scan(&r.Cursor)
	if isPgError(err, codeForeignKeyViolation, "") {
		return fmt.Errorf("postgres: radar of workspace %s: %w", r.WorkspaceID, prospector.ErrNotFound)
	}
	if err != nil {
		return fmt.Errorf("postgres: create radar: %w", err)
	}
	r.BackfillThrough, r.CreatedAt, r.BackfilledAt = r.Cursor, now, nil
	return nil
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

// RadarBacklog reads the highest signal id (one step of the primary key
// index) and the radars' positions.
func (db *DB) RadarBacklog(ctx context.Context) (prospector.RadarBacklog, error) {
	var b prospector.RadarBacklog
	var minCursor *int64
	err := db.pool.QueryRow(ctx, `SELECT (SELECT coalesce(max(id), 0) FROM signals), count(*), min(cursor) FROM radars`).
		Scan(&b.MaxSignalID, &b.Radars, &minCursor)
	if err != nil {
		return b, fmt.Errorf("postgres: radar backlog: %w", err)
	}
	b.MinCursor = b.MaxSignalID
	if minCursor != nil {
		b.MinCursor = *minCursor
	}
	ids, err := queryList(ctx, db, `SELECT id FROM radars WHERE backfilled_at IS NULL ORDER BY created_at, id`,
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
