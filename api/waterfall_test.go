package api_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"reflect"
	"strings"
	"testing"
)

// waterfall posts to waterfall-icp and returns data.
func (e *env) waterfall(t *testing.T, key, body string) map[string]any {
	t.Helper()
	return e.post("/api/v1/contacts/waterfall-icp", key, body).data(t)
}

func TestWaterfallICP(t *testing.T) {
	e := newEnv(t, noRateLimit)
	fx := seedContacts(e)
	key := contactsKey(e)
	items := func(d map[string]any) []any {
		t.Helper()
		it, ok := d["items"].([]any)
		if !ok {
			t.Fatalf("items is not an array: %v", d["items"])
		}
		return it
	}

	t.Run("second tier matches", func(t *testing.T) {
		d := e.waterfall(t, key, `{"company_domain":"orbit.example","max_results":2,"cascade":[
			{"role":"decision_maker","include_titles":["Chief Revenue Officer"]},
			{"role":"budget_owner","include_titles":["VP","Head"]},
			{"role":"influencer","include_titles":["Manager"]}]}`)
		if d["matched"] != true || d["matched_tier"] != 2.0 || d["matched_role"] != "budget_owner" {
			t.Errorf("matched %v tier %v role %v, want true 2 budget_owner", d["matched"], d["matched_tier"], d["matched_role"])
		}
		fx.wantKeys(t, items(d), "vpmkt vpsales")
		if got, want := string(mustJSON(d["waterfall"])), `[`+
			`{"evaluated":true,"result_count":0,"role":"decision_maker","status":"not_matched","tier":1},`+
			`{"evaluated":true,"result_count":3,"role":"budget_owner","status":"matched","tier":2},`+
			`{"evaluated":false,"result_count":0,"role":"influencer","status":"not_matched","tier":3}]`; got != want {
			t.Errorf("waterfall\n got %s\nwant %s", got, want)
		}
		// The tier's titles are requested titles: the score has the bonus.
		for _, it := range items(d) {
			m := it.(map[string]any)
			if m["score"] != 85.0 || m["role"] != "decision_maker" {
				t.Errorf("%v: score %v role %v, want 85 decision_maker", m["id"], m["score"], m["role"])
			}
			angle(t, m)
		}
	})

	t.Run("first tier matches", func(t *testing.T) {
		d := e.waterfall(t, key, `{"company_domain":"orbit.example","cascade":[
			{"role":"decision_maker","include_titles":["CEO","Founder"]},
			{"role":"budget_owner","include_titles":["VP"]}]}`)
		if d["matched_tier"] != 1.0 || d["matched_role"] != "decision_maker" {
			t.Errorf("tier %v role %v", d["matched_tier"], d["matched_role"])
		}
		fx.wantKeys(t, items(d), "cofounder ceo")
		if got, want := string(mustJSON(d["waterfall"])), `[`+
			`{"evaluated":true,"result_count":2,"role":"decision_maker","status":"matched","tier":1},`+
			`{"evaluated":false,"result_count":0,"role":"budget_owner","status":"not_matched","tier":2}]`; got != want {
			t.Errorf("waterfall\n got %s\nwant %s", got, want)
		}
	})

	t.Run("default max_results 3 and result_count counts every match", func(t *testing.T) {
		d := e.waterfall(t, key, `{"company_domain":"orbit.example","cascade":[{"role":"leaders","include_titles":["VP","Director","Head","Manager"]}]}`)
		fx.wantKeys(t, items(d), "vpmkt vpsales direng")
		wf := d["waterfall"].([]any)[0].(map[string]any)
		if wf["result_count"] != 6.0 || wf["status"] != "matched" {
			t.Errorf("waterfall %v, want result_count 6 matched", wf)
		}
	})

	t.Run("max_results 25", func(t *testing.T) {
		d := e.waterfall(t, key, `{"company_domain":"orbit.example","max_results":25,"cascade":[{"role":"sales","include_titles":["Sales","Account Executive"]}]}`)
		fx.wantKeys(t, items(d), "vpsales salesmgr ae2 ae")
	})

	t.Run("exclude_titles", func(t *testing.T) {
		d := e.waterfall(t, key, `{"company_domain":"orbit.example","cascade":[{"role":"vp","include_titles":["VP"],"exclude_titles":["Marketing"]}]}`)
		fx.wantKeys(t, items(d), "vpsales")
		if wf := d["waterfall"].([]any)[0].(map[string]any); wf["result_count"] != 1.0 {
			t.Errorf("result_count %v, want 1", wf["result_count"])
		}
		// Everyone excluded: the tier does not match, the next one does.
		d = e.waterfall(t, key, `{"company_domain":"orbit.example","cascade":[
			{"role":"vp","include_titles":["VP"],"exclude_titles":["Sales","Marketing"]},
			{"role":"eng","include_titles":["Engineer","Engineering"],"exclude_titles":["Director"]}]}`)
		if d["matched_tier"] != 2.0 {
			t.Errorf("matched_tier %v, want 2", d["matched_tier"])
		}
		fx.wantKeys(t, items(d), "swe")
	})

	t.Run("tier locations", func(t *testing.T) {
		d := e.waterfall(t, key, `{"company_domain":"orbit.example","cascade":[
			{"role":"de_sales","include_titles":["Account Executive"],"locations":["DE"]},
			{"role":"uk_sales","include_titles":["Account Executive"],"locations":["United Kingdom"]}]}`)
		if d["matched_tier"] != 2.0 || d["matched_role"] != "uk_sales" {
			t.Errorf("tier %v role %v, want 2 uk_sales", d["matched_tier"], d["matched_role"])
		}
		fx.wantKeys(t, items(d), "ae2")
		d = e.waterfall(t, key, `{"company_domain":"orbit.example","cascade":[{"role":"r","include_titles":["VP"],"locations":["Berlin, Germany"]}]}`)
		fx.wantKeys(t, items(d), "vpmkt")
		d = e.waterfall(t, key, `{"company_domain":"orbit.example","cascade":[{"role":"r","include_titles":["VP"],"locations":["WORLD"]}]}`)
		fx.wantKeys(t, items(d), "vpmkt vpsales")
	})

	t.Run("no tier matches", func(t *testing.T) {
		r := e.post("/api/v1/contacts/waterfall-icp", key, `{"company_domain":"orbit.example","cascade":[
			{"role":"a","include_titles":["Astronaut"]},{"role":"b","include_titles":["VP"],"locations":["FR"]}]}`)
		want := `{"data":{"matched":false,"matched_tier":null,"matched_role":null,"items":[],"waterfall":[` +
			`{"tier":1,"role":"a","status":"not_matched","result_count":0,"evaluated":true},` +
			`{"tier":2,"role":"b","status":"not_matched","result_count":0,"evaluated":true}]}}`
		var got, w any
		if err := json.Unmarshal(r.body, &got); err != nil {
			t.Fatalf("%v: %s", err, r.body)
		}
		json.Unmarshal([]byte(want), &w)
		if r.status != 200 || !reflect.DeepEqual(got, w) {
			t.Errorf("got %d %s\nwant %s", r.status, r.body, want)
		}
	})

	t.Run("company_network_url", func(t *testing.T) {
		d := e.waterfall(t, key, `{"company_network_url":"https://network.example/company/orbit","cascade":[{"role":"r","include_titles":["CEO"]}]}`)
		fx.wantKeys(t, items(d), "ceo")
	})

	t.Run("10 tiers accepted", func(t *testing.T) {
		tiers := make([]string, 10)
		for i := range tiers {
			tiers[i] = fmt.Sprintf(`{"role":"r%d","include_titles":["Astronaut %d"]}`, i, i)
		}
		tiers[9] = `{"role":"last","include_titles":["Software Engineer"]}`
		d := e.waterfall(t, key, `{"company_domain":"orbit.example","cascade":[`+strings.Join(tiers, ",")+`]}`)
		if d["matched_tier"] != 10.0 || len(d["waterfall"].([]any)) != 10 {
			t.Errorf("matched_tier %v, %d waterfall entries", d["matched_tier"], len(d["waterfall"].([]any)))
		}
		fx.wantKeys(t, items(d), "swe")
	})
}

func TestWaterfallICPValidation(t *testing.T) {
	e := newEnv(t, noRateLimit)
	seedContacts(e)
	key := contactsKey(e)
	tier := `{"role":"decision_maker","include_titles":["CEO"]}`
	tiers := func(n int) string {
		ts := make([]string, n)
		for i := range ts {
			ts[i] = tier
		}
		return "[" + strings.Join(ts, ",") + "]"
	}
	runInvalidCases(t, e, key, "/api/v1/contacts/waterfall-icp", []invalidCase{
		{"cascade missing", `{"company_domain":"orbit.example"}`, "cascade"},
		{"cascade null", `{"company_domain":"orbit.example","cascade":null}`, "cascade"},
		{"cascade empty", `{"company_domain":"orbit.example","cascade":[]}`, "cascade"},
		{"cascade 11 tiers", `{"company_domain":"orbit.example","cascade":` + tiers(11) + `}`, "cascade"},
		{"cascade an object", `{"company_domain":"orbit.example","cascade":` + tier + `}`, "cascade"},
		{"tier without role", `{"company_domain":"orbit.example","cascade":[` + tier + `,{"include_titles":["VP"]}]}`, "cascade[1].role"},
		{"tier with empty role", `{"company_domain":"orbit.example","cascade":[{"role":" ","include_titles":["VP"]}]}`, "cascade[0].role"},
		{"tier role too long", `{"company_domain":"orbit.example","cascade":[{"role":"` + strings.Repeat("r", 101) + `","include_titles":["VP"]}]}`, "cascade[0].role"},
		{"tier without include_titles", `{"company_domain":"orbit.example","cascade":[{"role":"r"}]}`, "cascade[0].include_titles"},
		{"tier with include_titles []", `{"company_domain":"orbit.example","cascade":[` + tier + `,{"role":"r","include_titles":[]}]}`, "cascade[1].include_titles"},
		{"tier with an empty title", `{"company_domain":"orbit.example","cascade":[{"role":"r","include_titles":["VP",""]}]}`, "cascade[0].include_titles[1]"},
		{"tier with an empty exclude", `{"company_domain":"orbit.example","cascade":[{"role":"r","include_titles":["VP"],"exclude_titles":[""]}]}`, "cascade[0].exclude_titles[0]"},
		{"tier with an unknown country", `{"company_domain":"orbit.example","cascade":[{"role":"r","include_titles":["VP"],"locations":["ZZ"]}]}`, "cascade[0].locations[0]"},
		{"tier with 51 titles", `{"company_domain":"orbit.example","cascade":[{"role":"r","include_titles":` + jsonList(51, "VP") + `}]}`, "cascade[0].include_titles"},
		{"max_results 0", `{"company_domain":"orbit.example","max_results":0,"cascade":` + tiers(1) + `}`, "max_results"},
		{"max_results 26", `{"company_domain":"orbit.example","max_results":26,"cascade":` + tiers(1) + `}`, "max_results"},
		{"no company", `{"cascade":` + tiers(1) + `}`, "company_domain"},
		{"invalid domain", `{"company_domain":"orbit","cascade":` + tiers(1) + `}`, "company_domain"},
		{"invalid company_network_url", `{"company_network_url":"ftp://network.example/company/orbit","cascade":` + tiers(1) + `}`, "company_network_url"},
		{"network_url is not a waterfall member", `{"network_url":"https://network.example/company/orbit","cascade":` + tiers(1) + `}`, "network_url"},
		{"malformed JSON", `{"cascade":[`, "body"},
	})
	t.Run("unknown company", func(t *testing.T) {
		e.post("/api/v1/contacts/waterfall-icp", key, `{"company_domain":"nowhere.example","cascade":`+tiers(1)+`}`).wantError(t, http.StatusNotFound, "not_found")
		e.post("/api/v1/contacts/waterfall-icp", key, `{"company_network_url":"https://network.example/company/nowhere","cascade":`+tiers(1)+`}`).wantError(t, http.StatusNotFound, "not_found")
	})
}
