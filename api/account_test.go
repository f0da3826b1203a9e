package api_test

import (
	"context"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/prospectorhq/prospector"
	"github.com/prospectorhq/prospector/api"
)

func TestKeyInfo(t *testing.T) {
	e := newEnv(t)
	w, key := e.workspace("acme", prospector.PlanStarter, prospector.PlanStarter)
	d := e.do("GET", "/api/v1/account/key-info", key, nil).data(t)

	if d["valid"] != true || d["public_api_enabled"] != true || d["tier"] != "starter" {
		t.Errorf("valid/public_api_enabled/tier = %v/%v/%v", d["valid"], d["public_api_enabled"], d["tier"])
	}
	auth := d["auth"].(map[string]any)
	if auth["type"] != "api_key" || auth["key_header"] != "X-Service-API-Key" || !strings.HasPrefix(auth["subject"].(string), "key_") {
		t.Errorf("auth = %v", auth)
	}
	if strings.Contains(string(mustJSON(d)), key) {
		t.Error("key-info echoes the secret key")
	}
	ws := d["workspace"].(map[string]any)
	want := map[string]any{"id": w.ID, "user_id": w.OwnerUserID, "role": "owner", "email": "acme@example.test"}
	if !reflect.DeepEqual(ws, want) {
		t.Errorf("workspace = %v, want %v", ws, want)
	}
	rl := d["rate_limit"].(map[string]any)
	if rl["enabled"] != true || rl["strategy"] != "fixed_window" {
		t.Errorf("rate_limit = %v", rl)
	}
	if simple := rl["simple"].(map[string]any); simple["requests"] != 300.0 || simple["window"] != "1m" {
		t.Errorf("rate_limit.simple = %v, want 300 per 1m for a starter key", simple)
	}
	tiers := rl["tiers"].(map[string]any)
	if !reflect.DeepEqual(tiers, map[string]any{"default": "100/m", "starter": "300/m", "growth": "1000/m"}) {
		t.Errorf("rate_limit.tiers = %v", tiers)
	}
	var endpoints []string
	for _, ep := range d["allowed_endpoints"].([]any) {
		endpoints = append(endpoints, ep.(string))
	}
	// The contract's 25 endpoints and the 2 of the sources and the 4 of radar management.
	if !reflect.DeepEqual(endpoints, api.Endpoints()) || len(endpoints) != 31 {
		t.Errorf("allowed_endpoints = %v", endpoints)
	}
	wantTimestamp(t, d["generated_at"])
}

func TestKeyInfoReportsConfiguredRates(t *testing.T) {
	rates, _ := prospector.ParseTierRates("growth=100000/m")
	e := newEnv(t, func(c *apiConfig) { c.TierRates = rates; c.Limiter = nil })
	_, key := e.workspace("fast", prospector.PlanGrowth, prospector.PlanGrowth)
	r := e.do("GET", "/api/v1/account/key-info", key, nil)
	rl := r.data(t)["rate_limit"].(map[string]any)
	if rl["enabled"] != false {
		t.Errorf("rate limiting off, key-info says enabled=%v", rl["enabled"])
	}
	if rl["tiers"].(map[string]any)["growth"] != "100000/m" || rl["simple"].(map[string]any)["requests"] != 100000.0 {
		t.Errorf("configured growth rate not reported: %v", rl)
	}
	if r.header.Get("X-Ratelimit-Limit") != "100000" {
		t.Errorf("x-ratelimit-limit = %s, want 100000", r.header.Get("X-Ratelimit-Limit"))
	}
	for i := 0; i < 150; i++ {
		if r := e.do("GET", "/api/v1/account/key-info", key, nil); r.status != 200 {
			t.Fatalf("request %d with limiting off: %d", i, r.status)
		}
	}
}

func TestCreditUsage(t *testing.T) {
	e := newEnv(t)
	w, key := e.workspace("billing", prospector.PlanStarter, prospector.PlanStarter)
	ctx := context.Background()
	if _, err := e.store.ChargeCredits(ctx, &prospector.Charge{WorkspaceID: w.ID, Amount: 7, Reason: "test"}, time.Now()); err != nil {
		t.Fatal(err)
	}
	if err := e.store.AcquireQuota(ctx, w.ID, prospector.QuotaRadars); err != nil {
		t.Fatal(err)
	}
	d := e.do("GET", "/api/v1/account/credit-usage", key, nil).data(t)
	ws := d["workspace"].(map[string]any)
	if ws["id"] != w.ID || ws["user_id"] != w.OwnerUserID || ws["role"] != "owner" || ws["email"] != "billing@example.test" {
		t.Errorf("workspace = %v", ws)
	}
	sub := d["subscription"].(map[string]any)
	if sub["tier"] != "starter" || sub["status"] != "active" || sub["pending_plan"] != nil || sub["pending_plan_at"] != nil {
		t.Errorf("subscription = %v", sub)
	}
	wantTimestamp(t, sub["current_period_end"])
	credits := d["credits"].(map[string]any)
	wantCredits := map[string]any{"total": 1000.0, "used": 7.0, "remaining": 993.0, "unlimited": false, "bypassed": false}
	if !reflect.DeepEqual(credits, wantCredits) {
		t.Errorf("credits = %v, want %v", credits, wantCredits)
	}
	limits := d["limits"].(map[string]any)
	wantLimits := map[string]any{
		"radars":          map[string]any{"used": 1.0, "limit": 5.0, "unlimited": false, "bypassed": false},
		"networkAccounts": map[string]any{"used": 0.0, "limit": 3.0, "unlimited": false, "bypassed": false},
		"radarSignals":    map[string]any{"limit": 10000.0, "unlimited": false, "bypassed": false},
	}
	if !reflect.DeepEqual(limits, wantLimits) {
		t.Errorf("limits = %v, want %v", limits, wantLimits)
	}
	wantTimestamp(t, d["generated_at"])
}

func TestCreditUsageUnlimitedAndBypassed(t *testing.T) {
	e := newEnv(t)
	_, key := e.workspace("internal", prospector.PlanDefault, prospector.PlanDefault, func(w *prospector.Workspace) {
		w.Credits = prospector.Limit{Bypassed: true}
		w.Radars = prospector.Limit{}
	})
	d := e.do("GET", "/api/v1/account/credit-usage", key, nil).data(t)
	credits := d["credits"].(map[string]any)
	if credits["total"] != nil || credits["remaining"] != nil || credits["unlimited"] != true || credits["bypassed"] != true || credits["used"] != 0.0 {
		t.Errorf("unlimited bypassed credits = %v", credits)
	}
	if sub := d["subscription"].(map[string]any); sub["status"] != "none" || sub["tier"] != "default" {
		t.Errorf("default plan subscription = %v, want status none", sub)
	}
	radars := d["limits"].(map[string]any)["radars"].(map[string]any)
	if radars["limit"] != nil || radars["unlimited"] != true {
		t.Errorf("unlimited radars = %v", radars)
	}
}

func TestFieldValues(t *testing.T) {
	e := newEnv(t)
	_, key := e.workspace("meta", prospector.PlanDefault, prospector.PlanDefault)
	d := e.do("GET", "/api/v1/meta/field-values", key, nil).data(t)
	strs := func(name string) string {
		var out []string
		for _, v := range d[name].([]any) {
			out = append(out, v.(string))
		}
		return strings.Join(out, ",")
	}
	want := map[string]string{
		"lead_statuses":                   "detected,queued_comment,commented,queued_connect,connection_sent,connected,queued_message,messaged,replied,meeting_booked,not_interested,connection_withdrawn,skipped,blocked",
		"signal_types":                    "keyword_post,keyword_comment,competitor_engagement,influencer_engagement,asking_for_recommendations,job_change,company_hiring,funding_announcement,event_rsvp,tech_changes",
		"employee_ranges":                 "1-10,11-50,51-200,201-500,501-1000,1001-5000,5001-10000,10001+",
		"job_levels":                      "Founder,CXO,VP,Director,Head,Manager,IC",
		"job_functions":                   "Sales,Marketing,Growth,Revenue,Operations,RevOps,Product,Engineering,People,Finance,Customer Success,Partnerships",
		"public_api_feedback_event_types": "open,click,reply,positive_reply,bounce,meeting_booked",
		"outreach_destinations":           "outreach_tool_a,outreach_tool_b,webhook_url",
	}
	for name, values := range want {
		if got := strs(name); got != values {
			t.Errorf("%s = %s, want %s", name, got, values)
		}
	}
	countries := d["countries"].(map[string]any)
	if countries["global"] != "WORLD" || countries["format"] != "ISO 3166-1 alpha-2 country code" ||
		!reflect.DeepEqual(countries["recommended_examples"], []any{"WORLD", "US", "SG", "GB", "AU", "CA", "ID"}) {
		t.Errorf("countries = %v", countries)
	}
	logic := map[string]any{"field_groups": "AND", "values_inside_same_field": "OR", "exclude_filters": "NOT", "global_location": "WORLD"}
	if !reflect.DeepEqual(d["search_logic"], logic) {
		t.Errorf("search_logic = %v", d["search_logic"])
	}
	groups := map[string]any{
		"discover": []any{"POST /api/v1/discover/companies", "POST /api/v1/discover/people"},
		"signals":  []any{"GET /api/v1/signals/hiring", "GET /api/v1/signals/funding"},
	}
	if !reflect.DeepEqual(d["endpoint_groups"], groups) {
		t.Errorf("endpoint_groups = %v", d["endpoint_groups"])
	}
	wantTimestamp(t, d["generated_at"])
	if len(d) != 11 {
		t.Errorf("field-values has %d members, want the 10 enumerations and generated_at", len(d))
	}
}

func wantTimestamp(t *testing.T, v any) {
	t.Helper()
	s, _ := v.(string)
	ts, err := time.Parse(time.RFC3339, s)
	if err != nil {
		t.Fatalf("%v is not an ISO 8601 timestamp: %v", v, err)
	}
	if ts.Location() != time.UTC {
		t.Errorf("timestamp %s not in UTC", s)
	}
}
