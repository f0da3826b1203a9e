package jobs_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/prospectorhq/prospector"
	"github.com/prospectorhq/prospector/jobs"
)

// finished runs n jobs of kind to the end, done or failed.
func finished(t *testing.T, s prospector.JobStore, kind string, n int, fail bool) []int64 {
	t.Helper()
	ctx := context.Background()
	var ids []int64
	for range n {
		ids = append(ids, enqueue(t, s, &prospector.Job{Kind: kind}).ID)
	}
	claimed, err := s.ClaimJobs(ctx, "w", []string{kind}, n, time.Minute, time.Now())
	if err != nil || len(claimed) != n {
		t.Fatalf("claim: %d, %v", len(claimed), err)
	}
	for _, j := range claimed {
		if fail {
			err = s.FailJob(ctx, j.ID, j.LeaseToken, "broken")
		} else {
			err = s.CompleteJob(ctx, j.ID, j.LeaseToken)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	return ids
}

func gone(t *testing.T, s prospector.JobStore, ids []int64) bool {
	t.Helper()
	for _, id := range ids {
		if _, err := s.Job(context.Background(), id); !errors.Is(err, prospector.ErrNotFound) {
			return false
		}
	}
	return true
}

// Finished jobs are deleted in the background once past their retention:
// done ones after a week, failed ones after a month by default, however
// many there are; queued ones never.
func TestPrunerDeletesFinishedJobsPastRetention(t *testing.T) {
	store := openSQLite(t, t.TempDir())
	done := finished(t, store, "scan", 25, false)
	failed := finished(t, store, "deliver", 3, true)
	queued := enqueue(t, store, &prospector.Job{Kind: "scan", RunAt: time.Now().Add(365 * 24 * time.Hour)})
	clk := &clock{t: time.Now().Add(6 * 24 * time.Hour)}
	p := &jobs.Pruner{Store: store, Now: clk.Now, Batch: 10, Every: 5 * time.Millisecond, Logger: logger(t)}
	ctx, cancel := context.WithCancel(context.Background())
	stopped := make(chan struct{})
	go func() { p.Run(ctx); close(stopped) }()
	t.Cleanup(func() { cancel(); <-stopped })

	time.Sleep(50 * time.Millisecond) // many passes
	if n, err := store.CountJobs(context.Background(), "", ""); err != nil {
		t.Fatal(err)
	} else if n != 29 {
		t.Fatalf("%d jobs after six days, want all 29 kept", n)
	}
	clk.Add(2 * 24 * time.Hour) // 8 days
	waitFor(t, "done jobs to be pruned", func() bool { return gone(t, store, done) })
	if gone(t, store, failed[:1]) {
		t.Fatal("a failed job was pruned after 8 days")
	}
	clk.Add(23 * 24 * time.Hour) // 31 days
	waitFor(t, "failed jobs to be pruned", func() bool { return gone(t, store, failed) })
	if got := jobState(t, store, queued.ID); got.State != prospector.JobQueued {
		t.Fatalf("queued job %+v", got)
	}
}

// A negative retention keeps those jobs for ever; a custom one applies.
func TestPrunerRetentionSettings(t *testing.T) {
	store := openSQLite(t, t.TempDir())
	done := finished(t, store, "scan", 3, false)
	failed := finished(t, store, "deliver", 3, true)
	p := &jobs.Pruner{Store: store, KeepDone: -1, KeepFailed: time.Hour,
		Now: func() time.Time { return time.Now().Add(400 * 24 * time.Hour) }}
	n, err := p.Prune(context.Background())
	if err != nil || n != 3 {
		t.Fatalf("pruned %d (%v), want the 3 failed jobs", n, err)
	}
	if !gone(t, store, failed) || gone(t, store, done[:1]) {
		t.Fatal("kept-for-ever done jobs pruned, or failed ones kept")
	}
}
