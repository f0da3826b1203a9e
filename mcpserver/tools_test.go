package mcpserver_test

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/prospectorhq/prospector"
)

// allTools are the tools the server must offer.
var allTools = []string{"account_credit_usage", "meta_field_values", "discover_companies", "discover_people",
	"search_companies", "search_people", "contacts_find", "employee_finder", "waterfall_icp", "find_email",
	"signals_bulk", "company_signals", "news_events", "financing_events", "hiring_signals", "funding_signals",
	"job_openings", "technologies", "radar_create", "radar_list", "radar_get", "radar_update", "radar_delete", "radar_leads", "radar_signals",
	"leads_export", "leads_push", "feedback_event", "feedback_insights"}

func listTools(t *testing.T, cs *mcp.ClientSession) map[string]*mcp.Tool {
	t.Helper()
	out := map[string]*mcp.Tool{}
	for tool, err := range cs.Tools(context.Background(), nil) {
		if err != nil {
			t.Fatal(err)
		}
		out[tool.Name] = tool
	}
	return out
}

// schemaOf decodes a listed tool's input schema.
func schemaOf(t *testing.T, tool *mcp.Tool) *jsonschema.Schema {
	t.Helper()
	b, _ := json.Marshal(tool.InputSchema)
	var s jsonschema.Schema
	if err := json.Unmarshal(b, &s); err != nil {
		t.Fatalf("%s: input schema: %v", tool.Name, err)
	}
	return &s
}

func TestToolsList(t *testing.T) {
	f := newFixture(t)
	tools := listTools(t, f.session(f.key))
	var names []string
	for n := range tools {
		names = append(names, n)
	}
	slices.Sort(names)
	want := slices.Clone(allTools)
	slices.Sort(want)
	if !slices.Equal(names, want) {
		t.Fatalf("tools %v, want %v", names, want)
	}
	readOnly := map[string]bool{}
	for _, n := range allTools {
		readOnly[n] = !slices.Contains([]string{"find_email", "radar_create", "radar_update", "radar_delete", "leads_push",
			"feedback_event"}, n)
	}
	for name, tool := range tools {
		a := tool.Annotations
		if a == nil || a.ReadOnlyHint != readOnly[name] || tool.Description == "" || tool.Title == "" {
			t.Errorf("%s: annotations %+v, description %q", name, a, tool.Description)
			continue
		}
		if !readOnly[name] && (a.DestructiveHint == nil || a.OpenWorldHint == nil) {
			t.Errorf("%s changes things but says neither whether it destroys nor whether it reaches out: %+v", name, a)
		}
		if s := schemaOf(t, tool); s.Type != "object" {
			t.Errorf("%s: input schema type %q", name, s.Type)
		}
	}
	for name, hints := range map[string][2]bool{ // destructive, open world
		"leads_push": {false, true}, "find_email": {false, true}, "feedback_event": {true, false},
		"radar_delete": {true, false}, "radar_update": {true, false}, "radar_create": {false, false},
	} {
		a := tools[name].Annotations
		if *a.DestructiveHint != hints[0] || *a.OpenWorldHint != hints[1] {
			t.Errorf("%s: destructive %v, open world %v; want %v", name, *a.DestructiveHint, *a.OpenWorldHint, hints)
		}
	}
	if d := tools["find_email"].Description; !strings.Contains(d, "Spends one credit") {
		t.Errorf("find_email does not say it spends a credit: %q", d)
	}
	// The shape comes from the request type, the bounds and descriptions
	// from the API's document.
	people := schemaOf(t, tools["search_people"])
	mr := people.Properties["max_results"]
	if mr == nil || *mr.Maximum != 100 || *mr.Minimum != 1 || mr.Description == "" {
		t.Errorf("search_people max_results: %+v", mr)
	}
	if cc := people.Properties["people"].Properties["location"].Properties["country_code"]; cc == nil || cc.Items == nil {
		t.Errorf("search_people nested members: %+v", people.Properties["people"])
	}
	create := schemaOf(t, tools["radar_create"])
	if ti := create.Properties["titles"]; ti == nil || ti.MaxItems == nil || *ti.MaxItems != 50 || *ti.Items.MaxLength != 200 {
		t.Errorf("radar_create titles: %+v", ti)
	}
	update := schemaOf(t, tools["radar_update"])
	if update.Properties["paused"] == nil || update.Properties["titles"] == nil || !slices.Equal(update.Required, []string{"id"}) {
		t.Errorf("radar_update: members %v, required %v", update.Properties, update.Required)
	}
	news := schemaOf(t, tools["news_events"])
	if !slices.Equal(news.Required, []string{"company_domain"}) || news.Properties["page"].Type != "string" {
		t.Errorf("news_events: required %v, page %+v", news.Required, news.Properties["page"])
	}
	if k := schemaOf(t, tools["find_email"]).Properties["idempotency_key"]; k == nil || k.Description == "" {
		t.Errorf("find_email idempotency_key: %+v", k)
	}
}

// toolCase is one tool's successful call and its refused one.
type toolCase struct {
	name string
	ok   map[string]any
	bad  map[string]any
	// want is the refused call's message; "" compares it with the API's
	// answer to the same request.
	want  string
	check func(t *testing.T, out map[string]any)
}

// TestEveryTool calls every tool once as it should be called, and once
// with bad arguments, whose answer must be the API's message.
func TestEveryTool(t *testing.T) {
	f := newFixture(t)
	cs := f.session(f.key)
	var subject *prospector.Person
	for _, p := range f.people {
		if p.CompanyDomain != "" && p.FullName != "" && p.Email == "" && p.Title != "" {
			subject = p
			break
		}
	}
	if subject == nil {
		t.Fatal("no demo person to look up")
	}
	domain, title := subject.CompanyDomain, subject.Title
	items := func(min int) func(t *testing.T, out map[string]any) {
		return func(t *testing.T, out map[string]any) {
			t.Helper()
			if l, _ := out["items"].([]any); len(l) < min {
				t.Errorf("%d items, want at least %d: %v", len(l), min, out)
			}
		}
	}
	var radarID string
	var leadIDs []any
	var cursor string
	done := map[string]bool{}
	run := func(c toolCase) {
		t.Helper()
		done[c.name] = true
		t.Run(c.name, func(t *testing.T) {
			if c.ok != nil {
				out := ok(t, cs, c.name, c.ok)
				if c.check != nil {
					c.check(t, out)
				}
			}
			res := call(t, cs, c.name, c.bad)
			if !res.IsError {
				t.Fatalf("bad arguments %v accepted: %s", c.bad, text(res))
			}
			want := c.want
			if want == "" {
				status, env := f.rest(f.key, opOf(c.name), c.bad)
				e, _ := env["error"].(map[string]any)
				if status < 400 || e == nil {
					t.Fatalf("the API accepts %v: %d %v", c.bad, status, env)
				}
				want = e["message"].(string)
				b, _ := json.Marshal(res.StructuredContent)
				var se map[string]map[string]string
				if json.Unmarshal(b, &se) != nil || se["error"]["code"] != e["code"] {
					t.Errorf("structured error %s, want code %v", b, e["code"])
				}
			}
			if text(res) != want {
				t.Errorf("message %q, want the API's %q", text(res), want)
			}
		})
	}
	run(toolCase{name: "account_credit_usage", ok: map[string]any{}, bad: map[string]any{"workspace": "x"},
		want: "workspace: unknown field", check: func(t *testing.T, out map[string]any) {
			if out["workspace"].(map[string]any)["id"] != f.ws.ID {
				t.Errorf("another workspace's usage: %v", out)
			}
		}})
	run(toolCase{name: "meta_field_values", ok: map[string]any{}, bad: map[string]any{"x": 1}, want: "x: unknown field",
		check: func(t *testing.T, out map[string]any) {
			if len(out["job_levels"].([]any)) == 0 {
				t.Errorf("field values %v", out)
			}
		}})
	run(toolCase{name: "discover_companies", ok: map[string]any{"keywords": []string{strings.Split(domain, ".")[0]}, "location": "WORLD", "max_results": 5},
		bad: map[string]any{"max_results": 0, "location": "WORLD"}})
	run(toolCase{name: "discover_people", ok: map[string]any{"titles": []string{title}, "max_results": 5},
		bad: map[string]any{"titles": []string{""}}, check: items(1)})
	run(toolCase{name: "search_companies", ok: map[string]any{"location": "WORLD", "max_results": 2},
		bad: map[string]any{"location": "WORLD", "max_results": 101}, check: func(t *testing.T, out map[string]any) {
			items(2)(t, out)
			pg := out["pagination"].(map[string]any)
			if cursor, _ = pg["next_cursor"].(string); cursor == "" {
				t.Fatalf("no cursor: %v", pg)
			}
			next := ok(t, cs, "search_companies", map[string]any{"location": "WORLD", "max_results": 2, "cursor": cursor})
			if next["items"].([]any)[0].(map[string]any)["id"] == out["items"].([]any)[0].(map[string]any)["id"] {
				t.Errorf("the cursor's page repeats the first")
			}
		}})
	run(toolCase{name: "search_people", ok: map[string]any{"titles": []string{title}, "max_results": 1},
		bad: map[string]any{"titles": []string{title}, "cursor": "nope"}, check: items(1)})
	run(toolCase{name: "contacts_find", ok: map[string]any{"company_domain": domain, "max_contacts": 3},
		bad: map[string]any{"company_domain": domain, "target_titles": []string{""}}, check: items(1)})
	run(toolCase{name: "employee_finder", ok: map[string]any{"company_domain": domain, "max_results": 5},
		bad: map[string]any{"company_domain": domain, "max_results": 101}, check: items(1)})
	run(toolCase{name: "waterfall_icp", ok: map[string]any{"company_domain": domain,
		"cascade": []map[string]any{{"role": "buyer", "include_titles": []string{title}}}},
		bad: map[string]any{"company_domain": domain, "cascade": []any{}}})
	run(toolCase{name: "find_email", ok: map[string]any{"name": subject.FullName, "company": domain},
		bad: map[string]any{"name": subject.FullName}, check: func(t *testing.T, out map[string]any) {
			if e, _ := out["email"].(string); !strings.HasSuffix(e, "@"+domain) || out["verified"] != false {
				t.Errorf("demo address: %v", out)
			}
		}})
	run(toolCase{name: "signals_bulk", ok: map[string]any{"company_domains": []string{domain}},
		bad: map[string]any{"company_domains": []string{}}})
	run(toolCase{name: "company_signals", ok: map[string]any{"id": domain}, bad: map[string]any{"id": "not a domain"},
		check: items(0)})
	run(toolCase{name: "news_events", ok: map[string]any{"company_domain": domain},
		bad: map[string]any{"company_domain": domain, "limit": "51"}})
	run(toolCase{name: "financing_events", ok: map[string]any{"company_domain": domain, "page": "1"},
		bad: map[string]any{"company_domain": domain, "limit": "0"}})
	run(toolCase{name: "hiring_signals", ok: map[string]any{}, bad: map[string]any{"limit": "0"}})
	run(toolCase{name: "funding_signals", ok: map[string]any{"location": "WORLD"}, bad: map[string]any{"since": "yesterday"}})
	run(toolCase{name: "job_openings", ok: map[string]any{"company_domain": domain, "active_only": "true"},
		bad: map[string]any{"company_domain": domain, "limit": "0"}})
	run(toolCase{name: "technologies", ok: map[string]any{"company_domain": domain},
		bad: map[string]any{"company_domain": "not a domain"}})
	run(toolCase{name: "radar_create", ok: map[string]any{"titles": []string{title}, "name": "agent radar"},
		bad: map[string]any{"titles": []string{title, ""}}, check: func(t *testing.T, out map[string]any) {
			radarID, _ = out["radar_id"].(string)
			if !prospector.ValidRadarID(radarID) {
				t.Fatalf("radar_create: %v", out)
			}
			f.backfill()
		}})
	run(toolCase{name: "radar_list", ok: map[string]any{"limit": "10"}, bad: map[string]any{"limit": "101"}, check: items(1)})
	run(toolCase{name: "radar_get", ok: map[string]any{"id": radarID}, bad: map[string]any{"id": "r_1"},
		check: func(t *testing.T, out map[string]any) {
			if out["name"] != "agent radar" || out["status"] != "active" {
				t.Errorf("radar %v", out)
			}
		}})
	run(toolCase{name: "radar_leads", ok: map[string]any{"id": radarID, "min_score": "0"},
		bad: map[string]any{"id": radarID, "min_score": "101"}, check: func(t *testing.T, out map[string]any) {
			items(1)(t, out)
			for _, l := range out["items"].([]any) {
				leadIDs = append(leadIDs, l.(map[string]any)["id"])
			}
		}})
	run(toolCase{name: "radar_signals", ok: map[string]any{"id": radarID}, bad: map[string]any{"id": radarID, "date_range": "yesterday"},
		check: items(1)})
	run(toolCase{name: "leads_export", ok: map[string]any{"lead_ids": leadIDs, "format": "json"},
		bad: map[string]any{"lead_ids": []string{}}, check: func(t *testing.T, out map[string]any) {
			if out["lead_count"] != float64(len(leadIDs)) {
				t.Errorf("export %v", out)
			}
		}})
	run(toolCase{name: "leads_push", ok: map[string]any{"lead_ids": leadIDs[:1], "destination": "webhook_url", "webhook_url": f.hooks.URL},
		bad: map[string]any{"lead_ids": leadIDs[:1], "destination": "fax"}, check: func(t *testing.T, out map[string]any) {
			if out["dispatched"] != true || f.hooks.received() != 1 {
				t.Errorf("push %v, %d received", out, f.hooks.received())
			}
		}})
	run(toolCase{name: "feedback_event", ok: map[string]any{"lead_id": leadIDs[0], "event_type": "reply", "content": "Sounds good"},
		bad: map[string]any{"lead_id": leadIDs[0], "event_type": "wave"}, check: func(t *testing.T, out map[string]any) {
			if out["accepted"] != true {
				t.Errorf("feedback %v", out)
			}
		}})
	run(toolCase{name: "feedback_insights", ok: map[string]any{"days": "30"}, bad: map[string]any{"days": "366"}})
	run(toolCase{name: "radar_update", ok: map[string]any{"id": radarID, "paused": true}, bad: map[string]any{"id": radarID},
		check: func(t *testing.T, out map[string]any) {
			if out["status"] != "paused" {
				t.Errorf("update %v", out)
			}
		}})
	run(toolCase{name: "radar_delete", ok: map[string]any{"id": radarID}, bad: map[string]any{"id": "r_1"},
		check: func(t *testing.T, out map[string]any) {
			if out["deleted"] != true || out["leads_kept"] != float64(len(leadIDs)) {
				t.Errorf("delete %v", out)
			}
		}})
	for _, n := range allTools {
		if !done[n] {
			t.Errorf("tool %s has no test", n)
		}
	}
}

// opOf is the API operation a tool mirrors, as its description's
// source: read from the server's table through the listed tools would
// need the server's internals, so the tests keep the map.
func opOf(name string) string {
	return map[string]string{
		"account_credit_usage": "GET /api/v1/account/credit-usage", "meta_field_values": "GET /api/v1/meta/field-values",
		"discover_companies": "POST /api/v1/discover/companies", "discover_people": "POST /api/v1/discover/people",
		"search_companies": "POST /api/v1/search/companies", "search_people": "POST /api/v1/search/people",
		"contacts_find": "POST /api/v1/contacts/find", "employee_finder": "POST /api/v1/contacts/employee-finder",
		"waterfall_icp": "POST /api/v1/contacts/waterfall-icp", "find_email": "POST /api/v1/enrich/email",
		"signals_bulk": "POST /api/v1/signals/bulk", "company_signals": "GET /api/v1/signals/company/{id}",
		"news_events": "GET /api/v1/signals/news-events", "financing_events": "GET /api/v1/signals/financing-events",
		"hiring_signals": "GET /api/v1/signals/hiring", "funding_signals": "GET /api/v1/signals/funding",
		"job_openings": "GET /api/v1/signals/job-openings", "technologies": "GET /api/v1/signals/technologies",
		"radar_create": "POST /api/v1/radar/create", "radar_list": "GET /api/v1/radar", "radar_get": "GET /api/v1/radar/{id}",
		"radar_update": "PATCH /api/v1/radar/{id}", "radar_delete": "DELETE /api/v1/radar/{id}",
		"radar_leads": "GET /api/v1/radar/{id}/leads", "radar_signals": "GET /api/v1/radar/{id}/signals",
		"leads_export": "POST /api/v1/leads/export", "leads_push": "POST /api/v1/leads/push",
		"feedback_event": "POST /api/v1/feedback/events", "feedback_insights": "GET /api/v1/feedback/insights",
	}[name]
}
