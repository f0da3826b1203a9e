package storetest

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/prospectorhq/prospector"
)

// runFeedback covers feedback events, the ordering rule, idempotency,
// concurrency on one lead, the email outcomes and the insights.
func runFeedback(t *testing.T, open Opener) {
	t.Run("FeedbackLead", func(t *testing.T) { testFeedbackLead(t, open(t)) })
	t.Run("FeedbackTransitions", func(t *testing.T) { testFeedbackTransitions(t, open(t)) })
	t.Run("FeedbackOrdering", func(t *testing.T) { testFeedbackOrdering(t, open(t)) })
	t.Run("FeedbackLeadNotFound", func(t *testing.T) { testFeedbackLeadNotFound(t, open(t)) })
	t.Run("FeedbackIdempotency", func(t *testing.T) { testFeedbackIdempotency(t, open(t)) })
	t.Run("FeedbackConcurrentOneLead", func(t *testing.T) { testFeedbackConcurrent(t, open(t)) })
	t.Run("FeedbackEmailOutcomes", func(t *testing.T) { testFeedbackEmailOutcomes(t, open(t)) })
	t.Run("FeedbackInsights", func(t *testing.T) { testFeedbackInsights(t, open(t)) })
}

// feedbackLeads writes six leads in workspace "fb" (two radars, three
// people) and one in workspace "other".
func feedbackLeads(t *testing.T, s prospector.Store) (*prospector.Workspace, []*prospector.Lead, *prospector.Lead) {
	t.Helper()
	ctx := context.Background()
	fx := seedRadarData(t, s)
	w := NewWorkspace(t, s, "fb", prospector.PlanGrowth)
	other := NewWorkspace(t, s, "other", prospector.PlanGrowth)
	var leads []*prospector.Lead
	for i, ws := range []*prospector.Workspace{w, w, other} {
		r := newRadar(t, s, ws, fmt.Sprint("radar ", i))
		apply(t, s, &prospector.LeadBatch{Matches: []prospector.LeadMatch{match(r, fx, 0, map[int]float64{0: 50}),
			match(r, fx, 1, map[int]float64{1: 40}), match(r, fx, 2, map[int]float64{2: 30})}})
		got, err := s.RadarLeads(ctx, prospector.LeadFilter{RadarID: r.ID, Limit: 10})
		if err != nil || len(got) != 3 {
			t.Fatalf("radar leads: %d, %v", len(got), err)
		}
		leads = append(leads, got...)
	}
	return w, leads[:6], leads[6]
}

// event builds an event of type typ for lead l at time at.
func event(w *prospector.Workspace, l *prospector.Lead, typ, at string) *prospector.FeedbackEvent {
	return &prospector.FeedbackEvent{ID: prospector.NewID("fbe"), WorkspaceID: w.ID, LeadID: l.ID, Type: typ,
		Source: prospector.DefaultFeedbackSource, OccurredAt: utc(at), Metadata: "{}",
		Facts: prospector.LeadFacts{Title: l.Title, Company: l.Company}}
}

func record(t *testing.T, s prospector.Store, ev *prospector.FeedbackEvent) *prospector.FeedbackResult {
	t.Helper()
	res, replayed, err := s.RecordFeedbackEvent(context.Background(), ev, time.Now())
	if err != nil || replayed {
		t.Fatalf("record %s: replayed %v, %v", ev.Type, replayed, err)
	}
	return res
}

func leadState(t *testing.T, s prospector.Store, w *prospector.Workspace, id string) prospector.LeadState {
	t.Helper()
	got, err := s.LeadsByID(context.Background(), w.ID, []string{id})
	if err != nil || len(got) != 1 {
		t.Fatalf("lead %s: %d, %v", id, len(got), err)
	}
	l := got[0]
	return prospector.LeadState{Status: l.Status, RepliedAt: l.RepliedAt, MeetingBookedAt: l.MeetingBookedAt,
		ReplyContent: l.ReplyContent, Feedback: l.Feedback, FeedbackReason: l.FeedbackReason}
}

func tp(s string) *time.Time { t := utc(s); return &t }

func testFeedbackLead(t *testing.T, s prospector.Store) {
	ctx := context.Background()
	fx := seedRadarData(t, s)
	w := NewWorkspace(t, s, "fb", prospector.PlanGrowth)
	r := newRadar(t, s, w, "r")
	apply(t, s, &prospector.LeadBatch{Matches: []prospector.LeadMatch{match(r, fx, 0, map[int]float64{0: 50, 3: 40, 4: 30}),
		match(r, fx, 1, map[int]float64{1: 20})}})
	fx.people[0].Email = "aquill@acme-robotics.example"
	if _, err := s.UpsertPeople(ctx, fx.people[:1]); err != nil {
		t.Fatal(err)
	}
	leads, err := s.RadarLeads(ctx, prospector.LeadFilter{RadarID: r.ID, Limit: 10})
	if err != nil {
		t.Fatal(err)
	}
	byName := map[string]*prospector.Lead{}
	for _, l := range leads {
		byName[l.FullName] = l
	}
	avery, basil := byName["Avery Quill"], byName["Basil Thorn"]
	l, types, err := s.FeedbackLead(ctx, w.ID, avery.ID)
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(types)
	if l.ID != avery.ID || l.FirstName != "Avery" || l.LastName != "Quill" || l.Title != "VP Sales" ||
		l.Company != "Acme Robotics" || l.Email != "aquill@acme-robotics.example" ||
		!reflect.DeepEqual(types, []string{"company_hiring", "keyword_post"}) {
		t.Fatalf("Avery: %+v, types %v", l, types)
	}
	if l, types, err := s.FeedbackLead(ctx, w.ID, basil.ID); err != nil || l.Email != "" || !reflect.DeepEqual(types, []string{"job_change"}) {
		t.Fatalf("Basil: %+v, %v, %v", l, types, err)
	}
	other := NewWorkspace(t, s, "other", prospector.PlanGrowth)
	for _, c := range []struct{ ws, id string }{{other.ID, avery.ID}, {w.ID, prospector.NewLeadID()}} {
		if _, _, err := s.FeedbackLead(ctx, c.ws, c.id); !errors.Is(err, prospector.ErrLeadNotFound) {
			t.Fatalf("lead %s in %s: %v", c.id, c.ws, err)
		}
	}
}

func testFeedbackTransitions(t *testing.T, s prospector.Store) {
	w, leads, _ := feedbackLeads(t, s)
	l := leads[0]
	detected := prospector.LeadState{Status: "detected"}
	replied := prospector.LeadState{Status: "replied", RepliedAt: tp("2026-11-02T10:00:00Z"), ReplyContent: "Sounds good"}
	positive := replied
	positive.RepliedAt, positive.Feedback, positive.FeedbackReason = tp("2026-11-03T10:00:00Z"), "positive", "positive_reply"
	meeting := positive
	meeting.Status, meeting.MeetingBookedAt, meeting.FeedbackReason = "meeting_booked", tp("2026-11-04T10:00:00Z"), "meeting_booked"
	bounced := meeting
	bounced.Status, bounced.Feedback, bounced.FeedbackReason = "skipped", "negative", "550 mailbox unavailable"
	bouncedAgain := bounced
	bouncedAgain.FeedbackReason = "bounce"
	for _, c := range []struct {
		typ, at, content string
		want             prospector.LeadState
		mutated          bool
	}{
		{"open", "2026-11-01T10:00:00Z", "", detected, false},
		{"click", "2026-11-01T11:00:00Z", "", detected, false},
		{"reply", "2026-11-02T10:00:00Z", "Sounds good", replied, true},
		{"positive_reply", "2026-11-03T10:00:00Z", "", positive, true}, // no content: the reply text stays
		{"meeting_booked", "2026-11-04T10:00:00Z", "", meeting, true},
		{"bounce", "2026-11-05T10:00:00Z", "550 mailbox unavailable", bounced, true},
		{"bounce", "2026-11-06T10:00:00Z", "", bouncedAgain, true},
		{"bounce", "2026-11-07T10:00:00Z", "", bouncedAgain, false}, // applied, but nothing left to change
	} {
		ev := event(w, l, c.typ, c.at)
		ev.Content = c.content
		before := leadState(t, s, w, l.ID)
		res := record(t, s, ev)
		if res.Mutated != c.mutated || res.Applied != prospector.ChangesLead(c.typ) || res.Stale || res.EventID != ev.ID {
			t.Fatalf("%s: result %+v, want mutated %v", c.typ, res, c.mutated)
		}
		if !res.Before.Equal(before) || !res.After.Equal(c.want) {
			t.Fatalf("%s: before %+v after %+v, want %+v then %+v", c.typ, res.Before, res.After, before, c.want)
		}
		if got := leadState(t, s, w, l.ID); !got.Equal(c.want) {
			t.Fatalf("%s: stored lead %+v, want %+v", c.typ, got, c.want)
		}
	}
	evs, err := s.FeedbackEvents(context.Background(), w.ID, l.ID)
	if err != nil || len(evs) != 8 {
		t.Fatalf("events: %d, %v", len(evs), err)
	}
	if e := evs[2]; e.Type != "reply" || e.Content != "Sounds good" || !e.OccurredAt.Equal(utc("2026-11-02T10:00:00Z")) ||
		e.Source != "custom" || e.Metadata != "{}" || e.WorkspaceID != w.ID {
		t.Fatalf("stored reply %+v", e)
	}
	f, err := s.LeadFeedback(context.Background(), w.ID, l.ID)
	if err != nil {
		t.Fatal(err)
	}
	if f.Events != 8 || !f.FirstEventAt.Equal(utc("2026-11-01T10:00:00Z")) || !f.LastEventAt.Equal(utc("2026-11-07T10:00:00Z")) ||
		!f.AppliedAt.Equal(utc("2026-11-07T10:00:00Z")) || !f.LastReplyAt.Equal(utc("2026-11-04T10:00:00Z")) ||
		!f.LastMeetingAt.Equal(utc("2026-11-04T10:00:00Z")) || f.Status != "skipped" ||
		f.EmailStatus != prospector.EmailUndeliverable || f.Title != l.Title {
		t.Fatalf("lead feedback %+v", f)
	}
	if _, err := s.LeadFeedback(context.Background(), w.ID, leads[1].ID); !errors.Is(err, prospector.ErrNotFound) {
		t.Fatalf("lead without events: %v", err)
	}
}

// An event older than the lead's last applied one is stored but leaves
// the lead alone; opens and clicks never count as applied.
func testFeedbackOrdering(t *testing.T, s prospector.Store) {
	w, leads, _ := feedbackLeads(t, s)
	l := leads[0]
	record(t, s, event(w, l, "meeting_booked", "2026-11-10T10:00:00Z"))
	want := leadState(t, s, w, l.ID)
	record(t, s, event(w, l, "open", "2026-11-11T10:00:00Z"))
	for _, typ := range []string{"reply", "bounce", "positive_reply"} {
		res := record(t, s, event(w, l, typ, "2026-11-09T10:00:00Z"))
		if !res.Stale || res.Applied || res.Mutated || !res.LastAppliedAt.Equal(utc("2026-11-10T10:00:00Z")) {
			t.Fatalf("older %s: %+v", typ, res)
		}
	}
	if got := leadState(t, s, w, l.ID); !got.Equal(want) || got.Status != "meeting_booked" {
		t.Fatalf("lead moved back: %+v, want %+v", got, want)
	}
	// The same time as the last applied event applies.
	res := record(t, s, event(w, l, "reply", "2026-11-10T10:00:00Z"))
	if !res.Applied || !res.Mutated || res.After.Status != "replied" {
		t.Fatalf("event at the same time: %+v", res)
	}
	f, err := s.LeadFeedback(context.Background(), w.ID, l.ID)
	if err != nil {
		t.Fatal(err)
	}
	if f.Events != 6 || !f.LastBounceAt.Equal(utc("2026-11-09T10:00:00Z")) || f.Status != "replied" {
		t.Fatalf("record after stale events: %+v", f)
	}
	if evs, err := s.FeedbackEvents(context.Background(), w.ID, l.ID); err != nil {
		t.Fatal(err)
	} else if len(evs) != 6 {
		t.Fatalf("%d events stored, want 6", len(evs))
	}
}

func testFeedbackLeadNotFound(t *testing.T, s prospector.Store) {
	ctx := context.Background()
	w, _, foreign := feedbackLeads(t, s)
	unknown := &prospector.Lead{ID: prospector.NewLeadID()}
	for _, l := range []*prospector.Lead{unknown, foreign} {
		ev := event(w, l, "reply", "2026-11-01T10:00:00Z")
		if _, _, err := s.RecordFeedbackEvent(ctx, ev, time.Now()); !errors.Is(err, prospector.ErrLeadNotFound) {
			t.Fatalf("lead %s: %v, want ErrLeadNotFound", l.ID, err)
		}
	}
	if evs, err := s.FeedbackEvents(ctx, foreign.WorkspaceID, foreign.ID); err != nil || len(evs) != 0 {
		t.Fatalf("events of the foreign lead: %d, %v", len(evs), err)
	}
	if st := leadState(t, s, &prospector.Workspace{ID: foreign.WorkspaceID}, foreign.ID); st.Status != "detected" {
		t.Fatalf("foreign lead changed: %+v", st)
	}
}

func testFeedbackIdempotency(t *testing.T, s prospector.Store) {
	ctx := context.Background()
	w, leads, _ := feedbackLeads(t, s)
	now := time.Now()
	first := event(w, leads[0], "reply", "2026-11-01T10:00:00Z")
	first.IdempotencyKey, first.RequestHash, first.Content = "k-1", "hash-a", "Yes"
	res := record(t, s, first)
	retry := event(w, leads[0], "reply", "2026-11-01T10:00:00Z")
	retry.IdempotencyKey, retry.RequestHash, retry.Content = "k-1", "hash-a", "Yes"
	again, replayed, err := s.RecordFeedbackEvent(ctx, retry, now.Add(time.Minute))
	if err != nil || !replayed || !reflect.DeepEqual(again, res) {
		t.Fatalf("replay: %+v, %v, %v; want %+v", again, replayed, err, res)
	}
	other := event(w, leads[1], "bounce", "2026-11-01T10:00:00Z")
	other.IdempotencyKey, other.RequestHash = "k-1", "hash-b"
	if _, _, err := s.RecordFeedbackEvent(ctx, other, now.Add(time.Minute)); !errors.Is(err, prospector.ErrIdempotencyMismatch) {
		t.Fatalf("same key, other body: %v", err)
	}
	if evs, err := s.FeedbackEvents(ctx, w.ID, leads[0].ID); err != nil {
		t.Fatal(err)
	} else if len(evs) != 1 {
		t.Fatalf("%d events after a replay, want 1", len(evs))
	}
	if st := leadState(t, s, w, leads[1].ID); st.Status != "detected" {
		t.Fatalf("a refused event changed its lead: %+v", st)
	}
	// Another workspace has its own keys; after the window the key is free.
	late := event(w, leads[0], "positive_reply", "2026-11-02T10:00:00Z")
	late.IdempotencyKey, late.RequestHash = "k-1", "hash-c"
	res2, replayed, err := s.RecordFeedbackEvent(ctx, late, now.Add(prospector.IdempotencyWindow+time.Minute))
	if err != nil || replayed || !res2.Mutated {
		t.Fatalf("key after the window: %+v, %v, %v", res2, replayed, err)
	}
	if evs, err := s.FeedbackEvents(ctx, w.ID, leads[0].ID); err != nil {
		t.Fatal(err)
	} else if len(evs) != 2 || evs[0].IdempotencyKey != "" ||
		evs[1].IdempotencyKey != "k-1" {
		t.Fatalf("events after the window: %d", len(evs))
	}
	// Concurrent retries apply once.
	var wg sync.WaitGroup
	var mu sync.Mutex
	applied := 0
	for range 10 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ev := event(w, leads[2], "bounce", "2026-11-03T10:00:00Z")
			ev.IdempotencyKey, ev.RequestHash = "k-race", "hash-r"
			_, replayed, err := s.RecordFeedbackEvent(ctx, ev, time.Now())
			if err != nil {
				t.Errorf("concurrent retry: %v", err)
				return
			}
			if !replayed {
				mu.Lock()
				applied++
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	if evs, err := s.FeedbackEvents(ctx, w.ID, leads[2].ID); err != nil {
		t.Fatal(err)
	} else if applied != 1 || len(evs) != 1 {
		t.Fatalf("10 concurrent retries: %d applied, %d stored", applied, len(evs))
	}
}

// Fifty events for one lead at once: every one is stored and counted,
// and the lead ends as the newest applied event left it.
func testFeedbackConcurrent(t *testing.T, s prospector.Store) {
	ctx := context.Background()
	w, leads, _ := feedbackLeads(t, s)
	l := leads[0]
	types := []string{"reply", "positive_reply", "bounce", "meeting_booked", "open"}
	base := utc("2026-11-01T00:00:00Z")
	var wg sync.WaitGroup
	for i := range 50 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			// The times are a permutation of 50 minutes, so arrival order
			// and time order differ. The newest event (minute 49) is an
			// open; the newest that applies, a meeting (minute 48).
			minute := i * 37 % 50
			at := base.Add(time.Duration(minute) * time.Minute)
			ev := event(w, l, types[minute%len(types)], at.Format(time.RFC3339))
			ev.Content = fmt.Sprint("event ", i)
			if _, _, err := s.RecordFeedbackEvent(ctx, ev, time.Now()); err != nil {
				t.Errorf("event %d: %v", i, err)
			}
		}()
	}
	wg.Wait()
	evs, err := s.FeedbackEvents(ctx, w.ID, l.ID)
	if err != nil || len(evs) != 50 {
		t.Fatalf("%d events stored, %v", len(evs), err)
	}
	f, err := s.LeadFeedback(ctx, w.ID, l.ID)
	if err != nil || f.Events != 50 {
		t.Fatalf("feedback record: %+v, %v", f, err)
	}
	meeting, last := base.Add(48*time.Minute), base.Add(49*time.Minute)
	got := leadState(t, s, w, l.ID)
	if got.Status != "meeting_booked" || !got.MeetingBookedAt.Equal(meeting) || got.Feedback != "positive" ||
		!f.AppliedAt.Equal(meeting) || !f.LastEventAt.Equal(last) || f.Status != "meeting_booked" {
		t.Fatalf("final state %+v, record %+v; want the meeting at %v", got, f, meeting)
	}
}

func testFeedbackEmailOutcomes(t *testing.T, s prospector.Store) {
	ctx := context.Background()
	w, leads, _ := feedbackLeads(t, s)
	bounce := func(l *prospector.Lead, addr, at string, patterns ...string) *prospector.FeedbackResult {
		ev := event(w, l, "bounce", at)
		ev.Facts.Email, ev.Facts.EmailPatterns = addr, patterns
		return record(t, s, ev)
	}
	reply := func(l *prospector.Lead, addr, at string, patterns ...string) {
		ev := event(w, l, "reply", at)
		ev.Facts.Email, ev.Facts.EmailPatterns = addr, patterns
		record(t, s, ev)
	}
	res := bounce(leads[0], "aquill@acme-robotics.example", "2026-11-01T10:00:00Z", "flast")
	if res.EmailStatus != prospector.EmailUndeliverable || res.Email != "aquill@acme-robotics.example" {
		t.Fatalf("bounce result %+v", res)
	}
	bounce(leads[0], "aquill@acme-robotics.example", "2026-11-02T10:00:00Z", "flast") // the same mailbox again
	bounce(leads[3], "avery.quill@acme-robotics.example", "2026-11-02T10:00:00Z", "first.last")
	reply(leads[1], "bthorn@acme-robotics.example", "2026-11-03T10:00:00Z", "flast")
	reply(leads[2], "cleo@acme-robotics.example", "2026-11-03T10:00:00Z") // follows no pattern
	got, err := s.EmailOutcomes(ctx, "acme-robotics.example")
	if err != nil {
		t.Fatal(err)
	}
	want := &prospector.EmailOutcomes{
		Patterns: map[string]prospector.PatternOutcome{
			"":           {Bounces: 2, Replies: 2},
			"flast":      {Bounces: 1, Replies: 1},
			"first.last": {Bounces: 1},
		},
		Undeliverable: map[string]bool{"aquill@acme-robotics.example": true, "avery.quill@acme-robotics.example": true},
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("outcomes %+v\nwant %+v", got, want)
	}
	f, err := s.LeadFeedback(ctx, w.ID, leads[0].ID)
	if err != nil {
		t.Fatal(err)
	}
	if f.EmailStatus != prospector.EmailUndeliverable || f.Email != "aquill@acme-robotics.example" ||
		f.EmailDomain != "acme-robotics.example" {
		t.Fatalf("lead email %+v", f)
	}
	// The mailbox replies later: it takes mail after all.
	reply(leads[0], "aquill@acme-robotics.example", "2026-11-04T10:00:00Z", "flast")
	got, err = s.EmailOutcomes(ctx, "acme-robotics.example")
	if err != nil {
		t.Fatal(err)
	}
	if got.Undeliverable["aquill@acme-robotics.example"] || got.Patterns["flast"] != (prospector.PatternOutcome{Bounces: 1, Replies: 2}) {
		t.Fatalf("after the reply: %+v", got)
	}
	if f, err := s.LeadFeedback(ctx, w.ID, leads[0].ID); err != nil {
		t.Fatal(err)
	} else if f.EmailStatus != prospector.EmailDeliverable {
		t.Fatalf("lead email after the reply: %s", f.EmailStatus)
	}
	// An older bounce does not undo it, but still counts once.
	bounce(leads[0], "aquill@acme-robotics.example", "2026-10-01T10:00:00Z", "flast")
	got, err = s.EmailOutcomes(ctx, "acme-robotics.example")
	if err != nil {
		t.Fatal(err)
	}
	if got.Undeliverable["aquill@acme-robotics.example"] {
		t.Fatal("an older bounce marked the address undeliverable again")
	}
	// A bounce without a known address marks the lead only.
	res = bounce(leads[4], "", "2026-11-05T10:00:00Z")
	if f, err := s.LeadFeedback(ctx, w.ID, leads[4].ID); err != nil {
		t.Fatal(err)
	} else if res.EmailStatus != prospector.EmailUndeliverable ||
		f.EmailStatus != prospector.EmailUndeliverable || f.Email != "" {
		t.Fatalf("bounce without an address: %+v", f)
	}
	if got, err := s.EmailOutcomes(ctx, "unknown.example"); err != nil {
		t.Fatal(err)
	} else if len(got.Patterns) != 0 || len(got.Undeliverable) != 0 {
		t.Fatalf("unknown domain: %+v", got)
	}
}

// testFeedbackInsights checks every number on a known dataset (the
// window is the 30 days before 2026-11-20T12:00:00Z):
//
//	lead  title           company        signal types            events (days before)
//	0     VP Sales        Acme Robotics  company_hiring,job_change  open 10, reply 9
//	1     VP Sales        Bluepeak       company_hiring             positive_reply 5, meeting_booked 3
//	2     Head of Growth  Acme Robotics  funding_announcement       bounce 2 (acme-robotics.example)
//	3     Head of Growth  Cobalt         keyword_post               open 1
//	4     VP Sales        Cobalt         company_hiring             reply 40, click 4
//	5     CTO             Bluepeak       -                          reply 60 (outside)
func testFeedbackInsights(t *testing.T, s prospector.Store) {
	ctx := context.Background()
	w, leads, _ := feedbackLeads(t, s)
	now := utc("2026-11-20T12:00:00Z")
	facts := []prospector.LeadFacts{
		{Title: "VP Sales", Company: "Acme Robotics", SignalTypes: []string{"company_hiring", "job_change"}},
		{Title: "VP Sales", Company: "Bluepeak", SignalTypes: []string{"company_hiring"}},
		{Title: "Head of Growth", Company: "Acme Robotics", SignalTypes: []string{"funding_announcement"},
			Email: "cmarsh@acme-robotics.example", EmailPatterns: []string{"flast"}},
		{Title: "Head of Growth", Company: "Cobalt", SignalTypes: []string{"keyword_post"}},
		{Title: "VP Sales", Company: "Cobalt", SignalTypes: []string{"company_hiring"}},
		{Title: "CTO", Company: "Bluepeak"},
	}
	for _, e := range []struct {
		lead int
		typ  string
		days int
	}{{0, "open", 10}, {0, "reply", 9}, {1, "positive_reply", 5}, {1, "meeting_booked", 3}, {2, "bounce", 2},
		{3, "open", 1}, {4, "reply", 40}, {4, "click", 4}, {5, "reply", 60}} {
		ev := event(w, leads[e.lead], e.typ, now.Add(-time.Duration(e.days)*24*time.Hour).Format(time.RFC3339))
		ev.Facts = facts[e.lead]
		record(t, s, ev)
	}
	in, err := s.FeedbackInsights(ctx, w.ID, now.Add(-30*24*time.Hour), 10)
	if err != nil {
		t.Fatal(err)
	}
	ps := func(v string, n ...int64) prospector.PersonaStat {
		return prospector.PersonaStat{Value: v, Total: n[0], Replies: n[1], Positive: n[2], Meetings: n[3]}
	}
	want := &prospector.FeedbackInsights{
		Summary: prospector.FeedbackSummary{TotalLeads: 5, Replied: 2, Positive: 1, Meetings: 1, BouncedOrSkipped: 1},
		Titles:  []prospector.PersonaStat{ps("VP Sales", 3, 2, 1, 1), ps("Head of Growth", 2, 0, 0, 0)},
		Companies: []prospector.PersonaStat{ps("Bluepeak", 1, 1, 1, 1), ps("Acme Robotics", 2, 1, 0, 0),
			ps("Cobalt", 2, 0, 0, 0)},
		SignalTypes: []prospector.PersonaStat{ps("company_hiring", 3, 2, 1, 1), ps("job_change", 1, 1, 0, 0),
			ps("funding_announcement", 1, 0, 0, 0), ps("keyword_post", 1, 0, 0, 0)},
		RepliedNoMeeting: 1,
		BounceDomains:    []prospector.PersonaStat{ps("acme-robotics.example", 1, 0, 0, 0)},
	}
	if !reflect.DeepEqual(in, want) {
		t.Fatalf("insights\n got %+v\nwant %+v", in, want)
	}
	// top cuts the lists; a window of 61 days takes lead 5 in; another
	// workspace sees nothing.
	in, err = s.FeedbackInsights(ctx, w.ID, now.Add(-61*24*time.Hour), 1)
	if err != nil {
		t.Fatal(err)
	}
	if len(in.Titles) != 1 || len(in.Companies) != 1 || len(in.SignalTypes) != 1 || in.Summary.TotalLeads != 6 ||
		in.Summary.Replied != 4 || in.Titles[0] != ps("VP Sales", 3, 3, 1, 1) {
		t.Fatalf("61 days, top 1: %+v", in)
	}
	other := NewWorkspace(t, s, "quiet", prospector.PlanGrowth)
	in, err = s.FeedbackInsights(ctx, other.ID, now.Add(-365*24*time.Hour), 10)
	if err != nil || in.Summary != (prospector.FeedbackSummary{}) || len(in.Titles)+len(in.Companies)+len(in.SignalTypes) != 0 {
		t.Fatalf("empty workspace: %+v, %v", in, err)
	}
}
