package api_test

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/prospectorhq/prospector"
)

// TestNULIsRefusedNamingTheField: a NUL (U+0000) anywhere in a body, a
// value or a member name of free-form metadata, is 400 naming the member
// on both engines, before anything is stored. PostgreSQL used to answer
// 500 and SQLite 200.
func TestNULIsRefusedNamingTheField(t *testing.T) {
	engines(t, func(t *testing.T, e *env) {
		f := newFeedbackFixture(t, e)
		radars := func() int {
			t.Helper()
			rs, err := e.store.ListRadars(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			return len(rs)
		}
		before := radars()
		for _, nul := range []string{"VP\x00Sales", `VP\u0000Sales`} {
			for _, tc := range []struct {
				path  string
				body  map[string]any
				field string
			}{
				{"/api/v1/radar/create", map[string]any{"titles": []string{"CTO", nul}}, "titles[1]"},
				{"/api/v1/radar/create", map[string]any{"titles": []string{"CTO"}, "name": nul}, "name"},
				{"/api/v1/radar/create", map[string]any{"pain_keywords": []string{nul}}, "pain_keywords[0]"},
				{"/api/v1/search/people", map[string]any{"titles": []string{nul}}, "titles[0]"},
				{"/api/v1/search/companies", map[string]any{"company": map[string]any{"keywords": map[string]any{"include": []string{nul}}}},
					"company.keywords.include[0]"},
				{eventsPath, map[string]any{"lead_id": f.leads[0].ID, "event_type": "reply", "content": nul}, "content"},
				{eventsPath, map[string]any{"lead_id": f.leads[0].ID, "event_type": "reply", "metadata": map[string]any{"a": map[string]any{"b": nul}}},
					"metadata.a.b"},
				{eventsPath, map[string]any{"lead_id": f.leads[0].ID, "event_type": "reply", "metadata": map[string]any{"a": map[string]any{nul: 1}}},
					"metadata.a"},
			} {
				e.do("POST", tc.path, f.key, tc.body).wantInvalid(t, tc.field)
			}
		}
		// Query parameters follow the same rule.
		for path, field := range map[string]string{
			"/api/v1/signals/hiring?industry=saas%00x":                                      "industry",
			"/api/v1/signals/news-events?company_domain=acme.example&found_at_from=2026%00": "found_at_from",
		} {
			msg := e.do("GET", path, f.key, nil).wantError(t, http.StatusBadRequest, "validation_error")
			if !strings.HasPrefix(msg, field+": must not contain the NUL character") {
				t.Errorf("%s: message %q", path, msg)
			}
		}
		if n := radars(); n != before {
			t.Fatalf("%d radars after refused requests, want %d", n, before)
		}
		d := f.post(t, 0, "open", nil)
		if snapshotOf(d)["status"] == "replied" {
			t.Fatalf("a refused reply changed the lead: %v", d)
		}
	})
}

// TestNullBodyIsRefused: a body is a JSON object; null is not one (it used
// to be read as {}).
func TestNullBodyIsRefused(t *testing.T) {
	e := newEnv(t)
	_, key := e.workspace("acme", prospector.PlanGrowth, prospector.PlanGrowth)
	for _, path := range []string{"/api/v1/radar/create", "/api/v1/search/companies", "/api/v1/discover/people"} {
		res := e.do("POST", path, key, json.RawMessage(`null`))
		if msg := res.wantError(t, http.StatusBadRequest, "validation_error"); msg != "body: must be a JSON object, not null" {
			t.Errorf("%s: message %q", path, msg)
		}
	}
	// An empty body still counts as {} (decisions.md), so search works
	// without one.
	if res := e.do("POST", "/api/v1/search/companies", key, nil); res.status != http.StatusOK {
		t.Fatalf("empty body: %d %s", res.status, res.body)
	}
}
