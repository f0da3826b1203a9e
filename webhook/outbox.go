package webhook

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"time"

	"github.com/prospectorhq/prospector"
	"github.com/prospectorhq/prospector/wire"
)

// The auto-sync outbox. Each new lead gets one delivery row per
// destination (prospector.Delivery), and each attempt is one durable job
// of kind KindDeliver naming the delivery and the attempt's number. A
// failed attempt records its outcome on the row and enqueues the next
// attempt's job at the time RetrySchedule gives; the job itself completes.
// The schedule is the outbox's own, not the job runner's backoff, so it
// can span a day and honour Retry-After.

// KindDeliver is the job kind of one delivery attempt.
const KindDeliver = "webhook.deliver"

// retrySchedule is the wait before each retry: after the first failed
// attempt 1 minute, then 5 minutes, 30 minutes, 2, 5, 8 and 8 hours,
// each ±10% (jitter) — 8 attempts over about 23.6 hours. A delivery
// whose 8th attempt fails is dead-lettered.
var retrySchedule = []time.Duration{time.Minute, 5 * time.Minute, 30 * time.Minute,
	2 * time.Hour, 5 * time.Hour, 8 * time.Hour, 8 * time.Hour}

// RetrySchedule returns the wait before each retry (see retrySchedule),
// a copy: changing it changes nothing of the outbox's.
func RetrySchedule() []time.Duration { return slices.Clone(retrySchedule) }

// MaxAttempts is the number of attempts a delivery gets.
func MaxAttempts() int { return len(retrySchedule) + 1 }

// maxRetryAfter caps how long a Retry-After can hold a delivery back.
const maxRetryAfter = 12 * time.Hour

// OutboxStore is what an Outbox reads and writes: the deliveries it
// queues and settles, and the webhook settings they go to, which it
// switches off after too many failures. prospector.IntegrationStore
// satisfies it.
type OutboxStore interface {
	WebhookSettings(ctx context.Context, workspaceID string) (*prospector.WebhookSettings, error)
	DisableWebhookAutoSync(ctx context.Context, workspaceID, url, reason string, now time.Time) (bool, error)
	AddDelivery(ctx context.Context, d *prospector.Delivery) (created bool, err error)
	Delivery(ctx context.Context, id string) (*prospector.Delivery, error)
	ListDeliveries(ctx context.Context, f prospector.DeliveryFilter) ([]*prospector.Delivery, error)
	MarkDelivery(ctx context.Context, id string, fromAttempts int, u prospector.DeliveryUpdate, now time.Time) error
}

// Outbox delivers auto-sync deliveries. Zero fields get the defaults
// documented on them; Store, Client and Enqueue are required.
type Outbox struct {
	Store  OutboxStore
	Client *Client
	// Enqueue stores a job: a *jobs.Runner's Enqueue, which also wakes
	// the runner, or a JobStore's EnqueueJob.
	Enqueue func(ctx context.Context, j *prospector.Job) (bool, error)
	// Now is the clock of attempts and schedules; default time.Now.
	Now func() time.Time
	// Jitter spreads a retry delay; default ±10% at random.
	Jitter func(time.Duration) time.Duration
	Logger *slog.Logger // default slog.Default()
}

func (o *Outbox) now() time.Time {
	if o.Now != nil {
		return o.Now().UTC()
	}
	return time.Now().UTC()
}

func (o *Outbox) logger() *slog.Logger {
	if o.Logger != nil {
		return o.Logger
	}
	return slog.Default()
}

func (o *Outbox) jitter(d time.Duration) time.Duration {
	if o.Jitter != nil {
		return o.Jitter(d)
	}
	spread := d / 5
	return d - d/10 + rand.N(spread+1)
}

// jobPayload is a KindDeliver job's payload.
type jobPayload struct {
	DeliveryID string `json:"delivery_id"`
	Attempt    int    `json:"attempt"` // 1 for the first
}

// attemptJob is the job of delivery id's attempt number attempt at
// runAt. Its dedupe key makes enqueuing the same attempt twice harmless.
func attemptJob(id string, attempt int, runAt time.Time) *prospector.Job {
	payload, _ := json.Marshal(jobPayload{DeliveryID: id, Attempt: attempt})
	return &prospector.Job{Kind: KindDeliver, Key: id + ":" + strconv.Itoa(attempt),
		Payload: payload, RunAt: runAt, MaxAttempts: 10}
}

// schedule enqueues the job of d's attempt number attempt at runAt.
func (o *Outbox) schedule(ctx context.Context, id string, attempt int, runAt time.Time) error {
	_, err := o.Enqueue(ctx, attemptJob(id, attempt, runAt))
	if err != nil {
		return fmt.Errorf("webhook: schedule delivery %s attempt %d: %w", id, attempt, err)
	}
	return nil
}

// Queue adds a delivery of each lead to the workspace's auto-sync
// destination and schedules their first attempts. It does nothing, and
// returns no deliveries, when auto-sync is off. A lead already delivered
// (or queued) to that destination is not queued again: its existing
// delivery is returned.
func (o *Outbox) Queue(ctx context.Context, workspaceID string, leads []wire.Lead) ([]*prospector.Delivery, error) {
	s, err := o.Store.WebhookSettings(ctx, workspaceID)
	if errors.Is(err, prospector.ErrNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	if !s.AutoSync || s.URL == "" {
		return nil, nil
	}
	out := make([]*prospector.Delivery, 0, len(leads))
	for i := range leads {
		snapshot, err := json.Marshal(&leads[i])
		if err != nil {
			return out, fmt.Errorf("webhook: queue lead %s: %w", leads[i].ID, err)
		}
		d := &prospector.Delivery{WorkspaceID: workspaceID, DestinationKind: prospector.DestinationWebhook,
			DestinationURL: s.URL, LeadID: leads[i].ID, Payload: snapshot, NextAttemptAt: o.now()}
		if _, err := o.Store.AddDelivery(ctx, d); err != nil {
			return out, err
		}
		out = append(out, d)
		// Also for an existing delivery still waiting for its first
		// attempt: its job may never have been enqueued (a crash right
		// after AddDelivery); the dedupe key drops a duplicate.
		if d.Status == prospector.DeliveryPending && d.Attempts == 0 {
			if err := o.schedule(ctx, d.ID, 1, d.NextAttemptAt); err != nil {
				return out, err
			}
		}
	}
	return out, nil
}

// Deliveries returns a delivery of each lead to s's auto-sync
// destination, with the job of its first attempt, for a caller that
// writes both in a transaction of its own: a radar batch, through
// prospector.LeadBatch.AutoSync, so that the leads and their deliveries
// commit together. It returns nothing when s has auto-sync off. The
// first attempts are due at once; the job runner picks them up at its
// next poll.
func (o *Outbox) Deliveries(s *prospector.WebhookSettings, leads []wire.Lead) ([]*prospector.Delivery, []*prospector.Job, error) {
	if !s.AutoSync || s.URL == "" {
		return nil, nil, nil
	}
	now := o.now()
	ds := make([]*prospector.Delivery, 0, len(leads))
	js := make([]*prospector.Job, 0, len(leads))
	for i := range leads {
		snapshot, err := json.Marshal(&leads[i])
		if err != nil {
			return nil, nil, fmt.Errorf("webhook: queue lead %s: %w", leads[i].ID, err)
		}
		d := &prospector.Delivery{ID: prospector.NewDeliveryID(), WorkspaceID: s.WorkspaceID,
			DestinationKind: prospector.DestinationWebhook, DestinationURL: s.URL, LeadID: leads[i].ID,
			Payload: snapshot, Status: prospector.DeliveryPending, NextAttemptAt: now}
		ds, js = append(ds, d), append(js, attemptJob(d.ID, 1, now))
	}
	return ds, js, nil
}

// Redeliver sends a finished delivery (delivered, dead or disabled) again,
// with the same webhook-id, starting a fresh retry schedule now: it
// queues the first attempt for the job runner. A validation error when
// the delivery is still pending or its destination is no longer the
// workspace's active auto-sync destination.
func (o *Outbox) Redeliver(ctx context.Context, id string) (*prospector.Delivery, error) {
	d, err := o.reset(ctx, id)
	if err != nil {
		return nil, err
	}
	if err := o.schedule(ctx, d.ID, 1, d.NextAttemptAt); err != nil {
		return nil, err
	}
	return d, nil
}

// RedeliverNow is Redeliver with the first attempt made at once, in the
// caller, rather than by the job runner; later attempts, if it fails, are
// queued as usual. It returns the delivery as the attempt left it.
func (o *Outbox) RedeliverNow(ctx context.Context, id string) (*prospector.Delivery, error) {
	d, err := o.reset(ctx, id)
	if err != nil {
		return nil, err
	}
	if err := o.attempt(ctx, d); err != nil {
		return nil, err
	}
	return o.Store.Delivery(ctx, id)
}

// reset puts a finished delivery back to pending with no attempts.
func (o *Outbox) reset(ctx context.Context, id string) (*prospector.Delivery, error) {
	d, err := o.Store.Delivery(ctx, id)
	if err != nil {
		return nil, err
	}
	if d.Status == prospector.DeliveryPending {
		return nil, prospector.Errorf(prospector.EINVALID, "delivery %s is still pending (attempt %d of %d next at %s)",
			d.ID, d.Attempts+1, MaxAttempts(), d.NextAttemptAt.Format(time.RFC3339))
	}
	if _, why, err := o.destination(ctx, d); err != nil {
		return nil, err
	} else if why != "" {
		return nil, prospector.Errorf(prospector.EINVALID, "delivery %s: %s; turn it back on with 'prospector integrations webhook --url URL --auto-sync=true'", d.ID, why)
	}
	now := o.now()
	u := prospector.DeliveryUpdate{Status: prospector.DeliveryPending, Attempts: 0, NextAttemptAt: now,
		LastStatusCode: d.LastStatusCode, LastError: d.LastError}
	if err := o.Store.MarkDelivery(ctx, d.ID, d.Attempts, u, now); err != nil {
		return nil, err
	}
	d.Status, d.Attempts, d.NextAttemptAt, d.DeliveredAt = u.Status, 0, now, nil
	return d, nil
}

// Resume enqueues the attempts of pending deliveries that were due more
// than a minute ago, in case a crash came between recording a delivery
// and enqueuing its job; attempts already queued are not duplicated. Run
// it at start and now and then.
func (o *Outbox) Resume(ctx context.Context) (int, error) {
	due, err := o.Store.ListDeliveries(ctx, prospector.DeliveryFilter{Status: prospector.DeliveryPending,
		DueBefore: o.now().Add(-time.Minute), Limit: 1000})
	if err != nil {
		return 0, err
	}
	for _, d := range due {
		if err := o.schedule(ctx, d.ID, d.Attempts+1, d.NextAttemptAt); err != nil {
			return 0, err
		}
	}
	return len(due), nil
}

// destination returns the settings of d's workspace and, when they no
// longer take d's auto-sync deliveries, why not.
func (o *Outbox) destination(ctx context.Context, d *prospector.Delivery) (*prospector.WebhookSettings, string, error) {
	if d.DestinationKind != prospector.DestinationWebhook {
		return nil, "destination " + d.DestinationKind + " has no outbox", nil
	}
	s, err := o.Store.WebhookSettings(ctx, d.WorkspaceID)
	if errors.Is(err, prospector.ErrNotFound) {
		return nil, "the workspace has no webhook settings", nil
	}
	if err != nil {
		return nil, "", err
	}
	switch {
	case s.URL != d.DestinationURL:
		return s, "the workspace's webhook URL changed", nil
	case !s.AutoSync && s.DisabledReason != "":
		return s, "auto-sync was switched off: " + s.DisabledReason, nil
	case !s.AutoSync:
		return s, "auto-sync is off", nil
	}
	return s, "", nil
}

// Handle is the jobs.Handler of KindDeliver: it makes one attempt and
// records its outcome. It returns an error only when the outcome could
// not be recorded (the job runner then retries the job), or when it was
// interrupted.
func (o *Outbox) Handle(ctx context.Context, j *prospector.Job) error {
	var p jobPayload
	if err := json.Unmarshal(j.Payload, &p); err != nil || p.DeliveryID == "" || p.Attempt < 1 {
		o.logger().Error("webhook: malformed delivery job", "job", j.ID)
		return nil // nothing a retry could fix
	}
	d, err := o.Store.Delivery(ctx, p.DeliveryID)
	if errors.Is(err, prospector.ErrNotFound) {
		return nil
	}
	if err != nil {
		return err
	}
	if d.Status != prospector.DeliveryPending || d.Attempts >= p.Attempt {
		// This attempt was made already. If it failed, its successor's
		// job may not have been enqueued: enqueue it (a no-op when it was).
		if d.Status == prospector.DeliveryPending && d.Attempts == p.Attempt {
			return o.schedule(ctx, d.ID, d.Attempts+1, d.NextAttemptAt)
		}
		return nil
	}
	if d.Attempts != p.Attempt-1 {
		return nil // an attempt from before a redelivery
	}
	return o.attempt(ctx, d)
}

// attempt sends d once and records what happened.
func (o *Outbox) attempt(ctx context.Context, d *prospector.Delivery) error {
	now := o.now()
	attempt := d.Attempts + 1
	log := o.logger().With("delivery", d.ID, "workspace", d.WorkspaceID, "lead", d.LeadID,
		"host", hostOf(d.DestinationURL), "attempt", attempt)
	mark := func(u prospector.DeliveryUpdate) error {
		u.Attempts = attempt
		err := o.Store.MarkDelivery(ctx, d.ID, d.Attempts, u, now)
		if errors.Is(err, prospector.ErrConcurrentUpdate) {
			return nil // another worker recorded this attempt
		}
		return err
	}
	s, why, err := o.destination(ctx, d)
	if err != nil {
		return err
	}
	if why != "" {
		log.Info("webhook: delivery disabled", "reason", why)
		u := prospector.DeliveryUpdate{Status: prospector.DeliveryDisabled, NextAttemptAt: now, LastError: why}
		u.Attempts = d.Attempts // no attempt was made
		err := o.Store.MarkDelivery(ctx, d.ID, d.Attempts, u, now)
		if errors.Is(err, prospector.ErrConcurrentUpdate) {
			return nil
		}
		return err
	}
	var lead wire.Lead
	if err := json.Unmarshal(d.Payload, &lead); err != nil {
		return mark(prospector.DeliveryUpdate{Status: prospector.DeliveryDead, NextAttemptAt: now,
			LastError: "stored lead is not readable"})
	}
	payload := &Payload{Source: SourceAutoSync, WorkspaceID: d.WorkspaceID, Leads: []wire.Lead{lead}, DispatchedAt: now}
	res, err := o.Client.Send(ctx, s, d.DestinationURL, d.ID, payload)
	if err != nil && ctx.Err() != nil {
		// Shutdown or a lost lease: not the destination's fault. The job
		// runs again with the delivery as it was.
		return fmt.Errorf("webhook: delivery %s interrupted: %w", d.ID, ctx.Err())
	}
	var (
		code       int
		reason     string
		retryAfter time.Duration
	)
	switch {
	case err != nil && (IsRefused(err) || prospector.ErrorCode(err) == prospector.EINVALID):
		log.Warn("webhook: delivery refused", "err", err)
		return mark(prospector.DeliveryUpdate{Status: prospector.DeliveryDead, NextAttemptAt: now, LastError: err.Error()})
	case err != nil:
		reason = err.Error()
	case res.OK():
		log.Info("webhook: delivered", "status", res.StatusCode)
		return mark(prospector.DeliveryUpdate{Status: prospector.DeliveryDelivered, NextAttemptAt: now,
			LastStatusCode: res.StatusCode, DeliveredAt: &now})
	case res.StatusCode == http.StatusGone:
		why := fmt.Sprintf("%s answered 410 Gone at %s", hostOf(d.DestinationURL), now.Format(time.RFC3339))
		log.Warn("webhook: destination gone, auto-sync disabled", "status", res.StatusCode)
		if _, err := o.Store.DisableWebhookAutoSync(ctx, d.WorkspaceID, d.DestinationURL, why, now); err != nil {
			return err
		}
		return mark(prospector.DeliveryUpdate{Status: prospector.DeliveryDisabled, NextAttemptAt: now,
			LastStatusCode: res.StatusCode, LastError: withResponse("410 Gone: auto-sync disabled", res.Response)})
	case retryable(res.StatusCode):
		code, retryAfter = res.StatusCode, res.RetryAfter
		reason = withResponse("HTTP "+strconv.Itoa(code), res.Response)
	default:
		what := "HTTP " + strconv.Itoa(res.StatusCode)
		if res.StatusCode >= 300 && res.StatusCode < 400 {
			what += " (redirects are not followed)"
		}
		log.Warn("webhook: delivery rejected", "status", res.StatusCode)
		return mark(prospector.DeliveryUpdate{Status: prospector.DeliveryDead, NextAttemptAt: now,
			LastStatusCode: res.StatusCode, LastError: withResponse(what, res.Response)})
	}
	if attempt >= MaxAttempts() {
		log.Warn("webhook: delivery dead-lettered", "status", code, "err", reason)
		return mark(prospector.DeliveryUpdate{Status: prospector.DeliveryDead, NextAttemptAt: now, LastStatusCode: code,
			LastError: fmt.Sprintf("gave up after %d attempts: %s", attempt, reason)})
	}
	delay := o.jitter(retrySchedule[attempt-1])
	if retryAfter > delay {
		delay = min(retryAfter, maxRetryAfter)
	}
	next := now.Add(delay)
	log.Info("webhook: delivery will retry", "status", code, "err", reason, "at", next)
	if err := mark(prospector.DeliveryUpdate{Status: prospector.DeliveryPending, NextAttemptAt: next,
		LastStatusCode: code, LastError: reason}); err != nil {
		return err
	}
	return o.schedule(ctx, d.ID, attempt+1, next)
}

// retryable: the destination may take the delivery later.
func retryable(code int) bool {
	return code == http.StatusTooManyRequests || code == http.StatusRequestTimeout || code >= 500
}

func withResponse(what, response string) string {
	if response == "" {
		return what
	}
	return what + ": " + response
}

func hostOf(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return ""
	}
	return u.Host
}
