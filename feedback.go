package prospector

import (
	"context"
	"time"
)

// Feedback event types (FeedbackEventTypes lists them in the contract's order).
const (
	EventOpen          = "open"
	EventClick         = "click"
	EventReply         = "reply"
	EventPositiveReply = "positive_reply"
	EventBounce        = "bounce"
	EventMeetingBooked = "meeting_booked"
)

// FeedbackSources are where a feedback event can come from; the default
// is DefaultFeedbackSource.
func FeedbackSources() []string {
	return []string{"outreach_tool_a", "outreach_tool_b", "webhook", "manual", "custom"}
}

// DefaultFeedbackSource is the source of an event that names none.
const DefaultFeedbackSource = "custom"

// Email statuses a feedback event leaves on its lead.
const (
	EmailUndeliverable = "undeliverable" // the lead's address bounced
	EmailDeliverable   = "deliverable"   // the lead replied from it
)

// ErrLeadNotFound: the lead of a feedback event is not in the workspace.
var ErrLeadNotFound = &Error{Code: ELEADNOTFOUND, Message: "lead not found"}

// FeedbackEvent is one outreach outcome reported for a lead. Events are
// stored append-only, whether or not they change the lead.
type FeedbackEvent struct {
	ID          string // "fbe_" + random
	WorkspaceID string
	LeadID      string
	Type        string // one of FeedbackEventTypes
	Source      string // one of FeedbackSources
	Content     string
	MeetingURL  string
	OccurredAt  time.Time
	Metadata    string // a JSON object, "{}" when none was given
	// IdempotencyKey is "" when the request carried none; RequestHash
	// identifies the request to refuse a reused key.
	IdempotencyKey string
	RequestHash    string
	Facts          LeadFacts
	CreatedAt      time.Time
}

// LeadFacts are what an event records about its lead as it was when the
// event arrived: insights group leads by them, and Email is the address a
// bounce or a reply is about.
type LeadFacts struct {
	Title       string
	Company     string
	SignalTypes []string // the types of the lead's signals
	Email       string   // "" when no address is known for the lead
	// EmailPatterns name the email finder's patterns Email follows for
	// the lead's names (email.AddressPatterns).
	EmailPatterns []string
}

// LeadState is what feedback changes on a lead: the contract's feedback
// snapshot plus the reply text.
type LeadState struct {
	Status          string
	RepliedAt       *time.Time
	MeetingBookedAt *time.Time
	ReplyContent    string
	Feedback        string // "positive", "negative" or ""
	FeedbackReason  string
}

// Equal reports whether s and o hold the same values.
func (s LeadState) Equal(o LeadState) bool {
	return s.Status == o.Status && sameTime(s.RepliedAt, o.RepliedAt) && sameTime(s.MeetingBookedAt, o.MeetingBookedAt) &&
		s.ReplyContent == o.ReplyContent && s.Feedback == o.Feedback && s.FeedbackReason == o.FeedbackReason
}

func sameTime(a, b *time.Time) bool {
	return a == nil && b == nil || a != nil && b != nil && a.Equal(*b)
}

// ChangesLead reports whether events of type t can change a lead's
// state: opens and clicks never do.
func ChangesLead(t string) bool { return t != EventOpen && t != EventClick }

// concernsEmail reports whether events of type t tell something about
// the lead's address: a bounce that it does not take mail, a reply that
// it does.
func concernsEmail(t string) bool {
	return t == EventBounce || t == EventReply || t == EventPositiveReply
}

// ApplyFeedback returns s after ev, per the contract's table: reply sets
// replied, replied_at and reply_content; positive_reply the same and
// feedback positive; bounce skipped and feedback negative, with the
// event's content (else "bounce") as the reason; meeting_booked
// meeting_booked, feedback positive and meeting_booked_at. An event
// without content keeps the reply text already stored.
func ApplyFeedback(s LeadState, ev *FeedbackEvent) LeadState {
	at := ev.OccurredAt
	switch ev.Type {
	case EventReply, EventPositiveReply:
		s.Status, s.RepliedAt = "replied", &at
		if ev.Content != "" {
			s.ReplyContent = ev.Content
		}
		if ev.Type == EventPositiveReply {
			s.Feedback, s.FeedbackReason = "positive", EventPositiveReply
		}
	case EventBounce:
		s.Status, s.Feedback, s.FeedbackReason = "skipped", "negative", ev.Content
		if s.FeedbackReason == "" {
			s.FeedbackReason = EventBounce
		}
	case EventMeetingBooked:
		s.Status, s.MeetingBookedAt = "meeting_booked", &at
		s.Feedback, s.FeedbackReason = "positive", EventMeetingBooked
	}
	return s
}

// FeedbackResult is what recording an event did.
type FeedbackResult struct {
	EventID    string
	OccurredAt time.Time
	Before     LeadState
	After      LeadState
	// Applied: the event's transition was applied (false for opens,
	// clicks and stale events). Mutated: the lead's state changed.
	Applied bool
	Mutated bool
	// Stale: occurred_at is before LastAppliedAt, the time of the newest
	// event already applied to the lead, so the lead was left alone.
	Stale         bool
	LastAppliedAt *time.Time
	// EmailStatus is the status the event set on the lead's address
	// (EmailUndeliverable, EmailDeliverable), "" when it set none.
	EmailStatus string
	Email       string // the address it concerned, "" when none is known
	// EmailPatterns are the patterns Email follows, whose confidence the
	// event moved.
	EmailPatterns []string
}

// LeadFeedback is a lead's feedback record: what its events added up
// to, kept beside the lead and updated in each event's transaction so
// insights read one row per lead instead of every event.
type LeadFeedback struct {
	LeadID       string
	WorkspaceID  string
	Title        string // the lead's title, company and signal types at its latest event
	Company      string
	SignalMask   int64 // SignalMask of the signal types
	Status       string
	Email        string // the address of its latest bounce or reply
	EmailDomain  string
	EmailStatus  string // EmailUndeliverable, EmailDeliverable or ""
	EmailAt      *time.Time
	Events       int64
	FirstEventAt time.Time
	LastEventAt  time.Time
	// AppliedAt is the occurred_at of the newest state-changing event:
	// an older one is stored but not applied.
	AppliedAt *time.Time
	// The newest reply (reply, positive_reply or meeting_booked),
	// positive (positive_reply or meeting_booked), meeting and bounce.
	LastReplyAt    *time.Time
	LastPositiveAt *time.Time
	LastMeetingAt  *time.Time
	LastBounceAt   *time.Time
}

// DecideFeedback decides what ev does to a lead in state cur with
// feedback record f (nil before its first event), and returns the
// result and the updated record. It is shared by the engines, which
// differ only in how they read and write.
func DecideFeedback(cur LeadState, f *LeadFeedback, ev *FeedbackEvent) (FeedbackResult, *LeadFeedback) {
	res := FeedbackResult{EventID: ev.ID, OccurredAt: ev.OccurredAt, Before: cur, After: cur}
	next := LeadFeedback{LeadID: ev.LeadID, WorkspaceID: ev.WorkspaceID, FirstEventAt: ev.OccurredAt, LastEventAt: ev.OccurredAt}
	if f != nil {
		next = *f
		res.LastAppliedAt = f.AppliedAt
	}
	at := ev.OccurredAt
	if ChangesLead(ev.Type) {
		if res.LastAppliedAt != nil && at.Before(*res.LastAppliedAt) {
			res.Stale = true
		} else {
			res.Applied = true
			res.After = ApplyFeedback(cur, ev)
			res.Mutated = !res.After.Equal(cur)
			next.AppliedAt = &at
		}
	}
	next.Events++
	next.Title, next.Company, next.SignalMask = ev.Facts.Title, ev.Facts.Company, SignalMask(ev.Facts.SignalTypes)
	next.Status = res.After.Status
	if at.Before(next.FirstEventAt) {
		next.FirstEventAt = at
	}
	if at.After(next.LastEventAt) {
		next.LastEventAt = at
	}
	later := func(p **time.Time) {
		if *p == nil || at.After(**p) {
			*p = &at
		}
	}
	switch ev.Type {
	case EventReply:
		later(&next.LastReplyAt)
	case EventPositiveReply:
		later(&next.LastReplyAt)
		later(&next.LastPositiveAt)
	case EventMeetingBooked:
		later(&next.LastReplyAt)
		later(&next.LastPositiveAt)
		later(&next.LastMeetingAt)
	case EventBounce:
		later(&next.LastBounceAt)
	}
	// The address's status follows its newest bounce or reply, whatever
	// the order they arrive in; the outcome counts (EmailOutcome) take
	// every one.
	if concernsEmail(ev.Type) {
		res.Email, res.EmailPatterns = ev.Facts.Email, ev.Facts.EmailPatterns
		if next.EmailAt == nil || !at.Before(*next.EmailAt) {
			res.EmailStatus = EmailDeliverable
			if ev.Type == EventBounce {
				res.EmailStatus = EmailUndeliverable
			}
			next.EmailStatus, next.EmailAt = res.EmailStatus, &at
			if ev.Facts.Email != "" {
				next.Email, next.EmailDomain = ev.Facts.Email, emailDomain(ev.Facts.Email)
			}
		}
	}
	return res, &next
}

func emailDomain(addr string) string {
	for i := len(addr) - 1; i >= 0; i-- {
		if addr[i] == '@' {
			return addr[i+1:]
		}
	}
	return ""
}

// FeedbackStore persists feedback events and what they add up to.
type FeedbackStore interface {
	// FeedbackLead reads, in one round trip, what an event records about
	// a lead of the workspace: the lead with only ID, names, Title,
	// Company and Email filled (its own address, else the one the data
	// holds for its person), and the distinct types of its signals.
	// ErrLeadNotFound when the lead is not in the workspace.
	FeedbackLead(ctx context.Context, workspaceID, leadID string) (*Lead, []string, error)
	// RecordFeedbackEvent stores ev and applies it to its lead in one
	// transaction (DecideFeedback), with the lead's feedback record and,
	// for a bounce or a reply with an address, the address and pattern
	// outcomes. Events of one lead are applied one at a time.
	// ErrLeadNotFound when the lead is not in ev's workspace. When
	// ev.IdempotencyKey was used in the workspace within
	// IdempotencyWindow, nothing is stored: the first result is returned
	// with replayed true, or ErrIdempotencyMismatch when its RequestHash
	// differs.
	RecordFeedbackEvent(ctx context.Context, ev *FeedbackEvent, now time.Time) (res *FeedbackResult, replayed bool, err error)
	// FeedbackEvents returns a lead's events in the order they were
	// stored.
	FeedbackEvents(ctx context.Context, workspaceID, leadID string) ([]*FeedbackEvent, error)
	// LeadFeedback returns a lead's feedback record; ErrNotFound before
	// its first event.
	LeadFeedback(ctx context.Context, workspaceID, leadID string) (*LeadFeedback, error)
	// FeedbackInsights aggregates the workspace's leads with an event at
	// or after since; the persona lists hold at most top entries.
	FeedbackInsights(ctx context.Context, workspaceID string, since time.Time, top int) (*FeedbackInsights, error)
	// EmailOutcomes returns what feedback taught about domain's addresses.
	EmailOutcomes(ctx context.Context, domain string) (*EmailOutcomes, error)
}
