package sources_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/prospectorhq/prospector"
	"github.com/prospectorhq/prospector/jobs"
	"github.com/prospectorhq/prospector/postgres/pgtest"
	"github.com/prospectorhq/prospector/sources"
	"github.com/prospectorhq/prospector/sources/sourcetest"
)

func TestTwoRunnersPollATargetOnce(t *testing.T) {
	testTwoRunners(t, nil)
}

func TestTwoRunnersPollATargetOnceOnPostgres(t *testing.T) {
	st := pgtest.Open(t, pgtest.FreshSchema(t))
	testTwoRunners(t, st)
}

// Two nodes, each with a scheduler and a job runner on one store, find
// the same targets due: each target is polled once, the board a crawl
// discovers is polled at once through its own job, and a poll job
// queued again after the poll (a node that read the schedule before it)
// does nothing.
func testTwoRunners(t *testing.T, st prospector.Store) {
	var opts []harnessOption
	if st != nil {
		opts = append(opts, onStore(st))
	}
	h := newHarness(t, []string{qfDomain}, append(opts, fastSites(qfDomain))...)
	if err := h.boards.AddFixture("greenhouse", qfToken); err != nil {
		t.Fatal(err)
	}
	h.site.Set(qfDomain, "/", sourcetest.Page{Body: sourcetest.Homepage("Quillfeather Systems",
		[]string{"https://boards.greenhouse.io/" + qfToken}, qfScripts)})
	h.watch(qfDomain)

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var wg sync.WaitGroup
	var runners []*jobs.Runner
	for _, name := range []string{"node-a", "node-b"} {
		p := *h.poller
		r := &jobs.Runner{Store: h.st, Worker: name, Poll: 20 * time.Millisecond,
			Handlers: map[string]jobs.Handler{prospector.JobSourcePoll: p.PollJob}}
		p.Queue = r
		runners = append(runners, r)
		wg.Add(1)
		go func() { defer wg.Done(); r.Run(ctx) }()
		// Both nodes look before either has polled.
		if _, err := p.ScheduleOnce(ctx, r); err != nil {
			t.Fatal(err)
		}
	}
	done := func() bool {
		ts, err := h.st.ListTargets(ctx, prospector.TargetFilter{Domain: qfDomain, Kind: prospector.TargetBoard})
		if err != nil || len(ts) != 1 || ts[0].LastSuccessAt == nil {
			return false
		}
		n, err := h.st.CountJobs(ctx, prospector.JobSourcePoll, prospector.JobDone)
		return err == nil && n == 2
	}
	waitFor(t, done)
	board := h.target(qfDomain, prospector.TargetBoard, "greenhouse")
	// A node that read the schedule before the polls queues them again.
	for _, id := range []int64{board.ID, h.target(qfDomain, prospector.TargetHomepage, "").ID} {
		if created, err := runners[1].Enqueue(ctx, prospector.SourcePollJob(id)); err != nil || !created {
			t.Fatalf("enqueue again: %v %v", created, err)
		}
	}
	waitFor(t, func() bool {
		n, err := h.st.CountJobs(ctx, prospector.JobSourcePoll, prospector.JobDone)
		return err == nil && n == 4
	})
	for _, r := range runners {
		if n, err := (&sources.Poller{Store: h.st}).ScheduleOnce(ctx, r); err != nil || n != 0 {
			t.Fatalf("scheduling after the polls: %d jobs, %v", n, err)
		}
	}
	cancel()
	wg.Wait()
	if n := h.boards.Stats("greenhouse").Requests; n != 1 {
		t.Fatalf("the board was fetched %d times, want once", n)
	}
	if n := h.site.Count(qfDomain, "/"); n != 1 {
		t.Fatalf("the homepage was fetched %d times, want once", n)
	}
	if len(h.openings(qfDomain, true)) != 3 || len(h.signals(qfDomain, "company_hiring")) != 3 {
		t.Fatal("the discovered board's openings are missing")
	}
}

func waitFor(t *testing.T, ok func() bool) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for !ok() {
		if time.Now().After(deadline) {
			t.Fatal("timed out")
		}
		time.Sleep(20 * time.Millisecond)
	}
}
