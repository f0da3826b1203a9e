package api_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/prospectorhq/prospector"
)

// boundCase is one bounded text field: where it goes, a valid value of n
// characters, and whether a value at the bound is accepted (free text) or
// only not refused for its length (a value of a taxonomy, a cursor).
type boundCase struct {
	path  string         // URL path; POST with a body unless query or pathParam
	base  map[string]any // the rest of the body or query
	field string         // member path (a.b[0].c) or parameter name
	max   int
	gen   func(n int) string
	free  bool
	query bool
	param bool // the path's {id}
}

func chars(n int) string { return strings.Repeat("é", n) } // 2 bytes each: characters, not bytes, count

func withPrefix(prefix string) func(int) string {
	return func(n int) string { return prefix + strings.Repeat("a", n-len(prefix)) }
}

var (
	domainOf = withPrefix("acme-robotics.example/")
	urlOf    = withPrefix("https://network.example/company/")
	hookOf   = withPrefix("https://hooks.example/")
)

func boundCases() []boundCase {
	titles := map[string]any{"titles": []string{"CTO"}}
	domain := map[string]any{"company_domain": "acme-robotics.example"}
	var cs []boundCase
	add := func(path string, base map[string]any, max int, gen func(int) string, free bool, fields ...string) {
		for _, f := range fields {
			cs = append(cs, boundCase{path: path, base: base, field: f, max: max, gen: gen, free: free})
		}
	}
	for _, p := range []string{"/api/v1/discover/companies", "/api/v1/search/companies"} {
		add(p, nil, 200, chars, true, "location", "keywords[0]")
		add(p, nil, 200, chars, false, "industry")
	}
	add("/api/v1/discover/companies", nil, 200, chars, false, "revenue")
	for _, p := range []string{"/api/v1/discover/people", "/api/v1/search/people"} {
		add(p, nil, 200, chars, true, "titles[0]", "location")
		add(p, nil, 200, chars, false, "industry")
	}
	add("/api/v1/search/companies", nil, 200, chars, true, "company.keywords.include[0]")
	add("/api/v1/search/companies", nil, 200, chars, false, "company.industry.include[0]", "company.industry.exclude[0]",
		"company.hq.country_code[0]")
	add("/api/v1/search/people", nil, 200, chars, true, "people.job_title.include[0]")
	add("/api/v1/search/people", nil, 200, chars, false, "people.job_function[0]", "people.job_level[0]",
		"people.location.country_code[0]", "company.industry.include[0]")
	add("/api/v1/search/people", nil, 512, chars, false, "cursor")
	add("/api/v1/contacts/find", nil, 2048, domainOf, true, "company_domain")
	add("/api/v1/contacts/find", nil, 2048, urlOf, true, "network_url")
	add("/api/v1/contacts/find", domain, 200, chars, true, "target_titles[0]")
	add("/api/v1/contacts/employee-finder", nil, 2048, urlOf, true, "company_network_url", "network_url")
	add("/api/v1/contacts/employee-finder", domain, 200, chars, true, "job_titles[0]", "locations[0]")
	add("/api/v1/contacts/employee-finder", domain, 200, chars, false, "job_functions[0]", "job_levels[0]")
	tier := map[string]any{"company_domain": "acme-robotics.example", "cascade": []any{map[string]any{"role": "r", "include_titles": []string{"CTO"}}}}
	add("/api/v1/contacts/waterfall-icp", tier, 100, chars, true, "cascade[0].role")
	add("/api/v1/contacts/waterfall-icp", tier, 200, chars, true, "cascade[0].include_titles[0]", "cascade[0].exclude_titles[0]",
		"cascade[0].locations[0]")
	add("/api/v1/contacts/waterfall-icp", map[string]any{"cascade": tier["cascade"]}, 2048, urlOf, true, "company_network_url")
	add("/api/v1/enrich/email", map[string]any{"company": "acme-robotics.example"}, 200, chars, true, "name")
	add("/api/v1/enrich/email", map[string]any{"name": "Ada Testperson"}, 200, chars, true, "company")
	add("/api/v1/enrich/email", nil, 2048, withPrefix("https://network.example/in/"), true, "network_url")
	add("/api/v1/signals/bulk", nil, 2048, domainOf, true, "company_domains[0]")
	add("/api/v1/radar/create", titles, 200, chars, true, "name", "location", "locations[0]", "geos[0]", "pain_keywords[0]",
		"category_keywords[0]", "exclude_keywords[0]", "company_types[0]", "job_posting_keywords[0]")
	add("/api/v1/radar/create", nil, 200, chars, true, "titles[0]")
	add("/api/v1/radar/create", titles, 200, withPrefix("https://competitor.example/"), true, "competitor_urls[0]", "influencer_urls[0]")
	add("/api/v1/radar/create", titles, 200, chars, false, "industries[0]", "signals_to_track[0]")
	add("/api/v1/radar/create", titles, 2048, urlOf, true, "company_network_url", "company_followers_url")
	add("/api/v1/radar/create", titles, 2048, withPrefix("https://network.example/in/"), true, "your_profile_url")
	lead := map[string]any{"lead_id": prospector.NewLeadID(), "event_type": "reply"}
	add(eventsPath, lead, 10000, chars, true, "content")
	add(eventsPath, lead, 2048, withPrefix("https://meet.example/"), true, "meeting_url")
	add("/api/v1/leads/push", map[string]any{"lead_ids": []string{prospector.NewLeadID()}, "destination": "webhook_url"},
		2048, hookOf, true, "webhook_url")
	for _, p := range []string{"/api/v1/signals/news-events", "/api/v1/signals/financing-events", "/api/v1/signals/hiring"} {
		cs = append(cs, boundCase{path: p, field: "company_domain", max: 2048, gen: domainOf, free: true, query: true})
	}
	for _, f := range []string{"industry", "location"} {
		cs = append(cs, boundCase{path: "/api/v1/signals/funding", field: f, max: 200, gen: chars, query: true})
	}
	// A port is cut off as a path is, and needs no escaping in a path.
	cs = append(cs, boundCase{path: "/api/v1/signals/company/", field: "id", max: 2048, gen: withPrefix("acme-robotics.example:"),
		free: true, param: true})
	return cs
}

// TestRequestTextBounds: every bounded text value at its bound is not
// refused for its length (and free text is accepted), one character more
// is 400 naming the field; the OpenAPI document states the same bound
// (its maxLength lets the first through and refuses the second).
func TestRequestTextBounds(t *testing.T) {
	e := newEnv(t)
	seed(e)
	for i, c := range boundCases() {
		t.Run(c.path+" "+c.field, func(t *testing.T) {
			_, key := e.workspace(fmt.Sprint("bounds", i), prospector.PlanGrowth, prospector.PlanGrowth)
			for _, n := range []int{c.max, c.max + 1} {
				req := c.request(t, c.gen(n))
				req.Header.Set(prospector.KeyHeader, key)
				rec := httptest.NewRecorder()
				e.server.ServeHTTP(rec, req)
				res := response{status: rec.Code, header: rec.Header(), body: rec.Body.Bytes()}
				docErr := openAPIRequestError(c.request(t, c.gen(n)))
				if n > c.max {
					if msg := res.wantError(t, http.StatusBadRequest, "validation_error"); !strings.HasPrefix(msg, fmt.Sprintf("%s: at most %d characters", c.field, c.max)) {
						t.Errorf("%d characters: message %q", n, msg)
					}
					if docErr == nil {
						t.Errorf("%d characters: the OpenAPI document does not refuse it", n)
					}
					continue
				}
				if res.status == http.StatusBadRequest && strings.Contains(string(res.body), "at most") {
					t.Errorf("%d characters refused for its length: %s", n, res.body)
				}
				if c.free && res.status != http.StatusOK && res.status != http.StatusNotFound {
					t.Errorf("%d characters: %d %s, want it accepted", n, res.status, res.body)
				}
				if c.free && docErr != nil {
					t.Errorf("%d characters: the OpenAPI document refuses it: %v", n, docErr)
				}
			}
		})
	}
}

// request builds the case's request with v in its field.
func (c boundCase) request(t *testing.T, v string) *http.Request {
	t.Helper()
	switch {
	case c.param:
		return httptest.NewRequest("GET", c.path+url.PathEscape(v), nil)
	case c.query:
		q := url.Values{c.field: {v}}
		for k, x := range c.base {
			q.Set(k, fmt.Sprint(x))
		}
		return httptest.NewRequest("GET", c.path+"?"+q.Encode(), nil)
	}
	var body map[string]any
	b, _ := json.Marshal(c.base)
	if err := json.Unmarshal(b, &body); err != nil || body == nil {
		body = map[string]any{}
	}
	setPath(body, c.field, v)
	req := httptest.NewRequest("POST", c.path, bytes.NewReader(mustJSON(body)))
	req.Header.Set("Content-Type", "application/json")
	return req
}

// setPath sets a member path such as company.keywords.include[0] or
// cascade[0].role in body, making what is missing.
func setPath(body map[string]any, path string, v any) {
	name, rest, _ := strings.Cut(path, ".")
	index := -1
	if i := strings.IndexByte(name, '['); i >= 0 {
		index, _ = strconv.Atoi(name[i+1 : len(name)-1])
		name = name[:i]
	}
	if index < 0 {
		if rest == "" {
			body[name] = v
			return
		}
		child, _ := body[name].(map[string]any)
		if child == nil {
			child = map[string]any{}
			body[name] = child
		}
		setPath(child, rest, v)
		return
	}
	list, _ := body[name].([]any)
	for len(list) <= index {
		list = append(list, map[string]any{})
	}
	if rest == "" {
		list[index] = v
	} else {
		setPath(list[index].(map[string]any), rest, v)
	}
	body[name] = list
}

// openAPIRequestError validates a request (path, query and body) against
// the OpenAPI document.
func openAPIRequestError(req *http.Request) error {
	router, err := openAPIRouterForTests()
	if err != nil {
		return err
	}
	routed := req.Clone(context.Background())
	routed.URL = &url.URL{Path: req.URL.Path, RawPath: req.URL.RawPath, RawQuery: req.URL.RawQuery}
	route, params, err := router.FindRoute(routed)
	if err != nil {
		return fmt.Errorf("find route: %w", err)
	}
	return openapi3filter.ValidateRequest(context.Background(), &openapi3filter.RequestValidationInput{
		Request: routed, PathParams: params, Route: route,
		Options: &openapi3filter.Options{AuthenticationFunc: openapi3filter.NoopAuthenticationFunc},
	})
}
