package storetest

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/prospectorhq/prospector"
)

// runRadar covers radars, leads and what the radar engine reads.
func runRadar(t *testing.T, open Opener) {
	t.Run("RadarCreate", func(t *testing.T) { testRadarCreate(t, open(t)) })
	t.Run("RadarCreateInQuota", func(t *testing.T) { testRadarCreateInQuota(t, open(t)) })
	t.Run("BackfillSignals", func(t *testing.T) { testBackfillSignals(t, open(t)) })
	t.Run("LeadBatch", func(t *testing.T) { testLeadBatch(t, open(t)) })
	t.Run("LeadBatchQuota", func(t *testing.T) { testLeadBatchQuota(t, open(t)) })
	t.Run("LeadBatchCursor", func(t *testing.T) { testLeadBatchCursor(t, open(t)) })
	t.Run("LeadBatchAutoSync", func(t *testing.T) { testLeadBatchAutoSync(t, open(t)) })
	t.Run("LeadBatchConcurrentQuota", func(t *testing.T) { testLeadBatchConcurrentQuota(t, open(t)) })
	t.Run("LeadReads", func(t *testing.T) { testLeadReads(t, open(t)) })
	t.Run("LeadBatchLarge", func(t *testing.T) { testLeadBatchLarge(t, open(t)) })
	runRadarChange(t, open)
}

// radarFixture is two companies, three people and six signals.
type radarFixture struct {
	acme, blue *prospector.Company
	people     []*prospector.Person
	signals    []*prospector.Signal
}

func seedRadarData(t *testing.T, s prospector.Store) *radarFixture {
	t.Helper()
	ctx := context.Background()
	cs := sampleCompanies()
	if _, err := s.UpsertCompanies(ctx, cs); err != nil {
		t.Fatal(err)
	}
	fx := &radarFixture{acme: cs[0], blue: cs[1]}
	for i, n := range []string{"Avery Quill", "Basil Thorn", "Cleo Marsh"} {
		co := cs[i%2]
		fx.people = append(fx.people, &prospector.Person{ExternalID: fmt.Sprintf("rp%d", i), FullName: n,
			Title: "VP Sales", CompanyID: &co.ID, CompanyName: co.Name, NetworkURL: fmt.Sprintf("https://network.example/in/rp%d", i),
			City: "Austin", Region: "Texas", CountryCode: "US"})
	}
	if _, err := s.UpsertPeople(ctx, fx.people); err != nil {
		t.Fatal(err)
	}
	for i, typ := range []string{"company_hiring", "job_change", "funding_announcement", "keyword_post", "company_hiring", "tech_changes"} {
		co := cs[i%2]
		sg := &prospector.Signal{ExternalID: fmt.Sprintf("rs%d", i), Type: typ, CompanyID: &co.ID, CompanyDomain: co.Domain,
			Title: fmt.Sprintf("Signal %d", i), Detail: "detail", SourceURL: "https://news.example/" + fmt.Sprint(i),
			DetectedAt: utc(fmt.Sprintf("2026-10-%02dT00:00:00Z", i+1))}
		if typ == "job_change" || typ == "keyword_post" {
			sg.PersonID = &fx.people[i%3].ID
		}
		fx.signals = append(fx.signals, sg)
	}
	if _, err := s.UpsertSignals(ctx, fx.signals); err != nil {
		t.Fatal(err)
	}
	return fx
}

func newRadar(t *testing.T, s prospector.Store, w *prospector.Workspace, name string) *prospector.Radar {
	t.Helper()
	r := &prospector.Radar{ID: prospector.NewRadarID(), WorkspaceID: w.ID, Name: name,
		Config: prospector.RadarConfig{Titles: []string{"VP Sales"}, Geos: []string{"US"},
			Places: []prospector.Place{{Country: "US"}}, SignalsToTrack: []string{"hiring"}, Types: []string{"company_hiring"},
			CompanySizeMin: 1, CompanySizeMax: 10000, JobPostingKeywords: []string{"hiring"}}}
	if err := s.CreateRadar(context.Background(), r); err != nil {
		t.Fatalf("create radar %s: %v", name, err)
	}
	return r
}

func testRadarCreate(t *testing.T, s prospector.Store) {
	ctx := context.Background()
	w := NewWorkspace(t, s, "radars", prospector.PlanGrowth)
	b, err := s.RadarBacklog(ctx)
	if err != nil || b.Radars != 0 || b.MaxSignalID != 0 || b.MinCursor != 0 || len(b.Unbackfilled) != 0 {
		t.Fatalf("empty backlog %+v, %v", b, err)
	}
	empty := newRadar(t, s, w, "before data")
	if empty.Cursor != 0 || empty.BackfillThrough != 0 {
		t.Fatalf("radar on an empty store: cursor %d, through %d", empty.Cursor, empty.BackfillThrough)
	}
	fx := seedRadarData(t, s)
	maxID := fx.signals[len(fx.signals)-1].ID
	r := newRadar(t, s, w, "after data")
	if r.Cursor != maxID || r.BackfillThrough != maxID || r.CreatedAt.IsZero() {
		t.Fatalf("cursor %d through %d created %v; want %d, %d and a time", r.Cursor, r.BackfillThrough, r.CreatedAt, maxID, maxID)
	}
	got, err := s.Radar(ctx, r.ID)
	if err != nil {
		t.Fatal(err)
	}
	if got.ID != r.ID || got.WorkspaceID != w.ID || got.Name != "after data" || got.Cursor != maxID ||
		got.BackfilledAt != nil || !reflect.DeepEqual(got.Config, r.Config) || got.CreatedAt.Sub(r.CreatedAt).Abs() > time.Millisecond {
		t.Fatalf("read back %+v\nwant %+v", got, r)
	}
	if _, err := s.Radar(ctx, prospector.NewRadarID()); !errors.Is(err, prospector.ErrNotFound) {
		t.Fatalf("unknown radar: %v", err)
	}
	orphan := &prospector.Radar{ID: prospector.NewRadarID(), WorkspaceID: "ws_missing", Name: "x"}
	if err := s.CreateRadar(ctx, orphan); !errors.Is(err, prospector.ErrNotFound) {
		t.Fatalf("radar of a missing workspace: %v", err)
	}
	all, err := s.ListRadars(ctx)
	if err != nil || len(all) != 2 || all[0].ID != empty.ID || all[1].ID != r.ID {
		t.Fatalf("list: %d radars, %v", len(all), err)
	}
	b, err = s.RadarBacklog(ctx)
	if err != nil || b.Radars != 2 || b.MaxSignalID != maxID || b.MinCursor != 0 || len(b.Unbackfilled) != 2 {
		t.Fatalf("backlog %+v, %v", b, err)
	}
	if _, err := s.ApplyLeadBatch(ctx, &prospector.LeadBatch{Backfilled: []string{empty.ID},
		Cursors: []prospector.RadarCursor{{RadarID: empty.ID, From: 0, To: maxID}}}); err != nil {
		t.Fatal(err)
	}
	b, err = s.RadarBacklog(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if b.MinCursor != maxID || len(b.Unbackfilled) != 1 || b.Unbackfilled[0] != r.ID {
		t.Fatalf("backlog after a backfill and a scan: %+v", b)
	}
	if got, err := s.Radar(ctx, empty.ID); err != nil {
		t.Fatal(err)
	} else if got.BackfilledAt == nil || got.Cursor != maxID {
		t.Fatalf("backfilled radar: %+v", got)
	}
}

func testBackfillSignals(t *testing.T, s prospector.Store) {
	ctx := context.Background()
	fx := seedRadarData(t, s)
	ids := func(refs []prospector.SignalRef) string {
		var out []string
		for _, r := range refs {
			for i, sg := range fx.signals {
				if sg.ID == r.ID {
					out = append(out, fmt.Sprint(i))
				}
			}
		}
		return strings.Join(out, " ")
	}
	top := fx.signals[5].ID
	cases := []struct {
		name string
		scan prospector.BackfillScan
		want string
	}{
		{"all, newest id first", prospector.BackfillScan{Through: top, Limit: 10}, "5 4 3 2 1 0"},
		{"through", prospector.BackfillScan{Through: fx.signals[3].ID, Limit: 10}, "3 2 1 0"},
		{"before", prospector.BackfillScan{Through: top, Before: fx.signals[2].ID, Limit: 10}, "1 0"},
		{"since", prospector.BackfillScan{Through: top, Since: utc("2026-10-04T00:00:00Z"), Limit: 10}, "5 4 3"},
		{"types", prospector.BackfillScan{Through: top, Types: []string{"company_hiring", "job_change"}, Limit: 10}, "4 1 0"},
		{"limit", prospector.BackfillScan{Through: top, Limit: 2}, "5 4"},
	}
	for _, c := range cases {
		got, err := s.BackfillSignals(ctx, c.scan)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if ids(got) != c.want {
			t.Errorf("%s: %q, want %q", c.name, ids(got), c.want)
		}
	}
	got, err := s.BackfillSignals(ctx, prospector.BackfillScan{Through: top, Types: []string{"job_change"}, Limit: 1})
	if err != nil {
		t.Fatal(err)
	}
	want := prospector.SignalRef{ID: fx.signals[1].ID, Type: "job_change", CompanyID: fx.blue.ID,
		PersonID: fx.people[1].ID, DetectedAt: fx.signals[1].DetectedAt}
	if len(got) != 1 || got[0] != want {
		t.Fatalf("ref %+v, want %+v", got, want)
	}
	full, err := s.SignalsByID(ctx, []int64{fx.signals[0].ID, fx.signals[3].ID, 999999})
	if err != nil || len(full) != 2 {
		t.Fatalf("signals by id: %d, %v", len(full), err)
	}
	for _, f := range full {
		if f.Title == "" || f.SourceURL == "" || f.DetectedAt.IsZero() {
			t.Errorf("signal by id lacks fields: %+v", f)
		}
	}
}

// match builds a lead match of person p for radar r with the signals
// (index into fx.signals) and their scores.
func match(r *prospector.Radar, fx *radarFixture, p int, sigs map[int]float64) prospector.LeadMatch {
	per := fx.people[p]
	m := prospector.LeadMatch{RadarID: r.ID, WorkspaceID: r.WorkspaceID, Lead: prospector.Lead{PersonID: per.ID,
		CompanyID: per.CompanyID, FullName: per.FullName, FirstName: strings.Fields(per.FullName)[0],
		LastName: strings.Fields(per.FullName)[1], Title: per.Title, Company: per.CompanyName, NetworkURL: per.NetworkURL,
		City: per.City, Region: per.Region, CountryCode: per.CountryCode}}
	for i := range 6 {
		if score, ok := sigs[i]; ok {
			sg := fx.signals[i]
			m.Signals = append(m.Signals, prospector.SignalMatch{SignalID: sg.ID, DetectedAt: sg.DetectedAt,
				Score: prospector.ScoreBreakdown{Total: score, SignalType: score / 2, Recency: score / 2, Type: sg.Type, SignalID: sg.ID}})
		}
	}
	return m
}

func apply(t *testing.T, s prospector.Store, b *prospector.LeadBatch) prospector.LeadBatchResult {
	t.Helper()
	if b.Now.IsZero() {
		b.Now = time.Now()
	}
	res, err := s.ApplyLeadBatch(context.Background(), b)
	if err != nil {
		t.Fatalf("apply lead batch: %v", err)
	}
	return res
}

func testLeadBatch(t *testing.T, s prospector.Store) {
	ctx := context.Background()
	fx := seedRadarData(t, s)
	w := NewWorkspace(t, s, "leads", prospector.PlanGrowth)
	r := newRadar(t, s, w, "one")
	res := apply(t, s, &prospector.LeadBatch{Matches: []prospector.LeadMatch{
		match(r, fx, 0, map[int]float64{0: 60, 2: 40}),
		match(r, fx, 1, map[int]float64{1: 70}),
		match(r, fx, 0, map[int]float64{4: 50}), // the same person again in the batch: one lead
	}})
	if res != (prospector.LeadBatchResult{LeadsCreated: 2, SignalsAdded: 4}) {
		t.Fatalf("first batch: %+v", res)
	}
	leads, err := s.RadarLeads(ctx, prospector.LeadFilter{RadarID: r.ID, Limit: 10})
	if err != nil || len(leads) != 2 {
		t.Fatalf("leads: %d, %v", len(leads), err)
	}
	basil, avery := leads[0], leads[1]
	if basil.FullName != "Basil Thorn" || *basil.Score != 70 || avery.FullName != "Avery Quill" || *avery.Score != 60 {
		t.Fatalf("order or scores: %s %v, %s %v", basil.FullName, *basil.Score, avery.FullName, *avery.Score)
	}
	if !prospector.ValidLeadID(avery.ID) || avery.Status != "detected" || avery.Source != "radar" || avery.RadarID != r.ID ||
		avery.WorkspaceID != w.ID || avery.PersonID != fx.people[0].ID || avery.CompanyID == nil || *avery.CompanyID != fx.acme.ID ||
		avery.FirstName != "Avery" || avery.LastName != "Quill" || avery.Title != "VP Sales" || avery.Company != "Acme Robotics" ||
		avery.City != "Austin" || avery.CountryCode != "US" || avery.Email != "" || avery.Phone != "" || avery.CampaignID != "" ||
		avery.RepliedAt != nil || avery.CreatedAt.IsZero() {
		t.Fatalf("lead fields: %+v", avery)
	}
	if b := avery.Breakdown; b == nil || b.Total != 60 || b.SignalID != fx.signals[0].ID || b.Type != "company_hiring" {
		t.Fatalf("breakdown %+v", avery.Breakdown)
	}
	if !avery.LastSignalAt.Equal(fx.signals[4].DetectedAt) {
		t.Fatalf("last signal at %v, want %v", avery.LastSignalAt, fx.signals[4].DetectedAt)
	}

	// The same matches again write nothing; a new signal with a higher
	// score updates the lead in place and keeps its id and status.
	again := apply(t, s, &prospector.LeadBatch{Matches: []prospector.LeadMatch{match(r, fx, 0, map[int]float64{0: 60, 2: 40})}})
	if again != (prospector.LeadBatchResult{AlreadyStored: 2}) {
		t.Fatalf("repeat: %+v", again)
	}
	moved := match(r, fx, 0, map[int]float64{3: 90, 0: 60})
	moved.Lead.Title = "SVP Sales"
	if res := apply(t, s, &prospector.LeadBatch{Matches: []prospector.LeadMatch{moved}}); res != (prospector.LeadBatchResult{
		LeadsUpdated: 1, SignalsAdded: 1, AlreadyStored: 1}) {
		t.Fatalf("update: %+v", res)
	}
	lowerMatch := match(r, fx, 0, map[int]float64{5: 10})
	lowerMatch.Lead.Title = "SVP Sales" // each match refreshes the card
	lower := apply(t, s, &prospector.LeadBatch{Matches: []prospector.LeadMatch{lowerMatch}})
	if lower.LeadsUpdated != 1 {
		t.Fatalf("lower score: %+v", lower)
	}
	got, err := s.LeadsByID(ctx, w.ID, []string{avery.ID})
	if err != nil || len(got) != 1 {
		t.Fatalf("by id: %d %v", len(got), err)
	}
	if l := got[0]; l.ID != avery.ID || *l.Score != 90 || l.Breakdown.SignalID != fx.signals[3].ID || l.Title != "SVP Sales" ||
		!l.LastSignalAt.Equal(fx.signals[5].DetectedAt) || !l.CreatedAt.Equal(avery.CreatedAt) {
		t.Fatalf("updated lead: %+v (was %+v)", l, avery)
	}
	sigs, err := s.LeadSignals(ctx, []string{avery.ID}, nil, 10)
	if err != nil || len(sigs) != 6-1 {
		t.Fatalf("avery's signals: %d, %v", len(sigs), err)
	}

	// Another radar of the workspace gets its own lead for the person.
	r2 := newRadar(t, s, w, "two")
	if res := apply(t, s, &prospector.LeadBatch{Matches: []prospector.LeadMatch{match(r2, fx, 0, map[int]float64{0: 60})}}); res.LeadsCreated != 1 {
		t.Fatalf("second radar: %+v", res)
	}
	if n, err := s.RadarLeads(ctx, prospector.LeadFilter{RadarID: r.ID, Limit: 10}); err != nil {
		t.Fatal(err)
	} else if len(n) != 2 {
		t.Fatalf("first radar now has %d leads", len(n))
	}
	other := NewWorkspace(t, s, "other", prospector.PlanGrowth)
	if got, err := s.LeadsByID(ctx, other.ID, []string{avery.ID}); err != nil {
		t.Fatal(err)
	} else if len(got) != 0 {
		t.Fatal("another workspace read the lead")
	}
}

func testLeadBatchQuota(t *testing.T, s prospector.Store) {
	ctx := context.Background()
	fx := seedRadarData(t, s)
	w := &prospector.Workspace{Name: "quota", Plan: prospector.PlanDefault, RadarSignals: prospector.Limit{Limit: ptr(3)}}
	if err := s.CreateWorkspace(ctx, w); err != nil {
		t.Fatal(err)
	}
	r := newRadar(t, s, w, "q")
	res := apply(t, s, &prospector.LeadBatch{Matches: []prospector.LeadMatch{
		match(r, fx, 0, map[int]float64{0: 90, 2: 80}),
		match(r, fx, 1, map[int]float64{1: 70, 3: 60}),
		match(r, fx, 2, map[int]float64{4: 50}),
	}})
	if res != (prospector.LeadBatchResult{LeadsCreated: 2, SignalsAdded: 3, OverQuota: 2}) {
		t.Fatalf("batch over quota: %+v", res)
	}
	start, _ := prospector.BillingPeriod(w.PeriodStart, time.Now())
	if used, err := s.RadarSignalsUsed(ctx, w.ID, start); err != nil || used != 3 {
		t.Fatalf("used %d, %v; want 3", used, err)
	}
	if res := apply(t, s, &prospector.LeadBatch{Matches: []prospector.LeadMatch{match(r, fx, 2, map[int]float64{5: 50})}}); res != (prospector.LeadBatchResult{OverQuota: 1}) {
		t.Fatalf("batch at the limit: %+v", res)
	}
	// The next period starts again from zero.
	next := apply(t, s, &prospector.LeadBatch{Now: w.PeriodEnd.Add(time.Hour),
		Matches: []prospector.LeadMatch{match(r, fx, 2, map[int]float64{5: 50})}})
	if next.SignalsAdded != 1 {
		t.Fatalf("next period: %+v", next)
	}
	byp := &prospector.Workspace{Name: "bypassed", Plan: prospector.PlanDefault,
		RadarSignals: prospector.Limit{Limit: ptr(1), Bypassed: true}}
	if err := s.CreateWorkspace(ctx, byp); err != nil {
		t.Fatal(err)
	}
	rb := newRadar(t, s, byp, "b")
	if res := apply(t, s, &prospector.LeadBatch{Matches: []prospector.LeadMatch{match(rb, fx, 0, map[int]float64{0: 1, 1: 1, 2: 1})}}); res.SignalsAdded != 3 {
		t.Fatalf("bypassed workspace: %+v", res)
	}
}

func testLeadBatchCursor(t *testing.T, s prospector.Store) {
	ctx := context.Background()
	fx := seedRadarData(t, s)
	w := NewWorkspace(t, s, "cursor", prospector.PlanGrowth)
	r := newRadar(t, s, w, "c")
	at := r.Cursor
	_, err := s.ApplyLeadBatch(ctx, &prospector.LeadBatch{Now: time.Now(),
		Matches: []prospector.LeadMatch{match(r, fx, 0, map[int]float64{0: 50})},
		Cursors: []prospector.RadarCursor{{RadarID: r.ID, From: at - 1, To: at + 10}}})
	if !errors.Is(err, prospector.ErrCursorMoved) {
		t.Fatalf("stale cursor: %v", err)
	}
	if leads, err := s.RadarLeads(ctx, prospector.LeadFilter{RadarID: r.ID, Limit: 10}); err != nil {
		t.Fatal(err)
	} else if len(leads) != 0 {
		t.Fatal("a batch with a moved cursor wrote leads")
	}
	apply(t, s, &prospector.LeadBatch{Matches: []prospector.LeadMatch{match(r, fx, 0, map[int]float64{0: 50})},
		Cursors: []prospector.RadarCursor{{RadarID: r.ID, From: at, To: at + 10}}})
	if got, err := s.Radar(ctx, r.ID); err != nil {
		t.Fatal(err)
	} else if got.Cursor != at+10 {
		t.Fatalf("cursor %d, want %d", got.Cursor, at+10)
	}
	if leads, err := s.RadarLeads(ctx, prospector.LeadFilter{RadarID: r.ID, Limit: 10}); err != nil {
		t.Fatal(err)
	} else if len(leads) != 1 {
		t.Fatalf("%d leads after the batch", len(leads))
	}
}

// Batches of one workspace applied at once never overrun its quota.
func testLeadBatchConcurrentQuota(t *testing.T, s prospector.Store) {
	ctx := context.Background()
	fx := seedRadarData(t, s)
	w := &prospector.Workspace{Name: "race", Plan: prospector.PlanDefault, RadarSignals: prospector.Limit{Limit: ptr(7)}}
	if err := s.CreateWorkspace(ctx, w); err != nil {
		t.Fatal(err)
	}
	var radars []*prospector.Radar
	for i := range 6 {
		radars = append(radars, newRadar(t, s, w, fmt.Sprint(i)))
	}
	var wg sync.WaitGroup
	results := make([]prospector.LeadBatchResult, len(radars))
	for i, r := range radars {
		wg.Add(1)
		go func() {
			defer wg.Done()
			res, err := s.ApplyLeadBatch(ctx, &prospector.LeadBatch{Now: time.Now(), Matches: []prospector.LeadMatch{
				match(r, fx, 0, map[int]float64{0: 50, 1: 40}), match(r, fx, 1, map[int]float64{2: 30})}})
			if err != nil {
				t.Errorf("batch %d: %v", i, err)
			}
			results[i] = res
		}()
	}
	wg.Wait()
	added := 0
	for _, r := range results {
		added += r.SignalsAdded
	}
	start, _ := prospector.BillingPeriod(w.PeriodStart, time.Now())
	used, err := s.RadarSignalsUsed(ctx, w.ID, start)
	if added != 7 || used != 7 || err != nil {
		t.Fatalf("18 attachments on a quota of 7: added %d, used %d (%v)", added, used, err)
	}
}

func testLeadReads(t *testing.T, s prospector.Store) {
	ctx := context.Background()
	fx := seedRadarData(t, s)
	w := NewWorkspace(t, s, "reads", prospector.PlanGrowth)
	r := newRadar(t, s, w, "r")
	apply(t, s, &prospector.LeadBatch{Matches: []prospector.LeadMatch{
		match(r, fx, 0, map[int]float64{0: 50, 2: 45, 4: 40}), // newest signal 2026-10-05
		match(r, fx, 1, map[int]float64{1: 50}),               // same score, older signal 2026-10-02
		match(r, fx, 2, map[int]float64{5: 80, 3: 20}),        // 2026-10-06
	}})
	names := func(ls []*prospector.Lead) string {
		var out []string
		for _, l := range ls {
			out = append(out, strings.Fields(l.FullName)[0])
		}
		return strings.Join(out, " ")
	}
	read := func(f prospector.LeadFilter) string {
		t.Helper()
		f.RadarID = r.ID
		if f.Limit == 0 {
			f.Limit = 10
		}
		ls, err := s.RadarLeads(ctx, f)
		if err != nil {
			t.Fatal(err)
		}
		return names(ls)
	}
	since := utc("2026-10-04T00:00:00Z")
	for _, c := range []struct {
		name string
		f    prospector.LeadFilter
		want string
	}{
		{"best first, ties newest first", prospector.LeadFilter{}, "Cleo Avery Basil"},
		{"min score", prospector.LeadFilter{MinScore: f64(50)}, "Cleo Avery Basil"},
		{"min score above", prospector.LeadFilter{MinScore: f64(50.5)}, "Cleo"},
		{"since", prospector.LeadFilter{Since: &since}, "Cleo Avery"},
		{"limit", prospector.LeadFilter{Limit: 1}, "Cleo"},
	} {
		if got := read(c.f); got != c.want {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
	leads, err := s.RadarLeads(ctx, prospector.LeadFilter{RadarID: r.ID, Limit: 10})
	if err != nil {
		t.Fatal(err)
	}
	cleo, avery, basil := leads[0], leads[1], leads[2]
	sigs, err := s.LeadSignals(ctx, []string{avery.ID, cleo.ID, basil.ID}, nil, 2)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, sg := range sigs {
		got = append(got, fmt.Sprintf("%s:%s", strings.Fields(sg.LeadName)[0], sg.Title))
	}
	want := "Avery:Signal 4 Avery:Signal 2 Cleo:Signal 5 Cleo:Signal 3 Basil:Signal 1"
	if strings.Join(got, " ") != want {
		t.Fatalf("lead signals %q, want %q", strings.Join(got, " "), want)
	}
	sg := sigs[0]
	if sg.LeadID != avery.ID || sg.SignalID != fx.signals[4].ID || sg.Type != "company_hiring" || sg.Detail != "detail" ||
		sg.SourceURL != "https://news.example/4" || sg.Company != "Acme Robotics" || sg.Score != 40 ||
		!sg.DetectedAt.Equal(fx.signals[4].DetectedAt) || sg.LeadTitle != "VP Sales" || sg.LeadCompany != "Acme Robotics" {
		t.Fatalf("lead signal fields %+v", sg)
	}
	if recent, err := s.LeadSignals(ctx, []string{avery.ID}, &since, 10); err != nil || len(recent) != 1 {
		t.Fatalf("avery's signals since %v: %d, %v; want 1", since, len(recent), err)
	}
	// A lead named twice contributes once, however far apart the two
	// mentions are in a long list.
	ids := []string{avery.ID}
	for i := range 600 {
		ids = append(ids, fmt.Sprintf("ld_missing%d", i))
	}
	once, err := s.LeadSignals(ctx, []string{avery.ID}, nil, 10)
	if err != nil || len(once) == 0 {
		t.Fatalf("avery's signals: %d, %v", len(once), err)
	}
	twice, err := s.LeadSignals(ctx, append(ids, avery.ID), nil, 10)
	if err != nil || !reflect.DeepEqual(twice, once) {
		t.Fatalf("avery named twice among 602 ids: %d signals, %v; want her %d once", len(twice), err, len(once))
	}
	all, err := s.RadarSignals(ctx, r.ID, nil, 10)
	if err != nil {
		t.Fatal(err)
	}
	got = got[:0]
	for _, sg := range all {
		got = append(got, sg.Title)
	}
	if strings.Join(got, ",") != "Signal 5,Signal 4,Signal 3,Signal 2,Signal 1,Signal 0" {
		t.Fatalf("radar signals %v", got)
	}
	if recent, err := s.RadarSignals(ctx, r.ID, &since, 10); err != nil {
		t.Fatal(err)
	} else if len(recent) != 3 {
		t.Fatalf("radar signals since: %d", len(recent))
	}
	if few, err := s.RadarSignals(ctx, r.ID, nil, 2); err != nil {
		t.Fatal(err)
	} else if len(few) != 2 {
		t.Fatalf("radar signals limit: %d", len(few))
	}
	if none, err := s.RadarSignals(ctx, prospector.NewRadarID(), nil, 10); err != nil || len(none) != 0 {
		t.Fatalf("unknown radar: %d %v", len(none), err)
	}
}

// A batch of hundreds of leads and attachments, as a backfill writes.
func testLeadBatchLarge(t *testing.T, s prospector.Store) {
	ctx := context.Background()
	fx := seedRadarData(t, s)
	w := NewWorkspace(t, s, "large", prospector.PlanGrowth)
	r := newRadar(t, s, w, "large")
	var ms []prospector.LeadMatch
	for i := range 150 {
		m := match(r, fx, 0, map[int]float64{i % 6: float64(i % 90), (i + 1) % 6: 1})
		m.Lead.PersonID, m.Lead.FullName = int64(1000+i), fmt.Sprintf("Person %03d", i)
		ms = append(ms, m)
	}
	res := apply(t, s, &prospector.LeadBatch{Matches: ms})
	if res != (prospector.LeadBatchResult{LeadsCreated: 150, SignalsAdded: 300}) {
		t.Fatalf("large batch: %+v", res)
	}
	// Half of them again, with a new signal each.
	for i := range ms[:75] {
		ms[i].Signals = append(ms[i].Signals, prospector.SignalMatch{SignalID: fx.signals[(i+2)%6].ID,
			DetectedAt: fx.signals[(i+2)%6].DetectedAt, Score: prospector.ScoreBreakdown{Total: 95}})
	}
	res = apply(t, s, &prospector.LeadBatch{Matches: ms[:75]})
	if res != (prospector.LeadBatchResult{LeadsUpdated: 75, SignalsAdded: 75, AlreadyStored: 150}) {
		t.Fatalf("second large batch: %+v", res)
	}
	leads, err := s.RadarLeads(ctx, prospector.LeadFilter{RadarID: r.ID, Limit: 1000})
	if err != nil || len(leads) != 150 {
		t.Fatalf("%d leads, %v", len(leads), err)
	}
	if *leads[0].Score != 95 || *leads[74].Score != 95 || *leads[75].Score == 95 {
		t.Fatalf("scores after the update: %v %v %v", *leads[0].Score, *leads[74].Score, *leads[75].Score)
	}
	sigs, err := s.RadarSignals(ctx, r.ID, nil, 1000)
	if err != nil || len(sigs) != 375 {
		t.Fatalf("%d radar signals, %v; want 375", len(sigs), err)
	}
}
