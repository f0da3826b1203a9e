package radar

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/prospectorhq/prospector/postgres/pgtest"

	"github.com/prospectorhq/prospector"
	"github.com/prospectorhq/prospector/jobs"
	"github.com/prospectorhq/prospector/postgres"
	"github.com/prospectorhq/prospector/search"
)

// node is one server of a deployment: its own connection pool, search
// index and engine.
type node struct {
	st      *postgres.DB
	eng     *Engine
	scanned atomic.Int64 // signals of the scan batches this node applied
}

func newNode(t *testing.T, url string, now func() time.Time) *node {
	st := pgtest.Open(t, url)
	ix := search.New(st)
	if _, err := ix.Sync(context.Background()); err != nil {
		t.Fatal(err)
	}
	return &node{st: st, eng: &Engine{Store: st, Searcher: ix, Now: now, ScanBatch: 2, Logger: quiet}}
}

func (n *node) scan(ctx context.Context, _ *prospector.Job) error {
	st, err := n.eng.ScanOnce(ctx)
	n.scanned.Add(int64(st.Signals))
	return err
}

// Two nodes run the radar jobs against one PostgreSQL database while
// signals arrive: every signal is scanned once in all (the job queue
// gives the scan to one node at a time, and the cursors refuse a batch
// applied twice), and the leads are those a single radar finds.
func TestPostgresTwoNodesProcessEachSignalOnce(t *testing.T) {
	url := pgtest.FreshSchema(t)
	w := newWorldOn(t, pgtest.Open(t, url))
	w.seedCompanies()
	w.seedPeople()
	scanned := []*prospector.Radar{w.radar("vp", vpSales), w.radar("hiring", matchCases[1].c), w.radar("funds", prospector.RadarConfig{RaisedFunds: true})}
	nodes := []*node{newNode(t, url, func() time.Time { return w.now }), newNode(t, url, func() time.Time { return w.now })}
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	for i, n := range nodes {
		runner := &jobs.Runner{Store: n.st, Worker: "node-" + string(rune('a'+i)), Poll: 10 * time.Millisecond,
			Handlers: map[string]jobs.Handler{prospector.JobRadarBackfill: n.eng.Backfill, prospector.JobRadarScan: n.scan}}
		wg.Add(2)
		go func() { defer wg.Done(); _ = runner.Run(ctx) }()
		go func() { defer wg.Done(); n.eng.Schedule(ctx, runner, 15*time.Millisecond) }()
	}
	defer func() { cancel(); wg.Wait() }()

	for start := 0; start < len(fixtureSignals); start += 3 {
		w.seedSignals(fixtureSignals[start:min(start+3, len(fixtureSignals))])
		time.Sleep(20 * time.Millisecond)
	}
	waitFor(t, func() bool {
		b, err := w.st.RadarBacklog(context.Background())
		return err == nil && b.MinCursor == b.MaxSignalID && len(b.Unbackfilled) == 0
	})
	cancel()
	wg.Wait()
	if total := nodes[0].scanned.Load() + nodes[1].scanned.Load(); total != int64(len(fixtureSignals)) {
		t.Fatalf("nodes scanned %d + %d signals, want %d in all", nodes[0].scanned.Load(), nodes[1].scanned.Load(), len(fixtureSignals))
	}
	for i, want := range []string{matchCases[0].want, matchCases[1].want, pairs("Finn:s2")} {
		if got := w.leads(scanned[i]); got != want {
			t.Errorf("radar %s: %q, want %q", scanned[i].Name, got, want)
		}
	}
	n, err := w.st.CountJobs(context.Background(), prospector.JobRadarScan, prospector.JobFailed)
	if err != nil || n != 0 {
		t.Fatalf("%d failed scan jobs (%v)", n, err)
	}
}

// Two nodes scanning at once, outside the job queue: a node whose
// cursors moved under it writes nothing, so no batch is applied twice.
func TestPostgresConcurrentScans(t *testing.T) {
	url := pgtest.FreshSchema(t)
	w := newWorldOn(t, pgtest.Open(t, url))
	w.seedCompanies()
	w.seedPeople()
	r := w.radar("vp", vpSales)
	w.seedSignals(fixtureSignals)
	nodes := []*node{newNode(t, url, func() time.Time { return w.now }), newNode(t, url, func() time.Time { return w.now })}
	nodes[1].eng.ScanBatch = 3
	var wg sync.WaitGroup
	var already atomic.Int64
	for _, n := range nodes {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				st, err := n.eng.ScanOnce(context.Background())
				if err != nil {
					t.Error(err)
					return
				}
				n.scanned.Add(int64(st.Signals))
				already.Add(int64(st.AlreadyStored))
				if st.Signals == 0 {
					return
				}
			}
		}()
	}
	wg.Wait()
	if total := nodes[0].scanned.Load() + nodes[1].scanned.Load(); total != int64(len(fixtureSignals)) || already.Load() != 0 {
		t.Fatalf("scanned %d + %d (already stored %d), want %d once", nodes[0].scanned.Load(), nodes[1].scanned.Load(),
			already.Load(), len(fixtureSignals))
	}
	if got := w.leads(r); got != matchCases[0].want {
		t.Fatalf("leads %q, want %q", got, matchCases[0].want)
	}
}
