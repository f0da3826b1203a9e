package jobs_test

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/prospectorhq/prospector"
	"github.com/prospectorhq/prospector/jobs"
	"github.com/prospectorhq/prospector/sqlite"
)

func openSQLite(t *testing.T, dir string) *sqlite.DB {
	t.Helper()
	db, err := sqlite.Open(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

func logger(t *testing.T) *slog.Logger {
	return slog.New(slog.NewTextHandler(t.Output(), &slog.HandlerOptions{Level: slog.LevelDebug}))
}

// started is a runner running in the background.
type started struct {
	cancel context.CancelFunc
	done   chan error
}

// stop ends the runner and waits for Run to return.
func (s started) stop(t *testing.T) {
	t.Helper()
	s.cancel()
	if err := <-s.done; err != nil {
		t.Errorf("run: %v", err)
	}
	s.done <- nil // for the cleanup's stop
}

// start runs r until stopped, or until the test ends.
func start(t *testing.T, r *jobs.Runner) started {
	t.Helper()
	if r.Logger == nil {
		r.Logger = logger(t)
	}
	ctx, cancel := context.WithCancel(context.Background())
	s := started{cancel: cancel, done: make(chan error, 1)}
	go func() { s.done <- r.Run(ctx) }()
	t.Cleanup(func() { cancel(); <-s.done })
	return s
}

func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func jobState(t *testing.T, s prospector.JobStore, id int64) *prospector.Job {
	t.Helper()
	j, err := s.Job(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	return j
}

func enqueue(t *testing.T, s prospector.JobStore, j *prospector.Job) *prospector.Job {
	t.Helper()
	if created, err := s.EnqueueJob(context.Background(), j); err != nil || !created {
		t.Fatalf("enqueue: created=%v err=%v", created, err)
	}
	return j
}

// clock is a settable Now.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) Now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *clock) Add(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

// executions counts handler runs per job.
type executions struct {
	mu sync.Mutex
	n  map[int64]int
}

func (e *executions) add(id int64) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.n == nil {
		e.n = map[int64]int{}
	}
	e.n[id]++
}

func (e *executions) of(id int64) int {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.n[id]
}

// countingStore counts claims, to know when the runner has polled.
type countingStore struct {
	prospector.JobStore
	claims atomic.Int64
}

func (c *countingStore) ClaimJobs(ctx context.Context, worker string, kinds []string, limit int, lease time.Duration,
	now time.Time) ([]*prospector.Job, error) {
	c.claims.Add(1)
	return c.JobStore.ClaimJobs(ctx, worker, kinds, limit, lease, now)
}

func TestRunsOnceAndNotifyWakes(t *testing.T) {
	store := &countingStore{JobStore: openSQLite(t, t.TempDir())}
	var ran executions
	var payload atomic.Value
	r := &jobs.Runner{Store: store, Poll: time.Hour, Handlers: map[string]jobs.Handler{
		"scan": func(ctx context.Context, j *prospector.Job) error {
			ran.add(j.ID)
			payload.Store(string(j.Payload))
			return nil
		},
	}}
	start(t, r)
	waitFor(t, "the first poll", func() bool { return store.claims.Load() > 0 })
	// The next poll is an hour away: only Notify can get the job run now.
	j := &prospector.Job{Kind: "scan", Payload: []byte(`{"radar":"r1"}`)}
	if created, err := r.Enqueue(context.Background(), j); err != nil || !created {
		t.Fatalf("enqueue: %v %v", created, err)
	}
	waitFor(t, "the job to be done", func() bool { return jobState(t, store, j.ID).State == prospector.JobDone })
	time.Sleep(50 * time.Millisecond)
	got := jobState(t, store, j.ID)
	if ran.of(j.ID) != 1 || got.Attempts != 1 || got.LockedBy != r.Worker || r.Worker == "" {
		t.Fatalf("ran %d times, job %+v, worker %q", ran.of(j.ID), got, r.Worker)
	}
	if p, _ := payload.Load().(string); !strings.Contains(p, `"r1"`) {
		t.Fatalf("handler saw payload %q", p)
	}
}

func TestRetryWithBackoffThenFailed(t *testing.T) {
	store := openSQLite(t, t.TempDir())
	t0 := time.Now().UTC().Truncate(time.Second)
	clk := &clock{t: t0}
	var calls atomic.Int64
	r := &jobs.Runner{Store: store, Poll: 5 * time.Millisecond, Now: clk.Now,
		Backoff: func(attempt int) time.Duration { return time.Duration(attempt) * time.Minute },
		Handlers: map[string]jobs.Handler{"deliver": func(ctx context.Context, j *prospector.Job) error {
			calls.Add(1)
			return fmt.Errorf("boom %d", j.Attempts)
		}}}
	j := enqueue(t, store, &prospector.Job{Kind: "deliver", RunAt: t0, MaxAttempts: 3})
	start(t, r)

	waitFor(t, "the first failure", func() bool { return jobState(t, store, j.ID).LastError != "" })
	got := jobState(t, store, j.ID)
	if got.State != prospector.JobQueued || got.Attempts != 1 || got.LastError != "boom 1" || !got.RunAt.Equal(t0.Add(time.Minute)) {
		t.Fatalf("after the first failure: %+v, want queued for t0+1m", got)
	}
	time.Sleep(50 * time.Millisecond) // many polls; the clock has not moved
	if calls.Load() != 1 {
		t.Fatalf("retried before its backoff: %d calls", calls.Load())
	}
	clk.Add(time.Minute)
	waitFor(t, "the second failure", func() bool {
		got := jobState(t, store, j.ID)
		return got.Attempts == 2 && got.State == prospector.JobQueued
	})
	if got := jobState(t, store, j.ID); got.LastError != "boom 2" || !got.RunAt.Equal(t0.Add(3*time.Minute)) {
		t.Fatalf("after the second failure: %+v, want queued for t0+1m+2m", got)
	}
	clk.Add(2 * time.Minute)
	waitFor(t, "the job to fail", func() bool { return jobState(t, store, j.ID).State == prospector.JobFailed })
	clk.Add(time.Hour)
	time.Sleep(50 * time.Millisecond)
	if got := jobState(t, store, j.ID); calls.Load() != 3 || got.Attempts != 3 || got.LastError != "boom 3" {
		t.Fatalf("%d calls, job %+v; want 3 attempts ending failed", calls.Load(), got)
	}
}

func TestPermanentErrorFailsAtOnce(t *testing.T) {
	store := openSQLite(t, t.TempDir())
	var calls atomic.Int64
	r := &jobs.Runner{Store: store, Poll: 5 * time.Millisecond, Backoff: func(int) time.Duration { return 0 },
		Handlers: map[string]jobs.Handler{"deliver": func(ctx context.Context, j *prospector.Job) error {
			calls.Add(1)
			return fmt.Errorf("deliver: %w", jobs.Permanent(errors.New("410 gone")))
		}}}
	j := enqueue(t, store, &prospector.Job{Kind: "deliver", MaxAttempts: 10})
	start(t, r)
	waitFor(t, "the job to fail", func() bool { return jobState(t, store, j.ID).State == prospector.JobFailed })
	time.Sleep(30 * time.Millisecond)
	if got := jobState(t, store, j.ID); calls.Load() != 1 || got.Attempts != 1 || got.LastError != "deliver: 410 gone" {
		t.Fatalf("%d calls, job %+v", calls.Load(), got)
	}
	if jobs.Permanent(nil) != nil || jobs.IsPermanent(errors.New("x")) {
		t.Fatal("Permanent(nil) or IsPermanent of a plain error")
	}
}

func TestPanicIsRetried(t *testing.T) {
	store := openSQLite(t, t.TempDir())
	var calls atomic.Int64
	r := &jobs.Runner{Store: store, Poll: 5 * time.Millisecond, Backoff: func(int) time.Duration { return 0 },
		Handlers: map[string]jobs.Handler{"scan": func(ctx context.Context, j *prospector.Job) error {
			if calls.Add(1) == 1 {
				panic("nil map")
			}
			return nil
		}}}
	j := enqueue(t, store, &prospector.Job{Kind: "scan"})
	start(t, r)
	waitFor(t, "the job to be done", func() bool { return jobState(t, store, j.ID).State == prospector.JobDone })
	if got := jobState(t, store, j.ID); got.Attempts != 2 || !strings.Contains(got.LastError, "panic: nil map") {
		t.Fatalf("job %+v, want done on attempt 2 after a recorded panic", got)
	}
}

// A node claims a job and dies; after a restart the job runs elsewhere
// once its lease has expired, and not before.
func TestSurvivesCrashAndRestart(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	db, err := sqlite.Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	j := enqueue(t, db, &prospector.Job{Kind: "scan", Payload: []byte(`{"radar":"r1"}`)})
	if claimed, err := db.ClaimJobs(ctx, "node-1", nil, 10, time.Minute, time.Now()); err != nil || len(claimed) != 1 {
		t.Fatalf("node-1 claim: %v %v", claimed, err)
	}
	db.Close() // node-1 crashes holding the job

	store := openSQLite(t, dir)
	var ran executions
	handlers := map[string]jobs.Handler{"scan": func(ctx context.Context, j *prospector.Job) error {
		ran.add(j.ID)
		return nil
	}}
	early := start(t, &jobs.Runner{Store: store, Worker: "node-2", Poll: 5 * time.Millisecond, Handlers: handlers})
	time.Sleep(100 * time.Millisecond)
	early.stop(t)
	if ran.of(j.ID) != 0 {
		t.Fatal("a job under another node's lease was run")
	}
	later := func() time.Time { return time.Now().Add(2 * time.Minute) } // past node-1's lease
	start(t, &jobs.Runner{Store: store, Worker: "node-2", Poll: 5 * time.Millisecond, Now: later, Handlers: handlers})
	waitFor(t, "the job to be done", func() bool { return jobState(t, store, j.ID).State == prospector.JobDone })
	if got := jobState(t, store, j.ID); ran.of(j.ID) != 1 || got.Attempts != 2 || got.LockedBy != "node-2" {
		t.Fatalf("ran %d times, job %+v", ran.of(j.ID), got)
	}
}

// A runner is stopped while its handler hangs; once the lease expires a
// runner with another name takes the job over, and the first runner's
// late completion is refused.
func TestStalledRunnerLosesJob(t *testing.T) {
	store := openSQLite(t, t.TempDir())
	j := enqueue(t, store, &prospector.Job{Kind: "scan"})
	var ranA, ranB atomic.Int64
	began, release := make(chan struct{}), make(chan struct{})
	a := start(t, &jobs.Runner{Store: store, Worker: "a", Poll: 5 * time.Millisecond, Handlers: map[string]jobs.Handler{
		"scan": func(ctx context.Context, j *prospector.Job) error {
			ranA.Add(1)
			close(began)
			<-release // ignores ctx: a stuck handler
			return nil
		}}})
	<-began
	a.cancel() // Run waits for the stuck handler
	start(t, &jobs.Runner{Store: store, Worker: "b", Poll: 5 * time.Millisecond,
		Now: func() time.Time { return time.Now().Add(2 * time.Minute) },
		Handlers: map[string]jobs.Handler{"scan": func(ctx context.Context, j *prospector.Job) error {
			ranB.Add(1)
			return nil
		}}})
	waitFor(t, "b to finish the job", func() bool { return jobState(t, store, j.ID).State == prospector.JobDone })
	close(release)
	if err := <-a.done; err != nil {
		t.Fatal(err)
	}
	a.done <- nil
	if got := jobState(t, store, j.ID); ranA.Load() != 1 || ranB.Load() != 1 || got.LockedBy != "b" || got.Attempts != 2 {
		t.Fatalf("a ran %d, b ran %d, job %+v", ranA.Load(), ranB.Load(), got)
	}
}

func TestShutdown(t *testing.T) {
	t.Run("InterruptedJobIsRequeuedAtOnce", func(t *testing.T) {
		store := openSQLite(t, t.TempDir())
		j := enqueue(t, store, &prospector.Job{Kind: "scan"})
		began := make(chan struct{})
		a := start(t, &jobs.Runner{Store: store, Worker: "a", Poll: 5 * time.Millisecond,
			Backoff: func(int) time.Duration { return time.Hour },
			Handlers: map[string]jobs.Handler{"scan": func(ctx context.Context, j *prospector.Job) error {
				close(began)
				<-ctx.Done()
				return ctx.Err()
			}}})
		<-began
		a.stop(t)
		got := jobState(t, store, j.ID)
		if got.State != prospector.JobQueued || got.RunAt.After(time.Now()) || !strings.Contains(got.LastError, "interrupted") {
			t.Fatalf("after shutdown: %+v, want queued now with an interrupted error", got)
		}
		start(t, &jobs.Runner{Store: store, Worker: "b", Poll: 5 * time.Millisecond,
			Handlers: map[string]jobs.Handler{"scan": func(ctx context.Context, j *prospector.Job) error { return nil }}})
		waitFor(t, "b to finish the job", func() bool { return jobState(t, store, j.ID).State == prospector.JobDone })
	})
	t.Run("GraceLetsHandlersFinish", func(t *testing.T) {
		store := openSQLite(t, t.TempDir())
		j := enqueue(t, store, &prospector.Job{Kind: "scan"})
		began := make(chan struct{})
		a := start(t, &jobs.Runner{Store: store, Poll: 5 * time.Millisecond, Grace: 5 * time.Second,
			Handlers: map[string]jobs.Handler{"scan": func(ctx context.Context, j *prospector.Job) error {
				close(began)
				select {
				case <-time.After(100 * time.Millisecond):
					return nil
				case <-ctx.Done():
					return ctx.Err()
				}
			}}})
		<-began
		a.stop(t)
		if got := jobState(t, store, j.ID); got.State != prospector.JobDone {
			t.Fatalf("handler within its grace: job %+v, want done", got)
		}
	})
}

// A handler running longer than its lease keeps the job: the runner
// renews the lease, so a second runner polling all along never takes it.
func TestLeaseRenewedWhileRunning(t *testing.T) {
	store := openSQLite(t, t.TempDir())
	j := enqueue(t, store, &prospector.Job{Kind: "scan"})
	var ran executions
	handlers := map[string]jobs.Handler{"scan": func(ctx context.Context, j *prospector.Job) error {
		ran.add(j.ID)
		select {
		case <-time.After(1200 * time.Millisecond):
			return nil
		case <-ctx.Done():
			return ctx.Err()
		}
	}}
	start(t, &jobs.Runner{Store: store, Worker: "a", Poll: 5 * time.Millisecond, Lease: 400 * time.Millisecond, Handlers: handlers})
	waitFor(t, "a to start", func() bool { return ran.of(j.ID) == 1 })
	start(t, &jobs.Runner{Store: store, Worker: "b", Poll: 5 * time.Millisecond, Lease: 400 * time.Millisecond, Handlers: handlers})
	waitFor(t, "the job to be done", func() bool { return jobState(t, store, j.ID).State == prospector.JobDone })
	if got := jobState(t, store, j.ID); ran.of(j.ID) != 1 || got.LockedBy != "a" || got.Attempts != 1 {
		t.Fatalf("ran %d times, job %+v", ran.of(j.ID), got)
	}
}

func TestTwoRunnersRunEachJobOnce(t *testing.T) {
	store := openSQLite(t, t.TempDir())
	runTwoRunners(t, store, store, 100)
}

// runTwoRunners enqueues n jobs and runs them with one runner on each
// store; every job must run exactly once.
func runTwoRunners(t *testing.T, s1, s2 prospector.JobStore, n int) {
	var ran executions
	var byWorker sync.Map
	handler := func(worker string) jobs.Handler {
		return func(ctx context.Context, j *prospector.Job) error {
			ran.add(j.ID)
			c, _ := byWorker.LoadOrStore(worker, new(atomic.Int64))
			c.(*atomic.Int64).Add(1)
			time.Sleep(time.Duration(rand.IntN(3)) * time.Millisecond)
			return nil
		}
	}
	ids := make([]int64, n)
	for i := range n {
		ids[i] = enqueue(t, s1, &prospector.Job{Kind: "deliver", Payload: []byte(fmt.Sprintf(`{"i":%d}`, i))}).ID
	}
	for i, s := range []prospector.JobStore{s1, s2} {
		w := fmt.Sprintf("node-%d", i+1)
		start(t, &jobs.Runner{Store: s, Worker: w, Poll: 5 * time.Millisecond, Handlers: map[string]jobs.Handler{"deliver": handler(w)}})
	}
	waitFor(t, "every job to be done", func() bool {
		done, err := s1.CountJobs(context.Background(), "deliver", prospector.JobDone)
		return err == nil && done == int64(n)
	})
	time.Sleep(50 * time.Millisecond) // a second run would show up now
	for _, id := range ids {
		if got := ran.of(id); got != 1 {
			t.Errorf("job %d ran %d times", id, got)
		}
	}
	byWorker.Range(func(w, c any) bool {
		t.Logf("%s ran %d jobs", w, c.(*atomic.Int64).Load())
		return true
	})
}

func TestDefaultBackoff(t *testing.T) {
	for attempt := 0; attempt <= 40; attempt++ {
		base := time.Hour
		if attempt <= 12 {
			base = min(time.Second<<max(attempt-1, 0), time.Hour)
		}
		for range 50 {
			d := jobs.DefaultBackoff(attempt)
			if d < base*4/5 || d > base*6/5 || d > time.Hour {
				t.Fatalf("attempt %d: %v outside %v±20%% (capped at 1h)", attempt, d, base)
			}
		}
	}
}

func TestRunnerNeedsStoreAndHandlers(t *testing.T) {
	if err := (&jobs.Runner{}).Run(context.Background()); err == nil {
		t.Fatal("runner without a store ran")
	}
	store := openSQLite(t, t.TempDir())
	if err := (&jobs.Runner{Store: store}).Run(context.Background()); err == nil {
		t.Fatal("runner without handlers ran")
	}
}
