package webhook

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/prospectorhq/prospector"
	"github.com/prospectorhq/prospector/wire"
)

func score(f float64) *float64 { return &f }

var (
	dispatchedAt = time.Date(2026, 11, 22, 6, 22, 37, 461_000_000, time.UTC)
	createdAt    = time.Date(2026, 11, 20, 9, 0, 0, 0, time.UTC)
)

func testLeads() []wire.Lead {
	return []wire.Lead{
		{ID: "ld_a", FullName: "Ada Lovelace", FirstName: "Ada", LastName: "Lovelace", Title: "VP Engineering",
			Company: "Analytical Engines", NetworkURL: "https://network.example/in/ada", Email: "ada@engines.example",
			Phone: "+44 20 7946 0000", Location: "London, England, GB", Score: score(87.5), Status: "detected",
			RadarID: "rdr_1", CampaignID: "cmp_9", CreatedAt: createdAt},
		{ID: "ld_b", FullName: "Grace Hopper"},
	}
}

func testPayload() *Payload {
	return &Payload{Source: SourcePush, WorkspaceID: "ws_1", Leads: testLeads(), DispatchedAt: dispatchedAt}
}

func settings() *prospector.WebhookSettings {
	return &prospector.WebhookSettings{WorkspaceID: "ws_1", SigningSecret: vectorSecret}
}

func body(t *testing.T, s *prospector.WebhookSettings, p *Payload) string {
	t.Helper()
	sh, err := NewShape(s)
	if err != nil {
		t.Fatal(err)
	}
	b, err := sh.Body(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestDefaultEnvelope(t *testing.T) {
	got := body(t, settings(), testPayload())
	want := `{"source":"manual_push","workspace_id":"ws_1","lead_count":2,"leads":[` +
		`{"id":"ld_a","full_name":"Ada Lovelace","first_name":"Ada","last_name":"Lovelace","title":"VP Engineering",` +
		`"company":"Analytical Engines","network_url":"https://network.example/in/ada","email":"ada@engines.example",` +
		`"phone":"+44 20 7946 0000","location":"London, England, GB","score":87.5,"status":"detected","radar_id":"rdr_1",` +
		`"campaign_id":"cmp_9","created_at":"2026-11-20T09:00:00.000Z"},` +
		`{"id":"ld_b","full_name":"Grace Hopper","first_name":null,"last_name":null,"title":null,"company":null,` +
		`"network_url":null,"email":null,"phone":null,"location":null,"score":null,"status":null,"radar_id":null,` +
		`"campaign_id":null,"created_at":null}],"dispatched_at":"2026-11-22T06:22:37.461Z"}`
	if got != want {
		t.Fatalf("body\n%s\nwant\n%s", got, want)
	}
	empty := body(t, settings(), &Payload{Source: SourceAutoSync, WorkspaceID: "ws_1", DispatchedAt: dispatchedAt})
	if !strings.Contains(empty, `"lead_count":0,"leads":[]`) {
		t.Fatalf("no leads: %s", empty)
	}
}

func TestFieldTogglesAndCustomFields(t *testing.T) {
	s := settings()
	s.DisabledFields = []string{"email", "phone", "dispatched_at", "source"}
	s.CustomFields = map[string]json.RawMessage{"team": json.RawMessage(`"emea"`), "version": json.RawMessage(`2`),
		"lead.owner": json.RawMessage(`{"name":"Kim"}`)}
	got := body(t, s, testPayload())
	var env map[string]any
	if err := json.Unmarshal([]byte(got), &env); err != nil {
		t.Fatal(err)
	}
	if _, ok := env["dispatched_at"]; ok || env["source"] != nil || env["team"] != "emea" || env["version"] != 2.0 || env["lead_count"] != 2.0 {
		t.Fatalf("envelope %s", got)
	}
	lead := env["leads"].([]any)[0].(map[string]any)
	if _, ok := lead["email"]; ok {
		t.Errorf("email not toggled off: %v", lead)
	}
	if _, ok := lead["phone"]; ok {
		t.Errorf("phone not toggled off: %v", lead)
	}
	if lead["owner"].(map[string]any)["name"] != "Kim" || lead["full_name"] != "Ada Lovelace" {
		t.Errorf("lead %v", lead)
	}
	// Custom envelope fields come after the standard ones, by name.
	if i, j := strings.Index(got, `"leads"`), strings.Index(got, `"team"`); i > j || strings.Index(got, `"team"`) > strings.Index(got, `"version"`) {
		t.Errorf("member order: %s", got)
	}

	for name, bad := range map[string]*prospector.WebhookSettings{
		"unknown field":      {DisabledFields: []string{"emial"}},
		"id off":             {DisabledFields: []string{"id"}},
		"leads off":          {DisabledFields: []string{"leads"}},
		"custom shadows":     {CustomFields: map[string]json.RawMessage{"lead_count": json.RawMessage(`1`)}},
		"lead custom shadow": {CustomFields: map[string]json.RawMessage{"lead.email": json.RawMessage(`1`)}},
		"bad custom name":    {CustomFields: map[string]json.RawMessage{"a b": json.RawMessage(`1`)}},
		"custom not JSON":    {CustomFields: map[string]json.RawMessage{"x": json.RawMessage(`nope`)}},
	} {
		bad.SigningSecret = vectorSecret
		if _, err := NewShape(bad); prospector.ErrorCode(err) != prospector.EINVALID {
			t.Errorf("%s: %v, want a validation error", name, err)
		}
	}
}

func TestTemplates(t *testing.T) {
	for name, tc := range map[string]struct {
		template string
		custom   map[string]json.RawMessage
		disabled []string
		want     string
	}{
		"typed placeholders and per-lead template": {
			template: `{"event":"leads.created","count":"{{lead_count}}","at":"{{dispatched_at}}",` +
				`"data":{"{{#leads}}":{"name":"{{lead.full_name}}","mail":"{{lead.email}}","score":"{{lead.score}}",` +
				`"label":"{{lead.full_name}} at {{lead.company}} ({{lead.score}})","org":{"name":"{{lead.company}}"}}}}`,
			want: `{"event":"leads.created","count":2,"at":"2026-11-22T06:22:37.461Z","data":[` +
				`{"name":"Ada Lovelace","mail":"ada@engines.example","score":87.5,"label":"Ada Lovelace at Analytical Engines (87.5)","org":{"name":"Analytical Engines"}},` +
				`{"name":"Grace Hopper","mail":null,"score":null,"label":"Grace Hopper at  ()","org":{"name":null}}]}`,
		},
		"leads array keeps toggles": {
			template: `{"ws":"{{workspace_id}}","items":"{{leads}}"}`,
			disabled: []string{"email", "phone", "network_url", "location", "score", "status", "radar_id", "campaign_id",
				"created_at", "title", "company", "first_name", "last_name"},
			want: `{"ws":"ws_1","items":[{"id":"ld_a","full_name":"Ada Lovelace"},{"id":"ld_b","full_name":"Grace Hopper"}]}`,
		},
		"array at the root, whole lead, custom values": {
			template: `{"{{#leads}}":{"lead":"{{lead}}","team":"{{custom.team}}","tag":"t-{{custom.team}}-{{custom.n}}","src":"{{source}}"}}`,
			custom:   map[string]json.RawMessage{"team": json.RawMessage(`"emea"`), "n": json.RawMessage(`3`)},
			disabled: []string{"email", "phone", "network_url", "location", "score", "status", "radar_id", "campaign_id",
				"created_at", "title", "company", "first_name", "last_name"},
			want: `[{"lead":{"id":"ld_a","full_name":"Ada Lovelace"},"team":"emea","tag":"t-emea-3","src":"manual_push"},` +
				`{"lead":{"id":"ld_b","full_name":"Grace Hopper"},"team":"emea","tag":"t-emea-3","src":"manual_push"}]`,
		},
		"literals, arrays and stray braces stay": {
			template: `{"v":1.50,"ok":true,"n":null,"list":[1,"a}}b",{"x":"{{ lead_count }}"}],"s":"plain"}`,
			want:     `{"v":1.50,"ok":true,"n":null,"list":[1,"a}}b",{"x":2}],"s":"plain"}`,
		},
	} {
		s := settings()
		s.Template, s.CustomFields, s.DisabledFields = tc.template, tc.custom, tc.disabled
		if got := body(t, s, testPayload()); got != tc.want {
			t.Errorf("%s:\n got %s\nwant %s", name, got, tc.want)
		}
	}
	for name, tmpl := range map[string]string{
		"not JSON":              `{"a":`,
		"trailing data":         `{"a":1} {}`,
		"unknown placeholder":   `{"a":"{{nope}}"}`,
		"lead outside #leads":   `{"a":"{{lead.email}}"}`,
		"unknown lead field":    `{"{{#leads}}":{"a":"{{lead.salary}}"}}`,
		"nested #leads":         `{"{{#leads}}":{"a":{"{{#leads}}":{}}}}`,
		"#leads with a sibling": `{"x":{"{{#leads}}":{},"y":1}}`,
		"leads inside text":     `{"a":"all: {{leads}}"}`,
		"unclosed placeholder":  `{"a":"{{lead_count"}`,
		"placeholder in a name": `{"{{source}}":1}`,
		"duplicate member":      `{"a":1,"a":2}`,
		"unknown custom":        `{"a":"{{custom.missing}}"}`,
		"too deep":              strings.Repeat("[", 40) + strings.Repeat("]", 40),
		"too large":             `{"a":"` + strings.Repeat("x", MaxTemplate) + `"}`,
	} {
		s := settings()
		s.Template = tmpl
		if _, err := NewShape(s); prospector.ErrorCode(err) != prospector.EINVALID || !strings.HasPrefix(prospector.ErrorMessage(err), "template: ") {
			t.Errorf("%s: %v, want a template validation error", name, err)
		}
	}
}
