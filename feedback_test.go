package prospector_test

import (
	"reflect"
	"testing"
	"time"

	"github.com/prospectorhq/prospector"
)

func TestSignalMask(t *testing.T) {
	if m := prospector.SignalMask([]string{"keyword_post", "tech_changes", "unknown", "keyword_post"}); m != 1|1<<9 {
		t.Fatalf("mask %b", m)
	}
	if m := prospector.SignalMask(nil); m != 0 {
		t.Fatalf("empty mask %b", m)
	}
}

// Each lead is in one group; a lead counts once under each of its types.
func TestSummariseSignalGroups(t *testing.T) {
	hiring, post := prospector.SignalMask([]string{"company_hiring"}), prospector.SignalMask([]string{"keyword_post"})
	gs := []prospector.SignalGroup{
		{Mask: hiring | post, PersonaStat: prospector.PersonaStat{Total: 2, Replies: 1}, RepliedNoMeeting: 1},
		{Mask: hiring, PersonaStat: prospector.PersonaStat{Total: 3, Replies: 2, Positive: 1, Meetings: 1}, BouncedOrSkipped: 1},
		{Mask: 0, PersonaStat: prospector.PersonaStat{Total: 4}},
	}
	sum, noMeet, types := prospector.SummariseSignalGroups(gs, 10)
	if sum != (prospector.FeedbackSummary{TotalLeads: 9, Replied: 3, Positive: 1, Meetings: 1, BouncedOrSkipped: 1}) || noMeet != 1 {
		t.Fatalf("summary %+v, replied without meeting %d", sum, noMeet)
	}
	want := []prospector.PersonaStat{{Value: "company_hiring", Total: 5, Replies: 3, Positive: 1, Meetings: 1},
		{Value: "keyword_post", Total: 2, Replies: 1}}
	if !reflect.DeepEqual(types, want) {
		t.Fatalf("types %+v", types)
	}
	if _, _, top := prospector.SummariseSignalGroups(gs, 1); len(top) != 1 || top[0].Value != "company_hiring" {
		t.Fatalf("top 1: %+v", top)
	}
}

func TestDecideFeedbackFirstEvent(t *testing.T) {
	at := time.Date(2026, 11, 1, 10, 0, 0, 0, time.UTC)
	ev := &prospector.FeedbackEvent{ID: "fbe_1", LeadID: "ld_x", Type: prospector.EventBounce, OccurredAt: at,
		Facts: prospector.LeadFacts{Title: "CTO", SignalTypes: []string{"job_change"}, Email: "a@b.example", EmailPatterns: []string{"first"}}}
	res, rec := prospector.DecideFeedback(prospector.LeadState{Status: "detected"}, nil, ev)
	if !res.Applied || !res.Mutated || res.Stale || res.After.Status != "skipped" || res.EmailStatus != prospector.EmailUndeliverable {
		t.Fatalf("result %+v", res)
	}
	if rec.Events != 1 || !rec.FirstEventAt.Equal(at) || !rec.LastBounceAt.Equal(at) || rec.LastReplyAt != nil ||
		rec.EmailDomain != "b.example" || rec.SignalMask != prospector.SignalMask([]string{"job_change"}) || rec.Status != "skipped" {
		t.Fatalf("record %+v", rec)
	}
}
