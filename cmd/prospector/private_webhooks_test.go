package main

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/prospectorhq/prospector"
	"github.com/prospectorhq/prospector/webhook"
	"github.com/prospectorhq/prospector/wire"
)

// Two nodes share one store and its job queue; one was started with
// --allow-private-webhooks, the other without. Every delivery to a
// receiver on a private address goes out whichever node claims it, also
// once only the node started without the flag is left; after
// 'integrations private-webhooks --deny' every node refuses them alike.
func TestMixedNodesAgreeOnPrivateWebhooks(t *testing.T) {
	t.Run("SQLite", func(t *testing.T) {
		testMixedNodes(t, map[string]string{"PROSPECTOR_DATA": t.TempDir()})
	})
	t.Run("PostgreSQL", func(t *testing.T) {
		url := os.Getenv("TEST_DATABASE_URL")
		if url == "" {
			t.Skip("TEST_DATABASE_URL not set: skipping PostgreSQL tests")
		}
		testMixedNodes(t, map[string]string{"PROSPECTOR_DATABASE_URL": freshSchema(t, url), "PROSPECTOR_DATA": t.TempDir()})
	})
}

func testMixedNodes(t *testing.T, vars map[string]string) {
	var (
		mu  sync.Mutex
		got = map[string]int{} // webhook-id -> requests
	)
	rc := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		got[r.Header.Get("webhook-id")]++
		mu.Unlock()
		w.WriteHeader(http.StatusNoContent)
	}))
	defer rc.Close()
	ctx := context.Background()
	e := &env{getenv: func(k string) string { return vars[k] }}
	st, err := storeOptions{}.open(ctx, e)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	w := prospector.NewWorkspace("mixed", prospector.PlanGrowth)
	if err := st.CreateWorkspace(ctx, w); err != nil {
		t.Fatal(err)
	}
	s := &prospector.WebhookSettings{WorkspaceID: w.ID, URL: rc.URL + "/in", AutoSync: true, SigningSecret: prospector.NewWebhookSecret()}
	if err := st.CreateWebhookSettings(ctx, s); err != nil {
		t.Fatal(err)
	}
	// Deliveries are queued as a radar batch queues them; the nodes' job
	// runners share them out.
	outbox := &webhook.Outbox{Store: st, Enqueue: st.EnqueueJob}
	queue := func(n int, tag string) []*prospector.Delivery {
		t.Helper()
		entries := make([]wire.Lead, n)
		for i := range entries {
			entries[i] = wire.NewLead(&prospector.Lead{ID: prospector.NewLeadID(), FullName: fmt.Sprintf("Lead %s%d", tag, i)})
		}
		ds, err := outbox.Queue(ctx, w.ID, entries)
		if err != nil || len(ds) != n {
			t.Fatalf("queued %d deliveries: %v", len(ds), err)
		}
		return ds
	}
	// settled waits for every delivery of ds to finish and returns them.
	settled := func(ds []*prospector.Delivery) []*prospector.Delivery {
		t.Helper()
		out := make([]*prospector.Delivery, len(ds))
		waitUntil(t, func() bool {
			for i, d := range ds {
				cur, err := st.Delivery(ctx, d.ID)
				if err != nil {
					t.Fatal(err)
				}
				if cur.Status == prospector.DeliveryPending {
					return false
				}
				out[i] = cur
			}
			return true
		})
		return out
	}
	delivered := func(phase string, ds []*prospector.Delivery) {
		t.Helper()
		for _, d := range settled(ds) {
			mu.Lock()
			hits := got[d.ID]
			mu.Unlock()
			if d.Status != prospector.DeliveryDelivered || hits != 1 {
				t.Errorf("%s: delivery %s is %s after %d requests (%s), want delivered once", phase, d.ID, d.Status, hits, d.LastError)
			}
		}
	}

	_, _, stopA := startServe(t, vars, "--allow-private-webhooks")
	_, _, stopB := startServe(t, vars)
	defer stopB()
	delivered("both nodes", queue(12, "a"))
	if err := stopA(); err != nil {
		t.Fatal(err)
	}
	delivered("only the node started without the flag", queue(6, "b"))

	if out, _, err := cli(t, vars, "integrations", "private-webhooks", "--deny"); err != nil || !strings.Contains(out, "denied") {
		t.Fatalf("private-webhooks --deny: %q, %v", out, err)
	}
	for _, d := range settled(queue(4, "c")) {
		mu.Lock()
		hits := got[d.ID]
		mu.Unlock()
		if d.Status != prospector.DeliveryDead || hits != 0 || !strings.Contains(d.LastError, "refused") {
			t.Errorf("after --deny: delivery %s is %s after %d requests (%s), want dead, refused", d.ID, d.Status, hits, d.LastError)
		}
	}
}
