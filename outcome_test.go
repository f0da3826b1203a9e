package prospector

import (
	"slices"
	"testing"
	"time"
)

func TestCountOutcome(t *testing.T) {
	at := time.Date(2026, 11, 3, 10, 0, 0, 0, time.UTC)
	ev := func(typ, email string) *FeedbackEvent {
		return &FeedbackEvent{Type: typ, OccurredAt: at,
			Facts: LeadFacts{Email: email, EmailPatterns: []string{"last", "first.last", "last"}}}
	}
	for _, typ := range []string{EventOpen, EventClick, EventMeetingBooked} {
		if _, ok := CountOutcome(ev(typ, "ada@acme.example")); ok {
			t.Errorf("%s counted an outcome", typ)
		}
	}
	if _, ok := CountOutcome(ev(EventBounce, "")); ok {
		t.Error("a bounce without an address counted an outcome")
	}
	o, ok := CountOutcome(ev(EventBounce, "ada@mail.acme.example"))
	if !ok || o.Address != "ada@mail.acme.example" || o.Domain != "mail.acme.example" || o.Outcome != EventBounce ||
		o.Bounces != 1 || o.Replies != 0 || !o.At.Equal(at) || !slices.Equal(o.Patterns, []string{AnyPattern, "first.last", "last"}) {
		t.Fatalf("bounce: %+v, %v", o, ok)
	}
	// The address's first bounce counts for its patterns; later ones, or
	// a first reply after bounces, only for their own kind's first.
	if !o.CountsPatterns(1, 0) || !o.CountsPatterns(1, 4) || o.CountsPatterns(2, 0) {
		t.Error("a bounce counts for the patterns exactly when it is the address's first")
	}
	for _, typ := range []string{EventReply, EventPositiveReply} {
		r, ok := CountOutcome(ev(typ, "ada@acme.example"))
		if !ok || r.Outcome != EventReply || r.Bounces != 0 || r.Replies != 1 || r.Domain != "acme.example" {
			t.Fatalf("%s: %+v, %v", typ, r, ok)
		}
		if !r.CountsPatterns(3, 1) || r.CountsPatterns(1, 2) {
			t.Errorf("%s counts for the patterns exactly when it is the address's first reply", typ)
		}
	}
}
