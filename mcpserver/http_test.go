package mcpserver_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/prospectorhq/prospector"
	"github.com/prospectorhq/prospector/api"
	"github.com/prospectorhq/prospector/mcpserver"
	"github.com/prospectorhq/prospector/ratelimit"
)

// headerTransport adds headers to every request, as an MCP client
// configured with them does.
type headerTransport struct{ header http.Header }

func (h headerTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	for k, v := range h.header {
		r.Header[k] = v
	}
	return http.DefaultTransport.RoundTrip(r)
}

// connectHTTP connects an SDK client to base/mcp sending header.
func connectHTTP(t *testing.T, base string, header http.Header) (*mcp.ClientSession, error) {
	t.Helper()
	tr := &mcp.StreamableClientTransport{Endpoint: base + "/mcp", MaxRetries: -1,
		HTTPClient: &http.Client{Transport: headerTransport{header}, Timeout: 10 * time.Second}}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil).Connect(context.Background(), tr, nil)
	if err == nil {
		t.Cleanup(func() { cs.Close() })
	}
	return cs, err
}

func keyHeader(key string) http.Header { return http.Header{prospector.KeyHeader: {key}} }

func bearerHeader(key string) http.Header { return http.Header{"Authorization": {"Bearer " + key}} }

func TestHTTPTransport(t *testing.T) {
	f := newFixture(t)
	srv := httptest.NewServer(f.api)
	t.Cleanup(srv.Close)

	// Refused: no key, a bad key, as a header or a bearer token.
	for name, h := range map[string]http.Header{"none": {}, "bad key": keyHeader("psk_notakey"),
		"bad bearer": bearerHeader("psk_notakey")} {
		if _, err := connectHTTP(t, srv.URL, h); err == nil {
			t.Errorf("%s: connected", name)
		}
	}
	req, _ := http.NewRequest("POST", srv.URL+"/mcp", strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer psk_notakey")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	var env struct {
		Error struct{ Code, Message string } `json:"error"`
	}
	json.NewDecoder(res.Body).Decode(&env)
	res.Body.Close()
	if res.StatusCode != http.StatusUnauthorized || env.Error.Code != "unauthorized" ||
		res.Header.Get("WWW-Authenticate") != `Bearer realm="prospector"` {
		t.Fatalf("bad bearer: %d %+v, WWW-Authenticate %q", res.StatusCode, env, res.Header.Get("WWW-Authenticate"))
	}

	// Accepted, both ways; the tools act in the key's workspace.
	other, otherKey := f.workspace("other")
	for name, h := range map[string]http.Header{"key header": keyHeader(f.key), "bearer": bearerHeader(f.key),
		"other workspace": keyHeader(otherKey)} {
		cs, err := connectHTTP(t, srv.URL, h)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if n := len(listTools(t, cs)); n != len(allTools) {
			t.Fatalf("%s: %d tools", name, n)
		}
		want := f.ws.ID
		if name == "other workspace" {
			want = other.ID
		}
		if got := ok(t, cs, "account_credit_usage", map[string]any{})["workspace"].(map[string]any)["id"]; got != want {
			t.Errorf("%s: credit usage of workspace %v, want %v", name, got, want)
		}
	}
	// Workspace isolation: another workspace's radar is unknown.
	mine, _ := connectHTTP(t, srv.URL, keyHeader(f.key))
	id := ok(t, mine, "radar_create", map[string]any{"titles": []string{"VP Sales"}})["radar_id"].(string)
	theirs, _ := connectHTTP(t, srv.URL, keyHeader(otherKey))
	r := call(t, theirs, "radar_get", map[string]any{"id": id})
	if !r.IsError || text(r) != "radar "+id+" not found" {
		t.Fatalf("another workspace's radar: %s", text(r))
	}

	// A workspace without public API access is 404, as on REST.
	closed, closedKey := f.workspace("closed")
	closed.PublicAPI = false
	if _, err := f.store.UpdateWorkspace(context.Background(), closed, prospector.TierMove{}); err != nil {
		t.Fatal(err)
	}
	if _, err := connectHTTP(t, srv.URL, keyHeader(closedKey)); err == nil {
		t.Error("a workspace without public API access connected")
	}
}

// TestHTTPSharesTheRateLimit: a key's MCP messages and REST requests
// spend one budget.
func TestHTTPSharesTheRateLimit(t *testing.T) {
	f := newFixture(t)
	rates, err := prospector.ParseTierRates("growth=8/m")
	if err != nil {
		t.Fatal(err)
	}
	h := api.NewServer(api.Config{Store: f.store, Workflows: f.flows, Limiter: ratelimit.NewMemory(), TierRates: rates,
		KeyCacheTTL: time.Minute, MCP: mcpserver.NewHandler(f.mcp, nil)})
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	restRemaining := func() (int, string) {
		req, _ := http.NewRequest("GET", srv.URL+"/api/v1/account/credit-usage", nil)
		req.Header.Set(prospector.KeyHeader, f.key)
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		return res.StatusCode, res.Header.Get("X-Ratelimit-Remaining")
	}
	if status, left := restRemaining(); status != 200 || left != "7" {
		t.Fatalf("first REST request: %d, %s left", status, left)
	}
	cs, err := connectHTTP(t, srv.URL, keyHeader(f.key))
	if err != nil {
		t.Fatal(err)
	}
	ok(t, cs, "meta_field_values", map[string]any{})
	// The second REST request alone would leave 6: each MCP message
	// (initialize, the call) took one unit of the same budget.
	if _, left := restRemaining(); left != "4" {
		t.Fatalf("after an MCP session of 2 messages, REST has %s left, want 4: MCP and REST do not share the budget", left)
	}
	for {
		status, _ := restRemaining()
		if status == http.StatusTooManyRequests {
			break
		}
	}
	if _, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "meta_field_values", Arguments: map[string]any{}}); err == nil ||
		!strings.Contains(err.Error(), "429") && !strings.Contains(strings.ToLower(err.Error()), "too many") {
		t.Fatalf("MCP after REST spent the budget: %v", err)
	}
}

// TestBridge: the stdio bridge offers the server's tools and answers, and
// a call the server cannot answer is a tool error saying why.
func TestBridge(t *testing.T) {
	f := newFixture(t)
	srv := httptest.NewServer(f.api)
	remote, err := connectHTTP(t, srv.URL, keyHeader(f.key))
	if err != nil {
		t.Fatal(err)
	}
	local, err := mcpserver.Bridge(context.Background(), remote, "test", nil)
	if err != nil {
		t.Fatal(err)
	}
	ct, st := mcp.NewInMemoryTransports()
	if _, err := local.Connect(context.Background(), st, nil); err != nil {
		t.Fatal(err)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "agent", Version: "1"}, nil).Connect(context.Background(), ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	tools := listTools(t, cs)
	if len(tools) != len(allTools) || !tools["search_people"].Annotations.ReadOnlyHint {
		t.Fatalf("bridged tools: %d, %+v", len(tools), tools["search_people"])
	}
	if got := ok(t, cs, "account_credit_usage", map[string]any{})["workspace"].(map[string]any)["id"]; got != f.ws.ID {
		t.Fatalf("bridged call acted in workspace %v", got)
	}
	r := call(t, cs, "radar_get", map[string]any{"id": "r_1"})
	if !r.IsError || !strings.HasPrefix(text(r), `id: "r_1" is not a radar id`) {
		t.Fatalf("bridged tool error: %s", text(r))
	}
	srv.Close()
	r = call(t, cs, "meta_field_values", map[string]any{})
	if !r.IsError || !strings.HasPrefix(text(r), "The Prospector server did not answer: ") {
		t.Fatalf("server gone: %+v %s", r, text(r))
	}
}

// TestHTTPBareCall: the documented curl call, a tools/call alone with no
// initialize, is answered in JSON.
func TestHTTPBareCall(t *testing.T) {
	f := newFixture(t)
	srv := httptest.NewServer(f.api)
	t.Cleanup(srv.Close)
	req, _ := http.NewRequest("POST", srv.URL+"/mcp", strings.NewReader(
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"meta_field_values","arguments":{}}}`))
	req.Header.Set("Authorization", "Bearer "+f.key)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var out struct {
		Result struct {
			IsError           bool           `json:"isError"`
			StructuredContent map[string]any `json:"structuredContent"`
		} `json:"result"`
	}
	if err := json.NewDecoder(res.Body).Decode(&out); err != nil || res.StatusCode != 200 ||
		!strings.HasPrefix(res.Header.Get("Content-Type"), "application/json") || out.Result.IsError ||
		out.Result.StructuredContent["job_levels"] == nil || res.Header.Get("X-Ratelimit-Remaining") == "" {
		t.Fatalf("bare call: %d %v %+v %v", res.StatusCode, err, out, res.Header)
	}
}
