package mcpserver_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/prospectorhq/prospector"
	"github.com/prospectorhq/prospector/api"
	"github.com/prospectorhq/prospector/demo"
	"github.com/prospectorhq/prospector/email"
	"github.com/prospectorhq/prospector/importer"
	"github.com/prospectorhq/prospector/mcpserver"
	"github.com/prospectorhq/prospector/radar"
	"github.com/prospectorhq/prospector/ratelimit"
	"github.com/prospectorhq/prospector/search"
	"github.com/prospectorhq/prospector/sqlite"
	"github.com/prospectorhq/prospector/webhook"
	"github.com/prospectorhq/prospector/workflows"
)

// fixture is a store with a small demo dataset, a workspace and its key,
// the workflows, the API server on them and an MCP server on the same
// workflows.
type fixture struct {
	t      *testing.T
	store  prospector.Store
	index  *search.Index
	flows  *workflows.Services
	api    *api.Server
	mcp    *mcp.Server
	ws     *prospector.Workspace
	key    string
	people []*prospector.Person
	hooks  *hookSink
}

// noMX is the DNS of the tests: no domain has mail servers, so only the
// demo's synthetic domains get addresses.
type noMX struct{}

func (noMX) LookupMX(_ context.Context, name string) ([]*net.MX, error) {
	return nil, &net.DNSError{Err: "no such host", Name: name, IsNotFound: true}
}

func newFixture(t *testing.T) *fixture {
	t.Helper()
	ctx := context.Background()
	st, err := sqlite.Open(ctx, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	sink := &importer.StoreSink{Store: st}
	if err := demo.Generate(ctx, demo.Config{Companies: 12, People: 240, Seed: 7, Now: time.Now()}, sink, nil); err != nil {
		t.Fatal(err)
	}
	if err := sink.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	sink.Close()
	f := &fixture{t: t, store: st, index: search.New(st), hooks: newHookSink(t)}
	if _, err := f.index.Sync(ctx); err != nil {
		t.Fatal(err)
	}
	f.people, err = st.ListPeople(ctx, 0, 1000)
	if err != nil {
		t.Fatal(err)
	}
	f.ws, f.key = f.workspace("agents")
	f.flows = workflows.New(workflows.Parts{Store: st, Index: f.index, CursorKey: []byte("test cursor key"),
		Emails:   email.New(email.Config{Resolver: noMX{}, People: st, Outcomes: st, Synthetic: demo.IsCompanyDomain}),
		Webhooks: webhook.NewClient(webhook.Config{AllowPrivate: true, Timeout: 5 * time.Second})})
	f.mcp, err = mcpserver.New(mcpserver.Config{Workflows: f.flows, Document: api.OpenAPIDocument(), Version: "test"})
	if err != nil {
		t.Fatal(err)
	}
	f.api = api.NewServer(api.Config{Store: st, Workflows: f.flows, Limiter: ratelimit.NewMemory(), KeyCacheTTL: time.Minute,
		MCP: mcpserver.NewHandler(f.mcp, nil)})
	return f
}

// workspace creates a growth workspace and its key.
func (f *fixture) workspace(name string) (*prospector.Workspace, string) {
	f.t.Helper()
	w := prospector.NewWorkspace(name, prospector.PlanGrowth)
	w.Email = name + "@example.test"
	if err := f.store.CreateWorkspace(context.Background(), w); err != nil {
		f.t.Fatal(err)
	}
	k, secret := prospector.NewAPIKey(w.ID, prospector.PlanGrowth, nil)
	if err := f.store.CreateAPIKey(context.Background(), k); err != nil {
		f.t.Fatal(err)
	}
	return w, secret
}

// principal reads the caller of a key as the API resolves it.
func (f *fixture) principal(key string) *prospector.Principal {
	f.t.Helper()
	p, err := f.store.PrincipalByKeyHash(context.Background(), prospector.HashKey(key))
	if err != nil {
		f.t.Fatal(err)
	}
	return p
}

// session connects an SDK client to the MCP server over an in-memory
// transport, acting as the key's caller.
func (f *fixture) session(key string) *mcp.ClientSession {
	f.t.Helper()
	ctx := context.Background()
	ct, st := mcp.NewInMemoryTransports()
	ss, err := f.mcp.Connect(mcpserver.WithPrincipal(ctx, f.principal(key)), st, nil)
	if err != nil {
		f.t.Fatal(err)
	}
	f.t.Cleanup(func() { ss.Close() })
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		f.t.Fatal(err)
	}
	f.t.Cleanup(func() { cs.Close() })
	return cs
}

// call calls a tool and returns its result.
func call(t *testing.T, cs *mcp.ClientSession, name string, args any) *mcp.CallToolResult {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return res
}

// ok calls a tool that must succeed and returns its structured content.
func ok(t *testing.T, cs *mcp.ClientSession, name string, args any) map[string]any {
	t.Helper()
	res := call(t, cs, name, args)
	if res.IsError {
		t.Fatalf("%s(%v): tool error %s", name, args, text(res))
	}
	var out map[string]any
	b, _ := json.Marshal(res.StructuredContent)
	if err := json.Unmarshal(b, &out); err != nil || out == nil {
		t.Fatalf("%s: structured content is not an object: %s", name, b)
	}
	if text(res) == "" {
		t.Fatalf("%s: no text content", name)
	}
	return out
}

// text is a result's text content.
func text(res *mcp.CallToolResult) string {
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String()
}

// rest sends the API request a tool mirrors and returns its status and
// envelope: the tool's arguments become the path id, the query string
// or the body, and idempotency_key the header.
func (f *fixture) rest(key, op string, args map[string]any) (int, map[string]any) {
	f.t.Helper()
	method, path, _ := strings.Cut(op, " ")
	body := map[string]any{}
	q := url.Values{}
	header := http.Header{}
	for k, v := range args {
		switch {
		case k == "id" && strings.Contains(path, "{id}"):
			path = strings.Replace(path, "{id}", url.PathEscape(v.(string)), 1)
		case k == "idempotency_key":
			header.Set("Idempotency-Key", v.(string))
		case method == http.MethodGet:
			q.Set(k, v.(string))
		default:
			body[k] = v
		}
	}
	var rd io.Reader
	if method != http.MethodGet && method != http.MethodDelete {
		b, _ := json.Marshal(body)
		rd = bytes.NewReader(b)
		header.Set("Content-Type", "application/json")
	}
	if len(q) > 0 {
		path += "?" + q.Encode()
	}
	req := httptest.NewRequest(method, path, rd)
	req.Header = header
	req.Header.Set(prospector.KeyHeader, key)
	rec := httptest.NewRecorder()
	f.api.ServeHTTP(rec, req)
	var env map[string]any
	if err := json.Unmarshal(rec.Body.Bytes(), &env); err != nil {
		f.t.Fatalf("%s: %v: %s", op, err, rec.Body)
	}
	return rec.Code, env
}

// backfill runs the backfill of every queued radar.
func (f *fixture) backfill() {
	f.t.Helper()
	ctx := context.Background()
	eng := &radar.Engine{Store: f.store, Searcher: f.index, Logger: slog.New(slog.DiscardHandler)}
	for {
		js, err := f.store.ClaimJobs(ctx, "test", []string{prospector.JobRadarBackfill}, 10, time.Minute, time.Now())
		if err != nil {
			f.t.Fatal(err)
		}
		if len(js) == 0 {
			return
		}
		for _, j := range js {
			if err := eng.Backfill(ctx, j); err != nil {
				f.t.Fatal(err)
			}
			if err := f.store.CompleteJob(ctx, j.ID, j.LeaseToken); err != nil {
				f.t.Fatal(err)
			}
		}
	}
}

// hookSink is a webhook destination that records what it receives.
type hookSink struct {
	*httptest.Server
	mu     sync.Mutex
	bodies [][]byte
}

func newHookSink(t *testing.T) *hookSink {
	h := &hookSink{}
	h.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		h.mu.Lock()
		h.bodies = append(h.bodies, b)
		h.mu.Unlock()
		w.WriteHeader(http.StatusOK)
	}))
	t.Cleanup(h.Close)
	return h
}

func (h *hookSink) received() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return len(h.bodies)
}
