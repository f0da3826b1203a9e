package prospector

import "fmt"

// nextPlan returns the plan above p, or "" for the top plan.
func nextPlan(p string) string {
	plans := Plans()
	for i, q := range plans[:len(plans)-1] {
		if q == p {
			return plans[i+1]
		}
	}
	return ""
}

// sameLimit reports whether two limits are equal, nil (unlimited)
// included.
func sameLimit(a, b *int64) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	return *a == *b
}

// ChangePlan moves w to plan. A limit that still holds the old plan's
// default takes the new plan's; a limit set to anything else (by an
// operator's --credits, --unlimited or --radars) is an explicit choice
// and is kept: its name ("credits", "radars", "network_accounts",
// "radar_signals") is returned in kept. Bypass flags are kept. A pending
// plan change is cleared: the operator has just decided the plan. The
// workspace is not stored; the caller validates and stores it.
func (w *Workspace) ChangePlan(plan string) (kept []string) {
	old, next := DefaultPlanLimits(w.Plan), DefaultPlanLimits(plan)
	for _, l := range []struct {
		name           string
		limit          *Limit
		oldDef, newDef *int64
	}{
		{"credits", &w.Credits, old.Credits, next.Credits},
		{"radars", &w.Radars, old.Radars, next.Radars},
		{"network_accounts", &w.NetworkAccounts, old.NetworkAccounts, next.NetworkAccounts},
		{"radar_signals", &w.RadarSignals, old.RadarSignals, next.RadarSignals},
	} {
		if !sameLimit(l.limit.Limit, l.oldDef) {
			kept = append(kept, l.name)
			continue
		}
		l.limit.Limit = l.newDef
	}
	w.Plan, w.PendingPlan, w.PendingPlanAt = plan, "", nil
	return kept
}

// RadarLimitAdvice tells the operator the command that lets workspace w
// create more radars: the next plan up while the radar limit is still
// its plan's default (ChangePlan then raises it), else an explicit
// --radars, since a plan change keeps an explicit limit.
func RadarLimitAdvice(w *Workspace) string {
	up := nextPlan(w.Plan)
	if up != "" && sameLimit(w.Radars.Limit, DefaultPlanLimits(w.Plan).Radars) {
		return fmt.Sprintf("prospector workspace update %s --plan %s (%d radars)", w.Name, up, *DefaultPlanLimits(up).Radars)
	}
	return fmt.Sprintf("prospector workspace update %s --radars N", w.Name)
}
