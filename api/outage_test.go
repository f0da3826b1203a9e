package api_test

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"testing"
	"time"

	"github.com/prospectorhq/prospector"
	"github.com/prospectorhq/prospector/postgres"
	"github.com/prospectorhq/prospector/postgres/pgtest"
)

// logLine returns the request log line of the request with id, or nil.
func (e *env) logLine(id string) map[string]any {
	for _, l := range bytes.Split(bytes.TrimSpace(e.logs.Bytes()), []byte("\n")) {
		var m map[string]any
		if json.Unmarshal(l, &m) == nil && m["msg"] == "request" && m["request_id"] == id {
			return m
		}
	}
	return nil
}

// With PostgreSQL reachable but frozen, writes answer 500 with
// Retry-After within the request deadline, the log says so, and nothing
// they would have written is kept once the database reads what it held.
func TestFrozenDatabaseWritesAnswerWithinTheDeadline(t *testing.T) {
	url := pgtest.FreshSchema(t)
	direct := newEnvOn(t, pgtest.Open(t, url), atFeedbackNow)
	f := newFeedbackFixture(t, direct)
	emailFixture(t, direct)
	proxy, proxied, app := pgtest.Proxied(t, url)
	st, err := postgres.OpenWith(context.Background(), proxied, postgres.Options{StatementTimeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	e := newEnvOn(t, st, atFeedbackNow, func(c *apiConfig) { c.RequestTimeout = 500 * time.Millisecond })
	// Before the freeze: an event and a charged lookup.
	e.do("POST", eventsPath, f.key, map[string]any{"lead_id": f.leads[0].ID, "event_type": "reply"}).data(t)
	e.do("POST", enrichPath, f.key, map[string]any{"name": "Zed Madeup", "company": "lumen.example"}).emailAnswer(t)

	proxy.Freeze()
	defer proxy.Thaw() // before st.Close, should the test fail while frozen
	writes := []struct {
		path string
		body map[string]any
	}{
		{eventsPath, map[string]any{"lead_id": f.leads[1].ID, "event_type": "reply"}},
		{enrichPath, map[string]any{"name": "Yan Fiction", "company": "lumen.example"}},
	}
	answers := make(chan response, len(writes))
	for _, w := range writes {
		go func() { answers <- e.send("POST", w.path, f.key, w.body, false, nil) }()
	}
	var got []response
	for range writes {
		select {
		case r := <-answers:
			got = append(got, r)
		case <-time.After(10 * time.Second):
			t.Fatal("a write got no answer while the database was frozen")
		}
	}
	for _, r := range got {
		r.wantError(t, http.StatusInternalServerError, prospector.EINTERNAL)
		if r.header.Get("Retry-After") == "" {
			t.Errorf("a timed-out write lacks Retry-After: %v", r.header)
		}
		line := e.logLine(r.header.Get("X-Request-Id"))
		if line == nil || line["status"] != 500.0 || line["timed_out"] != true {
			t.Errorf("log line %v, want status 500 and timed_out", line)
		}
	}

	proxy.Thaw()
	st.Close()
	pgtest.Drained(t, app)
	ctx := context.Background()
	if evs, err := direct.store.FeedbackEvents(ctx, f.w.ID, f.leads[1].ID); err != nil || len(evs) != 0 {
		t.Errorf("%d events kept of a write answered 500 (%v)", len(evs), err)
	}
	if used := creditsUsed(t, direct, f.w); used != 1 {
		t.Errorf("%d credits used, want only the lookup answered before the freeze", used)
	}
}

// Once the key cache's entry lapses during a database outage, known keys
// keep working on the endpoints that answer from memory for the grace;
// what needs the database answers 500 with Retry-After and the key's own
// rate-limit headers; a revocation applies once the database answers.
func TestDatabaseOutageKeepsKnownKeysServing(t *testing.T) {
	url := pgtest.FreshSchema(t)
	direct := pgtest.Open(t, url)
	proxy, proxied, _ := pgtest.Proxied(t, url)
	st, err := postgres.Open(context.Background(), proxied)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	now := time.Now()
	e := newEnvOn(t, st, func(c *apiConfig) {
		c.KeyCacheTTL, c.KeyCacheGrace, c.Now = 5*time.Second, time.Minute, func() time.Time { return now }
	})
	w, key := e.workspace("outage", prospector.PlanGrowth, prospector.PlanGrowth)
	e.sync()
	search := func(key string) response {
		return e.do("POST", "/api/v1/search/people", key, map[string]any{"titles": []string{"VP Sales"}})
	}
	wantOutage := func(r response) {
		t.Helper()
		r.wantError(t, http.StatusInternalServerError, prospector.EINTERNAL)
		if r.header.Get("Retry-After") == "" || r.header.Get("X-Ratelimit-Limit") != "1000" {
			t.Errorf("an outage error with Retry-After %q and x-ratelimit-limit %q, want one and the growth tier's 1000",
				r.header.Get("Retry-After"), r.header.Get("X-Ratelimit-Limit"))
		}
	}
	search(key).data(t)

	proxy.Cut()
	now = now.Add(6 * time.Second) // past the TTL
	if r := search(key); r.status != http.StatusOK || r.header.Get("X-Ratelimit-Limit") != "1000" {
		t.Fatalf("search from memory during the outage: %d %s (limit %s)", r.status, r.body, r.header.Get("X-Ratelimit-Limit"))
	}
	wantOutage(e.do("GET", "/api/v1/account/credit-usage", key, nil))

	// Revoked while this node cannot read the database: it learns at the
	// first read that succeeds.
	keys, err := direct.ListAPIKeys(context.Background(), w.ID)
	if err != nil {
		t.Fatal(err)
	}
	if err := direct.RevokeAPIKey(context.Background(), keys[0].ID, now); err != nil {
		t.Fatal(err)
	}
	proxy.Restore()
	now = now.Add(2 * time.Second) // past the retry period
	search(key).wantError(t, http.StatusUnauthorized, prospector.EUNAUTHORIZED)

	// Past the grace, a known key is refused with the outage's error.
	other := e.key(w, prospector.PlanGrowth, nil)
	search(other).data(t)
	proxy.Cut()
	now = now.Add(5*time.Second + time.Minute + time.Second)
	wantOutage(search(other))
}
