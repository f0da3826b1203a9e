package postgres

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/prospectorhq/prospector"
)

// The job queue. Nodes claim with FOR UPDATE SKIP LOCKED: a row one
// claim has locked is passed over by every other claim instead of waited
// for, so concurrent nodes split the ready jobs between them and never
// take the same one.

const jobColumns = `id, kind, dedupe_key, payload, state, run_at, attempts, max_attempts,
	last_error, locked_by, locked_until, created_at, updated_at`

// kindFilter matches any kind when the array $2 is empty.
const kindFilter = `(cardinality($2::text[]) = 0 OR kind = ANY($2::text[]))`

const (
	// qRescueJobs puts back the running jobs whose lease expired (their
	// worker crashed or stalled), or fails them when that was their last
	// attempt (a job that kills its node every time). SKIP LOCKED: a job
	// another statement holds is dealt with on a later poll.
	qRescueJobs = `UPDATE jobs SET
			state = CASE WHEN attempts >= max_attempts THEN 'failed' ELSE 'queued' END,
			last_error = 'lease of ' || coalesce(locked_by, '') || ' expired' ||
				CASE WHEN attempts >= max_attempts THEN ' on the last attempt' ELSE '' END,
			locked_until = NULL, updated_at = $3
		WHERE id IN (SELECT id FROM jobs
			WHERE state = 'running' AND locked_until < $1 AND ` + kindFilter + `
			FOR UPDATE SKIP LOCKED)`
	// qClaimJobs reads jobs_claim in order and stops after limit rows it
	// could lock.
	qClaimJobs = `WITH claimable AS (
			SELECT id AS claim_id FROM jobs
			WHERE state = 'queued' AND run_at <= $1 AND ` + kindFilter + `
			ORDER BY run_at, id
			LIMIT $3
			FOR UPDATE SKIP LOCKED)
		UPDATE jobs SET state = 'running', locked_by = $4, locked_until = $5, attempts = attempts + 1, updated_at = $6
		FROM claimable WHERE id = claim_id
		RETURNING ` + jobColumns
)

func scanJob(row pgx.Row) (*prospector.Job, error) {
	var (
		j             prospector.Job
		key, lockedBy *string
		state         string
	)
	err := row.Scan(&j.ID, &j.Kind, &key, &j.Payload, &state, &j.RunAt, &j.Attempts, &j.MaxAttempts,
		&j.LastError, &lockedBy, &j.LockedUntil, &j.CreatedAt, &j.UpdatedAt)
	if err != nil {
		return nil, err
	}
	if key != nil {
		j.Key = *key
	}
	if lockedBy != nil {
		j.LockedBy = *lockedBy
	}
	j.State = prospector.JobState(state)
	j.RunAt, j.LockedUntil, j.CreatedAt, j.UpdatedAt = j.RunAt.UTC(), utcPtr(j.LockedUntil), j.CreatedAt.UTC(), j.UpdatedAt.UTC()
	return &j, nil
}

// EnqueueJob inserts j unless an active job has the same kind and key.
// A concurrent insert of the same key makes this one wait for its
// transaction, then do nothing.
func (db *DB) EnqueueJob(ctx context.Context, j *prospector.Job) (bool, error) {
	if err := j.Validate(); err != nil {
		return false, err
	}
	now := nowUTC()
	runAt := j.RunAt.UTC().Truncate(time.Microsecond)
	if j.RunAt.IsZero() {
		runAt = now
	}
	var id int64
	err := db.pool.QueryRow(ctx, `INSERT INTO jobs (kind, dedupe_key, payload, state, run_at, attempts, max_attempts,
			last_error, created_at, updated_at)
		VALUES ($1, $2, $3, 'queued', $4, 0, $5, '', $6, $6)
		ON CONFLICT DO NOTHING RETURNING id`,
		j.Kind, nullString(j.Key), string(j.Payload), runAt, j.MaxAttempts, now).Scan(&id)
	if errors.Is(err, pgx.ErrNoRows) { // the unique index of active keys refused it
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("postgres: enqueue job: %w", err)
	}
	j.ID, j.State, j.RunAt, j.Attempts = id, prospector.JobQueued, runAt, 0
	j.LastError, j.LockedBy, j.LockedUntil, j.CreatedAt, j.UpdatedAt = "", "", nil, now, now
	return true, nil
}

// ClaimJobs puts back (or fails) the jobs whose lease expired, then
// claims with one UPDATE over a SKIP LOCKED selection. The two steps need
// not be atomic: a job put back is queued for every node alike.
func (db *DB) ClaimJobs(ctx context.Context, worker string, kinds []string, limit int, lease time.Duration,
	now time.Time) ([]*prospector.Job, error) {
	if limit <= 0 {
		return nil, nil
	}
	if kinds == nil {
		kinds = []string{} // a NULL array would match nothing
	}
	stamp := nowUTC()
	if _, err := db.pool.Exec(ctx, qRescueJobs, now, kinds, stamp); err != nil {
		return nil, fmt.Errorf("postgres: rescue expired jobs: %w", err)
	}
	rows, err := db.pool.Query(ctx, qClaimJobs, now, kinds, limit, worker, now.Add(lease), stamp)
	if err != nil {
		return nil, fmt.Errorf("postgres: claim jobs: %w", err)
	}
	jobs, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (*prospector.Job, error) { return scanJob(r) })
	if err != nil {
		return nil, fmt.Errorf("postgres: claim jobs: %w", err)
	}
	// RETURNING has no defined order.
	sort.Slice(jobs, func(a, b int) bool {
		if !jobs[a].RunAt.Equal(jobs[b].RunAt) {
			return jobs[a].RunAt.Before(jobs[b].RunAt)
		}
		return jobs[a].ID < jobs[b].ID
	})
	return jobs, nil
}

// leased runs one of the lease-guarded updates, whose last two arguments
// are the job id and the worker, and tells a lost lease from a missing job.
func (db *DB) leased(ctx context.Context, what, query string, args ...any) error {
	id := args[len(args)-2]
	tag, err := db.pool.Exec(ctx, query, args...)
	if err != nil {
		return fmt.Errorf("postgres: %s job %v: %w", what, id, err)
	}
	if tag.RowsAffected() > 0 {
		return nil
	}
	var exists bool
	if err := db.pool.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM jobs WHERE id = $1)`, id).Scan(&exists); err != nil {
		return fmt.Errorf("postgres: %s job %v: %w", what, id, err)
	}
	if !exists {
		return fmt.Errorf("postgres: %s job %v: %w", what, id, prospector.ErrNotFound)
	}
	return fmt.Errorf("postgres: %s job %v: %w", what, id, prospector.ErrLeaseLost)
}

// CompleteJob marks a job done if worker still holds it.
func (db *DB) CompleteJob(ctx context.Context, id int64, worker string) error {
	return db.leased(ctx, "complete", `UPDATE jobs SET state = 'done', locked_until = NULL, updated_at = $1
		WHERE id = $2 AND state = 'running' AND locked_by = $3`, nowUTC(), id, worker)
}

// RetryJob queues a job again, or fails it when its attempts are used up.
func (db *DB) RetryJob(ctx context.Context, id int64, worker string, runAt time.Time, lastError string) error {
	return db.leased(ctx, "retry", `UPDATE jobs SET
			state = CASE WHEN attempts >= max_attempts THEN 'failed' ELSE 'queued' END,
			run_at = CASE WHEN attempts >= max_attempts THEN run_at ELSE $1 END,
			last_error = $2, locked_until = NULL, updated_at = $3
		WHERE id = $4 AND state = 'running' AND locked_by = $5`, runAt, lastError, nowUTC(), id, worker)
}

// FailJob marks a job failed if worker still holds it.
func (db *DB) FailJob(ctx context.Context, id int64, worker string, lastError string) error {
	return db.leased(ctx, "fail", `UPDATE jobs SET state = 'failed', last_error = $1, locked_until = NULL, updated_at = $2
		WHERE id = $3 AND state = 'running' AND locked_by = $4`, lastError, nowUTC(), id, worker)
}

// ExtendJobLease moves a held job's lease to until.
func (db *DB) ExtendJobLease(ctx context.Context, id int64, worker string, until time.Time) error {
	return db.leased(ctx, "extend lease of", `UPDATE jobs SET locked_until = $1, updated_at = $2
		WHERE id = $3 AND state = 'running' AND locked_by = $4`, until, nowUTC(), id, worker)
}

// Job returns one job; ErrNotFound when there is none.
func (db *DB) Job(ctx context.Context, id int64) (*prospector.Job, error) {
	j, err := scanJob(db.pool.QueryRow(ctx, `SELECT `+jobColumns+` FROM jobs WHERE id = $1`, id))
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, fmt.Errorf("postgres: job %d: %w", id, prospector.ErrNotFound)
	}
	if err != nil {
		return nil, fmt.Errorf("postgres: job %d: %w", id, err)
	}
	return j, nil
}

// CountJobs counts jobs by kind and state; empty matches all.
func (db *DB) CountJobs(ctx context.Context, kind string, state prospector.JobState) (int64, error) {
	var n int64
	err := db.pool.QueryRow(ctx, `SELECT count(*) FROM jobs WHERE ($1 = '' OR kind = $1) AND ($2 = '' OR state = $2)`,
		kind, string(state)).Scan(&n)
	if err != nil {
		return 0, fmt.Errorf("postgres: count jobs: %w", err)
	}
	return n, nil
}
