package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/prospectorhq/prospector"
)

// The job queue. SQLite has one writer, so a claim is simply a write
// transaction (BEGIN IMMEDIATE): no two claims ever overlap. The small
// writes of workers finishing jobs go through the group committer.

const jobColumns = `id, kind, dedupe_key, payload, state, run_at, attempts, max_attempts,
	last_error, locked_by, locked_until, lease_token, created_at, updated_at`

// kindFilter matches any kind when the JSON list bound twice is empty.
const kindFilter = `(? = '[]' OR kind IN (SELECT value FROM json_each(?)))`

const (
	qEnqueueJob = `INSERT INTO jobs (kind, dedupe_key, payload, state, run_at, attempts, max_attempts,
		last_error, created_at, updated_at)
		VALUES (?, ?, ?, 'queued', ?, 0, ?, '', ?, ?)
		ON CONFLICT DO NOTHING RETURNING id`
	// qClaimableJob tells whether ClaimJobs has anything to do. It runs on
	// the reader pool, so that idle polls never take the write lock; two
	// EXISTS, because SQLite scans the whole table for an OR of the two.
	qClaimableJob = `SELECT EXISTS (SELECT 1 FROM jobs WHERE state = 'queued' AND run_at <= ? AND ` + kindFilter + `)
		OR EXISTS (SELECT 1 FROM jobs WHERE state = 'running' AND locked_until < ? AND ` + kindFilter + `)`
	// qRescueJobs puts back the running jobs whose lease expired (their
	// worker crashed or stalled), or fails them when that was their last
	// attempt (a job that kills its node every time).
	qRescueJobs = `UPDATE jobs SET
		state = CASE WHEN attempts >= max_attempts THEN 'failed' ELSE 'queued' END,
		last_error = 'lease of ' || coalesce(locked_by, '') || ' expired' ||
			CASE WHEN attempts >= max_attempts THEN ' on the last attempt' ELSE '' END,
		locked_until = NULL, updated_at = ?
		WHERE state = 'running' AND locked_until < ? AND ` + kindFilter
	// qClaimJobs walks jobs_claim in order: its entries end with the
	// rowid, so (state, run_at) sorts ties by id too.
	qClaimJobs = `UPDATE jobs SET state = 'running', locked_by = ?, locked_until = ?, lease_token = ?,
		attempts = attempts + 1, updated_at = ?
		WHERE id IN (SELECT id FROM jobs
			WHERE state = 'queued' AND run_at <= ? AND ` + kindFilter + `
			ORDER BY run_at, id LIMIT (? + 0))
		RETURNING ` + jobColumns
	qCompleteJob = `UPDATE jobs SET state = 'done', locked_until = NULL, updated_at = ?
		WHERE id = ? AND state = 'running' AND lease_token = ?`
	qRetryJob = `UPDATE jobs SET
		state = CASE WHEN attempts >= max_attempts THEN 'failed' ELSE 'queued' END,
		run_at = CASE WHEN attempts >= max_attempts THEN run_at ELSE ? END,
		last_error = ?, locked_until = NULL, updated_at = ?
		WHERE id = ? AND state = 'running' AND lease_token = ?`
	qFailJob = `UPDATE jobs SET state = 'failed', last_error = ?, locked_until = NULL, updated_at = ?
		WHERE id = ? AND state = 'running' AND lease_token = ?`
	qExtendJobLease = `UPDATE jobs SET locked_until = ?, updated_at = ?
		WHERE id = ? AND state = 'running' AND lease_token = ?`
	qJobExists = `SELECT count(*) FROM jobs WHERE id = ?`
	// qPruneJobs walks jobs_finished; an empty bound matches nothing.
	qPruneJobs = `DELETE FROM jobs WHERE id IN (SELECT id FROM jobs
		WHERE (state = 'done' AND updated_at < ?) OR (state = 'failed' AND updated_at < ?)
		LIMIT (? + 0))`
)

func scanJob(row rowScanner) (*prospector.Job, error) {
	var (
		j                               prospector.Job
		key, lockedBy, lockedUntil, tok sql.NullString
		payload, state, runAt, cAt, uAt string
	)
	err := row.Scan(&j.ID, &j.Kind, &key, &payload, &state, &runAt, &j.Attempts, &j.MaxAttempts,
		&j.LastError, &lockedBy, &lockedUntil, &tok, &cAt, &uAt)
	if err != nil {
		return nil, err
	}
	j.Key, j.Payload, j.State, j.LockedBy = key.String, []byte(payload), prospector.JobState(state), lockedBy.String
	j.LeaseToken = tok.String
	j.RunAt, j.LockedUntil, j.CreatedAt, j.UpdatedAt = parseTime(runAt), parseTimePtr(lockedUntil), parseTime(cAt), parseTime(uAt)
	return &j, nil
}

// EnqueueJob inserts j unless an active job has the same kind and key.
func (db *DB) EnqueueJob(ctx context.Context, j *prospector.Job) (bool, error) {
	if err := db.writeStmts(ctx, qEnqueueJob); err != nil {
		return false, err
	}
	now := time.Now().UTC()
	var q queuedJob
	err := db.grouped(ctx, func(ctx context.Context, tx *sql.Tx) error {
		var err error
		q, err = enqueueJob(ctx, db, tx, j, now)
		return err
	})
	if err != nil {
		return false, err
	}
	return q.fill(j, now), nil
}

// queuedJob is what enqueueJob wrote: the job's id and run time, or
// nothing (created false) when an active job had its kind and key.
type queuedJob struct {
	id      int64
	runAt   time.Time
	created bool
}

// enqueueJob is the step that inserts j in tx; a validation error when j
// is not valid. The caller fills j once tx has committed (fill).
func enqueueJob(ctx context.Context, db *DB, tx *sql.Tx, j *prospector.Job, now time.Time) (queuedJob, error) {
	if err := j.Validate(); err != nil {
		return queuedJob{}, err
	}
	q := queuedJob{runAt: j.FirstRunAt(now)}
	s, err := txStmt(ctx, db, tx, qEnqueueJob)
	if err != nil {
		return queuedJob{}, err
	}
	err = s.QueryRowContext(ctx, j.Kind, nullString(j.Key), string(j.Payload), formatTime(q.runAt),
		j.MaxAttempts, formatTime(now), formatTime(now)).Scan(&q.id)
	switch {
	case errors.Is(err, sql.ErrNoRows): // the unique index of active keys refused it
		return queuedJob{}, nil
	case err != nil:
		return queuedJob{}, fmt.Errorf("sqlite: enqueue job: %w", err)
	}
	q.created = true
	return q, nil
}

// fill records on j what enqueueJob wrote, and returns whether it was.
func (q queuedJob) fill(j *prospector.Job, now time.Time) bool {
	if !q.created {
		return false
	}
	j.Queued(q.id, q.runAt.UTC(), now)
	return true
}

// ClaimJobs claims in one write transaction, after putting back (or
// failing) the jobs whose lease expired.
func (db *DB) ClaimJobs(ctx context.Context, worker string, kinds []string, limit int, lease time.Duration,
	now time.Time) ([]*prospector.Job, error) {
	if limit <= 0 {
		return nil, nil
	}
	kindList, nowText := jsonList(kinds), formatTime(now)
	var due bool
	err := db.row(ctx, qClaimableJob, nowText, kindList, kindList, nowText, kindList, kindList).Scan(&due)
	if err != nil {
		return nil, fmt.Errorf("sqlite: claim jobs: %w", err)
	}
	if !due {
		return nil, nil
	}
	if err := db.writeStmts(ctx, qRescueJobs, qClaimJobs); err != nil {
		return nil, err
	}
	stamp := formatTime(time.Now())
	var jobs []*prospector.Job
	err = db.tx(ctx, func(tx *sql.Tx) error {
		rescue, err := txStmt(ctx, db, tx, qRescueJobs)
		if err != nil {
			return err
		}
		if _, err := rescue.ExecContext(ctx, stamp, nowText, kindList, kindList); err != nil {
			return err
		}
		claim, err := txStmt(ctx, db, tx, qClaimJobs)
		if err != nil {
			return err
		}
		rows, err := claim.QueryContext(ctx, worker, formatTime(now.Add(lease)), prospector.NewID("lease"), stamp,
			nowText, kindList, kindList, limit)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			j, err := scanJob(rows)
			if err != nil {
				return err
			}
			jobs = append(jobs, j)
		}
		return rows.Err()
	})
	if err != nil {
		return nil, fmt.Errorf("sqlite: claim jobs: %w", err)
	}
	prospector.SortClaimed(jobs) // RETURNING has no defined order
	return jobs, nil
}

// leased runs one of the lease-guarded updates, whose last two arguments
// are the job id and the lease token, and tells a lost lease from a
// missing job.
func (db *DB) leased(ctx context.Context, what, query string, args ...any) error {
	if err := db.writeStmts(ctx, query, qJobExists); err != nil {
		return err
	}
	id := args[len(args)-2]
	err := db.grouped(ctx, func(ctx context.Context, tx *sql.Tx) error {
		s, err := txStmt(ctx, db, tx, query)
		if err != nil {
			return err
		}
		changed, err := rowsAffected(s.ExecContext(ctx, args...))
		if err != nil {
			return err
		}
		if changed > 0 {
			return nil
		}
		exists, err := txStmt(ctx, db, tx, qJobExists)
		if err != nil {
			return err
		}
		var n int
		if err := exists.QueryRowContext(ctx, id).Scan(&n); err != nil {
			return err
		}
		if n == 0 {
			return prospector.ErrNotFound
		}
		return prospector.ErrLeaseLost
	})
	if err != nil {
		return fmt.Errorf("sqlite: %s job %v: %w", what, id, err)
	}
	return nil
}

// CompleteJob marks a job done if the claim of token still holds it.
func (db *DB) CompleteJob(ctx context.Context, id int64, token string) error {
	return db.leased(ctx, "complete", qCompleteJob, formatTime(time.Now()), id, token)
}

// RetryJob queues a job again, or fails it when its attempts are used up.
func (db *DB) RetryJob(ctx context.Context, id int64, token string, runAt time.Time, lastError string) error {
	return db.leased(ctx, "retry", qRetryJob, formatTime(runAt), lastError, formatTime(time.Now()), id, token)
}

// FailJob marks a job failed if the claim of token still holds it.
func (db *DB) FailJob(ctx context.Context, id int64, token string, lastError string) error {
	return db.leased(ctx, "fail", qFailJob, lastError, formatTime(time.Now()), id, token)
}

// ExtendJobLease moves a held job's lease to until.
func (db *DB) ExtendJobLease(ctx context.Context, id int64, token string, until time.Time) error {
	return db.leased(ctx, "extend lease of", qExtendJobLease, formatTime(until), formatTime(time.Now()), id, token)
}

// PruneJobs deletes finished jobs older than their bounds, in one write
// transaction of at most limit rows.
func (db *DB) PruneJobs(ctx context.Context, doneBefore, failedBefore time.Time, limit int) (int64, error) {
	if limit <= 0 || (doneBefore.IsZero() && failedBefore.IsZero()) {
		return 0, nil
	}
	bound := func(t time.Time) string {
		if t.IsZero() {
			return "" // no updated_at sorts before it
		}
		return formatTime(t)
	}
	n, err := rowsAffected(db.write.ExecContext(ctx, qPruneJobs, bound(doneBefore), bound(failedBefore), limit))
	if err != nil {
		return 0, fmt.Errorf("sqlite: prune jobs: %w", err)
	}
	return n, nil
}

// Job returns one job; ErrNotFound when there is none.
func (db *DB) Job(ctx context.Context, id int64) (*prospector.Job, error) {
	j, err := scanJob(db.row(ctx, `SELECT `+jobColumns+` FROM jobs WHERE id = ?`, id))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("sqlite: job %d: %w", id, prospector.ErrNotFound)
	}
	if err != nil {
		return nil, fmt.Errorf("sqlite: job %d: %w", id, err)
	}
	return j, nil
}

// CountJobs counts jobs by kind and state; empty matches all.
func (db *DB) CountJobs(ctx context.Context, kind string, state prospector.JobState) (int64, error) {
	var n int64
	err := db.row(ctx, `SELECT count(*) FROM jobs WHERE (? = '' OR kind = ?) AND (? = '' OR state = ?)`,
		kind, kind, string(state), string(state)).Scan(&n)
	if err != nil {
		return 0, fmt.Errorf("sqlite: count jobs: %w", err)
	}
	return n, nil
}
