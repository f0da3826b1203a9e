// Package jobs runs durable background jobs kept in a prospector.JobStore:
// radar scans, webhook deliveries and the like. Execution is at least
// once (a job whose worker dies is run again once its lease expires), so
// handlers must be idempotent.
package jobs

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"runtime/debug"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/prospectorhq/prospector"
)

// Handler does the work of one job. A nil error completes it; an error
// retries it after a backoff, or fails it at once when made with
// Permanent. ctx ends when the runner shuts down or loses the job's
// lease; a handler should then return promptly.
type Handler func(ctx context.Context, j *prospector.Job) error

// Queue is what a Runner calls: it enqueues, claims and settles jobs
// under their lease tokens. prospector.JobStore satisfies it.
type Queue interface {
	EnqueueJob(ctx context.Context, j *prospector.Job) (created bool, err error)
	ClaimJobs(ctx context.Context, worker string, kinds []string, limit int, lease time.Duration, now time.Time) ([]*prospector.Job, error)
	ExtendJobLease(ctx context.Context, id int64, token string, until time.Time) error
	CompleteJob(ctx context.Context, id int64, token string) error
	RetryJob(ctx context.Context, id int64, token string, runAt time.Time, lastError string) error
	FailJob(ctx context.Context, id int64, token string, lastError string) error
}

// Runner claims jobs of the kinds it has handlers for and runs them.
// Zero fields get the defaults documented on them when Run starts. Run
// several runners, on one node or many, against the same store: each
// job is claimed by one of them at a time.
type Runner struct {
	Store Queue
	// Worker names this runner in job leases (locked_by, for people
	// reading the queue); default host-pid-random. Who holds a job is
	// decided by each claim's lease token, not by this name.
	Worker   string
	Handlers map[string]Handler
	// Poll is how often the store is asked for due jobs when idle;
	// default 500ms. Notify wakes the runner before that.
	Poll time.Duration
	// Lease is how long a claim lasts before another worker may take the
	// job over; default 1m. It is renewed every Lease/2 while the handler
	// runs, so it only bounds how long a crashed node's jobs wait. It
	// must exceed the clock skew between nodes by a wide margin.
	Lease time.Duration
	// Concurrency is the number of handlers running at once; default 4.
	Concurrency int
	// Backoff is the delay before retry number attempt (1 after the first
	// failure); default DefaultBackoff.
	Backoff func(attempt int) time.Duration
	// Grace is how long in-flight handlers may go on once Run's context
	// ends before their contexts are cancelled; default 0, at once.
	Grace time.Duration
	// Now is the clock of claims, leases and retries; default time.Now.
	Now    func() time.Time
	Logger *slog.Logger // default slog.Default()

	kickOnce sync.Once
	kick     chan struct{}
}

// storeTimeout bounds each store call the runner makes on its own behalf.
// Calls that record a handler's outcome do not inherit Run's
// cancellation: a job that finished during shutdown is still recorded.
const storeTimeout = 30 * time.Second

// maxLastError bounds the error text kept on a job.
const maxLastError = 2000

var (
	errShutdown  = errors.New("jobs: runner stopping")
	errLeaseLost = errors.New("jobs: lease lost")
)

func (r *Runner) kicks() chan struct{} {
	r.kickOnce.Do(func() { r.kick = make(chan struct{}, 1) })
	return r.kick
}

// Notify wakes the runner to claim at once rather than at its next poll,
// for instance after a job was enqueued on this node. It never blocks.
func (r *Runner) Notify() {
	select {
	case r.kicks() <- struct{}{}:
	default: // a wake-up is already pending
	}
}

// Enqueue stores j through the runner's store and, when it was created,
// wakes the runner. It returns what EnqueueJob returns.
func (r *Runner) Enqueue(ctx context.Context, j *prospector.Job) (bool, error) {
	created, err := r.Store.EnqueueJob(ctx, j)
	if created {
		r.Notify()
	}
	return created, err
}

func (r *Runner) defaults() error {
	if r.Store == nil {
		return errors.New("jobs: runner without a store")
	}
	if len(r.Handlers) == 0 {
		return errors.New("jobs: runner without handlers")
	}
	if r.Worker == "" {
		host, _ := os.Hostname()
		b := make([]byte, 4)
		rand.Read(b)
		r.Worker = fmt.Sprintf("%s-%d-%s", host, os.Getpid(), hex.EncodeToString(b))
	}
	if r.Poll <= 0 {
		r.Poll = 500 * time.Millisecond
	}
	if r.Lease <= 0 {
		r.Lease = time.Minute
	}
	if r.Concurrency <= 0 {
		r.Concurrency = 4
	}
	if r.Backoff == nil {
		r.Backoff = DefaultBackoff
	}
	if r.Now == nil {
		r.Now = time.Now
	}
	if r.Logger == nil {
		r.Logger = slog.Default()
	}
	return nil
}

// Run claims and runs jobs until ctx ends, then stops claiming, lets the
// handlers in flight finish (cancelling their contexts after Grace) and
// records their outcomes before returning nil. A handler that ignores its
// context holds Run up; if the process exits instead, the job's lease
// expires and another worker runs it again. Run returns an error only
// when the runner is misconfigured. Do not call it twice at once.
func (r *Runner) Run(ctx context.Context) error {
	if err := r.defaults(); err != nil {
		return err
	}
	kinds := make([]string, 0, len(r.Handlers))
	for k := range r.Handlers {
		kinds = append(kinds, k)
	}
	slices.Sort(kinds)
	// Handlers outlive ctx by Grace, so their context is cut from it.
	handlerCtx, stopHandlers := context.WithCancelCause(context.WithoutCancel(ctx))
	defer stopHandlers(errShutdown)
	done := make(chan struct{}, r.Concurrency)
	running := 0
	timer := time.NewTimer(r.Poll)
	defer timer.Stop()
	for {
		// more: every free slot was filled, so further jobs may be due
		// and a slot freeing up is reason enough to claim again.
		more := true
		if free := r.Concurrency - running; free > 0 && ctx.Err() == nil {
			claimed := r.claim(ctx, kinds, free)
			for _, j := range claimed {
				running++
				go r.run(handlerCtx, j, done)
			}
			more = len(claimed) == free
		}
		timer.Reset(r.Poll)
	wait:
		for {
			select {
			case <-ctx.Done():
				r.drain(done, running, stopHandlers)
				return nil
			case <-done:
				running--
				if more {
					break wait
				}
			case <-r.kicks():
				break wait
			case <-timer.C:
				break wait
			}
		}
	}
}

// claim asks the store for up to n due jobs; a failure is logged and
// the next poll tries again.
func (r *Runner) claim(ctx context.Context, kinds []string, n int) []*prospector.Job {
	// Not ctx: a claim the store committed after its caller gave up would
	// hold jobs that nobody runs until their leases ran out.
	cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), storeTimeout)
	defer cancel()
	claimed, err := r.Store.ClaimJobs(cctx, r.Worker, kinds, n, r.Lease, r.Now())
	if err != nil {
		r.Logger.Error("jobs: claim", "worker", r.Worker, "err", err)
		return nil
	}
	return claimed
}

// drain waits for the handlers in flight: Grace first, then with their
// contexts cancelled.
func (r *Runner) drain(done <-chan struct{}, running int, stopHandlers context.CancelCauseFunc) {
	if running > 0 && r.Grace > 0 {
		grace := time.NewTimer(r.Grace)
		defer grace.Stop()
	waiting:
		for running > 0 {
			select {
			case <-done:
				running--
			case <-grace.C:
				break waiting
			}
		}
	}
	stopHandlers(errShutdown)
	for ; running > 0; running-- {
		<-done
	}
}

// run runs one claimed job and records its outcome.
func (r *Runner) run(parent context.Context, j *prospector.Job, done chan<- struct{}) {
	defer func() { done <- struct{}{} }()
	ctx, cancel := context.WithCancelCause(parent)
	defer cancel(nil)
	release := r.hold(ctx, cancel, j)
	err := r.call(ctx, j)
	release()
	r.record(ctx, j, err)
}

// call runs the job's handler, turning a panic into an error.
func (r *Runner) call(ctx context.Context, j *prospector.Job) (err error) {
	defer func() {
		if p := recover(); p != nil {
			r.Logger.Error("jobs: handler panicked", "worker", r.Worker, "job", j.ID, "kind", j.Kind,
				"panic", p, "stack", string(debug.Stack()))
			err = fmt.Errorf("panic: %v", p)
		}
	}()
	return r.Handlers[j.Kind](ctx, j)
}

// hold renews j's lease every Lease/2 until the returned function is
// called. When the lease turns out lost, it cancels the handler.
func (r *Runner) hold(ctx context.Context, lose context.CancelCauseFunc, j *prospector.Job) (release func()) {
	quit, stopped := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(stopped)
		t := time.NewTicker(r.Lease / 2)
		defer t.Stop()
		for {
			select {
			case <-quit:
				return
			case <-t.C:
			}
			sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), storeTimeout)
			err := r.Store.ExtendJobLease(sctx, j.ID, j.LeaseToken, r.Now().Add(r.Lease))
			cancel()
			switch {
			case errors.Is(err, prospector.ErrLeaseLost) || errors.Is(err, prospector.ErrNotFound):
				r.Logger.Warn("jobs: lease lost, cancelling handler", "worker", r.Worker, "job", j.ID, "kind", j.Kind)
				lose(errLeaseLost)
				return
			case err != nil: // the lease may still hold; try again next tick
				r.Logger.Error("jobs: extend lease", "worker", r.Worker, "job", j.ID, "err", err)
			}
		}
	}()
	return func() { close(quit); <-stopped }
}

// record stores the outcome of a handler that returned err.
func (r *Runner) record(ctx context.Context, j *prospector.Job, err error) {
	cause := context.Cause(ctx)
	sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), storeTimeout)
	defer cancel()
	log := r.Logger.With("worker", r.Worker, "job", j.ID, "kind", j.Kind, "attempt", j.Attempts)
	var serr error
	switch {
	case errors.Is(cause, errLeaseLost):
		// Another worker holds the job now; its outcome is theirs to record.
		log.Warn("jobs: finished after losing the lease", "handler_err", err)
		return
	case err == nil:
		serr = r.Store.CompleteJob(sctx, j.ID, j.LeaseToken)
	case IsPermanent(err):
		log.Error("jobs: failed permanently", "err", err)
		serr = r.Store.FailJob(sctx, j.ID, j.LeaseToken, lastError(err))
	case errors.Is(cause, errShutdown):
		// Put it back at once for another worker; no backoff is due.
		log.Info("jobs: interrupted by shutdown", "err", err)
		serr = r.Store.RetryJob(sctx, j.ID, j.LeaseToken, r.Now(), lastError(fmt.Errorf("interrupted: %w", err)))
	default:
		next := r.Now().Add(r.Backoff(j.Attempts))
		if j.Attempts >= j.MaxAttempts {
			log.Error("jobs: failed on the last attempt", "err", err)
		} else {
			log.Warn("jobs: will retry", "err", err, "at", next)
		}
		serr = r.Store.RetryJob(sctx, j.ID, j.LeaseToken, next, lastError(err))
	}
	if errors.Is(serr, prospector.ErrLeaseLost) {
		log.Warn("jobs: lease lost before the outcome was recorded; the job may run again", "handler_err", err)
	} else if serr != nil {
		log.Error("jobs: record outcome", "err", serr)
	}
}

// lastError is err's text as a job keeps it: bounded, and valid UTF-8
// without NUL bytes, which PostgreSQL's text type refuses.
func lastError(err error) string {
	s := err.Error()
	if len(s) > maxLastError {
		s = s[:maxLastError]
	}
	return strings.ReplaceAll(strings.ToValidUTF8(s, ""), "\x00", "")
}
