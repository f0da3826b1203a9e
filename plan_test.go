package prospector

import (
	"slices"
	"testing"
)

func TestChangePlan(t *testing.T) {
	w := NewWorkspace("acme", PlanDefault)
	w.PendingPlan = PlanStarter
	if kept := w.ChangePlan(PlanGrowth); len(kept) != 0 {
		t.Fatalf("plan defaults kept as explicit: %v", kept)
	}
	if w.Plan != PlanGrowth || *w.Credits.Limit != 10000 || *w.Radars.Limit != 25 || *w.NetworkAccounts.Limit != 10 ||
		*w.RadarSignals.Limit != 100000 || w.PendingPlan != "" {
		t.Fatalf("default to growth: %+v", w)
	}
	// Explicit limits (unlimited credits, 7 radars) survive a downgrade;
	// the others follow the plan.
	w.Credits.Limit, w.Radars.Limit = nil, ptr(7)
	w.Credits.Bypassed = true
	kept := w.ChangePlan(PlanStarter)
	if !slices.Equal(kept, []string{"credits", "radars"}) {
		t.Fatalf("kept %v, want credits and radars", kept)
	}
	if w.Credits.Limit != nil || !w.Credits.Bypassed || *w.Radars.Limit != 7 || *w.NetworkAccounts.Limit != 3 || *w.RadarSignals.Limit != 10000 {
		t.Fatalf("growth to starter: %+v", w)
	}
}

func TestRadarLimitAdvice(t *testing.T) {
	for _, c := range []struct {
		plan   string
		radars *int64
		want   string
	}{
		{PlanDefault, ptr(1), "prospector workspace update acme --plan starter (5 radars)"},
		{PlanStarter, ptr(5), "prospector workspace update acme --plan growth (25 radars)"},
		{PlanGrowth, ptr(25), "prospector workspace update acme --radars N"},
		// An explicit limit survives a plan change, so only --radars helps.
		{PlanStarter, ptr(2), "prospector workspace update acme --radars N"},
	} {
		w := NewWorkspace("acme", c.plan)
		w.Radars.Limit = c.radars
		if got := RadarLimitAdvice(w); got != c.want {
			t.Errorf("%s with %d radars: %q, want %q", c.plan, *c.radars, got, c.want)
		}
	}
}
