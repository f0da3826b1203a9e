package prospector

import (
	"testing"
	"time"
)

func TestChargeValidate(t *testing.T) {
	for _, c := range []struct {
		amount int64
		ok     bool
	}{{0, true}, {5, true}, {-1, false}} {
		if err := (&Charge{Amount: c.amount}).Validate(); (err == nil) != c.ok {
			t.Errorf("amount %d: %v", c.amount, err)
		}
		if err := (&EmailLookup{Credits: c.amount}).Validate(); (err == nil) != c.ok {
			t.Errorf("lookup credits %d: %v", c.amount, err)
		}
	}
}

func TestNewCreditUsage(t *testing.T) {
	w := NewWorkspace("acme", PlanStarter)
	w.PeriodStart = time.Date(2026, 11, 3, 0, 0, 0, 0, time.UTC)
	w.PeriodEnd = w.PeriodStart.AddDate(0, 1, 0)
	w.Credits.Bypassed = true
	u := NewCreditUsage(w, 7, 2, 1)
	if u.Workspace.ID != w.ID || !u.PeriodStart.Equal(w.PeriodStart) || !u.PeriodEnd.Equal(w.PeriodEnd) ||
		u.CreditsUsed != 7 || u.Credits != w.Credits || u.Radars.Used != 2 || u.Radars.Limit != w.Radars ||
		u.NetworkAccounts.Used != 1 || u.NetworkAccounts.Limit != w.NetworkAccounts || u.RadarSignals != w.RadarSignals {
		t.Fatalf("usage %+v of %+v", u, w)
	}
	if r := u.Remaining(); r == nil || *r != 993 {
		t.Fatalf("remaining %v, want 993", r)
	}
}
