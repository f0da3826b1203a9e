package postgres

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/prospectorhq/prospector"
)

// The job queue. Nodes claim with FOR UPDATE SKIP LOCKED: a row one
// claim has locked is passed over by every other claim instead of waited
// for, so concurrent nodes split the ready jobs between them and never
// take the same one.

const jobColumns = `id, kind, dedupe_key, payload, state, run_at, attempts, max_attempts,
	last_error, locked_by, locked_until, lease_token, created_at, updated_at`

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
		UPDATE jobs SET state = 'running', locked_by = $4, locked_until = $5, lease_token = $7,
			attempts = attempts + 1, updated_at = $6
		FROM claimable WHERE id = claim_id
		RETURNING ` + jobColumns
)

func scanJob(row pgx.Row) (*prospector.Job, error) {
	var (
		j                  prospector.Job
		key, lockedBy, tok *string
		state              string
	)
	err := row.Scan(&j.ID, &j.Kind, &key, &j.Payload, &state, &j.RunAt, &j.Attempts, &j.MaxAttempts,
		&j.LastError, &lockedBy, &j.LockedUntil, &tok, &j.CreatedAt, &j.UpdatedAt)
	if err != nil {
		return nil, err
	}
	if tok != nil {
		j.LeaseToken = *tok
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
	now := nowUTC()
	q, err := enqueueJob(ctx, db.pool, j, now)
	if err != nil {
		return false, err
	}
	return q.fill(j, now), nil
}

// rowQuerier is the pool or a transaction.
type rowQuerier interface {
	QueryRow(ctx context.Context, sql string, args ...any) pgx.Row
}

// queuedJob is what enqueueJob wrote: the job's id and run time, or
// nothing (created false) when an active job had its kind and key.
type queuedJob struct {
	id      int64
	runAt   time.Time
	created bool
}

// enqueueJob is the step that inserts j through db (the pool, or a
// transaction whose other steps it joins); a validation error when j is
// not valid. The caller fills j once the insert has committed (fill).
func enqueueJob(ctx context.Context, db rowQuerier, j *prospector.Job, now time.Time) (queuedJob, error) {
	if err := j.Validate(); err != nil {
		return queuedJob{}, err
	}
	q := queuedJob{runAt: j.FirstRunAt(now).UTC().Truncate(time.Microsecond)}
	err := db.QueryRow(ctx, `INSERT INTO jobs (kind, dedupe_key, payload, state, run_at, attempts, max_attempts,
			last_error, created_at, updated_at)
		VALUES ($1, $2, $3, 'queued', $4, 0, $5, '', $6, $6)
		ON CONFLICT DO NOTHING RETURNING id`,
		j.Kind, nullString(j.Key), string(j.Payload), q.runAt, j.MaxAttempts, now).Scan(&q.id)
	switch {
	case errors.Is(err, pgx.ErrNoRows): // the unique index of active keys refused it
		return queuedJob{}, nil
	case err != nil:
		return queuedJob{}, fmt.Errorf("postgres: enqueue job: %w", err)
	}
	q.created = true
	return q, nil
}

// fill records on j what enqueueJob wrote, and returns whether it was.
func (q queuedJob) fill(j *prospector.Job, now time.Time) bool {
	if !q.created {
		return false
	}
	j.Queued(q.id, q.runAt, now)
	return true
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
	rows, err := db.pool.Query(ctx, qClaimJobs, now, kinds, limit, worker, now.Add(lease), stamp, prospector.NewID("lease"))
	if err != nil {
		return nil, fmt.Errorf("postgres: claim jobs: %w", err)
	}
	jobs, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (*prospector.Job, error) { return scanJob(r) })
	if err != nil {
		return nil, fmt.Errorf("postgres: claim jobs: %w", err)
	}
	prospector.SortClaimed(jobs) // RETURNING has no defined order
	return jobs, nil
}

// leased runs one of the lease-guarded updates, whose last two arguments
// are the job id and the lease token, and tells a lost lease from a
// missing job.
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

// CompleteJob marks a job done if the claim of token still holds it.
func (db *DB) CompleteJob(ctx context.Context, id int64, token string) error {
	return db.leased(ctx, "complete", `UPDATE jobs SET state = 'done', locked_until = NULL, updated_at = $1
		WHERE id = $2 AND state = 'running' AND lease_token = $3`, nowUTC(), id, token)
}

// RetryJob queues a job again, or fails it when its attempts are used up.
func (db *DB) RetryJob(ctx context.Context, id int64, token string, runAt time.Time, lastError string) error {
	return db.leased(ctx, "retry", `UPDATE jobs SET
			state = CASE WHEN attempts >= max_attempts THEN 'failed' ELSE 'queued' END,
			run_at = CASE WHEN attempts >= max_attempts THEN run_at ELSE $1 END,
			last_error = $2, locked_until = NULL, updated_at = $3
		WHERE id = $4 AND state = 'running' AND lease_token = $5`, runAt, lastError, nowUTC(), id, token)
}

// FailJob marks a job failed if the claim of token still holds it.
func (db *DB) FailJob(ctx context.Context, id int64, token string, lastError string) error {
	return db.leased(ctx, "fail", `UPDATE jobs SET state = 'failed', last_error = $1, locked_until = NULL, updated_at = $2
		WHERE id = $3 AND state = 'running' AND lease_token = $4`, lastError, nowUTC(), id, token)
}

// ExtendJobLease moves a held job's lease to until.
func (db *DB) ExtendJobLease(ctx context.Context, id int64, token string, until time.Time) error {
	return db.leased(ctx, "extend lease of", `UPDATE jobs SET locked_until = $1, updated_at = $2
		WHERE id = $3 AND state = 'running' AND lease_token = $4`, until, nowUTC(), id, token)
}

// PruneJobs deletes finished jobs older than their bounds, at most limit
// in one statement. SKIP LOCKED: rows another node is pruning are left to
// it rather than waited for.
func (db *DB) PruneJobs(ctx context.Context, doneBefore, failedBefore time.Time, limit int) (int64, error) {
	if limit <= 0 || (doneBefore.IsZero() && failedBefore.IsZero()) {
		return 0, nil
	}
	bound := func(t time.Time) *time.Time {
		if t.IsZero() {
			return nil // compares as unknown: nothing matches
		}
		return &t
	}
	tag, err := db.pool.Exec(ctx, `DELETE FROM jobs WHERE id IN (SELECT id FROM jobs
			WHERE (state = 'done' AND updated_at < $1) OR (state = 'failed' AND updated_at < $2)
			LIMIT $3 FOR UPDATE SKIP LOCKED)`, bound(doneBefore), bound(failedBefore), limit)
	if err != nil {
		return 0, fmt.Errorf("postgres: prune jobs: %w", err)
	}
	return tag.RowsAffected(), nil
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
