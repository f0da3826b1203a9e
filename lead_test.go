package prospector

import (
	"maps"
	"slices"
	"testing"
)

func TestSignalsAdded(t *testing.T) {
	plan := []PlannedLead{
		{Match: &LeadMatch{WorkspaceID: "ws_a"}, Signals: make([]SignalMatch, 2)},
		{Match: &LeadMatch{WorkspaceID: "ws_b"}, Signals: make([]SignalMatch, 1)},
		{Match: &LeadMatch{WorkspaceID: "ws_a"}, Signals: make([]SignalMatch, 3)},
	}
	if got, want := SignalsAdded(plan), map[string]int64{"ws_a": 5, "ws_b": 1}; !maps.Equal(got, want) {
		t.Fatalf("added %v, want %v", got, want)
	}
}

func TestNewestPerLead(t *testing.T) {
	sig := func(lead string, id int64) *LeadSignal { return &LeadSignal{LeadID: lead, SignalID: id} }
	rows := []*LeadSignal{sig("a", 3), sig("a", 2), sig("a", 1), sig("b", 9), sig("c", 5)}
	got := NewestPerLead(rows, []string{"b", "x", "a", "b"}, 2)
	var ids []int64
	for _, r := range got {
		ids = append(ids, r.SignalID)
	}
	if !slices.Equal(ids, []int64{9, 3, 2}) {
		t.Fatalf("signals %v, want b's, then a's newest two, b once, c left out", ids)
	}
}
