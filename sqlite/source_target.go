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

const targetColumns = `t.id, t.company_id, c.domain, t.kind, t.board, t.ref, t.origin, t.discovered_on, t.etag,
	t.last_modified, t.content_hash, t.last_poll_at, t.last_success_at, t.next_poll_at, t.failures, t.last_error,
	t.paused_until, t.board_company_name, t.name_check, t.created_at`

const targetFrom = ` FROM source_targets t JOIN companies c ON c.id = t.company_id`

// watched is true for a target whose company someone watches, by hand
// or through a radar; c is the target's company.
const watched = `(EXISTS (SELECT 1 FROM watches w WHERE w.domain = c.domain)
	OR EXISTS (SELECT 1 FROM radar_watches r WHERE r.domain = c.domain))`

func scanTarget(row rowScanner) (*prospector.SourceTarget, error) {
	var (
		t                             prospector.SourceTarget
		hash                          sql.NullInt64
		lastPoll, lastSuccess, paused sql.NullString
		next, created                 string
	)
	err := row.Scan(&t.ID, &t.CompanyID, &t.Domain, &t.Kind, &t.Board, &t.Ref, &t.Origin, &t.DiscoveredOn, &t.ETag,
		&t.LastModified, &hash, &lastPoll, &lastSuccess, &next, &t.Failures, &t.LastError, &paused,
		&t.BoardCompanyName, &t.NameCheck, &created)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, prospector.ErrNotFound
	}
	if err != nil {
		return nil, fmt.Errorf("sqlite: scan target: %w", err)
	}
	t.ContentHash = int64Ptr(hash)
	t.LastPollAt, t.LastSuccessAt, t.PausedUntil = parseTimePtr(lastPoll), parseTimePtr(lastSuccess), parseTimePtr(paused)
	t.NextPollAt, t.CreatedAt = parseTime(next), parseTime(created)
	return &t, nil
}

// AddTargets inserts the new targets in one transaction.
func (db *DB) AddTargets(ctx context.Context, ts []*prospector.SourceTarget, now time.Time) (int, error) {
	var added int
	err := db.tx(ctx, func(tx *sql.Tx) error {
		var err error
		added, err = addTargets(ctx, tx, ts, now)
		return err
	})
	return added, err
}

// addTargets validates every target first, so a malformed one writes
// nothing, then inserts those not stored; a flag claims a discovered
// target. The writer holds the database's lock, so looking before
// inserting cannot race.
func addTargets(ctx context.Context, tx *sql.Tx, ts []*prospector.SourceTarget, now time.Time) (int, error) {
	for _, t := range ts {
		if err := t.Validate(); err != nil {
			return 0, err
		}
	}
	added := 0
	for _, t := range ts {
		var origin string
		err := tx.QueryRowContext(ctx, `SELECT id, origin FROM source_targets
			WHERE company_id = ? AND kind = ? AND board = ? AND ref = ?`, t.CompanyID, t.Kind, t.Board, t.Ref).
			Scan(&t.ID, &origin)
		switch {
		case err == nil:
			if t.Origin == prospector.OriginFlag && origin == prospector.OriginDiscovered {
				if _, err := tx.ExecContext(ctx, `UPDATE source_targets SET origin = ? WHERE id = ?`, t.Origin, t.ID); err != nil {
					return 0, fmt.Errorf("sqlite: claim target: %w", err)
				}
			}
		case errors.Is(err, sql.ErrNoRows):
			err = tx.QueryRowContext(ctx, `INSERT INTO source_targets (company_id, kind, board, ref, origin,
				discovered_on, next_poll_at, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`,
				t.CompanyID, t.Kind, t.Board, t.Ref, t.Origin, t.DiscoveredOn, formatTime(now), formatTime(now)).Scan(&t.ID)
			if isForeignKeyError(err) {
				return 0, fmt.Errorf("sqlite: target of company %d: %w", t.CompanyID, prospector.ErrNotFound)
			}
			if err != nil {
				return 0, fmt.Errorf("sqlite: add target: %w", err)
			}
			added++
		default:
			return 0, fmt.Errorf("sqlite: find target: %w", err)
		}
		if err := tx.QueryRowContext(ctx, `SELECT domain FROM companies WHERE id = ?`, t.CompanyID).Scan(&t.Domain); err != nil {
			return 0, fmt.Errorf("sqlite: target company: %w", err)
		}
	}
	return added, nil
}

// Target returns one target; ErrNotFound when there is none.
func (db *DB) Target(ctx context.Context, id int64) (*prospector.SourceTarget, error) {
	t, err := scanTarget(db.row(ctx, qTarget, id))
	if err != nil {
		return nil, fmt.Errorf("sqlite: target %d: %w", id, err)
	}
	return t, nil
}

// ListTargets reads targets by id; only the filters given become
// conditions.
func (db *DB) ListTargets(ctx context.Context, f prospector.TargetFilter) ([]*prospector.SourceTarget, error) {
	where, args := []string{"t.id > ?"}, []any{f.AfterID}
	if f.CompanyID != 0 {
		where, args = append(where, "t.company_id = ?"), append(args, f.CompanyID)
	}
	if f.Domain != "" {
		where, args = append(where, "c.domain = ?"), append(args, f.Domain)
	}
	if f.Kind != "" {
		where, args = append(where, "t.kind = ?"), append(args, f.Kind)
	}
	if f.Board != "" {
		where, args = append(where, "t.board = ?"), append(args, f.Board)
	}
	limit := f.Limit
	if limit <= 0 {
		limit = -1
	}
	return queryList(ctx, db.read, `SELECT `+targetColumns+targetFrom+` WHERE `+strings.Join(where, " AND ")+
		` ORDER BY t.id LIMIT ?`, scanTarget, append(args, limit)...)
}

// DueTargets walks source_targets_due from the earliest next poll,
// skipping paused targets and those of companies nobody watches.
func (db *DB) DueTargets(ctx context.Context, f prospector.DueFilter) ([]*prospector.SourceTarget, error) {
	now := formatTime(f.Now)
	where, args := `t.next_poll_at <= ? AND (t.paused_until IS NULL OR t.paused_until <= ?) AND `+watched, []any{now, now}
	if len(f.Kinds) > 0 {
		where += ` AND t.kind IN (` + placeholders(len(f.Kinds)) + `)`
		for _, k := range f.Kinds {
			args = append(args, k)
		}
	}
	limit := f.Limit
	if limit <= 0 {
		limit = -1
	}
	return queryList(ctx, db.read, `SELECT `+targetColumns+targetFrom+` WHERE `+where+
		` ORDER BY t.next_poll_at, t.id LIMIT ?`, scanTarget, append(args, limit)...)
}

// RecordPoll applies a poll's outcome in one transaction.
func (db *DB) RecordPoll(ctx context.Context, targetID int64, o prospector.PollOutcome) (*prospector.SourceTarget, error) {
	if err := o.Validate(); err != nil {
		return nil, err
	}
	if err := db.writeStmts(ctx, qTarget, qSaveSchedule); err != nil {
		return nil, err
	}
	var t *prospector.SourceTarget
	err := db.tx(ctx, func(tx *sql.Tx) error {
		var err error
		if t, err = targetTx(ctx, db, tx, targetID); err != nil {
			return err
		}
		t.AfterPoll(o)
		return saveSchedule(ctx, db, tx, t)
	})
	if err != nil {
		return nil, fmt.Errorf("sqlite: record poll of target %d: %w", targetID, err)
	}
	return t, nil
}

// The statements every poll runs, prepared once on the writer.
const (
	qTarget       = `SELECT ` + targetColumns + targetFrom + ` WHERE t.id = ?`
	qSaveSchedule = `UPDATE source_targets SET etag = ?, last_modified = ?, content_hash = ?, last_poll_at = ?,
		last_success_at = ?, next_poll_at = ?, failures = ?, last_error = ?, paused_until = ?, board_company_name = ?,
		name_check = ? WHERE id = ?`
)

// targetTx reads a target inside the writer's transaction; qTarget must
// have been prepared (writeStmts).
func targetTx(ctx context.Context, db *DB, tx *sql.Tx, id int64) (*prospector.SourceTarget, error) {
	s, err := txStmt(ctx, db, tx, qTarget)
	if err != nil {
		return nil, err
	}
	t, err := scanTarget(s.QueryRowContext(ctx, id))
	if err != nil {
		return nil, fmt.Errorf("target %d: %w", id, err)
	}
	return t, nil
}

// saveSchedule writes what a poll changes on its target.
func saveSchedule(ctx context.Context, db *DB, tx *sql.Tx, t *prospector.SourceTarget) error {
	s, err := txStmt(ctx, db, tx, qSaveSchedule)
	if err != nil {
		return err
	}
	_, err = s.ExecContext(ctx, t.ETag, t.LastModified, nullInt(t.ContentHash), formatTimePtr(t.LastPollAt), formatTimePtr(t.LastSuccessAt),
		formatTime(t.NextPollAt), t.Failures, t.LastError, formatTimePtr(t.PausedUntil), t.BoardCompanyName,
		t.NameCheck, t.ID)
	if err != nil {
		return fmt.Errorf("save target %d: %w", t.ID, err)
	}
	return nil
}

// SummarizeTargets counts targets per kind and board in one pass.
func (db *DB) SummarizeTargets(ctx context.Context, now time.Time) ([]prospector.TargetSummary, error) {
	n := formatTime(now)
	return queryList(ctx, db.read, `SELECT t.kind, t.board, count(*),
			sum(CASE WHEN t.next_poll_at <= ? AND (t.paused_until IS NULL OR t.paused_until <= ?) AND `+watched+`
				THEN 1 ELSE 0 END),
			sum(t.failures > 0), sum(coalesce(t.paused_until > ?, 0)), max(t.last_poll_at)`+targetFrom+`
		GROUP BY t.kind, t.board ORDER BY t.kind, t.board`,
		func(row rowScanner) (prospector.TargetSummary, error) {
			var (
				s    prospector.TargetSummary
				last sql.NullString
			)
			if err := row.Scan(&s.Kind, &s.Board, &s.Targets, &s.Due, &s.Failing, &s.Paused, &last); err != nil {
				return s, fmt.Errorf("sqlite: scan target summary: %w", err)
			}
			s.LastPollAt = parseTimePtr(last)
			return s, nil
		}, n, n, n)
}
