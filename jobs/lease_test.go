package jobs_test

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/prospectorhq/prospector"
	"github.com/prospectorhq/prospector/jobs"
)

// A runner's handler stalls past its lease (its renewals failed) and the
// same runner, under the same worker name, claims the job again. When
// the stale handler returns, its outcome must not overwrite the claim
// that now holds the job: only the second run's outcome counts, and the
// job is not queued for a third run.
func TestStaleClaimOfSameWorkerCannotFinishJob(t *testing.T) {
	store := &outcomeStore{JobStore: openSQLite(t, t.TempDir()), retried: make(chan error, 10)}
	t0 := time.Now().UTC().Truncate(time.Second)
	clk := &clock{t: t0}
	j := enqueue(t, store, &prospector.Job{Kind: "scan", RunAt: t0})
	var calls atomic.Int64
	firstBegan, releaseFirst, firstDone := make(chan struct{}), make(chan struct{}), make(chan struct{})
	secondBegan, releaseSecond := make(chan struct{}), make(chan struct{})
	r := &jobs.Runner{Store: store, Worker: "node", Poll: 5 * time.Millisecond, Now: clk.Now,
		Lease:   time.Hour, // renewals never come within the test: the fake clock alone expires it
		Backoff: func(int) time.Duration { return time.Minute },
		Handlers: map[string]jobs.Handler{"scan": func(ctx context.Context, j *prospector.Job) error {
			switch calls.Add(1) {
			case 1:
				close(firstBegan)
				<-releaseFirst // stalled, ignoring ctx
				defer close(firstDone)
				return errors.New("stale run failed")
			default:
				close(secondBegan)
				<-releaseSecond
				return nil
			}
		}}}
	start(t, r)
	var once sync.Once
	letSecondGo := func() { once.Do(func() { close(releaseSecond) }) }
	t.Cleanup(letSecondGo) // before the runner's cleanup, which waits for it
	<-firstBegan
	clk.Add(2 * time.Hour) // the first claim's lease has expired
	r.Notify()
	<-secondBegan
	close(releaseFirst) // the stale run reports its failure
	<-firstDone
	if err := <-store.retried; !errors.Is(err, prospector.ErrLeaseLost) {
		t.Fatalf("recording the stale run's failure: %v, want ErrLeaseLost", err)
	}
	if got := jobState(t, store, j.ID); got.State != prospector.JobRunning || got.Attempts != 2 {
		t.Fatalf("after the stale run reported: %+v, want still running under the second claim", got)
	}
	letSecondGo()
	waitFor(t, "the job to be done", func() bool { return jobState(t, store, j.ID).State == prospector.JobDone })
	clk.Add(time.Hour)
	time.Sleep(50 * time.Millisecond)
	if got := jobState(t, store, j.ID); calls.Load() != 2 || got.State != prospector.JobDone || got.Attempts != 2 {
		t.Fatalf("%d runs, job %+v; want 2 runs ending done", calls.Load(), got)
	}
}

// outcomeStore reports what each RetryJob call returned.
type outcomeStore struct {
	prospector.JobStore
	retried chan error
}

func (s *outcomeStore) RetryJob(ctx context.Context, id int64, token string, runAt time.Time, lastError string) error {
	err := s.JobStore.RetryJob(ctx, id, token, runAt, lastError)
	s.retried <- err
	return err
}
