package storetest

import (
	"context"
	"testing"

	"github.com/prospectorhq/prospector"
)

// runLeadCampaign covers recording the campaign leads were pushed to.
func runLeadCampaign(t *testing.T, open Opener) {
	t.Run("LeadCampaign", func(t *testing.T) { testLeadCampaign(t, open(t)) })
}

func testLeadCampaign(t *testing.T, s prospector.Store) {
	ctx := context.Background()
	fx := seedRadarData(t, s)
	w := NewWorkspace(t, s, "pusher", prospector.PlanGrowth)
	other := NewWorkspace(t, s, "other", prospector.PlanGrowth)
	r, ro := newRadar(t, s, w, "mine"), newRadar(t, s, other, "theirs")
	apply(t, s, &prospector.LeadBatch{Matches: []prospector.LeadMatch{
		match(r, fx, 0, map[int]float64{0: 50}), match(r, fx, 1, map[int]float64{1: 40}),
		match(r, fx, 2, map[int]float64{4: 30}), match(ro, fx, 0, map[int]float64{0: 50}),
	}})
	mine, err := s.RadarLeads(ctx, prospector.LeadFilter{RadarID: r.ID, Limit: 10})
	if err != nil || len(mine) != 3 {
		t.Fatalf("leads of the workspace: %d, %v", len(mine), err)
	}
	theirs, err := s.RadarLeads(ctx, prospector.LeadFilter{RadarID: ro.ID, Limit: 10})
	if err != nil || len(theirs) != 1 {
		t.Fatalf("leads of the other workspace: %d, %v", len(theirs), err)
	}
	campaigns := func(ws string, ids ...string) map[string]string {
		t.Helper()
		ls, err := s.LeadsByID(ctx, ws, ids)
		if err != nil {
			t.Fatal(err)
		}
		out := map[string]string{}
		for _, l := range ls {
			out[l.ID] = l.CampaignID
		}
		return out
	}
	if err := s.SetLeadCampaign(ctx, w.ID, nil, "cmp_1"); err != nil {
		t.Fatalf("no ids: %v", err)
	}
	// Another workspace's id and an unknown one are ignored.
	unknown := prospector.NewLeadID()
	if err := s.SetLeadCampaign(ctx, w.ID, []string{mine[0].ID, theirs[0].ID, unknown, mine[1].ID}, "cmp_1"); err != nil {
		t.Fatal(err)
	}
	got := campaigns(w.ID, mine[0].ID, mine[1].ID, mine[2].ID)
	if got[mine[0].ID] != "cmp_1" || got[mine[1].ID] != "cmp_1" || got[mine[2].ID] != "" {
		t.Fatalf("campaigns %v, want cmp_1 on the first two leads only", got)
	}
	if c := campaigns(other.ID, theirs[0].ID); c[theirs[0].ID] != "" {
		t.Fatalf("the other workspace's lead got campaign %q", c[theirs[0].ID])
	}
	// A later push moves the lead to the new campaign.
	if err := s.SetLeadCampaign(ctx, w.ID, []string{mine[1].ID}, "list-9"); err != nil {
		t.Fatal(err)
	}
	if c := campaigns(w.ID, mine[1].ID); c[mine[1].ID] != "list-9" {
		t.Fatalf("campaign after a second push %q, want list-9", c[mine[1].ID])
	}
	// Many ids at once (the engines chunk them).
	ids := []string{mine[2].ID}
	for range 1200 {
		ids = append(ids, prospector.NewLeadID())
	}
	if err := s.SetLeadCampaign(ctx, w.ID, ids, "cmp_2"); err != nil {
		t.Fatal(err)
	}
	if c := campaigns(w.ID, mine[2].ID); c[mine[2].ID] != "cmp_2" {
		t.Fatalf("campaign set among 1,201 ids: %q, want cmp_2", c[mine[2].ID])
	}
}
