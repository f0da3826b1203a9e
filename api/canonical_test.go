package api_test

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/prospectorhq/prospector"
)

// TestNonCanonicalPaths: a path with an empty, . or .. segment is a JSON
// 404 with the envelope and the usual headers, naming the canonical path;
// ServeMux used to answer 307 with an HTML body (and mangle an unescaped
// profile URL in signals/company/{id}). The key's budget is not spent.
func TestNonCanonicalPaths(t *testing.T) {
	e := newEnv(t)
	_, key := e.workspace("paths", prospector.PlanDefault, prospector.PlanDefault)
	for _, tc := range []struct{ method, path, hint string }{
		{"GET", "/api/v1//account/key-info", "did you mean /api/v1/account/key-info?"},
		{"GET", "/api/v1/./account/key-info", "did you mean /api/v1/account/key-info?"},
		{"GET", "/api/v1/meta/../account/key-info", "did you mean /api/v1/account/key-info?"},
		{"GET", "/api/v1/account/key-info/.", "did you mean /api/v1/account/key-info?"},
		{"GET", "//api/v1/health", "did you mean /api/v1/health?"},
		{"POST", "/api/v1/search//companies", "did you mean /api/v1/search/companies?"},
		{"GET", "/api/v1/signals/company/https://network.example/company/acme", "percent-encoded as one path segment"},
		{"GET", "//metrics", "did you mean /metrics?"},
	} {
		t.Run(tc.method+" "+tc.path, func(t *testing.T) {
			req := httptest.NewRequest(tc.method, tc.path, strings.NewReader(`{}`))
			req.Header.Set(prospector.KeyHeader, key)
			req.Header.Set("Content-Type", "application/json")
			rec := httptest.NewRecorder()
			e.server.ServeHTTP(rec, req)
			r := response{status: rec.Code, header: rec.Header(), body: rec.Body.Bytes()}
			msg := r.wantError(t, http.StatusNotFound, prospector.ENOTFOUND)
			if !strings.Contains(msg, "no such endpoint: "+tc.method+" "+tc.path) || !strings.Contains(msg, tc.hint) {
				t.Errorf("message %q, want it to name the path and %q", msg, tc.hint)
			}
			if ct := r.header.Get("Content-Type"); ct != "application/json" || r.header.Get("Location") != "" {
				t.Errorf("Content-Type %q, Location %q", ct, r.header.Get("Location"))
			}
			wantRateHeaders(t, r)
		})
	}
	if r := e.do("GET", "/api/v1/account/key-info", key, nil); r.header.Get("X-Ratelimit-Remaining") != "99" {
		t.Errorf("remaining %s after non-canonical requests, want 99", r.header.Get("X-Ratelimit-Remaining"))
	}
	// CONNECT's authority form has no path at all; the mux would answer in
	// plain text.
	req := httptest.NewRequest("CONNECT", "/", nil)
	req.URL.Path, req.RequestURI = "", "example.test:443"
	rec := httptest.NewRecorder()
	e.server.ServeHTTP(rec, req)
	r := response{status: rec.Code, header: rec.Header(), body: rec.Body.Bytes()}
	r.wantError(t, http.StatusNotFound, prospector.ENOTFOUND)
	wantRateHeaders(t, r)
}
