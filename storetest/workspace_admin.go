package storetest

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/prospectorhq/prospector"
)

// runWorkspaceAdmin covers what operators do to workspaces: list,
// update, delete, and the radar listing.
func runWorkspaceAdmin(t *testing.T, open Opener) {
	t.Run("WorkspaceList", func(t *testing.T) { testWorkspaceList(t, open(t)) })
	t.Run("WorkspaceUpdate", func(t *testing.T) { testWorkspaceUpdate(t, open(t)) })
	t.Run("WorkspaceDelete", func(t *testing.T) { testWorkspaceDelete(t, open(t)) })
	t.Run("RadarSummaries", func(t *testing.T) { testRadarSummaries(t, open(t)) })
}

func testWorkspaceList(t *testing.T, s prospector.Store) {
	ctx := context.Background()
	if ws, err := s.ListWorkspaces(ctx); err != nil || len(ws) != 0 {
		t.Fatalf("empty store: %d workspaces, %v", len(ws), err)
	}
	NewWorkspace(t, s, "zeta", prospector.PlanGrowth)
	alpha := NewWorkspace(t, s, "alpha", prospector.PlanStarter)
	ws, err := s.ListWorkspaces(ctx)
	if err != nil || len(ws) != 2 || ws[0].Name != "alpha" || ws[1].Name != "zeta" {
		t.Fatalf("list: %v, %v; want alpha then zeta", names(ws), err)
	}
	if ws[0].ID != alpha.ID || ws[0].Plan != prospector.PlanStarter || *ws[0].Radars.Limit != 5 || !ws[0].CreatedAt.Equal(alpha.CreatedAt) {
		t.Fatalf("listed %+v, want %+v", ws[0], alpha)
	}
}

func names(ws []*prospector.Workspace) []string {
	var out []string
	for _, w := range ws {
		out = append(out, w.Name)
	}
	return out
}

func testWorkspaceUpdate(t *testing.T, s prospector.Store) {
	ctx := context.Background()
	w := prospector.NewWorkspace("acme", prospector.PlanStarter)
	w.Credits.Limit = ptr(5000) // set by the operator, not the plan's 1,000
	if err := s.CreateWorkspace(ctx, w); err != nil {
		t.Fatal(err)
	}
	other := NewWorkspace(t, s, "other", prospector.PlanStarter)
	key := func(ws *prospector.Workspace, tier string) (*prospector.APIKey, string) {
		k, secret := prospector.NewAPIKey(ws.ID, tier, nil)
		if err := s.CreateAPIKey(ctx, k); err != nil {
			t.Fatal(err)
		}
		return k, secret
	}
	_, follows := key(w, prospector.PlanStarter)
	_, chosen := key(w, prospector.PlanDefault)
	revoked, revokedSecret := key(w, prospector.PlanStarter)
	if err := s.RevokeAPIKey(ctx, revoked.ID, time.Now()); err != nil {
		t.Fatal(err)
	}
	_, foreign := key(other, prospector.PlanStarter)

	kept := w.ChangePlan(prospector.PlanGrowth)
	if len(kept) != 1 || kept[0] != "credits" {
		t.Fatalf("kept %v, want the explicit credits only", kept)
	}
	w.PublicAPI = false
	moved, err := s.UpdateWorkspace(ctx, w, prospector.TierMove{From: prospector.PlanStarter, To: prospector.PlanGrowth})
	if err != nil || moved != 1 {
		t.Fatalf("update: moved %d, %v; want the one unrevoked starter key", moved, err)
	}
	got, err := s.WorkspaceByName(ctx, "acme")
	if err != nil {
		t.Fatal(err)
	}
	if got.Plan != prospector.PlanGrowth || got.PublicAPI || *got.Credits.Limit != 5000 || *got.Radars.Limit != 25 ||
		*got.NetworkAccounts.Limit != 10 || *got.RadarSignals.Limit != 100000 || got.Email != w.Email ||
		!got.PeriodStart.Equal(w.PeriodStart) || !got.CreatedAt.Equal(w.CreatedAt) {
		t.Fatalf("after update %+v", got)
	}
	for secret, want := range map[string]string{follows: prospector.PlanGrowth, chosen: prospector.PlanDefault,
		revokedSecret: prospector.PlanStarter, foreign: prospector.PlanStarter} {
		p, err := s.PrincipalByKeyHash(ctx, prospector.HashKey(secret))
		if err != nil || p.Key.Tier != want {
			t.Errorf("key %s: tier %v, %v; want %s", secret[:12], p, err, want)
		}
	}
	if o, err := s.WorkspaceByName(ctx, "other"); err != nil {
		t.Fatal(err)
	} else if o.Plan != prospector.PlanStarter || !o.PublicAPI {
		t.Fatalf("another workspace changed: %+v", o)
	}

	// Unlimited credits, no key move.
	got.Credits.Limit = nil
	if moved, err := s.UpdateWorkspace(ctx, got, prospector.TierMove{}); err != nil || moved != 0 {
		t.Fatalf("unlimited: %d, %v", moved, err)
	}
	if u, err := s.WorkspaceByID(ctx, w.ID); err != nil {
		t.Fatal(err)
	} else if u.Credits.Limit != nil || u.Plan != prospector.PlanGrowth {
		t.Fatalf("unlimited credits not stored: %+v", u)
	}
	bad := *got
	bad.Plan = "platinum"
	if _, err := s.UpdateWorkspace(ctx, &bad, prospector.TierMove{}); prospector.ErrorCode(err) != prospector.EINVALID {
		t.Fatalf("invalid plan: %v", err)
	}
	missing := *got
	missing.ID = "ws_missing"
	if _, err := s.UpdateWorkspace(ctx, &missing, prospector.TierMove{From: prospector.PlanGrowth, To: prospector.PlanDefault}); !errors.Is(err, prospector.ErrNotFound) {
		t.Fatalf("unknown workspace: %v", err)
	}
	if p, err := s.PrincipalByKeyHash(ctx, prospector.HashKey(follows)); err != nil {
		t.Fatal(err)
	} else if p.Key.Tier != prospector.PlanGrowth {
		t.Fatalf("a failed update moved keys: %s", p.Key.Tier)
	}
}

// ownedRows gives workspace w one of everything a workspace owns: two
// keys, a radar with three leads and their signals, a charge, an email
// lookup, webhook settings, an outreach integration, two deliveries and
// a feedback event (on the lead returned with the radar). The radar
// fixture's shared data is passed in.
func ownedRows(t *testing.T, s prospector.Store, fx *radarFixture, w *prospector.Workspace) (*prospector.Radar, *prospector.Lead) {
	t.Helper()
	ctx := context.Background()
	for range 2 {
		k, _ := prospector.NewAPIKey(w.ID, w.Plan, nil)
		if err := s.CreateAPIKey(ctx, k); err != nil {
			t.Fatal(err)
		}
	}
	r := newRadar(t, s, w, "radar of "+w.Name)
	apply(t, s, &prospector.LeadBatch{Matches: []prospector.LeadMatch{match(r, fx, 0, map[int]float64{0: 50, 2: 40}),
		match(r, fx, 1, map[int]float64{1: 40}), match(r, fx, 2, map[int]float64{2: 30})}})
	leads, err := s.RadarLeads(ctx, prospector.LeadFilter{RadarID: r.ID, Limit: 10})
	if err != nil || len(leads) != 3 {
		t.Fatalf("leads of %s: %d, %v", w.Name, len(leads), err)
	}
	if _, err := s.ChargeCredits(ctx, &prospector.Charge{WorkspaceID: w.ID, Amount: 2, Reason: "test"}, time.Now()); err != nil {
		t.Fatal(err)
	}
	if _, _, err := s.RecordEmailLookup(ctx, lookup(w.ID, "", "h", 1), time.Now()); err != nil {
		t.Fatal(err)
	}
	if err := s.CreateWebhookSettings(ctx, &prospector.WebhookSettings{WorkspaceID: w.ID, URL: "https://hooks.example.com/" + w.Name,
		SigningSecret: prospector.NewWebhookSecret()}); err != nil {
		t.Fatal(err)
	}
	if err := s.PutOutreachIntegration(ctx, &prospector.OutreachIntegration{WorkspaceID: w.ID, Tool: prospector.DestinationOutreachToolA,
		BaseURL: "https://api.tool-a.example", APIKey: "ka_" + w.Name, CampaignID: "cmp_1"}); err != nil {
		t.Fatal(err)
	}
	for _, l := range leads[:2] {
		if _, err := s.AddDelivery(ctx, &prospector.Delivery{WorkspaceID: w.ID, DestinationKind: prospector.DestinationWebhook,
			DestinationURL: "https://hooks.example.com/" + w.Name, LeadID: l.ID, Payload: []byte(`{}`), NextAttemptAt: time.Now()}); err != nil {
			t.Fatal(err)
		}
	}
	record(t, s, event(w, leads[0], "reply", "2026-11-10T10:00:00Z"))
	return r, leads[0]
}

func testWorkspaceDelete(t *testing.T, s prospector.Store) {
	ctx := context.Background()
	fx := seedRadarData(t, s)
	gone := NewWorkspace(t, s, "gone", prospector.PlanGrowth)
	stays := NewWorkspace(t, s, "stays", prospector.PlanGrowth)
	goneRadar, goneLead := ownedRows(t, s, fx, gone)
	staysRadar, staysLead := ownedRows(t, s, fx, stays)
	goneKeys, err := s.ListAPIKeys(ctx, gone.ID)
	if err != nil {
		t.Fatal(err)
	}
	before := dataCounts(t, s)

	d, err := s.DeleteWorkspace(ctx, gone.ID)
	if err != nil {
		t.Fatal(err)
	}
	want := prospector.WorkspaceDeletion{Keys: 2, Radars: 1, Leads: 3, LeadSignals: 4, Deliveries: 2, FeedbackEvents: 1,
		Integrations: 2, Charges: 1, EmailLookups: 1}
	if *d != want {
		t.Fatalf("deleted %+v, want %+v", *d, want)
	}
	if _, err := s.WorkspaceByID(ctx, gone.ID); !errors.Is(err, prospector.ErrNotFound) {
		t.Fatalf("workspace still there: %v", err)
	}
	if _, err := s.Radar(ctx, goneRadar.ID); !errors.Is(err, prospector.ErrNotFound) {
		t.Fatalf("radar still there: %v", err)
	}
	if keys, err := s.ListAPIKeys(ctx, gone.ID); err != nil {
		t.Fatal(err)
	} else if len(keys) != 0 {
		t.Fatalf("%d keys left", len(keys))
	}
	if _, err := s.PrincipalByKeyHash(ctx, goneKeys[0].Hash); !errors.Is(err, prospector.ErrNotFound) {
		t.Fatalf("a deleted workspace's key still resolves: %v", err)
	}
	if leads, err := s.RadarLeads(ctx, prospector.LeadFilter{RadarID: goneRadar.ID, Limit: 10}); err != nil {
		t.Fatal(err)
	} else if len(leads) != 0 {
		t.Fatalf("%d leads left", len(leads))
	}
	if sigs, err := s.RadarSignals(ctx, goneRadar.ID, nil, 10); err != nil {
		t.Fatal(err)
	} else if len(sigs) != 0 {
		t.Fatalf("%d radar signals left", len(sigs))
	}
	if evs, err := s.FeedbackEvents(ctx, gone.ID, goneLead.ID); err != nil {
		t.Fatal(err)
	} else if len(evs) != 0 {
		t.Fatalf("%d feedback events left", len(evs))
	}
	if _, err := s.LeadFeedback(ctx, gone.ID, goneLead.ID); !errors.Is(err, prospector.ErrNotFound) {
		t.Fatalf("lead feedback left: %v", err)
	}
	if ds, err := s.ListDeliveries(ctx, prospector.DeliveryFilter{WorkspaceID: gone.ID, Limit: 10}); err != nil {
		t.Fatal(err)
	} else if len(ds) != 0 {
		t.Fatalf("%d deliveries left", len(ds))
	}
	if _, err := s.WebhookSettings(ctx, gone.ID); !errors.Is(err, prospector.ErrNotFound) {
		t.Fatalf("webhook settings left: %v", err)
	}
	if os, err := s.ListOutreachIntegrations(ctx, gone.ID); err != nil {
		t.Fatal(err)
	} else if len(os) != 0 {
		t.Fatalf("%d outreach integrations left", len(os))
	}

	// The other workspace keeps everything; the shared data stays.
	if w, err := s.WorkspaceByID(ctx, stays.ID); err != nil || w.Name != "stays" {
		t.Fatalf("other workspace: %v", err)
	}
	if keys, err := s.ListAPIKeys(ctx, stays.ID); err != nil {
		t.Fatal(err)
	} else if len(keys) != 2 {
		t.Fatalf("other workspace has %d keys", len(keys))
	}
	if leads, err := s.RadarLeads(ctx, prospector.LeadFilter{RadarID: staysRadar.ID, Limit: 10}); err != nil {
		t.Fatal(err)
	} else if len(leads) != 3 {
		t.Fatalf("other workspace has %d leads", len(leads))
	}
	if evs, err := s.FeedbackEvents(ctx, stays.ID, staysLead.ID); err != nil {
		t.Fatal(err)
	} else if len(evs) != 1 {
		t.Fatalf("other workspace has %d feedback events", len(evs))
	}
	if ds, err := s.ListDeliveries(ctx, prospector.DeliveryFilter{WorkspaceID: stays.ID, Limit: 10}); err != nil {
		t.Fatal(err)
	} else if len(ds) != 2 {
		t.Fatalf("other workspace has %d deliveries", len(ds))
	}
	if u, err := s.CreditUsage(ctx, stays.ID, time.Now()); err != nil {
		t.Fatal(err)
	} else if u.CreditsUsed != 3 {
		t.Fatalf("other workspace used %d credits, want 3", u.CreditsUsed)
	}
	if after := dataCounts(t, s); after != before {
		t.Fatalf("shared data changed: %v, was %v", after, before)
	}
	if _, err := s.DeleteWorkspace(ctx, gone.ID); !errors.Is(err, prospector.ErrNotFound) {
		t.Fatalf("second delete: %v", err)
	}
	// The name is free again.
	NewWorkspace(t, s, "gone", prospector.PlanDefault)
}

// dataCounts counts the shared data: companies, people and signals.
func dataCounts(t *testing.T, s prospector.Store) string {
	t.Helper()
	ctx := context.Background()
	nc, err1 := s.CountCompanies(ctx)
	np, err2 := s.CountPeople(ctx)
	ns, err3 := s.CountSignals(ctx)
	if err := errors.Join(err1, err2, err3); err != nil {
		t.Fatal(err)
	}
	return fmt.Sprintf("%d companies, %d people, %d signals", nc, np, ns)
}

func testRadarSummaries(t *testing.T, s prospector.Store) {
	ctx := context.Background()
	fx := seedRadarData(t, s)
	w := NewWorkspace(t, s, "summaries", prospector.PlanGrowth)
	other := NewWorkspace(t, s, "other", prospector.PlanGrowth)
	busy := newRadar(t, s, w, "busy")
	idle := newRadar(t, s, w, "idle")
	newRadar(t, s, other, "foreign")
	sums, err := s.RadarSummaries(ctx, w.ID)
	if err != nil || len(sums) != 2 {
		t.Fatalf("summaries: %d, %v", len(sums), err)
	}
	if sums[0].ID != busy.ID || sums[0].Name != "busy" || sums[0].Leads != 0 || sums[0].Signals != 0 ||
		sums[0].LastScanAt != nil || sums[0].Status() != prospector.RadarBackfilling {
		t.Fatalf("new radar: %+v", sums[0])
	}
	at := time.Now().UTC().Truncate(time.Second).Add(time.Minute)
	apply(t, s, &prospector.LeadBatch{Now: at, Backfilled: []string{busy.ID}, Matches: []prospector.LeadMatch{
		match(busy, fx, 0, map[int]float64{0: 50, 2: 40}), match(busy, fx, 1, map[int]float64{1: 40})}})
	sums, err = s.RadarSummaries(ctx, w.ID)
	if err != nil || len(sums) != 2 {
		t.Fatalf("summaries: %d, %v", len(sums), err)
	}
	b, i := sums[0], sums[1]
	if b.Leads != 2 || b.Signals != 3 || b.LastScanAt == nil || !b.LastScanAt.Equal(at) || b.Status() != prospector.RadarActive ||
		b.Config.Titles[0] != "VP Sales" {
		t.Fatalf("busy radar: %+v (last scan %v, want %v)", b, b.LastScanAt, at)
	}
	if i.ID != idle.ID || i.Leads != 0 || i.Signals != 0 || i.LastScanAt != nil {
		t.Fatalf("idle radar: %+v", i)
	}
	if none, err := s.RadarSummaries(ctx, "ws_missing"); err != nil || len(none) != 0 {
		t.Fatalf("unknown workspace: %d, %v", len(none), err)
	}
}
