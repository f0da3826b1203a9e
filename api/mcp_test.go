package api_test

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/prospectorhq/prospector"
)

// POST /mcp is authenticated like every endpoint, and takes the key as a
// bearer token too; the REST endpoints do not.
func TestMCPRouteAuthentication(t *testing.T) {
	e := newEnv(t)
	_, key := e.workspace("agents", prospector.PlanGrowth, prospector.PlanGrowth)
	send := func(method, path string, header map[string]string) response {
		req := httptest.NewRequest(method, path, strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`))
		req.Header.Set("Content-Type", "application/json")
		for k, v := range header {
			req.Header.Set(k, v)
		}
		rec := httptest.NewRecorder()
		e.server.ServeHTTP(rec, req)
		return response{status: rec.Code, header: rec.Header(), body: rec.Body.Bytes()}
	}
	r := send("POST", "/mcp", nil)
	if msg := r.wantError(t, http.StatusUnauthorized, prospector.EUNAUTHORIZED); msg !=
		"Missing API key: send it in the X-Service-API-Key header or as Authorization: Bearer." ||
		r.header.Get("WWW-Authenticate") != `Bearer realm="prospector"` {
		t.Fatalf("no key: %q, WWW-Authenticate %q", msg, r.header.Get("WWW-Authenticate"))
	}
	r = send("POST", "/mcp", map[string]string{"Authorization": "Bearer psk_wrong"})
	r.wantError(t, http.StatusUnauthorized, prospector.EUNAUTHORIZED)
	// A known key reaches the route (this server has no MCP handler).
	for _, h := range []map[string]string{{"Authorization": "Bearer " + key}, {"Authorization": "bearer  " + key},
		{prospector.KeyHeader: key, "Authorization": "Bearer psk_wrong"}} {
		r = send("POST", "/mcp", h)
		if msg := r.wantError(t, http.StatusNotFound, prospector.ENOTFOUND); msg != "This server does not serve MCP." ||
			r.header.Get("WWW-Authenticate") != "" || r.header.Get("X-Ratelimit-Remaining") == "" {
			t.Fatalf("%v: %q %v", h, msg, r.header)
		}
	}
	// REST takes the key header only.
	r = send("GET", "/api/v1/account/key-info", map[string]string{"Authorization": "Bearer " + key})
	if msg := r.wantError(t, http.StatusUnauthorized, prospector.EUNAUTHORIZED); msg != "Missing API key: send it in the X-Service-API-Key header." ||
		r.header.Get("WWW-Authenticate") != "" {
		t.Fatalf("REST with a bearer token: %q", msg)
	}
	if r := e.doUndocumented("GET", "/mcp", key); r.status != http.StatusNotFound || r.header.Get("Allow") != "POST" {
		t.Fatalf("GET /mcp: %d, Allow %q", r.status, r.header.Get("Allow"))
	}
}
