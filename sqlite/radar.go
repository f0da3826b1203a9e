package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"math"
	"time"

	"github.com/prospectorhq/prospector"
)

const radarColumns = `id, workspace_id, name, config, cursor, backfill_through, backfilled_at, paused_at, created_at`

func scanRadar(row rowScanner) (*prospector.Radar, error) {
	var (
		r                      prospector.Radar
		config, cAt            string
		backfilledAt, pausedAt sql.NullString
	)
	if err := row.Scan(&r.ID, &r.WorkspaceID, &r.Name, &config, &r.Cursor, &r.BackfillThrough, &backfilledAt, &pausedAt,
		&cAt); err != nil {
		return nil, err
	}
	c, err := prospector.UnmarshalRadarConfig(config)
	if err != nil {
		return nil, fmt.Errorf("sqlite: radar %s config: %w", r.ID, err)
	}
	r.Config, r.BackfilledAt, r.PausedAt, r.CreatedAt = c, parseTimePtr(backfilledAt), parseTimePtr(pausedAt), parseTime(cAt)
	return &r, nil
}

// CreateRadar inserts r with its cursor at the highest signal id, read in
// the same statement so no signal falls between backfill and scan.
func (db *DB) CreateRadar(ctx context.Context, r *prospector.Radar) error {
	now := time.Now().UTC()
	err := db.grouped(ctx, func(ctx context.Context, tx *sql.Tx) error { return insertRadar(ctx, tx, r, now) })
	if err != nil {
		return err
	}
	r.BackfillThrough, r.CreatedAt, r.BackfilledAt = r.Cursor, now, nil
	return nil
}

// CreateRadarInQuota takes a unit of the workspace's radar quota, inserts
// r and enqueues backfill in one grouped write, in that order: when a
// step fails, the savepoint of the write undoes the others.
func (db *DB) CreateRadarInQuota(ctx context.Context, r *prospector.Radar, backfill *prospector.Job) error {
	if err := db.writeStmts(ctx, qEnqueueJob); err != nil {
		return err
	}
	now := time.Now().UTC()
	var q queuedJob
	err := db.grouped(ctx, func(ctx context.Context, tx *sql.Tx) error {
		if err := acquireQuota(ctx, tx, r.WorkspaceID, prospector.QuotaRadars); err != nil {
			return err
		}
		if err := insertRadar(ctx, tx, r, now); err != nil {
			return err
		}
		var err error
		q, err = enqueueJob(ctx, db, tx, backfill, now)
		return err
	})
	if err != nil {
		return err
	}
	r.BackfillThrough, r.CreatedAt, r.BackfilledAt = r.Cursor, now, nil
	q.fill(backfill, now)
	return nil
}

// insertRadar is the step that inserts r, setting its cursor.
func insertRadar(ctx context.Context, tx *sql.Tx, r *prospector.Radar, now time.Time) error {
	err := tx.QueryRowContext(ctx, `INSERT INTO radars (id, workspace_id, name, config, cursor, backfill_through,
		created_at, updated_at)
		SELECT ?, ?, ?, ?, m, m, ?, ? FROM (SELECT coalesce(max(id), 0) AS m FROM signals)
		RETURNING cursor`, r.ID, r.WorkspaceID, r.Name, r.Config.MarshalConfig(), formatTime(now), formatTime(now)).
		Scan(&r.Cursor)
	if isForeignKeyError(err) {
		return fmt.Errorf("sqlite: radar of workspace %s: %w", r.WorkspaceID, prospector.ErrNotFound)
	}
	if err != nil {
		return fmt.Errorf("sqlite: create radar: %w", err)
	}
	return appendAudit(ctx, tx, prospector.RadarAudit(ctx, prospector.AuditRadarCreate, r.WorkspaceID, r.ID, r.Name, now))
}

// Radar returns one radar; ErrNotFound when there is none.
func (db *DB) Radar(ctx context.Context, id string) (*prospector.Radar, error) {
	r, err := scanRadar(db.row(ctx, `SELECT `+radarColumns+` FROM radars WHERE id = ?`, id))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("sqlite: radar %s: %w", id, prospector.ErrNotFound)
	}
	if err != nil {
		return nil, fmt.Errorf("sqlite: radar %s: %w", id, err)
	}
	return r, nil
}

// ListRadars returns every radar, oldest first.
func (db *DB) ListRadars(ctx context.Context) ([]*prospector.Radar, error) {
	return queryPrepared(ctx, db, `SELECT `+radarColumns+` FROM radars ORDER BY created_at, id`, scanRadar)
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

func scanSummary(row rowScanner) (*prospector.RadarSummary, error) {
	var (
		s        prospector.RadarSummary
		lastScan sql.NullString
	)
	r, err := scanRadar(scanAfter{row, []any{&s.Leads, &s.Signals, &lastScan}})
	if err != nil {
		return nil, err
	}
	s.Radar, s.LastScanAt = *r, parseTimePtr(lastScan)
	return &s, nil
}

// RadarSummaries reads the workspace's radars with their counts.
func (db *DB) RadarSummaries(ctx context.Context, workspaceID string) ([]*prospector.RadarSummary, error) {
	out, err := queryList(ctx, db.read, `SELECT `+summaryColumns()+`
		FROM radars r WHERE r.workspace_id = ? ORDER BY r.created_at, r.id`, scanSummary, workspaceID)
	if err != nil {
		return nil, fmt.Errorf("sqlite: radar summaries: %w", err)
	}
	return out, nil
}

// scanAfter scans a row into the targets its caller gives, then into
// more: a row of known columns followed by extra ones.
type scanAfter struct {
	row  rowScanner
	more []any
}

func (s scanAfter) Scan(dest ...any) error { return s.row.Scan(append(dest, s.more...)...) }

// RadarBacklog reads the highest signal id (the rowid's maximum is one
// index step) and the radars' positions.
func (db *DB) RadarBacklog(ctx context.Context) (prospector.RadarBacklog, error) {
	var b prospector.RadarBacklog
	var minCursor sql.NullInt64
	if err := db.row(ctx, `SELECT coalesce(max(id), 0) FROM signals`).Scan(&b.MaxSignalID); err != nil {
		return b, fmt.Errorf("sqlite: radar backlog: %w", err)
	}
	if err := db.row(ctx, `SELECT count(*), min(cursor) FROM radars WHERE paused_at IS NULL`).Scan(&b.Radars, &minCursor); err != nil {
		return b, fmt.Errorf("sqlite: radar backlog: %w", err)
	}
	b.MinCursor = b.MaxSignalID
	if minCursor.Valid {
		b.MinCursor = minCursor.Int64
	}
	ids, err := queryPrepared(ctx, db, `SELECT id FROM radars WHERE backfilled_at IS NULL AND paused_at IS NULL
		ORDER BY created_at, id`,
		func(row rowScanner) (string, error) {
			var id string
			return id, row.Scan(&id)
		})
	if err != nil {
		return b, fmt.Errorf("sqlite: radar backlog: %w", err)
	}
	b.Unbackfilled = ids
	return b, nil
}

// BackfillSignals walks the signals table backwards by rowid. The type
// filter is written "+type" so SQLite does not walk signals_type_detected
// instead: over most of the table, a rowid scan reading five columns is
// faster than an index walk with a table lookup per row.
func (db *DB) BackfillSignals(ctx context.Context, s prospector.BackfillScan) ([]prospector.SignalRef, error) {
	before := s.Before
	if before <= 0 {
		before = math.MaxInt64
	}
	types := jsonList(s.Types)
	rows, err := db.read.QueryContext(ctx, `SELECT id, type, coalesce(company_id, 0), coalesce(person_id, 0), detected_at
		FROM signals WHERE id <= ? AND id < ? AND detected_at >= ?
			AND (? = '[]' OR +type IN (SELECT value FROM json_each(?)))
		ORDER BY id DESC LIMIT ?`, s.Through, before, formatTime(s.Since), types, types, s.Limit)
	if err != nil {
		return nil, fmt.Errorf("sqlite: backfill signals: %w", err)
	}
	defer rows.Close()
	out := make([]prospector.SignalRef, 0, max(s.Limit, 0))
	var detected string
	for rows.Next() {
		var r prospector.SignalRef
		if err := rows.Scan(&r.ID, &r.Type, &r.CompanyID, &r.PersonID, &detected); err != nil {
			return nil, fmt.Errorf("sqlite: backfill signals: %w", err)
		}
		r.DetectedAt = parseTime(detected)
		out = append(out, r)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("sqlite: backfill signals: %w", err)
	}
	return out, nil
}

// SignalsByID returns the signals with those ids.
func (db *DB) SignalsByID(ctx context.Context, ids []int64) ([]*prospector.Signal, error) {
	return queryByIDs(ctx, db, "signals", signalColumns, ids, scanSignal)
}

// RadarSignalsUsed reads the workspace's counter for the period.
func (db *DB) RadarSignalsUsed(ctx context.Context, workspaceID string, periodStart time.Time) (int64, error) {
	var n int64
	err := db.row(ctx, `SELECT coalesce((SELECT used FROM radar_signal_usage WHERE workspace_id = ? AND period_start = ?), 0)`,
		workspaceID, formatTime(periodStart)).Scan(&n)
	if err != nil {
		return 0, fmt.Errorf("sqlite: radar signals used: %w", err)
	}
	return n, nil
}
