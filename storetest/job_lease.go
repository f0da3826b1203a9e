package storetest

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/prospectorhq/prospector"
)

// testJobLeaseSameWorker: a worker whose lease ran out and who claimed
// the job again under the same name holds it through the new claim only.
// The old claim's token can neither finish, retry, fail nor extend it,
// so a handler that stalled cannot overwrite the run that replaced it.
func testJobLeaseSameWorker(t *testing.T, s prospector.Store) {
	ctx := context.Background()
	t0 := jobEpoch()
	j := enqueue(t, s, &prospector.Job{Kind: "a", RunAt: t0})
	stale := claim(t, s, "node", nil, 1, t0)
	fresh := claim(t, s, "node", nil, 1, t0.Add(2*time.Minute)) // past the first lease
	if len(stale) != 1 || len(fresh) != 1 || fresh[0].ID != j.ID || fresh[0].Attempts != 2 {
		t.Fatalf("claims %+v then %+v, want job %d twice", stale, fresh, j.ID)
	}
	old, cur := stale[0].LeaseToken, fresh[0].LeaseToken
	if old == "" || cur == "" || old == cur {
		t.Fatalf("lease tokens %q then %q, want two different ones", old, cur)
	}
	for name, err := range map[string]error{
		"retry":    s.RetryJob(ctx, j.ID, old, t0.Add(time.Hour), "stale failure"),
		"fail":     s.FailJob(ctx, j.ID, old, "stale failure"),
		"extend":   s.ExtendJobLease(ctx, j.ID, old, t0.Add(24*time.Hour)),
		"complete": s.CompleteJob(ctx, j.ID, old),
	} {
		if !errors.Is(err, prospector.ErrLeaseLost) {
			t.Errorf("%s with the expired claim's token: err = %v, want ErrLeaseLost", name, err)
		}
	}
	got := mustJob(t, s, j.ID)
	if got.State != prospector.JobRunning || got.LeaseToken != cur || got.LastError == "stale failure" ||
		got.LockedUntil == nil || !got.LockedUntil.Equal(t0.Add(3*time.Minute)) {
		t.Fatalf("after the stale claim's calls: %+v, want running under the new claim, lease unchanged", got)
	}
	if err := s.ExtendJobLease(ctx, j.ID, cur, t0.Add(10*time.Minute)); err != nil {
		t.Fatal(err)
	}
	if err := s.CompleteJob(ctx, j.ID, cur); err != nil {
		t.Fatal(err)
	}
	if done := mustJob(t, s, j.ID); done.State != prospector.JobDone || done.Attempts != 2 {
		t.Fatalf("completed job %+v", done)
	}
}

// testJobPrune: finished jobs past their retention are deleted in
// bounded rounds; queued and running jobs, and recent finished ones, stay.
func testJobPrune(t *testing.T, s prospector.Store) {
	ctx := context.Background()
	t0 := jobEpoch()
	finish := func(kind string, fail bool) int64 {
		t.Helper()
		j := enqueue(t, s, &prospector.Job{Kind: kind, RunAt: t0})
		c := claim(t, s, "w", []string{kind}, 1, t0)
		var err error
		if fail {
			err = s.FailJob(ctx, j.ID, c[0].LeaseToken, "broken")
		} else {
			err = s.CompleteJob(ctx, j.ID, c[0].LeaseToken)
		}
		if err != nil {
			t.Fatal(err)
		}
		return j.ID
	}
	var done, failed []int64
	for range 5 {
		done = append(done, finish("d", false))
	}
	for range 3 {
		failed = append(failed, finish("f", true))
	}
	queued := enqueue(t, s, &prospector.Job{Kind: "q", RunAt: t0})
	running := enqueue(t, s, &prospector.Job{Kind: "r", RunAt: t0})
	claim(t, s, "w", []string{"r"}, 1, t0)
	// Finished jobs are stamped with the store's clock: a bound an hour
	// ahead covers all of them, one an hour back none.
	future, past := time.Now().Add(time.Hour), time.Now().Add(-time.Hour)

	if n, err := s.PruneJobs(ctx, past, past, 100); err != nil || n != 0 {
		t.Fatalf("prune with bounds before every job: %d, %v; want 0", n, err)
	}
	if n, err := s.PruneJobs(ctx, time.Time{}, time.Time{}, 100); err != nil || n != 0 {
		t.Fatalf("prune with zero bounds: %d, %v; want 0 (keep all)", n, err)
	}
	// Done only, in rounds of 2.
	var total int64
	for round := 0; ; round++ {
		n, err := s.PruneJobs(ctx, future, time.Time{}, 2)
		if err != nil {
			t.Fatal(err)
		}
		if n > 2 {
			t.Fatalf("round %d deleted %d, more than its limit of 2", round, n)
		}
		if n == 0 {
			break
		}
		total += n
	}
	if total != int64(len(done)) {
		t.Fatalf("pruned %d done jobs, want %d", total, len(done))
	}
	for _, id := range done {
		if _, err := s.Job(ctx, id); !errors.Is(err, prospector.ErrNotFound) {
			t.Fatalf("done job %d still there: %v", id, err)
		}
	}
	for _, id := range failed {
		mustJob(t, s, id) // their bound was zero: kept
	}
	if n, err := s.PruneJobs(ctx, future, future, 100); err != nil || n != int64(len(failed)) {
		t.Fatalf("prune of the failed jobs: %d, %v; want %d", n, err, len(failed))
	}
	if q, r := mustJob(t, s, queued.ID), mustJob(t, s, running.ID); q.State != prospector.JobQueued || r.State != prospector.JobRunning {
		t.Fatalf("active jobs changed by pruning: %+v %+v", q, r)
	}
	if n, err := s.CountJobs(ctx, "", ""); err != nil || n != 2 {
		t.Fatalf("%d jobs left (%v), want the queued and the running one", n, err)
	}
}
