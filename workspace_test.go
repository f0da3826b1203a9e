package prospector

import (
	"strings"
	"testing"
	"time"
)

func TestWorkspaceStart(t *testing.T) {
	now := time.Date(2026, 1, 31, 10, 0, 0, 0, time.UTC)
	w := NewWorkspace("acme", PlanStarter)
	w.Start(now)
	if !strings.HasPrefix(w.ID, "ws_") || !strings.HasPrefix(w.OwnerUserID, "usr_") || !w.CreatedAt.Equal(now) ||
		!w.PeriodStart.Equal(now) || !w.PeriodEnd.Equal(now.AddDate(0, 1, 0)) {
		t.Fatalf("started: %+v", w)
	}
	first := w.ID
	w.OwnerUserID = "usr_given"
	w.Start(now)
	if w.OwnerUserID != "usr_given" || w.ID == first {
		t.Fatalf("a given owner is kept and every start is a new workspace: %+v", w)
	}
}

func TestLimitRemaining(t *testing.T) {
	for _, c := range []struct {
		name     string
		l        Limit
		used     int64
		left     int64
		enforced bool
	}{
		{"under the limit", Limit{Limit: ptr(10)}, 4, 6, true},
		{"past the limit", Limit{Limit: ptr(10)}, 12, -2, true},
		{"unlimited", Limit{}, 4, 0, false},
		{"bypassed", Limit{Limit: ptr(10), Bypassed: true}, 40, 0, false},
	} {
		left, enforced := c.l.Remaining(c.used)
		if left != c.left || enforced != c.enforced || c.l.Enforced() != c.enforced {
			t.Errorf("%s: left %d enforced %v, want %d %v", c.name, left, enforced, c.left, c.enforced)
		}
	}
}
