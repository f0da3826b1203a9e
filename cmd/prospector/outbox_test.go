package main

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/prospectorhq/prospector"
	"github.com/prospectorhq/prospector/sqlite"
	"github.com/prospectorhq/prospector/webhook"
	"github.com/prospectorhq/prospector/wire"
)

// serve delivers the auto-sync outbox: a delivery recorded before a
// crash, its job never enqueued, goes out once serve starts, signed, and
// is marked delivered.
func TestServeDeliversOutbox(t *testing.T) {
	var (
		mu     sync.Mutex
		got    []http.Header
		bodies [][]byte
	)
	rc := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, err := io.ReadAll(r.Body)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		mu.Lock()
		got, bodies = append(got, r.Header.Clone()), append(bodies, b)
		mu.Unlock()
		w.WriteHeader(http.StatusNoContent)
	}))
	defer rc.Close()
	ctx := context.Background()
	dir := t.TempDir()
	st, err := sqlite.Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	w := prospector.NewWorkspace("hooks", prospector.PlanGrowth)
	if err := st.CreateWorkspace(ctx, w); err != nil {
		t.Fatal(err)
	}
	s := &prospector.WebhookSettings{WorkspaceID: w.ID, URL: rc.URL + "/in", AutoSync: true, SigningSecret: prospector.NewWebhookSecret()}
	if err := st.CreateWebhookSettings(ctx, s); err != nil {
		t.Fatal(err)
	}
	lead := wire.NewLead(&prospector.Lead{ID: prospector.NewLeadID(), FullName: "Ada Lovelace", City: "London"})
	payload, err := json.Marshal(lead)
	if err != nil {
		t.Fatal(err)
	}
	d := &prospector.Delivery{WorkspaceID: w.ID, DestinationKind: prospector.DestinationWebhook, DestinationURL: s.URL,
		LeadID: lead.ID, Payload: payload, NextAttemptAt: time.Now().Add(-5 * time.Minute)}
	if _, err := st.AddDelivery(ctx, d); err != nil {
		t.Fatal(err)
	}
	st.Close()

	_, _, stop := startServe(t, map[string]string{"PROSPECTOR_DATA": dir, "PROSPECTOR_ALLOW_PRIVATE_WEBHOOKS": "1"})
	waitUntil(t, func() bool { mu.Lock(); defer mu.Unlock(); return len(got) > 0 })
	if err := stop(); err != nil {
		t.Fatalf("serve after cancel: %v", err)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(got) != 1 || got[0].Get("webhook-id") != d.ID {
		t.Fatalf("%d requests, webhook-id %q, want 1 with %s", len(got), got[0].Get("webhook-id"), d.ID)
	}
	if err := webhook.Verify(s.SigningSecret, got[0], bodies[0], time.Now(), 0); err != nil {
		t.Fatalf("signature: %v", err)
	}
	var env struct {
		Source string      `json:"source"`
		Leads  []wire.Lead `json:"leads"`
	}
	if err := json.Unmarshal(bodies[0], &env); err != nil || env.Source != "auto_sync" || len(env.Leads) != 1 ||
		env.Leads[0].ID != lead.ID {
		t.Fatalf("body %s", bodies[0])
	}
	st, err = sqlite.Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	after, err := st.Delivery(ctx, d.ID)
	if err != nil || after.Status != prospector.DeliveryDelivered || after.Attempts != 1 {
		t.Fatalf("delivery after serve: %+v %v", after, err)
	}
}
