package api_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/prospectorhq/prospector"
	"github.com/prospectorhq/prospector/api"
	"github.com/prospectorhq/prospector/email"
	"github.com/prospectorhq/prospector/ratelimit"
	"github.com/prospectorhq/prospector/search"
	"github.com/prospectorhq/prospector/sqlite"
	"github.com/prospectorhq/prospector/webhook"
	"github.com/prospectorhq/prospector/workflows"
)

// env is one API server on a temp-dir SQLite store.
type env struct {
	t      *testing.T
	store  prospector.Store
	server *api.Server
	logs   *bytes.Buffer
	index  *search.Index
}

type option func(*apiConfig)

func newEnv(t *testing.T, opts ...option) *env {
	t.Helper()
	st, err := sqlite.Open(context.Background(), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return newEnvOn(t, st, opts...)
}

func newEnvOn(t *testing.T, st prospector.Store, opts ...option) *env {
	t.Helper()
	logs := &bytes.Buffer{}
	ix := search.New(st)
	cfg := apiConfig{
		Config: api.Config{
			Logger:      slog.New(slog.NewJSONHandler(logs, nil)),
			Limiter:     ratelimit.NewMemory(),
			KeyCacheTTL: time.Minute,
			Version:     "test",
		},
		Store:     st,
		Searcher:  ix,
		CursorKey: []byte("test cursor key"),
		// SMTP probing is off, as on a fresh install: answers rest on
		// the address patterns of the stored people.
		Emails: email.New(email.Config{Resolver: mxResolver{}, People: st}),
	}
	for _, o := range opts {
		o(&cfg)
	}
	cfg.Config.Store = cfg.Store
	cfg.Workflows = workflows.New(workflows.Parts{Store: cfg.Store, Index: cfg.Searcher, CursorKey: cfg.CursorKey,
		Emails: cfg.Emails, Webhooks: cfg.Webhooks, Now: cfg.Now, Logger: api.WorkflowLogger(cfg.Logger)})
	return &env{t: t, store: st, server: api.NewServer(cfg.Config), logs: logs, index: cfg.Searcher}
}

// sync brings the search index up to date with the store.
func (e *env) sync() {
	e.t.Helper()
	if _, err := e.index.Sync(context.Background()); err != nil {
		e.t.Fatal(err)
	}
}

// workspace creates a workspace on plan and a key of tier; it returns the
// workspace and the key's secret.
func (e *env) workspace(name, plan, tier string, edit ...func(*prospector.Workspace)) (*prospector.Workspace, string) {
	e.t.Helper()
	w := prospector.NewWorkspace(name, plan)
	w.Email = name + "@example.test"
	for _, f := range edit {
		f(w)
	}
	if err := e.store.CreateWorkspace(context.Background(), w); err != nil {
		e.t.Fatal(err)
	}
	return w, e.key(w, tier, nil)
}

func (e *env) key(w *prospector.Workspace, tier string, expires *time.Time) string {
	e.t.Helper()
	k, secret := prospector.NewAPIKey(w.ID, tier, expires)
	if err := e.store.CreateAPIKey(context.Background(), k); err != nil {
		e.t.Fatal(err)
	}
	return secret
}

type response struct {
	status int
	header http.Header
	body   []byte
}

// do sends one request through the server and checks the response
// against the OpenAPI document.
func (e *env) do(method, path, key string, body any) response {
	e.t.Helper()
	return e.send(method, path, key, body, true, nil)
}

// doHeader is do with extra request headers.
func (e *env) doHeader(method, path, key string, body any, header map[string]string) response {
	e.t.Helper()
	return e.send(method, path, key, body, true, header)
}

// doUndocumented is do for requests the document has no operation for
// (unknown paths, wrong methods): there is nothing to validate against.
func (e *env) doUndocumented(method, path, key string) response {
	e.t.Helper()
	return e.send(method, path, key, nil, false, nil)
}

func (e *env) send(method, path, key string, body any, validate bool, header map[string]string) response {
	e.t.Helper()
	var rd io.Reader
	if body != nil {
		b, _ := json.Marshal(body)
		rd = bytes.NewReader(b)
	}
	req := httptest.NewRequest(method, path, rd)
	if key != "" {
		req.Header.Set(prospector.KeyHeader, key)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	for k, v := range header {
		req.Header.Set(k, v)
	}
	rec := httptest.NewRecorder()
	e.server.ServeHTTP(rec, req)
	res := response{status: rec.Code, header: rec.Header(), body: rec.Body.Bytes()}
	if validate {
		validateAgainstOpenAPI(e.t, req, res.status, res.header, res.body)
	}
	return res
}

// data decodes a 200 envelope's data member into a generic map.
func (r response) data(t *testing.T) map[string]any {
	t.Helper()
	if r.status != http.StatusOK {
		t.Fatalf("status %d, want 200: %s", r.status, r.body)
	}
	var env map[string]any
	if err := json.Unmarshal(r.body, &env); err != nil {
		t.Fatalf("body is not JSON: %v: %s", err, r.body)
	}
	if len(env) != 1 {
		t.Fatalf("envelope has members other than data: %s", r.body)
	}
	d, ok := env["data"].(map[string]any)
	if !ok {
		t.Fatalf("data is not an object: %s", r.body)
	}
	return d
}

// wantError checks status, code (a prospector.Code or its string) and
// the exact envelope shape.
func (r response) wantError(t *testing.T, status int, code any) string {
	t.Helper()
	if r.status != status {
		t.Fatalf("status %d, want %d: %s", r.status, status, r.body)
	}
	var env struct {
		Error map[string]any `json:"error"`
	}
	dec := json.NewDecoder(bytes.NewReader(r.body))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&env); err != nil {
		t.Fatalf("error envelope: %v: %s", err, r.body)
	}
	if env.Error["code"] != fmt.Sprint(code) || len(env.Error) != 2 {
		t.Fatalf("error %v, want code %s and only code and message", env.Error, code)
	}
	msg, _ := env.Error["message"].(string)
	if msg == "" {
		t.Fatalf("empty error message: %s", r.body)
	}
	return msg
}

func wantRateHeaders(t *testing.T, r response) {
	t.Helper()
	for _, h := range []string{"X-Request-Id", "X-Ratelimit-Limit", "X-Ratelimit-Remaining", "X-Ratelimit-Reset"} {
		if r.header.Get(h) == "" {
			t.Errorf("response %d lacks header %s", r.status, h)
		}
	}
}

// apiConfig is a server's configuration and the parts its workflows are
// built from, which options may change before newEnvOn builds them.
type apiConfig struct {
	api.Config
	// Store is the whole store the workflows are built on; the server
	// itself gets it as its narrower api.Store.
	Store     prospector.Store
	Searcher  *search.Index
	CursorKey []byte
	Emails    prospector.EmailFinder
	Webhooks  *webhook.Client
}

func mustJSON(v any) []byte {
	b, _ := json.Marshal(v)
	return b
}

// mxResolver is the stub DNS of the API tests: every domain has one mail
// exchanger, except domains under nomail.example, which do not exist.
type mxResolver struct{ host string }

func (r mxResolver) LookupMX(_ context.Context, name string) ([]*net.MX, error) {
	if strings.HasSuffix(name, "nomail.example") {
		return nil, &net.DNSError{Err: "no such host", Name: name, IsNotFound: true}
	}
	host := r.host
	if host == "" {
		host = "mx." + name + "."
	}
	return []*net.MX{{Host: host, Pref: 10}}, nil
}
