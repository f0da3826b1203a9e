package storetest

import (
	"context"
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/prospectorhq/prospector"
)

// runRadarChange covers radar management: the summary page, changes and
// deletion.
func runRadarChange(t *testing.T, open Opener) {
	t.Run("RadarSummaryPage", func(t *testing.T) { testRadarSummaryPage(t, open(t)) })
	t.Run("RadarChange", func(t *testing.T) { testRadarChange(t, open(t)) })
	t.Run("RadarPause", func(t *testing.T) { testRadarPause(t, open(t)) })
	t.Run("RadarPauseWatches", func(t *testing.T) { testRadarPauseWatches(t, open(t)) })
	t.Run("RadarDelete", func(t *testing.T) { testRadarDelete(t, open(t)) })
}

func testRadarSummaryPage(t *testing.T, s prospector.Store) {
	ctx := context.Background()
	fx := seedRadarData(t, s)
	w := NewWorkspace(t, s, "paged", prospector.PlanGrowth)
	other := NewWorkspace(t, s, "other", prospector.PlanGrowth)
	var rs []*prospector.Radar
	for _, n := range []string{"a", "b", "c"} {
		rs = append(rs, newRadar(t, s, w, n))
	}
	foreign := newRadar(t, s, other, "foreign")
	apply(t, s, &prospector.LeadBatch{Backfilled: []string{rs[1].ID},
		Matches: []prospector.LeadMatch{match(rs[1], fx, 0, map[int]float64{0: 50, 2: 40})}})
	for _, c := range []struct {
		offset, limit int
		want          []string
	}{{0, 2, []string{"a", "b"}}, {2, 2, []string{"c"}}, {3, 2, nil}, {0, 100, []string{"a", "b", "c"}}} {
		page, total, err := s.RadarSummaryPage(ctx, w.ID, c.offset, c.limit)
		var got []string
		for _, p := range page {
			got = append(got, p.Name)
		}
		if err != nil || total != 3 || !slices.Equal(got, c.want) {
			t.Fatalf("offset %d limit %d: %v of %d, %v; want %v of 3", c.offset, c.limit, got, total, err, c.want)
		}
	}
	page, _, _ := s.RadarSummaryPage(ctx, w.ID, 1, 1)
	if b := page[0]; b.Leads != 1 || b.Signals != 2 || b.LastScanAt == nil || b.Status() != prospector.RadarActive {
		t.Fatalf("counts on a page: %+v", b)
	}
	one, err := s.RadarSummary(ctx, rs[1].ID)
	if err != nil || one.Leads != 1 || one.Signals != 2 || one.WorkspaceID != w.ID || one.Name != "b" {
		t.Fatalf("one summary: %+v, %v", one, err)
	}
	if f, err := s.RadarSummary(ctx, foreign.ID); err != nil || f.WorkspaceID != other.ID {
		t.Fatalf("summary of another workspace's radar (callers compare): %+v, %v", f, err)
	}
	if _, err := s.RadarSummary(ctx, prospector.NewRadarID()); !errors.Is(err, prospector.ErrNotFound) {
		t.Fatalf("unknown radar: %v", err)
	}
	if none, total, err := s.RadarSummaryPage(ctx, "ws_missing", 0, 10); err != nil || len(none) != 0 || total != 0 {
		t.Fatalf("unknown workspace: %d of %d, %v", len(none), total, err)
	}
}

func testRadarChange(t *testing.T, s prospector.Store) {
	ctx := context.Background()
	fx := seedRadarData(t, s)
	w := NewWorkspace(t, s, "changed", prospector.PlanGrowth)
	other := NewWorkspace(t, s, "other", prospector.PlanGrowth)
	r := newRadar(t, s, w, "first")
	name := "renamed"
	newRules := r.Config
	newRules.Titles = []string{"CRO"}
	now := time.Now().UTC().Truncate(time.Millisecond)
	// New rules wait for the backfill; the whole change is refused.
	_, err := s.ChangeRadar(ctx, &prospector.RadarChange{WorkspaceID: w.ID, ID: r.ID, Name: &name, Config: &newRules,
		Backfill: prospector.RadarBackfillJob(r.ID)}, now)
	if !errors.Is(err, prospector.ErrRadarBackfilling) {
		t.Fatalf("rules of a backfilling radar: %v", err)
	}
	if got, _ := s.Radar(ctx, r.ID); got.Name != "first" || got.Config.Titles[0] != "VP Sales" {
		t.Fatalf("a refused change was written: %+v", got)
	}
	// Another workspace cannot change it.
	if _, err := s.ChangeRadar(ctx, &prospector.RadarChange{WorkspaceID: other.ID, ID: r.ID, Name: &name}, now); !errors.Is(err, prospector.ErrNotFound) {
		t.Fatalf("foreign change: %v", err)
	}
	scanned := now.Add(-time.Hour)
	apply(t, s, &prospector.LeadBatch{Now: scanned, Backfilled: []string{r.ID},
		Matches: []prospector.LeadMatch{match(r, fx, 0, map[int]float64{0: 50})},
		Cursors: []prospector.RadarCursor{{RadarID: r.ID, From: r.Cursor, To: r.Cursor + 2}}})
	got, err := s.ChangeRadar(ctx, &prospector.RadarChange{WorkspaceID: w.ID, ID: r.ID, Name: &name}, now)
	if err != nil || got.Name != "renamed" || got.Config.Titles[0] != "VP Sales" || got.BackfilledAt == nil {
		t.Fatalf("rename: %+v, %v", got, err)
	}
	job := prospector.RadarBackfillJob(r.ID)
	got, err = s.ChangeRadar(ctx, &prospector.RadarChange{WorkspaceID: w.ID, ID: r.ID, Config: &newRules, Backfill: job}, now)
	if err != nil || got.Config.Titles[0] != "CRO" || got.BackfilledAt != nil || got.Cursor != r.Cursor+2 ||
		got.BackfillThrough != r.Cursor+2 || job.ID == 0 || job.State != prospector.JobQueued {
		t.Fatalf("new rules: %+v (job %+v), %v", got, job, err)
	}
	sum, _ := s.RadarSummary(ctx, r.ID)
	if sum.Leads != 1 || sum.LastScanAt == nil || !sum.LastScanAt.Equal(scanned) {
		t.Fatalf("changes keep the leads and the last scan: %+v, last scan %v want %v", sum, sum.LastScanAt, scanned)
	}
}

func testRadarPause(t *testing.T, s prospector.Store) {
	ctx := context.Background()
	fx := seedRadarData(t, s)
	w := NewWorkspace(t, s, "paused", prospector.PlanGrowth)
	r := newRadar(t, s, w, "paused")
	running := newRadar(t, s, w, "running")
	apply(t, s, &prospector.LeadBatch{Backfilled: []string{r.ID, running.ID}})
	yes, no := true, false
	at := time.Now().UTC().Truncate(time.Millisecond)
	got, err := s.ChangeRadar(ctx, &prospector.RadarChange{WorkspaceID: w.ID, ID: r.ID, Paused: &yes}, at)
	if err != nil || got.PausedAt == nil || !got.PausedAt.Equal(at) || got.Status() != prospector.RadarPaused {
		t.Fatalf("pause: %+v, %v", got, err)
	}
	if got, _ := s.ChangeRadar(ctx, &prospector.RadarChange{WorkspaceID: w.ID, ID: r.ID, Paused: &yes}, at.Add(time.Hour)); !got.PausedAt.Equal(at) {
		t.Fatalf("pausing again moved paused_at to %v", got.PausedAt)
	}
	// The scan cannot move a paused radar's cursor: a batch that read it
	// running writes nothing.
	_, err = s.ApplyLeadBatch(ctx, &prospector.LeadBatch{Now: time.Now(),
		Matches: []prospector.LeadMatch{match(r, fx, 0, map[int]float64{0: 50})},
		Cursors: []prospector.RadarCursor{{RadarID: r.ID, From: r.Cursor, To: r.Cursor + 1}}})
	if !errors.Is(err, prospector.ErrCursorMoved) {
		t.Fatalf("a batch moving a paused radar's cursor: %v", err)
	}
	if ls, _ := s.RadarLeads(ctx, prospector.LeadFilter{RadarID: r.ID, Limit: 10}); len(ls) != 0 {
		t.Fatalf("the refused batch wrote %d leads", len(ls))
	}
	// The backlog leaves paused radars out.
	more := &prospector.Signal{ExternalID: "rs-more", Type: "company_hiring", CompanyID: &fx.acme.ID,
		CompanyDomain: fx.acme.Domain, Title: "More", DetectedAt: time.Now().UTC()}
	if _, err := s.UpsertSignals(ctx, []*prospector.Signal{more}); err != nil {
		t.Fatal(err)
	}
	b, err := s.RadarBacklog(ctx)
	if err != nil || b.Radars != 1 || b.MinCursor != running.Cursor || b.MaxSignalID != more.ID {
		t.Fatalf("backlog with a paused radar: %+v, %v", b, err)
	}
	// Resuming skips what was stored while paused; a backfilled radar
	// needs no backfill job.
	job := prospector.RadarBackfillJob(r.ID)
	got, err = s.ChangeRadar(ctx, &prospector.RadarChange{WorkspaceID: w.ID, ID: r.ID, Paused: &no, Backfill: job}, at)
	if err != nil || got.PausedAt != nil || got.Cursor != more.ID || job.ID != 0 {
		t.Fatalf("resume: %+v (job %+v), %v; want the cursor at %d", got, job, err, more.ID)
	}
	// A radar paused before its backfill gets its job again on resuming,
	// and the backlog leaves it out while paused.
	fresh := newRadar(t, s, w, "fresh")
	if _, err := s.ChangeRadar(ctx, &prospector.RadarChange{WorkspaceID: w.ID, ID: fresh.ID, Paused: &yes}, at); err != nil {
		t.Fatal(err)
	}
	if b, _ := s.RadarBacklog(ctx); slices.Contains(b.Unbackfilled, fresh.ID) {
		t.Fatalf("a paused radar is in the backfill backlog: %+v", b)
	}
	job = prospector.RadarBackfillJob(fresh.ID)
	if _, err := s.ChangeRadar(ctx, &prospector.RadarChange{WorkspaceID: w.ID, ID: fresh.ID, Paused: &no, Backfill: job}, at); err != nil ||
		job.ID == 0 {
		t.Fatalf("resume before the backfill: job %+v, %v", job, err)
	}
	if b, _ := s.RadarBacklog(ctx); !slices.Contains(b.Unbackfilled, fresh.ID) {
		t.Fatalf("a resumed radar is not in the backfill backlog: %+v", b)
	}
}

// A paused radar watches no company; resuming watches them again.
func testRadarPauseWatches(t *testing.T, s prospector.Store) {
	ctx := context.Background()
	fx := seedRadarData(t, s)
	w := NewWorkspace(t, s, "watching", prospector.PlanGrowth)
	r := &prospector.Radar{ID: prospector.NewRadarID(), WorkspaceID: w.ID, Name: "blue",
		Config: prospector.RadarConfig{CompanyID: fx.blue.ID, Titles: []string{"VP Sales"}}}
	if err := s.CreateRadar(ctx, r); err != nil {
		t.Fatal(err)
	}
	watched := func() bool {
		t.Helper()
		ws, err := s.Watches(ctx)
		if err != nil {
			t.Fatal(err)
		}
		for _, x := range ws {
			if x.Domain == fx.blue.Domain && slices.Contains(x.RadarIDs, r.ID) {
				return true
			}
		}
		return false
	}
	sync := func(want prospector.WatchSync) {
		t.Helper()
		res, err := s.SyncWatches(ctx, time.Now())
		if err != nil || res.RadarWatchesAdded != want.RadarWatchesAdded || res.RadarWatchesRemoved != want.RadarWatchesRemoved {
			t.Fatalf("sync: %+v, %v; want %+v", res, err, want)
		}
	}
	sync(prospector.WatchSync{RadarWatchesAdded: 1})
	if !watched() {
		t.Fatal("the radar does not watch its company")
	}
	yes, no := true, false
	if _, err := s.ChangeRadar(ctx, &prospector.RadarChange{WorkspaceID: w.ID, ID: r.ID, Paused: &yes}, time.Now()); err != nil {
		t.Fatal(err)
	}
	sync(prospector.WatchSync{RadarWatchesRemoved: 1})
	if watched() {
		t.Fatal("a paused radar still watches its company")
	}
	if _, err := s.ChangeRadar(ctx, &prospector.RadarChange{WorkspaceID: w.ID, ID: r.ID, Paused: &no,
		Backfill: prospector.RadarBackfillJob(r.ID)}, time.Now()); err != nil {
		t.Fatal(err)
	}
	sync(prospector.WatchSync{RadarWatchesAdded: 1})
	if !watched() {
		t.Fatal("a resumed radar does not watch its company again")
	}
}

func testRadarDelete(t *testing.T, s prospector.Store) {
	ctx := context.Background()
	fx := seedRadarData(t, s)
	w := NewWorkspace(t, s, "deleting", prospector.PlanDefault) // one radar
	other := NewWorkspace(t, s, "other", prospector.PlanGrowth)
	r := &prospector.Radar{ID: prospector.NewRadarID(), WorkspaceID: w.ID, Name: "watching",
		Config: prospector.RadarConfig{CompanyID: fx.blue.ID, Titles: []string{"VP Sales"}}}
	if err := s.CreateRadarInQuota(ctx, r, prospector.RadarBackfillJob(r.ID)); err != nil {
		t.Fatal(err)
	}
	hook := &prospector.WebhookSettings{WorkspaceID: w.ID, URL: "https://hooks.example/in", AutoSync: true,
		SigningSecret: prospector.NewWebhookSecret()}
	if err := s.CreateWebhookSettings(ctx, hook); err != nil {
		t.Fatal(err)
	}
	var calls []hookCall
	apply(t, s, &prospector.LeadBatch{Backfilled: []string{r.ID}, AutoSync: recordingHook(&calls, nil),
		Matches: []prospector.LeadMatch{match(r, fx, 0, map[int]float64{0: 50}), match(r, fx, 1, map[int]float64{1: 40})}})
	if _, err := s.SyncWatches(ctx, time.Now()); err != nil {
		t.Fatal(err)
	}
	used := func() int64 {
		u, err := s.CreditUsage(ctx, w.ID, time.Now())
		if err != nil {
			t.Fatal(err)
		}
		return u.Radars.Used
	}
	if _, err := s.DeleteRadar(ctx, other.ID, r.ID); !errors.Is(err, prospector.ErrNotFound) {
		t.Fatalf("another workspace deleted it: %v", err)
	}
	if _, err := s.Radar(ctx, r.ID); err != nil || used() != 1 {
		t.Fatalf("after a refused delete: %v, %d radars used", err, used())
	}
	d, err := s.DeleteRadar(ctx, w.ID, r.ID)
	if err != nil || d.LeadsKept != 2 {
		t.Fatalf("delete: %+v, %v", d, err)
	}
	if _, err := s.Radar(ctx, r.ID); !errors.Is(err, prospector.ErrNotFound) || used() != 0 {
		t.Fatalf("after the delete: %v, %d radars used", err, used())
	}
	// Its leads stay, without their radar, and so do their deliveries.
	leads, err := s.LeadsByID(ctx, w.ID, []string{calls[0].leads[0].ID, calls[0].leads[1].ID})
	if err != nil || len(leads) != 2 || leads[0].RadarID != "" || leads[1].RadarID != "" {
		t.Fatalf("kept leads: %+v, %v", leads, err)
	}
	ds, err := s.ListDeliveries(ctx, prospector.DeliveryFilter{WorkspaceID: w.ID, Limit: 10})
	if err != nil || len(ds) != 2 || ds[0].Status != prospector.DeliveryPending {
		t.Fatalf("deliveries of the kept leads: %+v, %v", ds, err)
	}
	// It watches nothing any more.
	ws, err := s.Watches(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, x := range ws {
		if slices.Contains(x.RadarIDs, r.ID) {
			t.Fatalf("a deleted radar still watches %s", x.Domain)
		}
	}
	if _, err := s.DeleteRadar(ctx, w.ID, r.ID); !errors.Is(err, prospector.ErrNotFound) || used() != 0 {
		t.Fatalf("second delete: %v, %d radars used", err, used())
	}
	// The freed unit takes a new radar.
	again := &prospector.Radar{ID: prospector.NewRadarID(), WorkspaceID: w.ID, Name: "again",
		Config: prospector.RadarConfig{Titles: []string{"CRO"}}}
	if err := s.CreateRadarInQuota(ctx, again, prospector.RadarBackfillJob(again.ID)); err != nil {
		t.Fatalf("a radar in the freed unit: %v", err)
	}
}
