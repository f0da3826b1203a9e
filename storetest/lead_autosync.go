package storetest

import (
	"context"
	"encoding/json"
	"errors"
	"testing"
	"time"

	"github.com/prospectorhq/prospector"
)

// hookCall is what one AutoSyncFunc call was given.
type hookCall struct {
	settings *prospector.WebhookSettings
	leads    []*prospector.Lead
}

// recordingHook is an AutoSyncFunc making one delivery and one job per
// lead, recording its calls; failWith makes it fail instead.
func recordingHook(calls *[]hookCall, failWith error) prospector.AutoSyncFunc {
	return func(s *prospector.WebhookSettings, ls []*prospector.Lead) ([]*prospector.Delivery, []*prospector.Job, error) {
		*calls = append(*calls, hookCall{s, ls})
		if failWith != nil {
			return nil, nil, failWith
		}
		var ds []*prospector.Delivery
		var js []*prospector.Job
		for _, l := range ls {
			payload, err := json.Marshal(map[string]any{"id": l.ID, "name": l.FullName, "created_at": l.CreatedAt})
			if err != nil {
				return nil, nil, err
			}
			d := &prospector.Delivery{ID: prospector.NewDeliveryID(), WorkspaceID: s.WorkspaceID, LeadID: l.ID,
				DestinationKind: prospector.DestinationWebhook, DestinationURL: s.URL, Payload: payload}
			ds = append(ds, d)
			js = append(js, &prospector.Job{Kind: "test.deliver", Key: d.ID + ":1", Payload: []byte(`{"delivery_id":"` + d.ID + `"}`)})
		}
		return ds, js, nil
	}
}

// testLeadBatchAutoSync: a batch hands the leads it creates in a
// workspace with auto-sync on to LeadBatch.AutoSync, as they are stored,
// and writes the deliveries and jobs it returns in its own transaction:
// they exist exactly when the leads do.
func testLeadBatchAutoSync(t *testing.T, s prospector.Store) {
	ctx := context.Background()
	fx := seedRadarData(t, s)
	on := NewWorkspace(t, s, "synced", prospector.PlanGrowth)
	off := NewWorkspace(t, s, "unsynced", prospector.PlanGrowth)
	bare := NewWorkspace(t, s, "nohook", prospector.PlanGrowth)
	hook := &prospector.WebhookSettings{WorkspaceID: on.ID, URL: "https://hooks.example/in", AutoSync: true,
		SigningSecret: prospector.NewWebhookSecret()}
	quiet := &prospector.WebhookSettings{WorkspaceID: off.ID, URL: "https://hooks.example/off", AutoSync: false,
		SigningSecret: prospector.NewWebhookSecret()}
	for _, ws := range []*prospector.WebhookSettings{hook, quiet} {
		if err := s.CreateWebhookSettings(ctx, ws); err != nil {
			t.Fatal(err)
		}
	}
	rOn, rOff, rBare := newRadar(t, s, on, "on"), newRadar(t, s, off, "off"), newRadar(t, s, bare, "bare")
	deliveries := func(ws string) []*prospector.Delivery {
		t.Helper()
		ds, err := s.ListDeliveries(ctx, prospector.DeliveryFilter{WorkspaceID: ws, Limit: 100})
		if err != nil {
			t.Fatal(err)
		}
		return ds
	}

	// A batch whose cursor moved, or whose hook fails, writes nothing.
	var calls []hookCall
	_, err := s.ApplyLeadBatch(ctx, &prospector.LeadBatch{Now: time.Now(), AutoSync: recordingHook(&calls, nil),
		Matches: []prospector.LeadMatch{match(rOn, fx, 0, map[int]float64{0: 50})},
		Cursors: []prospector.RadarCursor{{RadarID: rOn.ID, From: rOn.Cursor + 1, To: rOn.Cursor + 5}}})
	if !errors.Is(err, prospector.ErrCursorMoved) {
		t.Fatalf("moved cursor: %v", err)
	}
	boom := errors.New("hook failed")
	_, err = s.ApplyLeadBatch(ctx, &prospector.LeadBatch{Now: time.Now(), AutoSync: recordingHook(&calls, boom),
		Matches: []prospector.LeadMatch{match(rOn, fx, 0, map[int]float64{0: 50})}})
	if !errors.Is(err, boom) {
		t.Fatalf("failing hook: err = %v, want it returned", err)
	}
	if ls, err := s.RadarLeads(ctx, prospector.LeadFilter{RadarID: rOn.ID, Limit: 10}); err != nil {
		t.Fatal(err)
	} else if len(ls) != 0 || len(deliveries(on.ID)) != 0 {
		t.Fatalf("a failed batch left %d leads and %d deliveries", len(ls), len(deliveries(on.ID)))
	}

	calls = nil
	res := apply(t, s, &prospector.LeadBatch{AutoSync: recordingHook(&calls, nil), Matches: []prospector.LeadMatch{
		match(rOn, fx, 0, map[int]float64{0: 60, 2: 40}),
		match(rOn, fx, 1, map[int]float64{1: 70}),
		match(rOff, fx, 0, map[int]float64{0: 60}),
		match(rBare, fx, 2, map[int]float64{0: 60}),
	}})
	if res.LeadsCreated != 4 {
		t.Fatalf("batch: %+v", res)
	}
	if len(calls) != 1 || calls[0].settings.WorkspaceID != on.ID || calls[0].settings.URL != hook.URL || len(calls[0].leads) != 2 {
		t.Fatalf("hook calls %+v, want one for %s with its 2 leads (auto-sync off or no webhook: none)", calls, on.ID)
	}
	stored, err := s.RadarLeads(ctx, prospector.LeadFilter{RadarID: rOn.ID, Limit: 10})
	if err != nil || len(stored) != 2 {
		t.Fatalf("leads: %d, %v", len(stored), err)
	}
	given := map[string]*prospector.Lead{}
	for _, l := range calls[0].leads {
		given[l.ID] = l
	}
	for _, l := range stored {
		g := given[l.ID]
		if g == nil || g.FullName != l.FullName || g.WorkspaceID != l.WorkspaceID || g.RadarID != l.RadarID ||
			g.Status != l.Status || *g.Score != *l.Score || !g.CreatedAt.Equal(l.CreatedAt) || !g.LastSignalAt.Equal(l.LastSignalAt) ||
			g.City != l.City || g.CountryCode != l.CountryCode || g.Source != l.Source {
			t.Errorf("hook got %+v for stored lead %+v", g, l)
		}
	}
	ds := deliveries(on.ID)
	if len(ds) != 2 || len(deliveries(off.ID)) != 0 || len(deliveries(bare.ID)) != 0 {
		t.Fatalf("deliveries: %d synced, %d off, %d without a webhook; want 2, 0, 0", len(ds), len(deliveries(off.ID)), len(deliveries(bare.ID)))
	}
	for _, d := range ds {
		var p struct{ ID string }
		if json.Unmarshal(d.Payload, &p) != nil || p.ID != d.LeadID || given[d.LeadID] == nil || d.Status != prospector.DeliveryPending ||
			d.Attempts != 0 || d.DestinationURL != hook.URL || d.NextAttemptAt.IsZero() {
			t.Errorf("delivery %+v", d)
		}
	}
	if n, err := s.CountJobs(ctx, "test.deliver", prospector.JobQueued); err != nil || n != 2 {
		t.Fatalf("%d jobs queued (%v), want 2", n, err)
	}

	// Leads the batch only updates are not new: no hook call, no delivery.
	calls = nil
	res = apply(t, s, &prospector.LeadBatch{AutoSync: recordingHook(&calls, nil), Matches: []prospector.LeadMatch{
		match(rOn, fx, 0, map[int]float64{3: 90})}})
	if res.LeadsUpdated != 1 || len(calls) != 0 || len(deliveries(on.ID)) != 2 {
		t.Fatalf("update: %+v, %d hook calls, %d deliveries", res, len(calls), len(deliveries(on.ID)))
	}
}
