package api

import (
	"context"
	"net/http"
	"strings"
	"time"

	"github.com/prospectorhq/prospector"
)

type access int

const (
	authenticated access = iota // key, rate limit, public API check
	open                        // no key: health and the API document
	// bearer is authenticated, the key also taken from Authorization:
	// Bearer, as MCP clients send it.
	bearer
)

type route struct {
	pattern string
	access  access
	listed  bool // key-info's allowed_endpoints lists it: the contract's endpoints and our additions
	handle  func(s *Server, w http.ResponseWriter, r *http.Request) error
}

// Whether a route is an endpoint a key may call, which key-info lists as
// allowed_endpoints: the contract's, and the additions beyond it.
const (
	listed   = true
	unlisted = false
)

// routeList is the whole HTTP surface, the contract's endpoints in the
// order the contract lists them, each addition beside its kin.
func routeList() []route {
	return []route{
		{"GET /api/v1/account/key-info", authenticated, listed, (*Server).keyInfo},
		{"GET /api/v1/account/credit-usage", authenticated, listed, (*Server).creditUsage},
		{"GET /api/v1/meta/field-values", authenticated, listed, (*Server).fieldValues},
		{"POST /api/v1/discover/companies", authenticated, listed, (*Server).discoverCompanies},
		{"POST /api/v1/discover/people", authenticated, listed, (*Server).discoverPeople},
		{"POST /api/v1/search/companies", authenticated, listed, (*Server).searchCompanies},
		{"POST /api/v1/search/people", authenticated, listed, (*Server).searchPeople},
		{"POST /api/v1/contacts/find", authenticated, listed, (*Server).findContacts},
		{"POST /api/v1/contacts/employee-finder", authenticated, listed, (*Server).employeeFinder},
		{"POST /api/v1/contacts/waterfall-icp", authenticated, listed, (*Server).waterfallICP},
		{"POST /api/v1/enrich/email", authenticated, listed, (*Server).enrichEmail},
		{"POST /api/v1/signals/bulk", authenticated, listed, (*Server).bulkSignals},
		{"GET /api/v1/signals/company/{id}", authenticated, listed, (*Server).companySignals},
		{"GET /api/v1/signals/news-events", authenticated, listed, (*Server).newsEvents},
		{"GET /api/v1/signals/financing-events", authenticated, listed, (*Server).financingEvents},
		{"GET /api/v1/signals/hiring", authenticated, listed, (*Server).hiringSignals},
		{"GET /api/v1/signals/funding", authenticated, listed, (*Server).fundingSignals},
		{"GET /api/v1/signals/job-openings", authenticated, listed, (*Server).jobOpenings},
		{"GET /api/v1/signals/technologies", authenticated, listed, (*Server).technologies},
		{"POST /api/v1/radar/create", authenticated, listed, (*Server).createRadar},
		{"GET /api/v1/radar/{id}/leads", authenticated, listed, (*Server).radarLeads},
		{"GET /api/v1/radar/{id}/signals", authenticated, listed, (*Server).radarSignals},
		// Radar management, beyond the contract (docs/decisions.md, "Radars").
		{"GET /api/v1/radar", authenticated, listed, (*Server).listRadars},
		{"GET /api/v1/radar/{id}", authenticated, listed, (*Server).getRadar},
		{"PATCH /api/v1/radar/{id}", authenticated, listed, (*Server).updateRadar},
		{"DELETE /api/v1/radar/{id}", authenticated, listed, (*Server).deleteRadar},
		{"POST /api/v1/leads/export", authenticated, listed, (*Server).exportLeads},
		{"POST /api/v1/leads/push", authenticated, listed, (*Server).pushLeads},
		{"POST /api/v1/feedback/events", authenticated, listed, (*Server).feedbackEvent},
		{"GET /api/v1/feedback/insights", authenticated, listed, (*Server).feedbackInsights},
		{"GET /api/v1/health", open, listed, (*Server).health},
		// The MCP server's Streamable HTTP transport: JSON-RPC, not REST,
		// so it is documented in docs/mcp.md rather than the OpenAPI
		// document, and not among key-info's endpoints.
		{"POST /mcp", bearer, unlisted, (*Server).serveMCP},
		{"GET /api/v1/openapi.json", open, unlisted, (*Server).openAPI},
	}
}

// Endpoints returns the contract's endpoints as "<METHOD> <path>", in the
// order the contract lists them: what key-info reports as
// allowed_endpoints, derived from the routes.
func Endpoints() []string {
	var out []string
	for _, rt := range routeList() {
		if rt.listed {
			out = append(out, rt.pattern)
		}
	}
	return out
}

func (s *Server) routes() http.Handler {
	mux := http.NewServeMux()
	paths := http.NewServeMux() // the same paths without methods, to tell 404 from wrong method
	allowed := map[string][]string{}
	for _, rt := range routeList() {
		method, path, _ := strings.Cut(rt.pattern, " ")
		mux.Handle(rt.pattern, s.endpoint(rt))
		if _, seen := allowed[path]; !seen {
			paths.Handle(path, http.NotFoundHandler())
		}
		allowed[path] = append(allowed[path], method)
	}
	mux.Handle("/", s.wrap("unmatched", func(w http.ResponseWriter, r *http.Request) error {
		if _, pattern := paths.Handler(r); pattern != "" {
			methods := allowed[pattern]
			w.Header().Set("Allow", strings.Join(methods, ", "))
			return prospector.Errorf(prospector.ENOTFOUND, "%s is not supported on %s; use %s",
				r.Method, r.URL.Path, strings.Join(methods, " or "))
		}
		return prospector.Errorf(prospector.ENOTFOUND, "no such endpoint: %s %s", r.Method, r.URL.Path)
	}))
	api := s.canonical(mux)
	if s.console == nil {
		return s.outer(api)
	}
	// The console answers every other path, its own 404s included; its
	// requests are logged and counted like the API's.
	return s.outer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if p := r.URL.Path; strings.HasPrefix(p, "/api/") || p == "/api" || p == "/mcp" {
			api.ServeHTTP(w, r)
			return
		}
		info(r.Context()).route = "console"
		s.console.ServeHTTP(w, r)
	}))
}

// endpoint wraps one route's handler with what its access level needs.
func (s *Server) endpoint(rt route) http.Handler {
	h := func(w http.ResponseWriter, r *http.Request) error { return rt.handle(s, w, r) }
	if rt.access != open {
		h = s.authenticate(h, rt.access == bearer)
	}
	return s.wrap(rt.pattern, h)
}

// wrap records the route for logs and metrics, gives the request its
// deadline and renders a returned error.
func (s *Server) wrap(pattern string, h handlerFunc) http.Handler {
	timeout := s.timeoutOf(pattern)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ri := info(r.Context())
		ri.route = pattern
		parent := r.Context()
		deadline := time.Now().Add(timeout)
		if d, ok := parent.Deadline(); ok && d.Before(deadline) {
			deadline = d
		}
		cctx, cancel := context.WithCancelCause(parent)
		defer cancel(nil)
		ri.ctx = deadlineContext{Context: cctx, deadline: deadline}
		ctx := &ri.ctx
		r = r.WithContext(ctx)
		s.inflight.add(ri, r, cancel)
		defer s.inflight.remove(ri)
		if err := h(w, r); err != nil {
			s.renderError(w, r, err)
		}
		if ctx.Err() != nil {
			ri.ended = context.Cause(ctx)
		}
	})
}

// Routes returns the "METHOD /path" pattern of every route, for tests and
// tooling that compare the router with the OpenAPI document.
func (s *Server) Routes() []string {
	var out []string
	for _, rt := range routeList() {
		out = append(out, rt.pattern)
	}
	return out
}
