package prospector

import (
	"context"
	"time"
)

// Retention is how long the records that pile up are kept. A zero window
// keeps them for ever.
type Retention struct {
	// EmailLookups are enrich/email answers (each holds an address),
	// counted from the lookup; kept past the idempotency window so a
	// workspace can see what it was charged for.
	EmailLookups time.Duration
	// FeedbackEvents are the raw outcome events (reply text, meeting
	// links); the per-lead summaries scoring learns from stay.
	FeedbackEvents time.Duration
	// Deliveries are finished webhook and outreach deliveries (payloads
	// hold the lead); pending ones are never removed.
	Deliveries time.Duration
	// ClosedOpenings are job openings closed for longer than this.
	ClosedOpenings time.Duration
}

// DefaultRetention is what serve enforces unless told otherwise
// (docs/privacy.md#retention).
var DefaultRetention = Retention{
	EmailLookups:   180 * 24 * time.Hour,
	FeedbackEvents: 365 * 24 * time.Hour,
	Deliveries:     90 * 24 * time.Hour,
	ClosedOpenings: 365 * 24 * time.Hour,
}

// Purged counts what a retention pass deleted.
type Purged struct {
	EmailLookups   int64 `json:"email_lookups"`
	FeedbackEvents int64 `json:"feedback_events"`
	Deliveries     int64 `json:"deliveries"`
	ClosedOpenings int64 `json:"closed_job_openings"`
	// ConsoleSessions are console sessions past their expiry (signed out
	// or not): a session ends at its expiry whatever its window.
	ConsoleSessions int64 `json:"console_sessions"`
}

// Total is the sum of the counts.
func (p Purged) Total() int64 {
	return p.EmailLookups + p.FeedbackEvents + p.Deliveries + p.ClosedOpenings + p.ConsoleSessions
}

// RetentionStore deletes records past their retention.
type RetentionStore interface {
	// PurgeExpired deletes up to limit rows of each kind older than its
	// window before now (a zero window: none of that kind), and console
	// sessions whose expiry is before now. Callers
	// repeat while any count reaches limit.
	PurgeExpired(ctx context.Context, r Retention, now time.Time, limit int) (Purged, error)
}
