package prospector

import (
	"cmp"
	"context"
	"encoding/json"
	"slices"
	"time"
)

// JobState is where a job is in its life: queued until a worker claims
// it, running while a worker holds its lease, then done or failed.
type JobState string

const (
	JobQueued  JobState = "queued"
	JobRunning JobState = "running"
	JobDone    JobState = "done"
	JobFailed  JobState = "failed"
)

// DefaultJobMaxAttempts is the number of attempts a job gets when it is
// enqueued without MaxAttempts.
const DefaultJobMaxAttempts = 25

// Job is one unit of background work kept in the database, so it survives
// restarts and is shared by every node of a deployment.
type Job struct {
	ID   int64
	Kind string // selects the handler
	// Key, when set, dedupes: while a job of the same Kind and Key is
	// queued or running, enqueuing another one inserts nothing.
	Key         string
	Payload     []byte // JSON; empty is stored as {}
	RunAt       time.Time
	Attempts    int // claims so far, the current one included
	MaxAttempts int
	LastError   string
	State       JobState
	// LockedBy is the worker that holds, or last held, the job's lease;
	// LockedUntil is when a running job's lease expires (nil otherwise).
	LockedBy    string
	LockedUntil *time.Time
	// LeaseToken names the claim that holds, or last held, the job: every
	// claim makes a new one, and finishing, retrying or extending the job
	// must present it. A worker name is not enough: a runner keeps its
	// name across claims, so after its lease ran out and it claimed the
	// job again, its stale handler would pass for the new one.
	LeaseToken string
	CreatedAt  time.Time
	UpdatedAt  time.Time
}

// Validate checks the fields an enqueuer sets and fills the defaults:
// MaxAttempts and a {} payload.
func (j *Job) Validate() error {
	if j.Kind == "" {
		return Errorf(EINVALID, "kind: required")
	}
	if j.MaxAttempts < 0 {
		return Errorf(EINVALID, "max_attempts: must not be negative")
	}
	if j.MaxAttempts == 0 {
		j.MaxAttempts = DefaultJobMaxAttempts
	}
	if len(j.Payload) == 0 {
		j.Payload = []byte("{}")
	}
	if !json.Valid(j.Payload) {
		return Errorf(EINVALID, "payload: not valid JSON")
	}
	return nil
}

// FirstRunAt is when an enqueued job is first due: RunAt, or now when
// RunAt is zero.
func (j *Job) FirstRunAt(now time.Time) time.Time {
	if j.RunAt.IsZero() {
		return now
	}
	return j.RunAt
}

// Queued sets what EnqueueJob stored for a new job: its id, queued, due
// at runAt, no attempt made and no lease, created and updated at now.
func (j *Job) Queued(id int64, runAt, now time.Time) {
	j.ID, j.State, j.RunAt, j.Attempts = id, JobQueued, runAt, 0
	j.LastError, j.LockedBy, j.LockedUntil, j.CreatedAt, j.UpdatedAt = "", "", nil, now, now
}

// SortClaimed puts claimed jobs in the order ClaimJobs returns them:
// earliest RunAt first, then by id.
func SortClaimed(jobs []*Job) {
	slices.SortFunc(jobs, func(a, b *Job) int {
		if c := a.RunAt.Compare(b.RunAt); c != 0 {
			return c
		}
		return cmp.Compare(a.ID, b.ID)
	})
}

// JobStore is the durable job queue. Execution is at least once: a worker
// holds a job through a lease, and a job whose lease runs out (its node
// crashed or stalled) is claimed again by another worker.
type JobStore interface {
	// EnqueueJob inserts j as queued, filling ID, State, CreatedAt and
	// UpdatedAt, and RunAt with the current time when it is zero. When
	// j.Key is set and a job of the same Kind and Key is queued or
	// running, nothing is inserted and created is false. A validation
	// error when Kind is empty or Payload is not JSON.
	EnqueueJob(ctx context.Context, j *Job) (created bool, err error)
	// ClaimJobs takes up to limit jobs of the given kinds (any kind when
	// kinds is empty) for worker: queued jobs whose RunAt is not after
	// now, and running jobs whose lease expired before now, earliest RunAt
	// first. Each comes back running, locked by worker until now+lease,
	// with Attempts counting this claim and a new LeaseToken. A running
	// job with an expired lease and no attempts left is marked failed
	// instead. Concurrent callers, on one node or many, never receive the
	// same job.
	ClaimJobs(ctx context.Context, worker string, kinds []string, limit int, lease time.Duration, now time.Time) ([]*Job, error)
	// CompleteJob marks a job done. ErrLeaseLost when the claim whose
	// LeaseToken is token no longer holds it (its lease was taken over,
	// or it is finished), ErrNotFound when there is no such job.
	CompleteJob(ctx context.Context, id int64, token string) error
	// RetryJob queues a job again at runAt, recording lastError, or marks
	// it failed when its attempts are used up. Errors as CompleteJob.
	RetryJob(ctx context.Context, id int64, token string, runAt time.Time, lastError string) error
	// FailJob marks a job failed at once, for errors a retry cannot fix.
	// Errors as CompleteJob.
	FailJob(ctx context.Context, id int64, token string, lastError string) error
	// ExtendJobLease moves the lease of a running job to until. Errors as
	// CompleteJob.
	ExtendJobLease(ctx context.Context, id int64, token string, until time.Time) error
	// PruneJobs deletes up to limit finished jobs: done ones last updated
	// before doneBefore and failed ones last updated before failedBefore
	// (a zero time keeps them all). It returns how many it deleted.
	PruneJobs(ctx context.Context, doneBefore, failedBefore time.Time, limit int) (int64, error)
	// Job returns one job; ErrNotFound when there is none.
	Job(ctx context.Context, id int64) (*Job, error)
	// CountJobs counts jobs of kind in state; an empty kind or state
	// matches all.
	CountJobs(ctx context.Context, kind string, state JobState) (int64, error)
}
