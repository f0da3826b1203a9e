package prospector

import (
	"encoding/json"
	"time"
)

// DeliveryStatus is where an outbox delivery is: pending until it is
// delivered, dead-lettered after its last attempt or a permanent refusal,
// or disabled when its destination was switched off.
type DeliveryStatus string

const (
	DeliveryPending   DeliveryStatus = "pending"
	DeliveryDelivered DeliveryStatus = "delivered"
	DeliveryDead      DeliveryStatus = "dead"
	DeliveryDisabled  DeliveryStatus = "disabled"
)

// Delivery is one lead's delivery to one destination through the durable
// outbox. ID is the Standard Webhooks webhook-id, the same on every
// attempt, so receivers can drop repeats.
type Delivery struct {
	ID              string // "msg_" + 128 random bits
	WorkspaceID     string
	DestinationKind string // DestinationWebhook for now
	DestinationURL  string
	LeadID          string
	// Payload is the lead as it was when queued (JSON of webhook.Lead);
	// the body is shaped from it at each attempt.
	Payload        []byte
	Status         DeliveryStatus
	Attempts       int
	NextAttemptAt  time.Time
	LastStatusCode int // 0 when no HTTP answer came
	LastError      string
	DeliveredAt    *time.Time
	CreatedAt      time.Time
	UpdatedAt      time.Time
}

// NewDeliveryID returns a webhook-id for a new delivery.
func NewDeliveryID() string { return NewID("msg") }

// DeliveryUpdate is the outcome of one attempt, or a redelivery request.
type DeliveryUpdate struct {
	Status         DeliveryStatus
	Attempts       int
	NextAttemptAt  time.Time
	LastStatusCode int
	LastError      string
	DeliveredAt    *time.Time
}

// DeliveryFilter selects deliveries to list. Zero fields match all.
type DeliveryFilter struct {
	WorkspaceID string
	Status      DeliveryStatus
	// DueBefore keeps deliveries whose next attempt is at or before it.
	DueBefore time.Time
	Limit     int // see PageLimit
}

// MaxDeliveryPage is the most deliveries one ListDeliveries returns, and
// what it returns when the filter sets no limit.
const MaxDeliveryPage = 1000

// PageLimit is f.Limit, or MaxDeliveryPage when it is unset, negative or
// larger.
func (f DeliveryFilter) PageLimit() int {
	if f.Limit <= 0 || f.Limit > MaxDeliveryPage {
		return MaxDeliveryPage
	}
	return f.Limit
}

// Prepare fills what a new delivery defaults to before AddDelivery
// stores it: an ID when it has none and a {} payload when it has none.
// It returns when the first attempt is due: NextAttemptAt, or now when
// that is zero. A validation error when the payload is not JSON.
func (d *Delivery) Prepare(now time.Time) (firstAttempt time.Time, err error) {
	if d.ID == "" {
		d.ID = NewDeliveryID()
	}
	if len(d.Payload) == 0 {
		d.Payload = []byte("{}")
	}
	if !json.Valid(d.Payload) {
		return time.Time{}, Errorf(EINVALID, "delivery payload: not valid JSON")
	}
	if d.NextAttemptAt.IsZero() {
		return now, nil
	}
	return d.NextAttemptAt, nil
}

// Queued sets what AddDelivery stored for a new delivery: pending, no
// attempt made, the first due at firstAttempt, created and updated at
// now.
func (d *Delivery) Queued(firstAttempt, now time.Time) {
	d.Status, d.Attempts, d.NextAttemptAt, d.LastStatusCode, d.LastError = DeliveryPending, 0, firstAttempt, 0, ""
	d.DeliveredAt, d.CreatedAt, d.UpdatedAt = nil, now, now
}
