package api

import (
	"net/http"
	"strings"

	"github.com/prometheus/client_golang/prometheus/promhttp"
	"github.com/prospectorhq/prospector"
)

type access int

const (
	authenticated access = iota // key, rate limit, public API check
	open                        // no key: health and the API document
)

type route struct {
	pattern string
	access  access
	handle  handlerFunc
}

// routeList is the whole HTTP surface. Endpoints of the contract that
// later work adds are listed in prospector.Endpoints and docs/openapi.
func (s *Server) routeList() []route {
	return []route{
		{"GET /api/v1/account/key-info", authenticated, s.keyInfo},
		{"GET /api/v1/account/credit-usage", authenticated, s.creditUsage},
		{"GET /api/v1/meta/field-values", authenticated, s.fieldValues},
		{"POST /api/v1/discover/companies", authenticated, s.discoverCompanies},
		{"POST /api/v1/discover/people", authenticated, s.discoverPeople},
		{"POST /api/v1/search/companies", authenticated, s.searchCompanies},
		{"POST /api/v1/search/people", authenticated, s.searchPeople},
		{"POST /api/v1/contacts/find", authenticated, s.findContacts},
		{"POST /api/v1/contacts/employee-finder", authenticated, s.employeeFinder},
		{"POST /api/v1/contacts/waterfall-icp", authenticated, s.waterfallICP},
		{"POST /api/v1/enrich/email", authenticated, s.enrichEmail},
		{"POST /api/v1/signals/bulk", authenticated, s.bulkSignals},
		{"GET /api/v1/signals/company/{id}", authenticated, s.companySignals},
		{"GET /api/v1/signals/news-events", authenticated, s.newsEvents},
		{"GET /api/v1/signals/financing-events", authenticated, s.financingEvents},
		{"GET /api/v1/signals/hiring", authenticated, s.hiringSignals},
		{"GET /api/v1/signals/funding", authenticated, s.fundingSignals},
		{"POST /api/v1/radar/create", authenticated, s.createRadar},
		{"GET /api/v1/radar/{id}/leads", authenticated, s.radarLeads},
		{"GET /api/v1/radar/{id}/signals", authenticated, s.radarSignals},
		{"POST /api/v1/leads/export", authenticated, s.exportLeads},
		{"POST /api/v1/leads/push", authenticated, s.pushLeads},
		{"POST /api/v1/feedback/events", authenticated, s.feedbackEvent},
		{"GET /api/v1/feedback/insights", authenticated, s.feedbackInsights},
		{"GET /api/v1/health", open, s.health},
		{"GET /api/v1/openapi.json", open, s.openAPI},
	}
}

func (s *Server) routes() http.Handler {
	mux := http.NewServeMux()
	paths := http.NewServeMux() // the same paths without methods, to tell 404 from wrong method
	allowed := map[string][]string{}
	for _, rt := range s.routeList() {
		method, path, _ := strings.Cut(rt.pattern, " ")
		mux.Handle(rt.pattern, s.endpoint(rt))
		if _, seen := allowed[path]; !seen {
			paths.Handle(path, http.NotFoundHandler())
		}
		allowed[path] = append(allowed[path], method)
	}
	mux.Handle("GET /metrics", promhttp.HandlerFor(s.registry, promhttp.HandlerOpts{}))
	mux.Handle("/", s.wrap("unmatched", func(w http.ResponseWriter, r *http.Request) error {
		if _, pattern := paths.Handler(r); pattern != "" {
			methods := allowed[pattern]
			w.Header().Set("Allow", strings.Join(methods, ", "))
			return prospector.Errorf(prospector.ENOTFOUND, "%s is not supported on %s; use %s",
				r.Method, r.URL.Path, strings.Join(methods, " or "))
		}
		return prospector.Errorf(prospector.ENOTFOUND, "no such endpoint: %s %s", r.Method, r.URL.Path)
	}))
	return s.outer(mux)
}

// endpoint wraps one route's handler with what its access level needs.
func (s *Server) endpoint(rt route) http.Handler {
	h := rt.handle
	if rt.access == authenticated {
		h = s.authenticate(h)
	}
	return s.wrap(rt.pattern, h)
}

// wrap records the route for logs and metrics and renders a returned error.
func (s *Server) wrap(pattern string, h handlerFunc) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		info(r.Context()).route = pattern
		if err := h(w, r); err != nil {
			s.renderError(w, r, err)
		}
	})
}

// Routes returns the "METHOD /path" pattern of every route, for tests and
// tooling that compare the router with the OpenAPI document.
func (s *Server) Routes() []string {
	var out []string
	for _, rt := range s.routeList() {
		out = append(out, rt.pattern)
	}
	return out
}
