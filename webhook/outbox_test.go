package webhook

import (
	"context"
	"encoding/json"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/prospectorhq/prospector"
	"github.com/prospectorhq/prospector/jobs"
	"github.com/prospectorhq/prospector/sqlite"
	"github.com/prospectorhq/prospector/storetest"
	"github.com/prospectorhq/prospector/wire"
)

type fakeClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *fakeClock) Set(t time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = t
}

func openStore(t *testing.T, dir string) *sqlite.DB {
	t.Helper()
	db, err := sqlite.Open(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	return db
}

// outboxFixture is a store with a workspace whose auto-sync sends to rc.
type outboxFixture struct {
	st    *sqlite.DB
	ws    *prospector.Workspace
	clock *fakeClock
	ob    *Outbox
	rc    *receiver
}

var epoch = time.Date(2026, 11, 22, 8, 0, 0, 0, time.UTC)

func newOutbox(t *testing.T, rc *receiver) *outboxFixture {
	t.Helper()
	st := openStore(t, t.TempDir())
	t.Cleanup(func() { st.Close() })
	f := &outboxFixture{st: st, ws: storetest.NewWorkspace(t, st, "sync", prospector.PlanGrowth), clock: &fakeClock{t: epoch}, rc: rc}
	s := &prospector.WebhookSettings{WorkspaceID: f.ws.ID, URL: rc.URL + "/in", AutoSync: true,
		AuthHeader: "Authorization", AuthValue: "Bearer tok_0123456789", SigningSecret: prospector.NewWebhookSecret()}
	if err := st.CreateWebhookSettings(context.Background(), s); err != nil {
		t.Fatal(err)
	}
	f.ob = &Outbox{Store: st, Client: NewClient(Config{AllowPrivate: true, Timeout: 300 * time.Millisecond}),
		Enqueue: st.EnqueueJob, Now: f.clock.Now, Jitter: func(d time.Duration) time.Duration { return d },
		Logger: slog.New(slog.NewTextHandler(t.Output(), nil))}
	return f
}

func (f *outboxFixture) queue(t *testing.T, ids ...string) []*prospector.Delivery {
	t.Helper()
	var leads []wire.Lead
	for _, id := range ids {
		leads = append(leads, wire.Lead{ID: id, FullName: "Lead " + id, Email: id + "@example.com"})
	}
	ds, err := f.ob.Queue(context.Background(), f.ws.ID, leads)
	if err != nil {
		t.Fatal(err)
	}
	return ds
}

// runDue claims the jobs due at the fake clock's time and runs them as
// the job runner would; it returns how many ran.
func (f *outboxFixture) runDue(t *testing.T) int {
	t.Helper()
	ctx := context.Background()
	claimed, err := f.st.ClaimJobs(ctx, "test", []string{KindDeliver}, 100, time.Minute, f.clock.Now())
	if err != nil {
		t.Fatal(err)
	}
	for _, j := range claimed {
		if err := f.ob.Handle(ctx, j); err != nil {
			t.Fatalf("handle job %d: %v", j.ID, err)
		}
		if err := f.st.CompleteJob(ctx, j.ID, j.LeaseToken); err != nil {
			t.Fatal(err)
		}
	}
	return len(claimed)
}

func (f *outboxFixture) delivery(t *testing.T, id string) *prospector.Delivery {
	t.Helper()
	d, err := f.st.Delivery(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// TestRetryScheduleFakeClock: a destination that keeps answering 503 gets
// 8 attempts at +0, 1m, 6m, 36m, 2h36m, 7h36m, 15h36m and 23h36m, all
// with the same webhook-id, and the delivery is then dead-lettered.
func TestRetryScheduleFakeClock(t *testing.T) {
	rc := newReceiver(t, func(w http.ResponseWriter, _ *http.Request, _ int64) {
		w.WriteHeader(http.StatusServiceUnavailable)
		w.Write([]byte("down for maintenance"))
	})
	f := newOutbox(t, rc)
	d := f.queue(t, "ld_1")[0]
	offsets := []time.Duration{0, time.Minute, 6 * time.Minute, 36 * time.Minute, 2*time.Hour + 36*time.Minute,
		7*time.Hour + 36*time.Minute, 15*time.Hour + 36*time.Minute, 23*time.Hour + 36*time.Minute}
	if MaxAttempts() != len(offsets) {
		t.Fatalf("MaxAttempts %d", MaxAttempts())
	}
	for i, off := range offsets {
		at := epoch.Add(off)
		if i > 0 {
			f.clock.Set(at.Add(-time.Second))
			if n := f.runDue(t); n != 0 {
				t.Fatalf("attempt %d ran a second early", i+1)
			}
			if got := f.delivery(t, d.ID); !got.NextAttemptAt.Equal(at) || got.Attempts != i || got.Status != prospector.DeliveryPending ||
				got.LastStatusCode != 503 || got.LastError != "HTTP 503: down for maintenance" {
				t.Fatalf("before attempt %d: %+v, want next at %s", i+1, got, at)
			}
		}
		f.clock.Set(at)
		if n := f.runDue(t); n != 1 {
			t.Fatalf("attempt %d at +%s: %d jobs ran", i+1, off, n)
		}
		if rc.hits.Load() != int64(i+1) {
			t.Fatalf("after attempt %d the receiver has %d requests", i+1, rc.hits.Load())
		}
	}
	got := f.delivery(t, d.ID)
	if got.Status != prospector.DeliveryDead || got.Attempts != 8 || !strings.HasPrefix(got.LastError, "gave up after 8 attempts: HTTP 503") {
		t.Fatalf("after the last attempt: %+v", got)
	}
	f.clock.Set(epoch.Add(48 * time.Hour))
	if n := f.runDue(t); n != 0 || rc.hits.Load() != 8 {
		t.Fatalf("a dead delivery was attempted again")
	}
	rc.mu.Lock()
	defer rc.mu.Unlock()
	for _, r := range rc.reqs {
		if r.header.Get(HeaderID) != d.ID || r.header.Get("Authorization") != "Bearer tok_0123456789" {
			t.Fatalf("attempt headers: id %s (want %s), auth %q", r.header.Get(HeaderID), d.ID, r.header.Get("Authorization"))
		}
	}
	var env map[string]any
	json.Unmarshal(rc.reqs[0].body, &env)
	if env["source"] != SourceAutoSync || env["lead_count"] != 1.0 || env["workspace_id"] != f.ws.ID {
		t.Fatalf("auto-sync envelope %s", rc.reqs[0].body)
	}
}

func TestJitterStaysWithinTenPercent(t *testing.T) {
	o := &Outbox{}
	for _, d := range RetrySchedule() {
		lo, hi := d-d/10, d+d/10
		for range 200 {
			if j := o.jitter(d); j < lo || j > hi {
				t.Fatalf("jitter(%s) = %s, outside [%s, %s]", d, j, lo, hi)
			}
		}
	}
}

func TestOutcomes(t *testing.T) {
	type step struct {
		status     int
		retryAfter string
	}
	for name, tc := range map[string]struct {
		answers  []step
		want     prospector.DeliveryStatus
		attempts int
		next     time.Duration // wait before the attempt after the first, when pending
		errHas   string
	}{
		"2xx delivers":                {answers: []step{{200, ""}}, want: prospector.DeliveryDelivered, attempts: 1},
		"5xx then 2xx":                {answers: []step{{502, ""}, {201, ""}}, want: prospector.DeliveryDelivered, attempts: 2},
		"400 is dead at once":         {answers: []step{{400, ""}}, want: prospector.DeliveryDead, attempts: 1, errHas: "HTTP 400"},
		"401 is dead at once":         {answers: []step{{401, ""}}, want: prospector.DeliveryDead, attempts: 1, errHas: "HTTP 401"},
		"redirect is dead":            {answers: []step{{302, ""}}, want: prospector.DeliveryDead, attempts: 1, errHas: "redirects are not followed"},
		"429 honours Retry-After":     {answers: []step{{429, "3600"}}, want: prospector.DeliveryPending, attempts: 1, next: time.Hour, errHas: "HTTP 429"},
		"short Retry-After, schedule": {answers: []step{{429, "10"}}, want: prospector.DeliveryPending, attempts: 1, next: time.Minute},
		"Retry-After capped":          {answers: []step{{503, "604800"}}, want: prospector.DeliveryPending, attempts: 1, next: 12 * time.Hour},
		"408 retries":                 {answers: []step{{408, ""}}, want: prospector.DeliveryPending, attempts: 1, next: time.Minute},
	} {
		t.Run(name, func(t *testing.T) {
			rc := newReceiver(t, func(w http.ResponseWriter, r *http.Request, n int64) {
				a := tc.answers[min(int(n), len(tc.answers))-1]
				if a.retryAfter != "" {
					w.Header().Set("Retry-After", a.retryAfter)
				}
				if a.status == 302 {
					w.Header().Set("Location", "http://169.254.169.254/")
				}
				w.WriteHeader(a.status)
			})
			f := newOutbox(t, rc)
			d := f.queue(t, "ld_1")[0]
			f.runDue(t)
			if len(tc.answers) > 1 {
				f.clock.Set(epoch.Add(time.Minute))
				f.runDue(t)
			}
			got := f.delivery(t, d.ID)
			if got.Status != tc.want || got.Attempts != tc.attempts || !strings.Contains(got.LastError, tc.errHas) {
				t.Fatalf("%+v, want %s after %d attempts", got, tc.want, tc.attempts)
			}
			if tc.want == prospector.DeliveryDelivered && (got.DeliveredAt == nil || got.LastError != "") {
				t.Fatalf("delivered without delivered_at: %+v", got)
			}
			if tc.next > 0 && !got.NextAttemptAt.Equal(epoch.Add(tc.next)) {
				t.Fatalf("next attempt at %s, want +%s", got.NextAttemptAt, tc.next)
			}
		})
	}
}

// TestGoneDisablesDestination: 410 switches auto-sync off; deliveries
// still queued for that destination are disabled without a request, and
// new leads are not queued.
func TestGoneDisablesDestination(t *testing.T) {
	rc := newReceiver(t, func(w http.ResponseWriter, _ *http.Request, _ int64) {
		w.WriteHeader(http.StatusGone)
		w.Write([]byte("endpoint deleted"))
	})
	f := newOutbox(t, rc)
	ds := f.queue(t, "ld_1")
	f.clock.Set(epoch.Add(time.Second))
	later := f.queue(t, "ld_2")
	f.clock.Set(epoch)
	if n := f.runDue(t); n != 1 {
		t.Fatalf("%d jobs ran", n)
	}
	first := f.delivery(t, ds[0].ID)
	if first.Status != prospector.DeliveryDisabled || first.LastStatusCode != 410 || !strings.Contains(first.LastError, "endpoint deleted") {
		t.Fatalf("after 410: %+v", first)
	}
	s, err := f.st.WebhookSettings(context.Background(), f.ws.ID)
	if err != nil {
		t.Fatal(err)
	}
	if s.AutoSync || !strings.Contains(s.DisabledReason, "410 Gone") || s.DisabledAt == nil {
		t.Fatalf("settings after 410: %+v", s)
	}
	f.clock.Set(epoch.Add(time.Minute))
	f.runDue(t)
	second := f.delivery(t, later[0].ID)
	if second.Status != prospector.DeliveryDisabled || second.Attempts != 0 || !strings.Contains(second.LastError, "auto-sync was switched off") {
		t.Fatalf("queued delivery after 410: %+v", second)
	}
	if rc.hits.Load() != 1 {
		t.Fatalf("receiver got %d requests after answering 410", rc.hits.Load())
	}
	if ds := f.queue(t, "ld_3"); len(ds) != 0 {
		t.Fatalf("queued %d deliveries with auto-sync off", len(ds))
	}
	if _, err := f.ob.Redeliver(context.Background(), first.ID); prospector.ErrorCode(err) != prospector.EINVALID {
		t.Fatalf("redeliver to a disabled destination: %v", err)
	}
}

func TestRefusedTargetIsDead(t *testing.T) {
	rc := newReceiver(t, nil)
	f := newOutbox(t, rc)
	f.ob.Client = NewClient(Config{}) // no AllowPrivate: the loopback receiver is refused
	d := f.queue(t, "ld_1")[0]
	f.runDue(t)
	got := f.delivery(t, d.ID)
	if got.Status != prospector.DeliveryDead || !strings.HasPrefix(got.LastError, "refused: webhook target 127.0.0.1 is a loopback address") {
		t.Fatalf("%+v", got)
	}
	if rc.hits.Load() != 0 {
		t.Fatal("a refused target was reached")
	}
}

func TestTimeoutRetries(t *testing.T) {
	release := make(chan struct{})
	defer close(release)
	rc := newReceiver(t, func(w http.ResponseWriter, _ *http.Request, _ int64) { <-release })
	f := newOutbox(t, rc)
	d := f.queue(t, "ld_1")[0]
	f.runDue(t)
	got := f.delivery(t, d.ID)
	if got.Status != prospector.DeliveryPending || got.Attempts != 1 || got.LastStatusCode != 0 ||
		!strings.Contains(got.LastError, "did not answer within") || !got.NextAttemptAt.Equal(epoch.Add(time.Minute)) {
		t.Fatalf("%+v", got)
	}
}

// TestOncePerDestinationAndIdempotentJobs: queuing a lead twice makes
// one delivery; a job run twice (at-least-once) sends once; Resume
// re-enqueues only what lost its job.
func TestOncePerDestinationAndIdempotentJobs(t *testing.T) {
	rc := newReceiver(t, nil)
	f := newOutbox(t, rc)
	ctx := context.Background()
	a := f.queue(t, "ld_1", "ld_2")
	b := f.queue(t, "ld_1")
	if len(a) != 2 || len(b) != 1 || a[0].ID != b[0].ID {
		t.Fatalf("lead queued twice got deliveries %s and %s", a[0].ID, b[0].ID)
	}
	if n, err := f.st.CountJobs(ctx, KindDeliver, prospector.JobQueued); err != nil {
		t.Fatal(err)
	} else if n != 2 {
		t.Fatalf("%d jobs queued, want 2", n)
	}
	claimed, err := f.st.ClaimJobs(ctx, "w", []string{KindDeliver}, 10, time.Minute, epoch)
	if err != nil {
		t.Fatal(err)
	}
	for _, j := range claimed {
		for range 2 { // run twice, as after a lost lease
			if err := f.ob.Handle(ctx, j); err != nil {
				t.Fatal(err)
			}
		}
		if err := f.st.CompleteJob(ctx, j.ID, j.LeaseToken); err != nil {
			t.Fatal(err)
		}
	}
	if rc.hits.Load() != 2 {
		t.Fatalf("%d requests for 2 leads", rc.hits.Load())
	}
	// A delivery whose job was lost (crash between the row and the job).
	lost := &prospector.Delivery{WorkspaceID: f.ws.ID, DestinationKind: prospector.DestinationWebhook,
		DestinationURL: rc.URL + "/in", LeadID: "ld_9", Payload: []byte(`{"id":"ld_9","full_name":"Lost"}`), NextAttemptAt: epoch}
	if _, err := f.st.AddDelivery(ctx, lost); err != nil {
		t.Fatal(err)
	}
	f.clock.Set(epoch.Add(2 * time.Minute))
	for range 2 {
		if n, err := f.ob.Resume(ctx); err != nil || n != 1 {
			t.Fatalf("resume: %d, %v", n, err)
		}
	}
	if n := f.runDue(t); n != 1 {
		t.Fatalf("resume enqueued %d jobs, want 1", n)
	}
	if f.delivery(t, lost.ID).Status != prospector.DeliveryDelivered {
		t.Fatal("resumed delivery not delivered")
	}
}

func TestRedeliver(t *testing.T) {
	rc := newReceiver(t, nil)
	f := newOutbox(t, rc)
	ctx := context.Background()
	d := f.queue(t, "ld_1")[0]
	if _, err := f.ob.Redeliver(ctx, d.ID); prospector.ErrorCode(err) != prospector.EINVALID {
		t.Fatalf("redeliver a pending delivery: %v", err)
	}
	f.runDue(t)
	f.clock.Set(epoch.Add(time.Hour))
	again, err := f.ob.Redeliver(ctx, d.ID)
	if err != nil || again.Status != prospector.DeliveryPending || again.Attempts != 0 {
		t.Fatalf("redeliver: %+v, %v", again, err)
	}
	if n := f.runDue(t); n != 1 || rc.hits.Load() != 2 {
		t.Fatalf("redelivery: %d jobs, %d requests", n, rc.hits.Load())
	}
	got := f.delivery(t, d.ID)
	if got.Status != prospector.DeliveryDelivered || !got.DeliveredAt.Equal(epoch.Add(time.Hour)) {
		t.Fatalf("%+v", got)
	}
	if rc.last(t).header.Get(HeaderID) != d.ID {
		t.Fatal("a redelivery keeps the webhook-id")
	}
	if _, err := f.ob.Redeliver(ctx, "msg_nope"); prospector.ErrorCode(err) != prospector.ENOTFOUND {
		t.Fatalf("unknown delivery: %v", err)
	}
}

// TestDeliverySurvivesRestart: the first attempt fails, the process
// stops, and a new process on the same data directory delivers when the
// retry is due, through the job runner.
func TestDeliverySurvivesRestart(t *testing.T) {
	rc := newReceiver(t, func(w http.ResponseWriter, _ *http.Request, n int64) {
		if n == 1 {
			w.WriteHeader(http.StatusServiceUnavailable)
			return
		}
		w.WriteHeader(http.StatusOK)
	})
	dir := t.TempDir()
	ctx := context.Background()
	clock := &fakeClock{t: epoch}
	st := openStore(t, dir)
	ws := storetest.NewWorkspace(t, st, "restart", prospector.PlanGrowth)
	if err := st.CreateWebhookSettings(ctx, &prospector.WebhookSettings{WorkspaceID: ws.ID, URL: rc.URL, AutoSync: true,
		SigningSecret: prospector.NewWebhookSecret()}); err != nil {
		t.Fatal(err)
	}
	run := func(st *sqlite.DB, until func() bool) {
		t.Helper()
		ob := &Outbox{Store: st, Client: NewClient(Config{AllowPrivate: true}), Now: clock.Now,
			Jitter: func(d time.Duration) time.Duration { return d }, Logger: slog.New(slog.NewTextHandler(t.Output(), nil))}
		r := &jobs.Runner{Store: st, Handlers: map[string]jobs.Handler{KindDeliver: ob.Handle}, Now: clock.Now,
			Poll: 10 * time.Millisecond, Logger: ob.Logger}
		ob.Enqueue = r.Enqueue
		rctx, cancel := context.WithCancel(ctx)
		done := make(chan error, 1)
		go func() { done <- r.Run(rctx) }()
		if _, err := ob.Queue(ctx, ws.ID, []wire.Lead{{ID: "ld_1", FullName: "Ada"}}); err != nil {
			t.Fatal(err)
		}
		deadline := time.Now().Add(10 * time.Second)
		for !until() {
			if time.Now().After(deadline) {
				t.Fatal("timed out")
			}
			time.Sleep(5 * time.Millisecond)
		}
		cancel()
		if err := <-done; err != nil {
			t.Fatal(err)
		}
	}
	status := func(st *sqlite.DB) *prospector.Delivery {
		ds, err := st.ListDeliveries(ctx, prospector.DeliveryFilter{WorkspaceID: ws.ID})
		if err != nil || len(ds) != 1 {
			t.Fatalf("deliveries: %d, %v", len(ds), err)
		}
		return ds[0]
	}
	run(st, func() bool { return status(st).Attempts == 1 })
	first := status(st)
	if first.Status != prospector.DeliveryPending || !first.NextAttemptAt.Equal(epoch.Add(time.Minute)) {
		t.Fatalf("after the failed attempt: %+v", first)
	}
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}

	clock.Set(epoch.Add(2 * time.Minute))
	st2 := openStore(t, dir)
	defer st2.Close()
	run(st2, func() bool { return status(st2).Status == prospector.DeliveryDelivered })
	got := status(st2)
	if got.ID != first.ID || got.Attempts != 2 || rc.hits.Load() != 2 {
		t.Fatalf("after restart: %+v, %d requests", got, rc.hits.Load())
	}
}
