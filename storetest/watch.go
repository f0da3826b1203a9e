package storetest

import (
	"context"
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/prospectorhq/prospector"
)

// runSources covers the live sources: the watch list, the poll
// schedule, job openings and technologies.
func runSources(t *testing.T, open Opener) {
	t.Run("Watches", func(t *testing.T) { testWatches(t, open(t)) })
	t.Run("RadarWatches", func(t *testing.T) { testRadarWatches(t, open(t)) })
	t.Run("EnsureCompanies", func(t *testing.T) { testEnsureCompanies(t, open(t)) })
	t.Run("Targets", func(t *testing.T) { testTargets(t, open(t)) })
	t.Run("DueTargets", func(t *testing.T) { testDueTargets(t, open(t)) })
	t.Run("BoardPoll", func(t *testing.T) { testBoardPoll(t, open(t)) })
	t.Run("BoardPollScopedAndRefused", func(t *testing.T) { testBoardPollScopedAndRefused(t, open(t)) })
	t.Run("BoardPollConcurrent", func(t *testing.T) { testBoardPollConcurrent(t, open(t)) })
	t.Run("BoardPollsBatch", func(t *testing.T) { testBoardPollsBatch(t, open(t)) })
	t.Run("BoardPollsBatchUnchanged", func(t *testing.T) { testBoardPollsBatchUnchanged(t, open(t), open(t)) })
	t.Run("LastSeenThroughUnchangedPolls", func(t *testing.T) { testLastSeenThroughUnchangedPolls(t, open(t)) })
	t.Run("JobOpeningsPaging", func(t *testing.T) { testJobOpeningsPaging(t, open(t)) })
	t.Run("Technologies", func(t *testing.T) { testTechnologies(t, open(t)) })
	t.Run("TechnologiesRemovedAfter30Days", func(t *testing.T) { testTechnologiesAge(t, open(t)) })
}

var srcT0 = time.Date(2026, 11, 2, 6, 0, 0, 0, time.UTC)

func testWatches(t *testing.T, s prospector.Store) {
	ctx := context.Background()
	cs := sampleCompanies()
	if _, err := s.UpsertCompanies(ctx, cs); err != nil {
		t.Fatal(err)
	}
	seqBefore := maxCompanySeq(t, s)
	reqs := []prospector.WatchRequest{
		{Domain: "newco.example", AddedBy: "ops", Boards: []prospector.BoardRef{{Kind: "greenhouse", Token: "newco"}},
			Feeds: []string{"https://newco.example/blog/rss"}},
		{Domain: cs[0].Domain, AddedBy: "ops"},
	}
	added, err := s.AddWatches(ctx, reqs, srcT0)
	if err != nil {
		t.Fatal(err)
	}
	if len(added) != 2 || !added[0].NewCompany || !added[0].NewWatch || added[0].NewTargets != 3 ||
		added[1].NewCompany || !added[1].NewWatch || added[1].NewTargets != 1 || added[1].CompanyID != cs[0].ID {
		t.Fatalf("added %+v", added)
	}
	co, err := s.CompanyByDomain(ctx, "newco.example")
	if err != nil || co.ID != added[0].CompanyID || co.Name != "newco.example" || co.Website != "https://newco.example" {
		t.Fatalf("company of a new watched domain: %+v %v", co, err)
	}
	if co.Seq <= seqBefore {
		t.Fatalf("the new company's seq %d is not past %d: the search index would not see it", co.Seq, seqBefore)
	}
	// Again, with one more board: the first adder and time stay.
	again, err := s.AddWatches(ctx, []prospector.WatchRequest{{Domain: "newco.example", AddedBy: "someone else",
		Boards: []prospector.BoardRef{{Kind: "greenhouse", Token: "newco"}, {Kind: "lever", Token: "newco"}}}},
		srcT0.Add(time.Hour))
	if err != nil || again[0].NewWatch || again[0].NewCompany || again[0].NewTargets != 1 {
		t.Fatalf("watching again: %+v %v", again, err)
	}
	ws, err := s.Watches(ctx)
	if err != nil || len(ws) != 2 {
		t.Fatalf("watches: %d %v", len(ws), err)
	}
	w := ws[1]
	if ws[0].Domain != cs[0].Domain || w.Domain != "newco.example" || !w.Explicit || w.AddedBy != "ops" ||
		!w.AddedAt.Equal(srcT0) || w.CompanyID != co.ID || len(w.RadarIDs) != 0 ||
		!slices.Equal(w.Boards, []prospector.BoardRef{{Kind: "greenhouse", Token: "newco"}, {Kind: "lever", Token: "newco"}}) ||
		!slices.Equal(w.Feeds, []string{"https://newco.example/blog/rss"}) {
		t.Fatalf("watch %+v", w)
	}
	// A malformed request writes nothing, the valid ones beside it included.
	_, err = s.AddWatches(ctx, []prospector.WatchRequest{{Domain: "fresh.example"},
		{Domain: "fresh2.example", Feeds: []string{"ftp://fresh2.example/feed"}}}, srcT0)
	if prospector.ErrorCode(err) != prospector.EINVALID {
		t.Fatalf("bad feed: %v", err)
	}
	if _, err := s.CompanyByDomain(ctx, "fresh.example"); !errors.Is(err, prospector.ErrNotFound) {
		t.Fatalf("a refused batch created a company: %v", err)
	}
	if _, err := s.AddWatches(ctx, []prospector.WatchRequest{{Domain: "nul.example", AddedBy: "a\x00b"}}, srcT0); prospector.ErrorCode(err) != prospector.EINVALID {
		t.Fatalf("NUL in added_by: %v", err)
	}
	if n, err := s.RemoveWatches(ctx, []string{"HTTPS://www." + cs[0].Domain}); err != nil || n != 1 {
		t.Fatalf("remove: %d %v", n, err)
	}
	if n, err := s.RemoveWatches(ctx, []string{cs[0].Domain}); err != nil || n != 0 {
		t.Fatalf("remove again: %d %v", n, err)
	}
	if _, err := s.RemoveWatches(ctx, []string{"not a domain"}); prospector.ErrorCode(err) != prospector.EINVALID {
		t.Fatalf("remove a non-domain: %v", err)
	}
	if ws, _ := s.Watches(ctx); len(ws) != 1 || ws[0].Domain != "newco.example" {
		t.Fatalf("after remove: %+v", ws)
	}
	// The unwatched company keeps its targets, which are no longer due.
	if ts, _ := s.ListTargets(ctx, prospector.TargetFilter{CompanyID: cs[0].ID}); len(ts) != 1 {
		t.Fatalf("targets of an unwatched company: %d", len(ts))
	}
	due, err := s.DueTargets(ctx, prospector.DueFilter{Now: srcT0.Add(time.Hour)})
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range due {
		if d.CompanyID != co.ID {
			t.Fatalf("a target of an unwatched company is due: %+v", d)
		}
	}
	if len(due) != 4 {
		t.Fatalf("due targets of newco: %d, want homepage, two boards and a feed", len(due))
	}
}

func maxCompanySeq(t *testing.T, s prospector.Store) int64 {
	t.Helper()
	cs, err := s.CompaniesChangedSince(context.Background(), 0, 1000)
	if err != nil {
		t.Fatal(err)
	}
	var m int64
	for _, c := range cs {
		m = max(m, c.Seq)
	}
	return m
}

func testRadarWatches(t *testing.T, s prospector.Store) {
	ctx := context.Background()
	cs := sampleCompanies()
	if _, err := s.UpsertCompanies(ctx, cs); err != nil {
		t.Fatal(err)
	}
	acme, blue, cobalt := cs[0], cs[1], cs[2]
	ws := NewWorkspace(t, s, "radarwatch", prospector.PlanGrowth)
	r := &prospector.Radar{ID: prospector.NewRadarID(), WorkspaceID: ws.ID, Name: "rivals",
		Config: prospector.RadarConfig{CompanyID: blue.ID, SignalsToTrack: []string{"hiring"},
			CompetitorURLs: []string{"https://rival.example", acme.NetworkURL, "https://network.example/company/unknown"}}}
	if err := s.CreateRadar(ctx, r); err != nil {
		t.Fatal(err)
	}
	other := &prospector.Radar{ID: prospector.NewRadarID(), WorkspaceID: ws.ID, Name: "titles",
		Config: prospector.RadarConfig{Titles: []string{"VP Sales"}}}
	if err := s.CreateRadar(ctx, other); err != nil {
		t.Fatal(err)
	}
	if _, err := s.AddWatches(ctx, []prospector.WatchRequest{{Domain: cobalt.Domain, AddedBy: "ops"}}, srcT0); err != nil {
		t.Fatal(err)
	}
	res, err := s.SyncWatches(ctx, srcT0)
	if err != nil {
		t.Fatal(err)
	}
	// blue (the radar's company), acme (a competitor's profile URL) and
	// rival.example (a competitor's domain, unknown until now).
	if res != (prospector.WatchSync{RadarWatchesAdded: 3, CompaniesCreated: 1, TargetsCreated: 3}) {
		t.Fatalf("first sync: %+v", res)
	}
	if res, err := s.SyncWatches(ctx, srcT0.Add(time.Minute)); err != nil || res != (prospector.WatchSync{}) {
		t.Fatalf("second sync must change nothing: %+v %v", res, err)
	}
	list, err := s.Watches(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var domains []string
	for _, w := range list {
		domains = append(domains, w.Domain)
		if w.Domain == cobalt.Domain && (!w.Explicit || len(w.RadarIDs) != 0) {
			t.Fatalf("explicit watch %+v", w)
		}
		if w.Domain != cobalt.Domain && (w.Explicit || !slices.Equal(w.RadarIDs, []string{r.ID}) || w.CompanyID == 0) {
			t.Fatalf("radar watch %+v", w)
		}
	}
	if !slices.Equal(domains, []string{acme.Domain, blue.Domain, cobalt.Domain, "rival.example"}) {
		t.Fatalf("watched %v", domains)
	}
	rival, err := s.CompanyByDomain(ctx, "rival.example")
	if err != nil {
		t.Fatal(err)
	}
	home, err := s.ListTargets(ctx, prospector.TargetFilter{CompanyID: rival.ID})
	if err != nil || len(home) != 1 || home[0].Origin != prospector.OriginRadar || home[0].Ref != "https://rival.example/" {
		t.Fatalf("homepage of a radar's company: %+v %v", home, err)
	}
	due, err := s.DueTargets(ctx, prospector.DueFilter{Now: srcT0, Kinds: []string{prospector.TargetHomepage}})
	if err != nil || len(due) != 4 {
		t.Fatalf("due homepages of four watched companies: %d %v", len(due), err)
	}
}

func testEnsureCompanies(t *testing.T, s prospector.Store) {
	ctx := context.Background()
	cs := sampleCompanies()
	if _, err := s.UpsertCompanies(ctx, cs); err != nil {
		t.Fatal(err)
	}
	in := []*prospector.Company{{Domain: "learnt.example"}, {Domain: cs[1].Domain, Name: "Not Bluepeak"}}
	n, err := s.EnsureCompanies(ctx, in)
	if err != nil || n != 1 || in[0].ID == 0 || in[1].ID != cs[1].ID {
		t.Fatalf("ensure: %d %v %+v", n, err, in)
	}
	if co, _ := s.CompanyByDomain(ctx, cs[1].Domain); co.Name != "Bluepeak" {
		t.Fatalf("a known company's name was replaced: %q", co.Name)
	}
	seq := maxCompanySeq(t, s)
	n, err = s.EnsureCompanies(ctx, []*prospector.Company{{Domain: "learnt.example", Name: "Learnt Labs"}})
	if err != nil || n != 0 {
		t.Fatalf("naming: %d %v", n, err)
	}
	co, _ := s.CompanyByDomain(ctx, "learnt.example")
	if co.Name != "Learnt Labs" || co.Seq <= seq {
		t.Fatalf("a stand-in name must give way to a learnt one, with a new seq: %+v", co)
	}
	if _, err := s.EnsureCompanies(ctx, []*prospector.Company{{Domain: "learnt.example", Name: "Second Guess"}}); err != nil {
		t.Fatal(err)
	}
	if co, _ := s.CompanyByDomain(ctx, "learnt.example"); co.Name != "Learnt Labs" {
		t.Fatalf("a learnt name was replaced: %q", co.Name)
	}
	for _, bad := range []*prospector.Company{{Domain: "Upper.Example"}, {Domain: "x.example", Name: "a\x00"}} {
		if _, err := s.EnsureCompanies(ctx, []*prospector.Company{bad}); prospector.ErrorCode(err) != prospector.EINVALID {
			t.Errorf("%+v: err = %v", bad, err)
		}
	}
}

// WatchingRadar creates a radar targeting a stored company, syncs the
// watches and checks that the company is watched and its homepage due.
// It returns the radar's id; engine tests delete the radar (no store
// method does) and call CheckUnwatched.
func WatchingRadar(t *testing.T, s prospector.Store) string {
	t.Helper()
	ctx := context.Background()
	cs := sampleCompanies()
	if _, err := s.UpsertCompanies(ctx, cs); err != nil {
		t.Fatal(err)
	}
	ws := NewWorkspace(t, s, "radarend", prospector.PlanGrowth)
	r := &prospector.Radar{ID: prospector.NewRadarID(), WorkspaceID: ws.ID, Name: "one company",
		Config: prospector.RadarConfig{CompanyID: cs[1].ID, SignalsToTrack: []string{"hiring"}}}
	if err := s.CreateRadar(ctx, r); err != nil {
		t.Fatal(err)
	}
	if _, err := s.SyncWatches(ctx, srcT0); err != nil {
		t.Fatal(err)
	}
	if ws, _ := s.Watches(ctx); len(ws) != 1 || ws[0].Domain != cs[1].Domain {
		t.Fatalf("watches of a radar: %+v", ws)
	}
	if due, _ := s.DueTargets(ctx, prospector.DueFilter{Now: srcT0}); len(due) != 1 {
		t.Fatalf("due targets of a radar's company: %d", len(due))
	}
	return r.ID
}

// CheckUnwatched checks that nothing is watched or due any more.
func CheckUnwatched(t *testing.T, s prospector.Store, now time.Time) {
	t.Helper()
	ctx := context.Background()
	if ws, err := s.Watches(ctx); err != nil || len(ws) != 0 {
		t.Fatalf("watches after the radar went: %+v %v", ws, err)
	}
	if due, err := s.DueTargets(ctx, prospector.DueFilter{Now: now}); err != nil || len(due) != 0 {
		t.Fatalf("due targets after the radar went: %d %v", len(due), err)
	}
}
