package api_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/prospectorhq/prospector"
)

func TestUnknownPathAndWrongMethod(t *testing.T) {
	e := newEnv(t)
	_, key := e.workspace("routes", prospector.PlanDefault, prospector.PlanDefault)
	r := e.doUndocumented("GET", "/api/v1/no/such/thing", key)
	r.wantError(t, http.StatusNotFound, prospector.ENOTFOUND)
	wantRateHeaders(t, r)
	if r.header.Get("Content-Type") != "application/json" {
		t.Errorf("404 content type %q", r.header.Get("Content-Type"))
	}
	r = e.doUndocumented("DELETE", "/api/v1/account/key-info", key)
	msg := r.wantError(t, http.StatusNotFound, prospector.ENOTFOUND)
	if r.header.Get("Allow") != "GET" || !strings.Contains(msg, "use GET") {
		t.Errorf("wrong method: Allow %q, message %q", r.header.Get("Allow"), msg)
	}
	wantRateHeaders(t, r)
	// The budget is untouched by either.
	if r := e.do("GET", "/api/v1/account/key-info", key, nil); r.header.Get("X-Ratelimit-Remaining") != "99" {
		t.Errorf("remaining %s after unmatched requests, want 99", r.header.Get("X-Ratelimit-Remaining"))
	}
}

func TestRequestIDIsUniqueOrPropagated(t *testing.T) {
	e := newEnv(t)
	a := e.do("GET", "/api/v1/health", "", nil).header.Get("X-Request-Id")
	b := e.do("GET", "/api/v1/health", "", nil).header.Get("X-Request-Id")
	if a == "" || a == b {
		t.Fatalf("request ids %q and %q", a, b)
	}
	req := httptest.NewRequest("GET", "/api/v1/health", nil)
	req.Header.Set("X-Request-Id", "trace-abc.123")
	rec := httptest.NewRecorder()
	e.server.ServeHTTP(rec, req)
	if got := rec.Header().Get("X-Request-Id"); got != "trace-abc.123" {
		t.Errorf("caller's request id not kept: %q", got)
	}
	req.Header.Set("X-Request-Id", "bad id with spaces <script>")
	rec = httptest.NewRecorder()
	e.server.ServeHTTP(rec, req)
	if got := rec.Header().Get("X-Request-Id"); !strings.HasPrefix(got, "req_") || strings.Contains(got, " ") {
		t.Errorf("unsafe request id echoed: %q", got)
	}
}

// faultyStore injects failures into an otherwise real store.
type faultyStore struct {
	prospector.Store
	usage func() error
	ping  error
}

func (f *faultyStore) CreditUsage(ctx context.Context, id string, now time.Time) (*prospector.CreditUsage, error) {
	if err := f.usage(); err != nil {
		return nil, err
	}
	return f.Store.CreditUsage(ctx, id, now)
}

func (f *faultyStore) Ping(ctx context.Context) error {
	if f.ping != nil {
		return f.ping
	}
	return f.Store.Ping(ctx)
}

func TestInternalErrorsAndPanicsAreServiceErrors(t *testing.T) {
	base := newEnv(t)
	secret := "password=hunter2 at db.internal:5432"
	fs := &faultyStore{Store: base.store}
	e := newEnvOn(t, fs)
	_, key := e.workspace("faults", prospector.PlanDefault, prospector.PlanDefault)

	fs.usage = func() error { return errors.New(secret) }
	r := e.do("GET", "/api/v1/account/credit-usage", key, nil)
	msg := r.wantError(t, http.StatusInternalServerError, prospector.EINTERNAL)
	wantRateHeaders(t, r)
	if strings.Contains(string(r.body), "hunter2") || strings.Contains(msg, "db.internal") {
		t.Fatalf("internal error leaked: %s", r.body)
	}
	id := r.header.Get("X-Request-Id")
	if !strings.Contains(e.logs.String(), secret) || !strings.Contains(e.logs.String(), id) {
		t.Errorf("internal error not logged with its request id")
	}

	fs.usage = func() error { panic("boom: " + secret) }
	r = e.do("GET", "/api/v1/account/credit-usage", key, nil)
	r.wantError(t, http.StatusInternalServerError, prospector.EINTERNAL)
	wantRateHeaders(t, r)
	if strings.Contains(string(r.body), "boom") {
		t.Fatalf("panic text leaked: %s", r.body)
	}
	if !strings.Contains(e.logs.String(), `"msg":"panic"`) {
		t.Errorf("panic not logged")
	}
	// The server still works after the panic.
	fs.usage = func() error { return nil }
	if r := e.do("GET", "/api/v1/account/credit-usage", key, nil); r.status != 200 {
		t.Fatalf("after panic: %d", r.status)
	}
}

func TestHealth(t *testing.T) {
	base := newEnv(t)
	fs := &faultyStore{Store: base.store}
	now := time.Now()
	e := newEnvOn(t, fs, func(c *apiConfig) { c.Now = func() time.Time { return now } })
	d := e.do("GET", "/api/v1/health", "", nil).data(t)
	if d["status"] != "ok" || d["database"] != "ok" || d["version"] != "test" || d["rate_limiter"] != "local" {
		t.Errorf("health = %v", d)
	}
	wantTimestamp(t, d["time"])
	fs.ping = &net.OpError{Op: "dial", Net: "tcp", Err: errors.New("connection refused")}
	// A check serves every probe for a second.
	if d := e.do("GET", "/api/v1/health", "", nil).data(t); d["database"] != "ok" {
		t.Errorf("health within a second of a check = %v", d)
	}
	now = now.Add(time.Second)
	r := e.do("GET", "/api/v1/health", "", nil)
	r.wantError(t, http.StatusInternalServerError, prospector.EINTERNAL)
	wantRateHeaders(t, r)
	if r.header.Get("Retry-After") == "" {
		t.Error("health with the database unreachable lacks Retry-After")
	}
}

func TestRequestLogLine(t *testing.T) {
	e := newEnv(t)
	w, key := e.workspace("logs", prospector.PlanDefault, prospector.PlanDefault)
	r := e.do("GET", "/api/v1/account/key-info", key, nil)
	var line map[string]any
	for _, l := range bytes.Split(bytes.TrimSpace(e.logs.Bytes()), []byte("\n")) {
		var m map[string]any
		if json.Unmarshal(l, &m) == nil && m["msg"] == "request" {
			line = m
		}
	}
	if line == nil {
		t.Fatalf("no request log line in %s", e.logs)
	}
	want := map[string]any{"request_id": r.header.Get("X-Request-Id"), "method": "GET",
		"route": "GET /api/v1/account/key-info", "status": 200.0, "workspace": w.ID}
	for k, v := range want {
		if line[k] != v {
			t.Errorf("log %s = %v, want %v", k, line[k], v)
		}
	}
	if _, ok := line["duration_us"].(float64); !ok {
		t.Errorf("log line lacks duration_us: %v", line)
	}
	if strings.Contains(e.logs.String(), key) {
		t.Error("the API key was logged")
	}
}

func TestMetrics(t *testing.T) {
	e := newEnv(t)
	_, key := e.workspace("metrics", prospector.PlanDefault, prospector.PlanDefault)
	e.do("GET", "/api/v1/account/key-info", key, nil)
	e.do("GET", "/api/v1/account/key-info", "", nil)
	// Not on the API's listener: a JSON 404 like any unknown path.
	e.doUndocumented("GET", "/metrics", "").wantError(t, http.StatusNotFound, prospector.ENOTFOUND)
	rec := httptest.NewRecorder()
	e.server.MetricsHandler().ServeHTTP(rec, httptest.NewRequest("GET", "/metrics", nil))
	body, _ := io.ReadAll(rec.Body)
	for _, want := range []string{
		`prospector_http_requests_total{route="GET /api/v1/account/key-info",status="200"} 1`,
		`prospector_http_requests_total{route="GET /api/v1/account/key-info",status="401"} 1`,
		`prospector_http_request_duration_seconds_bucket{route="GET /api/v1/account/key-info",status="200",le="0.5"} 1`,
	} {
		if !strings.Contains(string(body), want) {
			t.Errorf("metrics lack %s", want)
		}
	}
}
