package postgres

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
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

func scanTarget(row pgx.Row) (*prospector.SourceTarget, error) {
	var t prospector.SourceTarget
	err := row.Scan(&t.ID, &t.CompanyID, &t.Domain, &t.Kind, &t.Board, &t.Ref, &t.Origin, &t.DiscoveredOn, &t.ETag,
		&t.LastModified, &t.ContentHash, &t.LastPollAt, &t.LastSuccessAt, &t.NextPollAt, &t.Failures, &t.LastError,
		&t.PausedUntil, &t.BoardCompanyName, &t.NameCheck, &t.CreatedAt)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, prospector.ErrNotFound
	}
	if err != nil {
		return nil, fmt.Errorf("postgres: scan target: %w", err)
	}
	t.LastPollAt, t.LastSuccessAt, t.PausedUntil = utcPtr(t.LastPollAt), utcPtr(t.LastSuccessAt), utcPtr(t.PausedUntil)
	t.NextPollAt, t.CreatedAt = t.NextPollAt.UTC(), t.CreatedAt.UTC()
	return &t, nil
}

// AddTargets inserts the new targets in one transaction.
func (db *DB) AddTargets(ctx context.Context, ts []*prospector.SourceTarget, now time.Time) (int, error) {
	var added int
	err := pgx.BeginFunc(ctx, db.pool, func(tx pgx.Tx) error {
		var err error
		added, err = addTargets(ctx, tx, ts, now)
		return err
	})
	if err != nil {
		return 0, fmt.Errorf("postgres: add targets: %w", err)
	}
	return added, nil
}

// addTargets validates every target first, so a malformed one writes
// nothing, then inserts each unless stored; a flag claims a discovered
// target. A concurrent insert of the same target makes the INSERT wait
// for it, then do nothing, and the lookup find it.
func addTargets(ctx context.Context, tx pgx.Tx, ts []*prospector.SourceTarget, now time.Time) (int, error) {
	for _, t := range ts {
		if err := t.Validate(); err != nil {
			return 0, err
		}
	}
	now = now.UTC().Truncate(time.Microsecond)
	added := 0
	for _, t := range ts {
		err := tx.QueryRow(ctx, `INSERT INTO source_targets (company_id, kind, board, ref, origin, discovered_on,
			next_poll_at, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $7)
			ON CONFLICT (company_id, kind, board, ref) DO NOTHING RETURNING id`,
			t.CompanyID, t.Kind, t.Board, t.Ref, t.Origin, t.DiscoveredOn, now).Scan(&t.ID)
		switch {
		case err == nil:
			added++
		case errors.Is(err, pgx.ErrNoRows):
			var origin string
			if err := tx.QueryRow(ctx, `SELECT id, origin FROM source_targets
				WHERE company_id = $1 AND kind = $2 AND board = $3 AND ref = $4`, t.CompanyID, t.Kind, t.Board, t.Ref).
				Scan(&t.ID, &origin); err != nil {
				return 0, fmt.Errorf("find target: %w", err)
			}
			if t.Origin == prospector.OriginFlag && origin == prospector.OriginDiscovered {
				if _, err := tx.Exec(ctx, `UPDATE source_targets SET origin = $1 WHERE id = $2`, t.Origin, t.ID); err != nil {
					return 0, fmt.Errorf("claim target: %w", err)
				}
			}
		case isPgError(err, codeForeignKeyViolation, ""):
			return 0, fmt.Errorf("target of company %d: %w", t.CompanyID, prospector.ErrNotFound)
		default:
			return 0, fmt.Errorf("add target: %w", err)
		}
		if err := tx.QueryRow(ctx, `SELECT domain FROM companies WHERE id = $1`, t.CompanyID).Scan(&t.Domain); err != nil {
			return 0, fmt.Errorf("target company: %w", err)
		}
	}
	return added, nil
}

// Target returns one target; ErrNotFound when there is none.
func (db *DB) Target(ctx context.Context, id int64) (*prospector.SourceTarget, error) {
	t, err := scanTarget(db.pool.QueryRow(ctx, `SELECT `+targetColumns+targetFrom+` WHERE t.id = $1`, id))
	if err != nil {
		return nil, fmt.Errorf("postgres: target %d: %w", id, err)
	}
	return t, nil
}

// ListTargets reads targets by id; a zero filter field matches any.
func (db *DB) ListTargets(ctx context.Context, f prospector.TargetFilter) ([]*prospector.SourceTarget, error) {
	return queryList(ctx, db, `SELECT `+targetColumns+targetFrom+` WHERE t.id > $1
		AND ($2 = 0 OR t.company_id = $2) AND ($3 = '' OR t.kind = $3) AND ($4 = '' OR t.board = $4)
		AND ($5 = '' OR c.domain = $5)
		ORDER BY t.id LIMIT $6`, scanTarget, f.AfterID, f.CompanyID, f.Kind, f.Board, f.Domain, positiveLimit(f.Limit))
}

// positiveLimit maps a limit of 0 or less (no limit) to NULL, LIMIT ALL.
func positiveLimit(n int) *int {
	if n <= 0 {
		return nil
	}
	return &n
}

// DueTargets walks source_targets_due from the earliest next poll,
// skipping paused targets and those of companies nobody watches.
func (db *DB) DueTargets(ctx context.Context, f prospector.DueFilter) ([]*prospector.SourceTarget, error) {
	kinds := f.Kinds
	if kinds == nil {
		kinds = []string{}
	}
	return queryList(ctx, db, `SELECT `+targetColumns+targetFrom+`
		WHERE t.next_poll_at <= $1 AND (t.paused_until IS NULL OR t.paused_until <= $1) AND `+watched+`
			AND (cardinality($2::text[]) = 0 OR t.kind = ANY($2))
		ORDER BY t.next_poll_at, t.id LIMIT $3`, scanTarget, f.Now.UTC(), kinds, positiveLimit(f.Limit))
}

// RecordPoll applies a poll's outcome under the target's row lock.
func (db *DB) RecordPoll(ctx context.Context, targetID int64, o prospector.PollOutcome) (*prospector.SourceTarget, error) {
	if err := o.Validate(); err != nil {
		return nil, err
	}
	var t *prospector.SourceTarget
	err := pgx.BeginFunc(ctx, db.pool, func(tx pgx.Tx) error {
		var err error
		if t, err = lockTarget(ctx, tx, targetID); err != nil {
			return err
		}
		t.AfterPoll(o)
		return saveSchedule(ctx, tx, t)
	})
	if err != nil {
		return nil, fmt.Errorf("postgres: record poll of target %d: %w", targetID, err)
	}
	return t, nil
}

// lockTarget reads a target and locks its row to the end of tx: polls
// of one target are applied one after the other, whichever nodes run
// them.
func lockTarget(ctx context.Context, tx pgx.Tx, id int64) (*prospector.SourceTarget, error) {
	t, err := scanTarget(tx.QueryRow(ctx, `SELECT `+targetColumns+targetFrom+` WHERE t.id = $1 FOR UPDATE OF t`, id))
	if err != nil {
		return nil, fmt.Errorf("target %d: %w", id, err)
	}
	return t, nil
}

// saveSchedule writes what a poll changes on its target.
func saveSchedule(ctx context.Context, tx pgx.Tx, t *prospector.SourceTarget) error {
	b := &pgx.Batch{}
	queueSchedule(b, t)
	if err := tx.SendBatch(ctx, b).Close(); err != nil {
		return fmt.Errorf("save target %d: %w", t.ID, err)
	}
	return nil
}

// queueSchedule queues the update saveSchedule makes on b.
func queueSchedule(b *pgx.Batch, t *prospector.SourceTarget) {
	b.Queue(`UPDATE source_targets SET etag = $1, last_modified = $2, content_hash = $3, last_poll_at = $4,
		last_success_at = $5, next_poll_at = $6, failures = $7, last_error = $8, paused_until = $9,
		board_company_name = $10, name_check = $11 WHERE id = $12`,
		t.ETag, t.LastModified, t.ContentHash, t.LastPollAt, t.LastSuccessAt, t.NextPollAt, t.Failures, t.LastError,
		t.PausedUntil, t.BoardCompanyName, t.NameCheck, t.ID)
}

// SummarizeTargets counts targets per kind and board in one pass.
func (db *DB) SummarizeTargets(ctx context.Context, now time.Time) ([]prospector.TargetSummary, error) {
	return queryList(ctx, db, `SELECT t.kind, t.board, count(*),
			count(*) FILTER (WHERE t.next_poll_at <= $1 AND (t.paused_until IS NULL OR t.paused_until <= $1) AND `+watched+`),
			count(*) FILTER (WHERE t.failures > 0), count(*) FILTER (WHERE t.paused_until > $1), max(t.last_poll_at)`+
		targetFrom+` GROUP BY t.kind, t.board ORDER BY t.kind COLLATE "C", t.board COLLATE "C"`,
		func(row pgx.Row) (prospector.TargetSummary, error) {
			var s prospector.TargetSummary
			if err := row.Scan(&s.Kind, &s.Board, &s.Targets, &s.Due, &s.Failing, &s.Paused, &s.LastPollAt); err != nil {
				return s, fmt.Errorf("postgres: scan target summary: %w", err)
			}
			s.LastPollAt = utcPtr(s.LastPollAt)
			return s, nil
		}, now.UTC())
}
