package api_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/prospectorhq/prospector"
	"github.com/prospectorhq/prospector/webhook"
)

// receiver is a real HTTP server standing in for a webhook or an
// outreach tool; it records what reaches it.
type receiver struct {
	*httptest.Server
	hits   atomic.Int64
	mu     sync.Mutex
	reqs   []received
	answer func(w http.ResponseWriter, r *http.Request, n int64, body []byte)
}

type received struct {
	method, uri string
	header      http.Header
	body        []byte
}

func newReceiver(t *testing.T, answer func(w http.ResponseWriter, r *http.Request, n int64, body []byte)) *receiver {
	t.Helper()
	rc := &receiver{answer: answer}
	rc.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n := rc.hits.Add(1)
		body, _ := io.ReadAll(r.Body)
		rc.mu.Lock()
		rc.reqs = append(rc.reqs, received{method: r.Method, uri: r.URL.RequestURI(), header: r.Header.Clone(), body: body})
		rc.mu.Unlock()
		if rc.answer == nil {
			w.WriteHeader(http.StatusNoContent)
			return
		}
		rc.answer(w, r, n, body)
	}))
	t.Cleanup(rc.Close)
	return rc
}

func (rc *receiver) requests() []received {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	return append([]received(nil), rc.reqs...)
}

// privateHooks lets pushes reach httptest servers on loopback, as
// serve --allow-private-webhooks does; timeout 0 keeps the default.
func privateHooks(timeout time.Duration) option {
	return func(c *apiConfig) {
		c.Webhooks = webhook.NewClient(webhook.Config{AllowPrivate: true, Timeout: timeout})
	}
}

// pushResult is data of a push answer.
type pushResult struct {
	Status             string   `json:"status"`
	Destination        string   `json:"destination"`
	LeadCount          int      `json:"lead_count"`
	RequestedLeadCount int      `json:"requested_lead_count"`
	MissingLeadIDs     []string `json:"missing_lead_ids"`
	Dispatched         bool     `json:"dispatched"`
	ProviderStatusCode int      `json:"provider_status_code"`
	ProviderResponse   string   `json:"provider_response"`
}

func (e *env) push(t *testing.T, key string, body any) pushResult {
	t.Helper()
	res := e.do("POST", "/api/v1/leads/push", key, body)
	if res.status != http.StatusOK {
		t.Fatalf("push: %d %s", res.status, res.body)
	}
	var env struct {
		Data pushResult `json:"data"`
	}
	dec := json.NewDecoder(strings.NewReader(string(res.body)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&env); err != nil {
		t.Fatalf("push answer %s: %v", res.body, err)
	}
	return env.Data
}

// pushFixture is a workspace with two leads and a third lead elsewhere.
type pushFixture struct {
	e        *env
	w        *prospector.Workspace
	key      string
	ada, bob *prospector.Lead
	foreign  *prospector.Lead
}

func newPushFixture(t *testing.T, opts ...option) *pushFixture {
	e := newEnv(t, append([]option{atLeadsNow}, opts...)...)
	w, key := e.workspace("acme", prospector.PlanGrowth, prospector.PlanGrowth)
	ls := seedLeads(t, e.store, w, 2, func(i int, l *prospector.Lead) {
		if i == 0 {
			l.FullName, l.FirstName, l.LastName, l.Title, l.Company = "Ada Lovelace", "Ada", "Lovelace", "CTO", "Acme"
			l.NetworkURL, l.City, l.CountryCode = "https://network.example/in/ada", "London", "GB"
		} else {
			l.FullName = "Bob Stone"
		}
	})
	other, _ := e.workspace("globex", prospector.PlanGrowth, prospector.PlanGrowth)
	return &pushFixture{e: e, w: w, key: key, ada: ls[0], bob: ls[1], foreign: seedLeads(t, e.store, other, 1, nil)[0]}
}

func (fx *pushFixture) settings(t *testing.T) *prospector.WebhookSettings {
	t.Helper()
	s, err := fx.e.store.WebhookSettings(context.Background(), fx.w.ID)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestPushWebhookEnvelope: the default envelope reaches a real receiver,
// signed with the workspace's secret (settings made by the push).
func TestPushWebhookEnvelope(t *testing.T) {
	fx := newPushFixture(t, privateHooks(0))
	rc := newReceiver(t, func(w http.ResponseWriter, _ *http.Request, _ int64, _ []byte) {
		w.WriteHeader(http.StatusAccepted)
		_, _ = io.WriteString(w, "accepted")
	})
	unknown := prospector.NewLeadID()
	got := fx.e.push(t, fx.key, map[string]any{"lead_ids": []string{fx.ada.ID, unknown, fx.bob.ID, fx.foreign.ID, fx.ada.ID},
		"destination": "webhook_url", "webhook_url": rc.URL + "/hooks/in?token=abc"})
	want := pushResult{Status: "dispatched", Destination: "webhook_url", LeadCount: 2, RequestedLeadCount: 4,
		MissingLeadIDs: []string{unknown, fx.foreign.ID}, Dispatched: true, ProviderStatusCode: 202, ProviderResponse: "accepted"}
	if jsonOf(got) != jsonOf(want) {
		t.Fatalf("push result\n%+v\nwant\n%+v", got, want)
	}
	reqs := rc.requests()
	if len(reqs) != 1 {
		t.Fatalf("%d requests reached the receiver, want 1", len(reqs))
	}
	r := reqs[0]
	if r.method != "POST" || r.uri != "/hooks/in?token=abc" || r.header.Get("Content-Type") != "application/json" ||
		r.header.Get("User-Agent") != webhook.UserAgent || !strings.HasPrefix(r.header.Get("webhook-id"), "msg_") ||
		r.header.Get("webhook-timestamp") != strconv.FormatInt(leadsNow.Unix(), 10) {
		t.Fatalf("request %s %s %v", r.method, r.uri, r.header)
	}
	s := fx.settings(t)
	if !strings.HasPrefix(s.SigningSecret, "whsec_") || s.URL != "" || s.AutoSync {
		t.Fatalf("settings made by the push: %+v", s)
	}
	if err := webhook.Verify(s.SigningSecret, r.header, r.body, leadsNow, 0); err != nil {
		t.Fatalf("signature: %v", err)
	}
	radar := fx.ada.RadarID
	body := `{"source":"manual_push","workspace_id":"` + fx.w.ID + `","lead_count":2,"leads":[` +
		`{"id":"` + fx.ada.ID + `","full_name":"Ada Lovelace","first_name":"Ada","last_name":"Lovelace","title":"CTO",` +
		`"company":"Acme","network_url":"https://network.example/in/ada","email":null,"phone":null,` +
		`"location":"London, United Kingdom","score":100,"status":"detected","radar_id":"` + radar + `","campaign_id":null,` +
		`"created_at":"2026-11-20T09:00:00.000Z"},` +
		`{"id":"` + fx.bob.ID + `","full_name":"Bob Stone","first_name":null,"last_name":null,"title":null,"company":null,` +
		`"network_url":null,"email":null,"phone":null,"location":null,"score":99.999,"status":"detected",` +
		`"radar_id":"` + radar + `","campaign_id":null,"created_at":"2026-11-20T09:00:00.000Z"}],` +
		`"dispatched_at":"2026-11-22T10:15:00.000Z"}`
	if string(r.body) != body {
		t.Fatalf("body\n%s\nwant\n%s", r.body, body)
	}
	// A second push uses the same settings and a new webhook-id.
	fx.e.push(t, fx.key, map[string]any{"lead_ids": []string{fx.bob.ID}, "destination": "webhook_url", "webhook_url": rc.URL})
	reqs = rc.requests()
	if len(reqs) != 2 || reqs[1].header.Get("webhook-id") == r.header.Get("webhook-id") {
		t.Fatalf("second push: %d requests, ids %q %q", len(reqs), r.header.Get("webhook-id"), reqs[len(reqs)-1].header.Get("webhook-id"))
	}
	if err := webhook.Verify(s.SigningSecret, reqs[1].header, reqs[1].body, leadsNow, 0); err != nil || fx.settings(t).SigningSecret != s.SigningSecret {
		t.Fatalf("second push signature: %v", err)
	}
}

// TestPushWebhookSettings: the auth header, field toggles, custom fields
// and a template shape what a push sends.
func TestPushWebhookSettings(t *testing.T) {
	fx := newPushFixture(t, privateHooks(0))
	rc := newReceiver(t, nil)
	ctx := context.Background()
	s := &prospector.WebhookSettings{WorkspaceID: fx.w.ID, AuthHeader: "X-Receiver-Token", AuthValue: "tok-abcdef123456",
		DisabledFields: []string{"phone", "email", "score", "dispatched_at"},
		CustomFields:   map[string]json.RawMessage{"team": json.RawMessage(`"emea"`), "lead.priority": json.RawMessage(`1`)},
		SigningSecret:  prospector.NewWebhookSecret()}
	if err := fx.e.store.CreateWebhookSettings(ctx, s); err != nil {
		t.Fatal(err)
	}
	push := func() received {
		t.Helper()
		got := fx.e.push(t, fx.key, map[string]any{"lead_ids": []string{fx.ada.ID, fx.bob.ID}, "destination": "webhook_url",
			"webhook_url": rc.URL})
		if got.Status != "dispatched" || got.ProviderStatusCode != 204 || got.LeadCount != 2 {
			t.Fatalf("push %+v", got)
		}
		reqs := rc.requests()
		r := reqs[len(reqs)-1]
		if r.header.Get("X-Receiver-Token") != "tok-abcdef123456" {
			t.Fatalf("auth header %q", r.header.Get("X-Receiver-Token"))
		}
		if err := webhook.Verify(s.SigningSecret, r.header, r.body, leadsNow, 0); err != nil {
			t.Fatalf("signature: %v", err)
		}
		return r
	}
	r := push()
	var env map[string]any
	if err := json.Unmarshal(r.body, &env); err != nil {
		t.Fatal(err)
	}
	lead := env["leads"].([]any)[0].(map[string]any)
	if _, ok := env["dispatched_at"]; ok || env["team"] != "emea" || env["lead_count"] != 2.0 || env["source"] != "manual_push" {
		t.Fatalf("envelope %s", r.body)
	}
	if _, ok := lead["phone"]; ok || lead["priority"] != 1.0 || lead["full_name"] != "Ada Lovelace" || len(lead) != 13 {
		t.Fatalf("lead entry %v", lead)
	}
	for _, f := range []string{"email", "score"} {
		if _, ok := lead[f]; ok {
			t.Fatalf("disabled field %s sent: %v", f, lead)
		}
	}
	s.Template = `{"event":"leads.pushed","count":"{{lead_count}}","data":{"{{#leads}}":{"name":"{{lead.full_name}}",` +
		`"score":"{{lead.score}}","label":"{{lead.full_name}} at {{lead.company}}","team":"{{custom.team}}"}}}`
	if err := webhook.CheckSettings(s); err != nil {
		t.Fatal(err)
	}
	if err := fx.e.store.UpdateWebhookSettings(ctx, s); err != nil {
		t.Fatal(err)
	}
	r = push()
	want := `{"event":"leads.pushed","count":2,"data":[{"name":"Ada Lovelace","score":100,"label":"Ada Lovelace at Acme","team":"emea"},` +
		`{"name":"Bob Stone","score":99.999,"label":"Bob Stone at ","team":"emea"}]}`
	if string(r.body) != want {
		t.Fatalf("templated body\n%s\nwant\n%s", r.body, want)
	}
}

// TestPushWebhookFailures: an answer other than 2xx, or none, is
// dispatch_failed with HTTP 200, the status and the truncated body.
func TestPushWebhookFailures(t *testing.T) {
	long := strings.Repeat("é", 800) // 1,600 bytes
	for _, c := range []struct {
		name     string
		status   int
		body     string
		wantBody string
	}{
		{"404", http.StatusNotFound, "no such hook", "no such hook"},
		{"410", http.StatusGone, "gone", "gone"},
		{"422", http.StatusUnprocessableEntity, `{"error":"bad lead"}`, `{"error":"bad lead"}`},
		{"500 long", http.StatusInternalServerError, long, strings.Repeat("é", 500)},
		{"503 empty", http.StatusServiceUnavailable, "", ""},
		{"302 not followed", http.StatusFound, "moved", "moved"},
	} {
		t.Run(c.name, func(t *testing.T) {
			fx := newPushFixture(t, privateHooks(0))
			rc := newReceiver(t, func(w http.ResponseWriter, _ *http.Request, _ int64, _ []byte) {
				if c.status == http.StatusFound {
					w.Header().Set("Location", "http://169.254.169.254/latest/meta-data")
				}
				w.WriteHeader(c.status)
				_, _ = io.WriteString(w, c.body)
			})
			got := fx.e.push(t, fx.key, map[string]any{"lead_ids": []string{fx.ada.ID, fx.bob.ID}, "destination": "webhook_url",
				"webhook_url": rc.URL})
			want := pushResult{Status: "dispatch_failed", Destination: "webhook_url", LeadCount: 0, RequestedLeadCount: 2,
				MissingLeadIDs: []string{fx.ada.ID, fx.bob.ID}, Dispatched: false, ProviderStatusCode: c.status, ProviderResponse: c.wantBody}
			if jsonOf(got) != jsonOf(want) {
				t.Fatalf("push result\n%+v\nwant\n%+v", got, want)
			}
			if rc.hits.Load() != 1 {
				t.Fatalf("%d requests, want 1", rc.hits.Load())
			}
		})
	}
}

func TestPushWebhookTimeout(t *testing.T) {
	fx := newPushFixture(t, privateHooks(200*time.Millisecond))
	rc := newReceiver(t, func(w http.ResponseWriter, r *http.Request, _ int64, _ []byte) {
		select {
		case <-r.Context().Done():
		case <-time.After(3 * time.Second):
		}
	})
	start := time.Now()
	got := fx.e.push(t, fx.key, map[string]any{"lead_ids": []string{fx.ada.ID}, "destination": "webhook_url", "webhook_url": rc.URL})
	if got.Status != "dispatch_failed" || got.Dispatched || got.LeadCount != 0 || got.ProviderStatusCode != 0 ||
		!strings.HasSuffix(got.ProviderResponse, "did not answer within 200ms") || len(got.MissingLeadIDs) != 1 {
		t.Fatalf("push result %+v", got)
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Fatalf("push took %s", d)
	}
}

// TestPushWebhookRefused: the default client refuses loopback, private
// and metadata targets at once (HTTP 200, dispatch_failed), and no
// request reaches the loopback receiver.
func TestPushWebhookRefused(t *testing.T) {
	fx := newPushFixture(t) // the default client, as serve builds it
	rc := newReceiver(t, nil)
	port := rc.URL[strings.LastIndexByte(rc.URL, ':')+1:]
	for _, c := range []struct{ url, want string }{
		{rc.URL + "/in", "refused: webhook target 127.0.0.1 is a loopback address"},
		{"http://localhost:" + port + "/in", "refused: webhook target localhost"},
		{"http://[::1]:" + port + "/in", "refused: webhook target ::1"},
		{"http://[::ffff:127.0.0.1]:" + port + "/in", "refused: webhook target"},
		{"http://2130706433:" + port + "/in", "refused: webhook target 2130706433"},
		{"http://10.0.0.8/in", "refused: webhook target 10.0.0.8 is"},
		{"http://169.254.169.254/latest/meta-data", "refused: webhook target 169.254.169.254 is"},
		{"http://metadata.google.internal/computeMetadata/v1/", "refused: webhook target metadata.google.internal"},
	} {
		got := fx.e.push(t, fx.key, map[string]any{"lead_ids": []string{fx.ada.ID}, "destination": "webhook_url", "webhook_url": c.url})
		if got.Status != "dispatch_failed" || got.Dispatched || got.ProviderStatusCode != 0 || got.LeadCount != 0 ||
			!strings.HasPrefix(got.ProviderResponse, c.want) {
			t.Errorf("%s: %+v, want provider_response %q...", c.url, got, c.want)
		}
	}
	if n := rc.hits.Load(); n != 0 {
		t.Fatalf("%d requests reached the loopback receiver, want 0", n)
	}
}

// TestPushNothingFound: no lead of the workspace among the ids is
// dispatch_failed with nothing sent.
func TestPushNothingFound(t *testing.T) {
	fx := newPushFixture(t, privateHooks(0))
	rc := newReceiver(t, nil)
	unknown := prospector.NewLeadID()
	for _, dest := range []string{"webhook_url", "outreach_tool_a", "outreach_tool_b"} {
		body := map[string]any{"lead_ids": []string{unknown, fx.foreign.ID}, "destination": dest}
		if dest == "webhook_url" {
			body["webhook_url"] = rc.URL
		}
		got := fx.e.push(t, fx.key, body)
		want := pushResult{Status: "dispatch_failed", Destination: dest, RequestedLeadCount: 2,
			MissingLeadIDs: []string{unknown, fx.foreign.ID}, ProviderResponse: "none of the requested leads exist in this workspace; nothing was sent"}
		if jsonOf(got) != jsonOf(want) {
			t.Fatalf("%s: %+v, want %+v", dest, got, want)
		}
	}
	if rc.hits.Load() != 0 {
		t.Fatal("a push without leads reached the receiver")
	}
	if _, err := fx.e.store.WebhookSettings(context.Background(), fx.w.ID); err == nil {
		t.Fatal("a push that sent nothing created webhook settings")
	}
}

func TestPushValidation(t *testing.T) {
	fx := newPushFixture(t, privateHooks(0))
	rc := newReceiver(t, nil)
	id := fx.ada.ID
	ids := `"lead_ids":["` + id + `"]`
	for _, c := range []struct{ name, body, want string }{
		{"no lead_ids", `{"destination":"webhook_url","webhook_url":"https://hooks.example.com"}`, "lead_ids: required"},
		{"empty lead_ids", `{"lead_ids":[],"destination":"outreach_tool_a"}`, "lead_ids: required"},
		{"1,001 lead_ids", `{"lead_ids":` + jsonOf(manyIDs(1001)) + `,"destination":"outreach_tool_a"}`, "lead_ids: at most 1000 ids per call, got 1001"},
		{"malformed id", `{"lead_ids":["` + id + `","lead-2"],"destination":"outreach_tool_a"}`, `lead_ids[1]: "lead-2" is not a lead id`},
		{"no destination", `{` + ids + `}`, "destination: required"},
		{"null destination", `{` + ids + `,"destination":null}`, "destination: required"},
		{"unknown destination", `{` + ids + `,"destination":"slack"}`, `destination: "slack" is not supported`},
		{"destination type", `{` + ids + `,"destination":["webhook_url"]}`, `destination: must be`},
		{"no webhook_url", `{` + ids + `,"destination":"webhook_url"}`, "webhook_url: required when destination is webhook_url"},
		{"blank webhook_url", `{` + ids + `,"destination":"webhook_url","webhook_url":"  "}`, "webhook_url: required"},
		{"relative webhook_url", `{` + ids + `,"destination":"webhook_url","webhook_url":"/hooks/in"}`, "webhook_url: scheme must be http or https"},
		{"ftp webhook_url", `{` + ids + `,"destination":"webhook_url","webhook_url":"ftp://hooks.example.com/in"}`, "webhook_url: scheme must be http or https"},
		{"no host", `{` + ids + `,"destination":"webhook_url","webhook_url":"https:///in"}`, "webhook_url: needs a host"},
		{"user info", `{` + ids + `,"destination":"webhook_url","webhook_url":"https://u:p@hooks.example.com/"}`, "webhook_url: must not carry user info"},
		{"not a URL", `{` + ids + `,"destination":"webhook_url","webhook_url":"http://[::1"}`, "webhook_url: not a valid URL"},
		{"too long", `{` + ids + `,"destination":"webhook_url","webhook_url":"https://hooks.example.com/` + strings.Repeat("a", 2048) + `"}`, "webhook_url: at most 2048 characters"},
		{"webhook_url with a tool", `{` + ids + `,"destination":"outreach_tool_b","webhook_url":"` + rc.URL + `"}`, "webhook_url: only with destination webhook_url"},
		{"unknown member", `{` + ids + `,"destination":"outreach_tool_a","campaign_id":"c"}`, "campaign_id: unknown field"},
		{"not an object", `[]`, "body: must be a JSON object"},
	} {
		t.Run(c.name, func(t *testing.T) {
			fx.e.t = t
			msg := fx.e.post("/api/v1/leads/push", fx.key, c.body).wantError(t, http.StatusBadRequest, prospector.EINVALID)
			if !strings.HasPrefix(msg, c.want) {
				t.Fatalf("message %q, want it to start %q", msg, c.want)
			}
		})
	}
	if rc.hits.Load() != 0 {
		t.Fatal("an invalid push reached the receiver")
	}
}

// campaigns returns the campaign_id of each of the workspace's leads.
func (fx *pushFixture) campaigns(t *testing.T, ls ...*prospector.Lead) []string {
	t.Helper()
	stored, err := fx.e.store.LeadsByID(context.Background(), fx.w.ID, idsOf(ls...))
	if err != nil {
		t.Fatal(err)
	}
	byID := map[string]string{}
	for _, l := range stored {
		byID[l.ID] = l.CampaignID
	}
	out := make([]string, len(ls))
	for i, l := range ls {
		out[i] = byID[l.ID]
	}
	return out
}

func (fx *pushFixture) connect(t *testing.T, in *prospector.OutreachIntegration) {
	t.Helper()
	in.WorkspaceID = fx.w.ID
	if err := fx.e.store.PutOutreachIntegration(context.Background(), in); err != nil {
		t.Fatal(err)
	}
}

// TestPushOutreachToolA: leads join the campaign through tool A's
// add-leads API, and the campaign becomes their campaign_id.
func TestPushOutreachToolA(t *testing.T) {
	fx := newPushFixture(t, privateHooks(0))
	unknown := prospector.NewLeadID()
	body := map[string]any{"lead_ids": []string{fx.bob.ID, unknown, fx.ada.ID}, "destination": "outreach_tool_a"}
	got := fx.e.push(t, fx.key, body)
	if got.Status != "dispatch_failed" || got.Dispatched || got.ProviderStatusCode != 0 || got.LeadCount != 0 ||
		!strings.HasPrefix(got.ProviderResponse, "outreach_tool_a is not configured for this workspace: pushing there needs an integration") ||
		strings.Contains(got.ProviderResponse, "prospector integrations") ||
		strings.Join(got.MissingLeadIDs, " ") != fx.bob.ID+" "+unknown+" "+fx.ada.ID {
		t.Fatalf("not configured: %+v", got)
	}
	tool := newReceiver(t, func(w http.ResponseWriter, r *http.Request, _ int64, body []byte) {
		var req struct {
			Leads []map[string]any `json:"leads"`
		}
		_ = json.Unmarshal(body, &req)
		w.WriteHeader(http.StatusCreated)
		_, _ = io.WriteString(w, `{"added":`+strconv.Itoa(len(req.Leads))+`}`)
	})
	fx.connect(t, &prospector.OutreachIntegration{Tool: "outreach_tool_a", BaseURL: tool.URL + "/api", APIKey: "key-a-123456789",
		CampaignID: "cmp_42"})
	got = fx.e.push(t, fx.key, body)
	want := pushResult{Status: "dispatched", Destination: "outreach_tool_a", LeadCount: 2, RequestedLeadCount: 3,
		MissingLeadIDs: []string{unknown}, Dispatched: true, ProviderStatusCode: 201, ProviderResponse: `{"added":2}`}
	if jsonOf(got) != jsonOf(want) {
		t.Fatalf("push result\n%+v\nwant\n%+v", got, want)
	}
	r := tool.requests()[0]
	var sent struct {
		Leads []map[string]any `json:"leads"`
	}
	if err := json.Unmarshal(r.body, &sent); err != nil {
		t.Fatal(err)
	}
	if r.uri != "/api/v1/campaigns/cmp_42/leads" || r.header.Get("Authorization") != "Bearer key-a-123456789" ||
		len(sent.Leads) != 2 || sent.Leads[0]["external_id"] != fx.bob.ID || sent.Leads[1]["full_name"] != "Ada Lovelace" ||
		sent.Leads[1]["company_name"] != "Acme" {
		t.Fatalf("request %s %v %s", r.uri, r.header, r.body)
	}
	if c := fx.campaigns(t, fx.ada, fx.bob); c[0] != "cmp_42" || c[1] != "cmp_42" {
		t.Fatalf("campaign ids %q, want cmp_42", c)
	}
	// The export shows it.
	exp := fx.e.export(t, fx.key, map[string]any{"lead_ids": []string{fx.ada.ID}, "format": "json"})
	if !strings.Contains(string(exp.Data), `"campaign_id":"cmp_42"`) {
		t.Fatalf("export after push: %s", exp.Data)
	}
}

// TestPushOutreachToolAFailures: a 429 asking for a long wait and a
// refused base URL fail the push; nothing is recorded.
func TestPushOutreachToolAFailures(t *testing.T) {
	fx := newPushFixture(t, privateHooks(0))
	tool := newReceiver(t, func(w http.ResponseWriter, _ *http.Request, _ int64, _ []byte) {
		w.Header().Set("Retry-After", "60")
		w.WriteHeader(http.StatusTooManyRequests)
		_, _ = io.WriteString(w, "slow down")
	})
	fx.connect(t, &prospector.OutreachIntegration{Tool: "outreach_tool_a", BaseURL: tool.URL, APIKey: "key-a-123456789", CampaignID: "cmp_42"})
	got := fx.e.push(t, fx.key, map[string]any{"lead_ids": []string{fx.ada.ID}, "destination": "outreach_tool_a"})
	if got.Status != "dispatch_failed" || got.ProviderStatusCode != 429 || got.ProviderResponse != "slow down" || got.LeadCount != 0 ||
		tool.hits.Load() != 1 {
		t.Fatalf("429: %+v after %d requests", got, tool.hits.Load())
	}
	if c := fx.campaigns(t, fx.ada); c[0] != "" {
		t.Fatalf("campaign recorded on a failed push: %q", c[0])
	}
	// With the default client, a loopback base URL is refused.
	fx2 := newPushFixture(t)
	fx2.connect(t, &prospector.OutreachIntegration{Tool: "outreach_tool_a", BaseURL: tool.URL, APIKey: "key-a-123456789", CampaignID: "cmp_42"})
	got = fx2.e.push(t, fx2.key, map[string]any{"lead_ids": []string{fx2.ada.ID}, "destination": "outreach_tool_a"})
	if got.Status != "dispatch_failed" || got.ProviderStatusCode != 0 ||
		!strings.HasPrefix(got.ProviderResponse, "refused: webhook target 127.0.0.1 is a loopback address") || tool.hits.Load() != 1 {
		t.Fatalf("refused tool: %+v", got)
	}
}

// TestPushOutreachToolB: contacts go to the list 100 a request; when a
// batch fails, the leads of the accepted batches count as dispatched and
// get the list as campaign_id, the rest are missing.
func TestPushOutreachToolB(t *testing.T) {
	e := newEnv(t, atLeadsNow, privateHooks(0))
	w, key := e.workspace("acme", prospector.PlanGrowth, prospector.PlanGrowth)
	ls := seedLeads(t, e.store, w, 150, nil)
	fx := &pushFixture{e: e, w: w, key: key}
	body := map[string]any{"lead_ids": idsOf(ls...), "destination": "outreach_tool_b"}
	got := e.push(t, key, body)
	if got.Status != "dispatch_failed" || !strings.HasPrefix(got.ProviderResponse, "outreach_tool_b is not configured for this workspace") ||
		!strings.Contains(got.ProviderResponse, "the list its contacts join") || strings.Contains(got.ProviderResponse, "--list") ||
		len(got.MissingLeadIDs) != 150 {
		t.Fatalf("not configured: %+v", got)
	}
	fail := atomic.Bool{}
	tool := newReceiver(t, func(w http.ResponseWriter, _ *http.Request, n int64, _ []byte) {
		if n == 2 && fail.Load() {
			w.WriteHeader(http.StatusServiceUnavailable)
			_, _ = io.WriteString(w, "overloaded")
			return
		}
		_, _ = io.WriteString(w, `{"ok":true}`)
	})
	fx.connect(t, &prospector.OutreachIntegration{Tool: "outreach_tool_b", BaseURL: tool.URL, APIKey: "key-b-123456789", ListID: "list-9"})
	fail.Store(true)
	got = e.push(t, key, body)
	want := pushResult{Status: "dispatch_failed", Destination: "outreach_tool_b", LeadCount: 100, RequestedLeadCount: 150,
		MissingLeadIDs: idsOf(ls[100:]...), Dispatched: false, ProviderStatusCode: 503, ProviderResponse: "overloaded"}
	if jsonOf(got) != jsonOf(want) {
		t.Fatalf("partial failure\n%+v\nwant\n%+v", got, want)
	}
	reqs := tool.requests()
	var sent struct {
		Contacts []map[string]any `json:"contacts"`
	}
	if err := json.Unmarshal(reqs[0].body, &sent); err != nil {
		t.Fatal(err)
	}
	if len(reqs) != 2 || reqs[0].uri != "/api/lists/list-9/contacts" || reqs[0].header.Get("X-Api-Key") != "key-b-123456789" ||
		len(sent.Contacts) != 100 || sent.Contacts[0]["customFields"].(map[string]any)["prospector_lead_id"] != ls[0].ID {
		t.Fatalf("requests: %d, first %s %v", len(reqs), reqs[0].uri, reqs[0].header)
	}
	c := fx.campaigns(t, ls...)
	for i, id := range c {
		if want := map[bool]string{true: "list-9", false: ""}[i < 100]; id != want {
			t.Fatalf("lead %d campaign %q, want %q", i, id, want)
		}
	}
	fail.Store(false)
	got = e.push(t, key, map[string]any{"lead_ids": idsOf(ls[100:]...), "destination": "outreach_tool_b"})
	if got.Status != "dispatched" || !got.Dispatched || got.LeadCount != 50 || got.ProviderStatusCode != 200 || len(got.MissingLeadIDs) != 0 {
		t.Fatalf("retry of the rest: %+v", got)
	}
	if c := fx.campaigns(t, ls[149]); c[0] != "list-9" {
		t.Fatalf("campaign of the last lead %q", c[0])
	}
}
