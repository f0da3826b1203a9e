package webhook

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/prospectorhq/prospector"
	"github.com/prospectorhq/prospector/sqlite"
)

// The deployment's setting decides each request when it is made: a
// change applies to the next request of every client reading it, and a
// connection opened while private addresses were allowed is not reused
// once they are not.
func TestSettingPolicyAppliesPerRequest(t *testing.T) {
	ctx := context.Background()
	st, err := sqlite.Open(ctx, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	rc := newReceiver(t, nil)
	c := NewClient(Config{Policy: SettingPolicy(st)})
	send := func() error {
		res, err := c.Deliver(ctx, Request{URL: rc.URL + "/in", ID: "msg_1", Body: []byte(`{}`)})
		if err == nil && res.StatusCode != http.StatusNoContent {
			t.Fatalf("answer %d", res.StatusCode)
		}
		return err
	}
	if err := send(); !IsRefused(err) {
		t.Fatalf("no setting: %v, want refused (denied by default)", err)
	}
	if err := st.SetSetting(ctx, prospector.SettingAllowPrivateWebhooks, "true"); err != nil {
		t.Fatal(err)
	}
	if err := send(); err != nil {
		t.Fatalf("allowed: %v", err)
	}
	if err := st.SetSetting(ctx, prospector.SettingAllowPrivateWebhooks, "false"); err != nil {
		t.Fatal(err)
	}
	// The allowed request left a keep-alive connection to the receiver.
	if err := send(); !IsRefused(err) {
		t.Fatalf("denied again: %v, want refused (not a reused connection)", err)
	}
	if rc.hits.Load() != 1 {
		t.Fatalf("receiver hits %d, want 1", rc.hits.Load())
	}
	if _, err := c.CheckURL(ctx, "http://10.0.0.1/in"); !IsRefused(err) {
		t.Fatalf("CheckURL when denied: %v", err)
	}
}

// A policy that cannot be read fails the request before any lookup or
// dial, with a message that names no internal error.
func TestPolicyErrorSendsNothing(t *testing.T) {
	var asked atomic.Int64
	stub := newStub(map[string][][]string{"hooks.test": {{"93.184.216.34"}}})
	c := NewClient(Config{Resolver: stub, Policy: func(context.Context) (bool, error) {
		asked.Add(1)
		return false, errors.New("sqlite: setting allow_private_webhooks: database is locked")
	}})
	_, err := c.Deliver(context.Background(), Request{URL: "http://hooks.test/in", ID: "msg_1", Body: []byte(`{}`)})
	var pe *PolicyError
	if !errors.As(err, &pe) || IsRefused(err) || strings.Contains(err.Error(), "sqlite") {
		t.Fatalf("err = %v, want a PolicyError that hides its cause", err)
	}
	if asked.Load() != 1 || stub.count("hooks.test") != 0 || c.dials.Load() != 0 {
		t.Fatalf("policy asked %d times, %d lookups, %d dials; want 1, 0, 0", asked.Load(), stub.count("hooks.test"), c.dials.Load())
	}
}

// A delivery whose node cannot read the policy (the database is down) is
// retried on the schedule, never dead-lettered as refused.
func TestPolicyErrorRetriesDelivery(t *testing.T) {
	rc := newReceiver(t, nil)
	f := newOutbox(t, rc)
	f.ob.Client = NewClient(Config{Policy: func(context.Context) (bool, error) { return false, errors.New("connection refused") }})
	d := f.queue(t, "ld_1")[0]
	f.runDue(t)
	got := f.delivery(t, d.ID)
	if got.Status != prospector.DeliveryPending || got.Attempts != 1 || !strings.Contains(got.LastError, "private-address setting") ||
		!got.NextAttemptAt.Equal(epoch.Add(RetrySchedule()[0])) {
		t.Fatalf("%+v, want pending, retried after the first step of the schedule", got)
	}
}
