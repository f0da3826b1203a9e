// Package feedback holds the feedback workflows: recording an outcome of
// outreach on a lead (POST /feedback/events) and reading what converts
// (GET /feedback/insights). The rules that decide what an event does to a
// lead are the root package's (DecideFeedback); the stores apply them.
package feedback

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/prospectorhq/prospector"
	"github.com/prospectorhq/prospector/email"
	"github.com/prospectorhq/prospector/input"
	"github.com/prospectorhq/prospector/wire"
)

// Service runs the feedback workflows for every front end.
type Service struct {
	Store Store
	// Emails, when set, forgets what it kept of a domain's outcomes when
	// an event brings a new one (a bounce, a reply).
	Emails prospector.EmailFinder
	Now    func() time.Time // default time.Now
}

// Store is what Service reads and writes.
type Store interface {
	FeedbackLead(ctx context.Context, workspaceID, leadID string) (*prospector.Lead, []string, error)
	RecordFeedbackEvent(ctx context.Context, ev *prospector.FeedbackEvent, now time.Time) (*prospector.FeedbackResult, bool, error)
	FeedbackInsights(ctx context.Context, workspaceID string, since time.Time, top int) (*prospector.FeedbackInsights, error)
}

func (s *Service) now() time.Time {
	if s.Now != nil {
		return s.Now()
	}
	return time.Now()
}

// Bounds of POST /feedback/events (docs/decisions.md, "Feedback").
const (
	maxFeedbackContent  = 10000 // characters of content
	maxMeetingURL       = 2048  // characters of meeting_url
	maxFeedbackMetadata = 8192  // bytes of metadata, as stored (compact JSON)
	// feedbackClockSkew is how far in the future occurred_at may be: a
	// sender's clock a little ahead is fine, a date in next week is a bug.
	feedbackClockSkew = 5 * time.Minute
)

// EventRequest is POST /feedback/events's body: an outcome of outreach
// to one of the workspace's leads.
type EventRequest struct {
	LeadID     *string         `json:"lead_id"`
	EventType  *string         `json:"event_type"`
	Source     *string         `json:"source"`
	Content    *string         `json:"content"`
	MeetingURL *string         `json:"meeting_url"`
	OccurredAt *string         `json:"occurred_at"`
	Metadata   json.RawMessage `json:"metadata"`
}

// EventResult is what recording an event did, explained in Note.
type EventResult struct {
	Accepted    bool         `json:"accepted"`
	EventType   string       `json:"event_type"`
	Source      string       `json:"source"`
	LeadID      string       `json:"lead_id"`
	MutatedLead bool         `json:"mutated_lead"`
	StoredEvent bool         `json:"stored_event"`
	Note        string       `json:"note"`
	Lead        LeadSnapshot `json:"lead"`
}

// LeadSnapshot is the contract's lead snapshot: the lead's state after
// the event.
type LeadSnapshot struct {
	ID              string  `json:"id"`
	Status          *string `json:"status"`
	RepliedAt       *string `json:"replied_at"`
	MeetingBookedAt *string `json:"meeting_booked_at"`
	Feedback        string  `json:"feedback"`
	FeedbackReason  string  `json:"feedback_reason"`
}

// Record records an event on the workspace's lead and applies it (its
// status, reply and meeting times, feedback), deciding with the rules of
// prospector.DecideFeedback. With an idempotency key ("" for none), a
// repeat within prospector.IdempotencyWindow returns the first result
// with replayed true. Errors: a validation error naming the field (and
// for a key used with another body), 404 lead_not_found for a lead the
// workspace does not have.
func (s *Service) Record(ctx context.Context, ws *prospector.Workspace, key string, req *EventRequest) (*EventResult, bool, error) {
	now := s.now()
	ev, err := newFeedbackEvent(req, now)
	if err != nil {
		return nil, false, err
	}
	ev.WorkspaceID, ev.IdempotencyKey = ws.ID, key
	lead, types, err := s.Store.FeedbackLead(ctx, ws.ID, ev.LeadID)
	if errors.Is(err, prospector.ErrLeadNotFound) {
		return nil, false, leadNotFound(ev.LeadID)
	}
	if err != nil {
		return nil, false, err
	}
	ev.Facts = leadFacts(lead, types, ev.Type)
	res, replayed, err := s.Store.RecordFeedbackEvent(ctx, ev, now)
	if err != nil {
		if errors.Is(err, prospector.ErrLeadNotFound) { // deleted since it was read
			return nil, false, leadNotFound(ev.LeadID)
		}
		return nil, false, err
	}
	if _, ok := prospector.EmailOutcome(ev); ok && !replayed && s.Emails != nil {
		// The next enrich/email lookup at the domain counts this one.
		s.Emails.ForgetOutcomes(ev.Facts.Email)
	}
	return &EventResult{Accepted: true, EventType: ev.Type, Source: ev.Source, LeadID: ev.LeadID,
		MutatedLead: res.Mutated, StoredEvent: true, Note: feedbackNote(ev, res), Lead: snapshot(ev.LeadID, res.After)}, replayed, nil
}

func leadNotFound(id string) error {
	return prospector.Errorf(prospector.ELEADNOTFOUND, "lead_id: no lead %s in this workspace", id)
}

// newFeedbackEvent validates every field of the body; the id, the
// workspace and the facts about the lead are the caller's to fill.
func newFeedbackEvent(req *EventRequest, now time.Time) (*prospector.FeedbackEvent, error) {
	ev := &prospector.FeedbackEvent{ID: prospector.NewID("fbe"), LeadID: input.Str(req.LeadID), Type: input.Str(req.EventType),
		Source: input.Str(req.Source), Content: input.Str(req.Content), MeetingURL: input.Str(req.MeetingURL), Metadata: "{}"}
	switch {
	case ev.LeadID == "":
		return nil, input.Errorf("lead_id", "required")
	case !prospector.ValidLeadID(ev.LeadID):
		return nil, input.Errorf("lead_id", "%q is not a lead id (ld_ and 36 lowercase letters or digits 2-7)", input.Truncate(ev.LeadID, 64))
	case ev.Type == "":
		return nil, input.Errorf("event_type", "required: one of %s", strings.Join(prospector.FeedbackEventTypes(), ", "))
	case !slices.Contains(prospector.FeedbackEventTypes(), ev.Type):
		return nil, input.Errorf("event_type", "unsupported %q: use one of %s", input.Truncate(ev.Type, 64),
			strings.Join(prospector.FeedbackEventTypes(), ", "))
	}
	if ev.Source == "" {
		ev.Source = prospector.DefaultFeedbackSource
	} else if !slices.Contains(prospector.FeedbackSources(), ev.Source) {
		return nil, input.Errorf("source", "unsupported %q: use one of %s", input.Truncate(ev.Source, 64), strings.Join(prospector.FeedbackSources(), ", "))
	}
	if n := utf8.RuneCountInString(ev.Content); n > maxFeedbackContent {
		return nil, input.Errorf("content", "at most %d characters (got %d)", maxFeedbackContent, n)
	}
	if ev.MeetingURL != "" {
		u, err := url.Parse(ev.MeetingURL)
		switch {
		case utf8.RuneCountInString(ev.MeetingURL) > maxMeetingURL:
			return nil, input.Errorf("meeting_url", "at most %d characters", maxMeetingURL)
		case err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "":
			return nil, input.Errorf("meeting_url", "%q is not an absolute http(s) URL", input.Truncate(ev.MeetingURL, 64))
		}
	}
	ev.OccurredAt = now.UTC().Truncate(time.Microsecond) // the precision both engines keep
	if at := input.Str(req.OccurredAt); at != "" {
		t, err := time.Parse(time.RFC3339Nano, at)
		if err != nil {
			return nil, input.Errorf("occurred_at", "%q is not an RFC 3339 timestamp (2026-01-31T09:30:00Z)", input.Truncate(at, 64))
		}
		if t.After(now.Add(feedbackClockSkew)) {
			return nil, input.Errorf("occurred_at", "%s is more than %d minutes in the future", at, int(feedbackClockSkew.Minutes()))
		}
		ev.OccurredAt = t.UTC().Truncate(time.Microsecond)
	}
	meta, err := canonicalMetadata(req.Metadata)
	if err != nil {
		return nil, err
	}
	ev.Metadata = meta
	// The hash is over the values as understood: spacing, member order
	// (metadata's included) and an explicit default do not count.
	ev.RequestHash = prospector.RequestHash(struct {
		LeadID, Type, Source, Content, MeetingURL, OccurredAt, Metadata string
	}{ev.LeadID, ev.Type, ev.Source, ev.Content, ev.MeetingURL, input.Str(req.OccurredAt), meta})
	return ev, nil
}

// canonicalMetadata returns metadata as compact JSON with sorted members,
// "{}" when absent or null.
func canonicalMetadata(raw json.RawMessage) (string, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return "{}", nil
	}
	if raw[0] != '{' {
		return "", input.Errorf("metadata", "must be an object")
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber() // numbers keep their digits
	var v map[string]any
	if err := dec.Decode(&v); err != nil {
		return "", input.Errorf("metadata", "must be an object")
	}
	b, _ := json.Marshal(v) // maps marshal with sorted keys
	if len(b) > maxFeedbackMetadata {
		return "", input.Errorf("metadata", "at most %d bytes of JSON (got %d)", maxFeedbackMetadata, len(b))
	}
	return string(b), nil
}

// leadFacts is what the event records about its lead: title, company
// and signal types, and for a bounce or a reply the lead's address with
// the finder's patterns it follows.
func leadFacts(l *prospector.Lead, types []string, eventType string) prospector.LeadFacts {
	f := prospector.LeadFacts{Title: l.Title, Company: l.Company, SignalTypes: types}
	if eventType != prospector.EventBounce && eventType != prospector.EventReply && eventType != prospector.EventPositiveReply {
		return f
	}
	first, last := l.FirstName, l.LastName
	if first == "" {
		first, last = prospector.SplitName(l.FullName)
	}
	if norm, patterns, ok := email.ClassifyAddress(first, last, l.Email); ok {
		f.Email, f.EmailPatterns = norm, patterns
	}
	return f
}

func snapshot(id string, st prospector.LeadState) LeadSnapshot {
	l := LeadSnapshot{ID: id, Status: wire.OrNull(st.Status), Feedback: st.Feedback, FeedbackReason: st.FeedbackReason}
	if st.RepliedAt != nil {
		at := wire.Timestamp(*st.RepliedAt)
		l.RepliedAt = &at
	}
	if st.MeetingBookedAt != nil {
		at := wire.Timestamp(*st.MeetingBookedAt)
		l.MeetingBookedAt = &at
	}
	return l
}

// feedbackNote explains what the event did, from the stored result, so a
// replay explains it in the same words.
func feedbackNote(ev *prospector.FeedbackEvent, r *prospector.FeedbackResult) string {
	var b strings.Builder
	switch {
	case !prospector.ChangesLead(ev.Type):
		fmt.Fprintf(&b, "%s recorded; opens and clicks do not change a lead, which stays %s.", ev.Type, r.After.Status)
	case r.Stale:
		fmt.Fprintf(&b, "%s stored but not applied: it occurred at %s, before the lead's last applied event (%s), so the lead stays %s.",
			ev.Type, wire.Timestamp(r.OccurredAt), wire.Timestamp(*r.LastAppliedAt), r.After.Status)
	case !r.Mutated:
		fmt.Fprintf(&b, "%s applied; the lead already had status %s", ev.Type, r.After.Status)
		if r.After.Feedback != "" {
			fmt.Fprintf(&b, " and feedback %s", r.After.Feedback)
		}
		b.WriteString(", so nothing changed.")
	default:
		fmt.Fprintf(&b, "%s applied: %s.", ev.Type, strings.Join(changes(r.Before, r.After), ", "))
	}
	if ev.MeetingURL != "" {
		b.WriteString(" The meeting URL is kept on the event.")
	}
	switch {
	case r.EmailStatus == prospector.EmailUndeliverable && r.Email == "":
		b.WriteString(" The lead's email is marked undeliverable (no address is known for the lead).")
	case r.EmailStatus == prospector.EmailUndeliverable:
		fmt.Fprintf(&b, " %s is marked undeliverable and will not be returned by enrich/email again.", r.Email)
	case r.EmailStatus == prospector.EmailDeliverable && r.Email != "":
		fmt.Fprintf(&b, " %s is confirmed deliverable.", r.Email)
	}
	if r.Email != "" && len(r.EmailPatterns) > 0 {
		dir := "raises"
		if ev.Type == prospector.EventBounce {
			dir = "lowers"
		}
		fmt.Fprintf(&b, " This %s the confidence of the %s pattern at %s for enrich/email.", dir,
			strings.Join(r.EmailPatterns, " and "), r.Email[strings.LastIndexByte(r.Email, '@')+1:])
	}
	return b.String()
}

// changes lists what differs between two lead states, in the snapshot's
// order.
func changes(a, b prospector.LeadState) []string {
	var out []string
	if a.Status != b.Status {
		out = append(out, fmt.Sprintf("status %s → %s", a.Status, b.Status))
	}
	for _, t := range []struct {
		name string
		a, b *time.Time
	}{{"replied_at", a.RepliedAt, b.RepliedAt}, {"meeting_booked_at", a.MeetingBookedAt, b.MeetingBookedAt}} {
		if t.b != nil && (t.a == nil || !t.a.Equal(*t.b)) {
			out = append(out, fmt.Sprintf("%s set to %s", t.name, wire.Timestamp(*t.b)))
		}
	}
	if a.ReplyContent != b.ReplyContent {
		out = append(out, fmt.Sprintf("reply content stored (%d characters)", utf8.RuneCountInString(b.ReplyContent)))
	}
	if a.Feedback != b.Feedback {
		out = append(out, "feedback "+b.Feedback)
	}
	if a.FeedbackReason != b.FeedbackReason {
		out = append(out, fmt.Sprintf("feedback_reason %q", b.FeedbackReason))
	}
	return out
}
