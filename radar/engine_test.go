package radar

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/prospectorhq/prospector"
	"github.com/prospectorhq/prospector/jobs"
)

var vpSales = prospector.RadarConfig{Titles: []string{"VP Sales"}}

// The score of docs/scoring.md, component by component.
func TestScore(t *testing.T) {
	w := newWorld(t)
	w.seedCompanies()
	w.seedPeople()
	w.sync()
	w.seedSignals(fixtureSignals)
	r := w.radar("vp", vpSales)
	w.backfill(r)
	// Ava: job change (30) a day old (25·2^(-1/30) = 24.4), VP (9) matching
	// the titles (15), Acme's industry, headcount and her country known
	// with no filters on them (15).
	ava := w.lead(r, "Ava")
	want := prospector.ScoreBreakdown{Total: 93.4, SignalType: 30, Recency: 24.4, TitleFit: 24, CompanyFit: 15,
		Type: "job_change", SignalID: w.sigs["s3"].ID}
	if ava.Breakdown == nil || *ava.Breakdown != want || *ava.Score != 93.4 {
		t.Fatalf("Ava: score %v, breakdown %+v\nwant %+v", *ava.Score, ava.Breakdown, want)
	}
	// Jade's best is her influencer engagement (20) of six days ago
	// (21.8); Dune's headcount is unknown (company fit 10).
	jade := w.lead(r, "Jade")
	if b := jade.Breakdown; b.Total != 20+21.8+24+10 || b.Type != "influencer_engagement" || b.CompanyFit != 10 {
		t.Fatalf("Jade: %+v", b)
	}
	// Every signal of a lead carries its own score.
	sigs, err := w.st.LeadSignals(context.Background(), []string{ava.ID}, nil, 10)
	if err != nil || len(sigs) != 2 {
		t.Fatalf("Ava's signals: %d, %v", len(sigs), err)
	}
	for _, s := range sigs {
		if s.SignalID == w.sigs["s1"].ID && s.Score != 30+23.9+24+15 {
			t.Errorf("Ava's hiring signal scored %v", s.Score)
		}
	}
	// Without titles, decision makers get the title bonus and others not.
	open := w.radar("events", prospector.RadarConfig{SignalsToTrack: []string{"events", "posts"}})
	w.backfill(open)
	if b := w.lead(open, "Dev").Breakdown; b.TitleFit != 7+15 {
		t.Errorf("Dev (Head, no titles asked): title fit %v", b.TitleFit)
	}
	// Borealis has no headcount, but its size bucket fits the default range.
	if b := w.lead(open, "Finn").Breakdown; b.TitleFit != 9+15 || b.CompanyFit != 15 {
		t.Errorf("Finn: %+v", b)
	}
}

// A radar created between two imports: the backfill takes the signals
// before it, the scan those after, and no signal is attached twice.
func TestBackfillThenScan(t *testing.T) {
	w := newWorld(t)
	w.seedCompanies()
	w.seedPeople()
	w.sync()
	w.seedSignals(fixtureSignals[:7])
	r := w.radar("vp", vpSales)
	w.seedSignals(fixtureSignals[7:])
	if st := w.backfill(r); st.Signals != 7 {
		t.Fatalf("backfill read %d signals, want the 7 stored before the radar", st.Signals)
	}
	if got, want := w.leads(r), pairs("Ava:s1", "Ava:s3", "Finn:s2", "Finn:s4", "Jade:s7"); got != want {
		t.Fatalf("after backfill %q, want %q", got, want)
	}
	if again := w.backfill(r); again.Batches != 0 {
		t.Fatalf("second backfill wrote %d batches", again.Batches)
	}
	sc := w.scan()
	if sc.Signals != len(fixtureSignals)-7 || sc.AlreadyStored != 0 {
		t.Fatalf("scan: %+v", sc)
	}
	if got, want := w.leads(r), matchCases[0].want; got != want {
		t.Fatalf("after scan %q, want %q", got, want)
	}
}

// The scan's cursor is kept in the store: after a restart the scan
// continues where it stopped, and reads each signal once.
func TestScanSurvivesRestart(t *testing.T) {
	w := newWorld(t)
	w.seedCompanies()
	w.seedPeople()
	r := w.radar("vp", vpSales)
	w.sync()
	w.seedSignals(fixtureSignals[:5])
	if st := w.scan(); st.Signals != 5 {
		t.Fatalf("first scan read %d", st.Signals)
	}
	w.close()
	w.open() // a new process: new store handle, index and engine
	w.seedSignals(fixtureSignals[5:])
	st := w.scan()
	if st.Signals != len(fixtureSignals)-5 || st.AlreadyStored != 0 {
		t.Fatalf("scan after restart: %+v", st)
	}
	if got, want := w.leads(r), matchCases[0].want; got != want {
		t.Fatalf("leads %q, want %q", got, want)
	}
	if st := w.scan(); st.Signals != 0 {
		t.Fatalf("caught-up scan read %d signals", st.Signals)
	}
	got, err := w.st.Radar(context.Background(), r.ID)
	if err != nil || got.Cursor != w.sigs["s14"].ID {
		t.Fatalf("cursor %d, want %d (%v)", got.Cursor, w.sigs["s14"].ID, err)
	}
}

// Two workers scanning the same store at once apply every batch once:
// the one whose cursors moved under it stops.
func TestConcurrentScansApplyEachBatchOnce(t *testing.T) {
	w := newWorld(t)
	w.seedCompanies()
	w.seedPeople()
	r := w.radar("vp", vpSales)
	w.sync()
	w.seedSignals(fixtureSignals)
	w.eng.ScanBatch = 2
	other := &Engine{Store: w.st, Searcher: w.ix, Now: w.eng.Now, ScanBatch: 3, Logger: quiet}
	var wg sync.WaitGroup
	stats := make([]Stats, 2)
	for i, e := range []*Engine{w.eng, other} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				st, err := e.ScanOnce(context.Background())
				if err != nil {
					t.Error(err)
					return
				}
				stats[i].Signals += st.Signals
				stats[i].add(st.LeadBatchResult)
				if st.Signals == 0 {
					return
				}
			}
		}()
	}
	wg.Wait()
	if total := stats[0].Signals + stats[1].Signals; total != len(fixtureSignals) {
		t.Fatalf("signals applied %d + %d, want %d in all", stats[0].Signals, stats[1].Signals, len(fixtureSignals))
	}
	if stats[0].AlreadyStored+stats[1].AlreadyStored != 0 {
		t.Fatalf("a batch was applied twice: %+v %+v", stats[0], stats[1])
	}
	if got, want := w.leads(r), matchCases[0].want; got != want {
		t.Fatalf("leads %q, want %q", got, want)
	}
}

// The radar signals quota: the best matches are kept, the rest dropped,
// and the cursor still moves.
func TestRadarSignalsQuota(t *testing.T) {
	w := newWorld(t)
	w.seedCompanies()
	w.seedPeople()
	w.sync()
	ctx := context.Background()
	limited := &prospector.Workspace{Name: "small", Plan: prospector.PlanDefault, RadarSignals: prospector.Limit{Limit: i64(2)}}
	if err := w.st.CreateWorkspace(ctx, limited); err != nil {
		t.Fatal(err)
	}
	hiring := prospector.RadarConfig{SignalsToTrack: []string{"hiring"}, JobPostingKeywords: []string{"hiring"},
		CompanySizeMin: 1, CompanySizeMax: 10000}
	hiring.Types = prospector.RadarSignalTypes(&hiring)
	mk := func(name string) *prospector.Radar {
		r := &prospector.Radar{ID: prospector.NewRadarID(), WorkspaceID: limited.ID, Name: name, Config: hiring}
		if err := w.st.CreateRadar(ctx, r); err != nil {
			t.Fatal(err)
		}
		return r
	}
	scanned := mk("scanned")
	w.seedSignals(fixtureSignals)
	st := w.scan()
	if st.SignalsAdded != 2 || st.OverQuota != 2 {
		t.Fatalf("scan under a quota of 2: %+v", st)
	}
	// Hana's founder lead on the newer signal scores highest, then a
	// decision maker of Acme's.
	if got := w.leads(scanned); got != pairs("Ben:s1", "Hana:s10") {
		t.Fatalf("kept %q", got)
	}
	backfilled := mk("backfilled")
	if st := w.backfill(backfilled); st.SignalsAdded != 0 || st.Signals != 0 {
		t.Fatalf("backfill with the quota spent: %+v", st)
	}
	if got, err := w.st.Radar(ctx, backfilled.ID); err != nil {
		t.Fatal(err)
	} else if got.BackfilledAt == nil {
		t.Fatal("a backfill stopped by the quota is still done")
	}
	w.seedSignals([]sig{{"s15", "company_hiring", "Dune", "", "Hiring engineers", "", "", 0}})
	if st := w.scan(); st.Signals != 1 || st.SignalsAdded != 0 {
		t.Fatalf("scan with the quota spent: %+v", st)
	}
	if got, err := w.st.Radar(ctx, scanned.ID); err != nil {
		t.Fatal(err)
	} else if got.Cursor != w.sigs["s15"].ID {
		t.Fatalf("cursor %d did not move past the spent quota", got.Cursor)
	}
}

// The durable jobs: a backfill job enqueued as radar/create enqueues it,
// and the scheduler's scans, run by a jobs.Runner.
func TestJobs(t *testing.T) {
	w := newWorld(t)
	w.seedCompanies()
	w.seedPeople()
	w.sync()
	w.seedSignals(fixtureSignals[:7])
	ctx, cancel := context.WithCancel(context.Background())
	runner := &jobs.Runner{Store: w.st, Poll: 10 * time.Millisecond,
		Handlers: map[string]jobs.Handler{prospector.JobRadarBackfill: w.eng.Backfill, prospector.JobRadarScan: w.eng.Scan}}
	done := make(chan struct{})
	go func() { defer close(done); _ = runner.Run(ctx) }()
	go w.eng.Schedule(ctx, runner, 20*time.Millisecond)
	defer func() { cancel(); <-done }()

	r := w.radar("vp", vpSales)
	if _, err := runner.Enqueue(ctx, prospector.RadarBackfillJob(r.ID)); err != nil {
		t.Fatal(err)
	}
	waitFor(t, func() bool { return w.leads(r) == pairs("Ava:s1", "Ava:s3", "Finn:s2", "Finn:s4", "Jade:s7") })
	w.seedSignals(fixtureSignals[7:])
	waitFor(t, func() bool { return w.leads(r) == matchCases[0].want })
	if got, err := w.st.Radar(ctx, r.ID); err != nil {
		t.Fatal(err)
	} else if got.BackfilledAt == nil || got.Cursor != w.sigs["s14"].ID {
		t.Fatalf("radar after the jobs: %+v", got)
	}
	// A radar whose backfill was never enqueued is found by the scheduler.
	orphan := w.radar("orphan", prospector.RadarConfig{RaisedFunds: true})
	waitFor(t, func() bool { return w.leads(orphan) == pairs("Finn:s2") })
}

func waitFor(t *testing.T, ok func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !ok() {
		if time.Now().After(deadline) {
			t.Fatal("timed out")
		}
		time.Sleep(10 * time.Millisecond)
	}
}
