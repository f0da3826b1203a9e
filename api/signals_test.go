package api_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/prospectorhq/prospector"
)

// The signals fixture: three synthetic companies with signals and events
// at fixed times, and one known company with none. Halcyon has a profile
// URL and a ticker, Ember has neither; Vesper's hiring signal ties
// Halcyon's in time.
type signalFx struct {
	co   map[string]*prospector.Company
	sig  map[string]*prospector.Signal
	byID map[string]string // a record id -> fixture key
}

func sigTime(s string) time.Time {
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		panic(err)
	}
	return t.UTC()
}

func seedSignals(e *env) *signalFx {
	e.t.Helper()
	t := e.t
	ctx := context.Background()
	fx := &signalFx{co: map[string]*prospector.Company{}, sig: map[string]*prospector.Signal{}, byID: map[string]string{}}
	cs := []*prospector.Company{
		{Name: "Halcyon Freight", Domain: "halcyon.example", Website: "https://halcyon.example", Industry: "Software Development",
			CountryCode: "US", NetworkURL: "https://network.example/company/halcyon", Ticker: "HLCN"},
		{Name: "Ember Ledger", Domain: "ember.example", Industry: "Financial Services", CountryCode: "GB"},
		{Name: "Vesper Robotics", Domain: "vesper.example", Industry: "Software Development", CountryCode: "DE"},
		{Name: "Quiet Quarry", Domain: "quietquarry.example", Industry: "Retail", CountryCode: "US"},
	}
	if _, err := e.store.UpsertCompanies(ctx, cs); err != nil {
		t.Fatal(err)
	}
	for i, k := range []string{"halcyon", "ember", "vesper", "quiet"} {
		fx.co[k] = cs[i]
	}
	avery := importedPerson("halcyon-vp", "https://network.example/in/avery-quill", "Avery Quill", "VP of Sales", fx.co["halcyon"], "Austin", "Texas", "US", nil)
	rowan := importedPerson("ember-cfo", "", "Rowan Pike", "", fx.co["ember"], "London", "England", "GB", nil)
	if _, err := e.store.UpsertPeople(ctx, []*prospector.Person{avery, rowan}); err != nil {
		t.Fatal(err)
	}
	type sigDef struct {
		key, typ, co string
		person       *prospector.Person
		title        string
		detectedAt   string
	}
	defs := []sigDef{
		{"h-hiring", "company_hiring", "halcyon", nil, "Hiring 12 account executives", "2026-03-10T09:00:00Z"},
		{"h-job", "job_change", "halcyon", avery, "Started as VP of Sales", "2026-03-12T10:30:00.123Z"},
		{"h-fund", "funding_announcement", "halcyon", nil, "Raised a Series B", "2026-02-01T00:00:00Z"},
		{"h-tech", "tech_changes", "halcyon", nil, "", "2026-01-15T00:00:00Z"},
		{"e-fund", "funding_announcement", "ember", nil, "Raised a seed round", "2026-03-01T00:00:00Z"},
		{"e-post", "keyword_post", "ember", rowan, "Posted about ledgers", "2026-03-05T00:00:00Z"},
		{"e-hiring", "company_hiring", "ember", nil, "Hiring 2 analysts", "2026-03-11T00:00:00Z"},
		{"v-hiring", "company_hiring", "vesper", nil, "Hiring 5 engineers", "2026-03-10T09:00:00Z"},
		{"v-hiring-old", "company_hiring", "vesper", nil, "Hiring 1 engineer", "2025-12-01T00:00:00Z"},
	}
	var ss []*prospector.Signal
	for _, d := range defs {
		c := fx.co[d.co]
		sg := &prospector.Signal{ExternalID: "sig-" + d.key, Type: d.typ, CompanyID: &c.ID, CompanyDomain: c.Domain,
			Title: d.title, DetectedAt: sigTime(d.detectedAt)}
		if d.person != nil {
			sg.PersonID = &d.person.ID
		}
		if d.key == "h-hiring" {
			sg.Detail, sg.SourceURL, sg.Score = "Job board listing", "https://jobs.example/halcyon", f64p(80)
		}
		if d.key == "e-fund" {
			sg.Score = f64p(90.5)
		}
		ss = append(ss, sg)
		fx.sig[d.key] = sg
	}
	if _, err := e.store.UpsertSignals(ctx, ss); err != nil {
		t.Fatal(err)
	}
	lead := map[string]string{"halcyon": "https://network.example/company/halcyon", "ember": "company:ember.example",
		"vesper": "company:vesper.example"}
	for _, d := range defs {
		l := lead[d.co]
		if d.person != nil {
			l = d.person.PublicID()
		}
		fx.byID[fmt.Sprintf("%s:%d", l, fx.sig[d.key].ID)] = d.key
	}

	h := fx.co["halcyon"].ID
	news := []*prospector.NewsEvent{
		{ExternalID: "news-h-1", CompanyID: h, EventType: "news_event", Categories: []string{"launches"}, EffectiveDate: "2026-01-09",
			FoundAt: sigTime("2026-01-10T12:00:00Z"), Attributes: prospector.NewsAttributes{
				Summary: sigStr("Halcyon launches Dispatch"), Confidence: f64p(0.9), Planning: sigBool(false),
				Product: sigStr("Dispatch"), ProductTags: []string{"logistics"},
				ProductData:  prospector.ProductData{Name: sigStr("Dispatch"), ReleaseType: sigStr("new"), FuzzyMatch: sigBool(true)},
				LocationData: []prospector.LocationData{{City: sigStr("Austin"), CountryCode: sigStr("US")}}, Headcount: i64p(12)}},
		{ExternalID: "news-h-2", CompanyID: h, EventType: "news_event", FoundAt: sigTime("2026-02-10T12:00:00Z")},
		{ExternalID: "news-h-3", CompanyID: h, EventType: "news_event", Categories: []string{"partners_with"}, FoundAt: sigTime("2026-03-10T23:59:59Z")},
		{ExternalID: "news-h-4", CompanyID: h, EventType: "news_event", Categories: []string{"acquires"}, FoundAt: sigTime("2026-03-11T00:00:00Z")},
	}
	if _, err := e.store.UpsertNewsEvents(ctx, news); err != nil {
		t.Fatal(err)
	}
	fin := []*prospector.FinancingEvent{
		{ExternalID: "fin-h-b", CompanyID: h, EventType: "financing_event", Categories: []string{"venture"},
			FinancingType: "Series B", FinancingTypeNormalized: "series_b", Amount: "$25M", AmountNormalized: f64p(25e6),
			EffectiveDate: "2026-02-27", FoundAt: sigTime("2026-03-01T08:00:00Z"), SourceURLs: []string{"https://news.example/halcyon-b"},
			Investors: []prospector.Investor{{ID: "investor-granite", Name: "Granite Peak Ventures", Domain: sigStr("granite.example")}}},
		{ExternalID: "fin-h-old", CompanyID: h, EventType: "financing_event", FoundAt: sigTime("2025-11-01T00:00:00Z")},
		{ExternalID: "fin-e-seed", CompanyID: fx.co["ember"].ID, EventType: "financing_event", FoundAt: sigTime("2026-03-01T00:00:00Z")},
	}
	if _, err := e.store.UpsertFinancingEvents(ctx, fin); err != nil {
		t.Fatal(err)
	}
	e.sync()
	return fx
}

func sigStr(s string) *string { return &s }
func sigBool(b bool) *bool    { return &b }

// keys maps signal records to fixture keys (unknown ids as themselves).
func (fx *signalFx) keys(t *testing.T, items []any) string {
	t.Helper()
	var out []string
	for _, it := range items {
		id := itemID(t, it)
		if k, ok := fx.byID[id]; ok {
			out = append(out, k)
		} else {
			out = append(out, id)
		}
	}
	return strings.Join(out, " ")
}

func (fx *signalFx) wantKeys(t *testing.T, items []any, want string) {
	t.Helper()
	if got := fx.keys(t, items); got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

// record is the exact JSON of a fixture signal's record.
func (fx *signalFx) record(key string) string {
	sg := fx.sig[key]
	switch key {
	case "h-hiring":
		return fmt.Sprintf(`{"id":"https://network.example/company/halcyon:%d","type":"company_hiring","company":"Halcyon Freight",`+
			`"company_domain":"halcyon.example","lead_id":"https://network.example/company/halcyon","lead_name":"Halcyon Freight",`+
			`"lead_title":null,"network_url":"https://network.example/company/halcyon","title":"Hiring 12 account executives",`+
			`"detail":"Job board listing","source_url":"https://jobs.example/halcyon","detected_at":"2026-03-10T09:00:00.000Z","score":80}`, sg.ID)
	case "h-job":
		return fmt.Sprintf(`{"id":"https://network.example/in/avery-quill:%d","type":"job_change","company":"Halcyon Freight",`+
			`"company_domain":"halcyon.example","lead_id":"https://network.example/in/avery-quill","lead_name":"Avery Quill",`+
			`"lead_title":"VP of Sales","network_url":"https://network.example/in/avery-quill","title":"Started as VP of Sales",`+
			`"detail":null,"source_url":null,"detected_at":"2026-03-12T10:30:00.123Z","score":null}`, sg.ID)
	case "h-tech":
		return fmt.Sprintf(`{"id":"https://network.example/company/halcyon:%d","type":"tech_changes","company":"Halcyon Freight",`+
			`"company_domain":"halcyon.example","lead_id":"https://network.example/company/halcyon","lead_name":"Halcyon Freight",`+
			`"lead_title":null,"network_url":"https://network.example/company/halcyon","title":null,`+
			`"detail":null,"source_url":null,"detected_at":"2026-01-15T00:00:00.000Z","score":null}`, sg.ID)
	case "e-fund":
		return fmt.Sprintf(`{"id":"company:ember.example:%d","type":"funding_announcement","company":"Ember Ledger",`+
			`"company_domain":"ember.example","lead_id":"company:ember.example","lead_name":"Ember Ledger",`+
			`"lead_title":null,"network_url":null,"title":"Raised a seed round",`+
			`"detail":null,"source_url":null,"detected_at":"2026-03-01T00:00:00.000Z","score":90.5}`, sg.ID)
	case "e-post":
		return fmt.Sprintf(`{"id":"person:ember-cfo:%d","type":"keyword_post","company":"Ember Ledger",`+
			`"company_domain":"ember.example","lead_id":"person:ember-cfo","lead_name":"Rowan Pike",`+
			`"lead_title":null,"network_url":null,"title":"Posted about ledgers",`+
			`"detail":null,"source_url":null,"detected_at":"2026-03-05T00:00:00.000Z","score":null}`, sg.ID)
	}
	panic("no record for " + key)
}

// wantRecords checks the items whose exact JSON record knows.
func (fx *signalFx) wantRecords(t *testing.T, items []any) {
	t.Helper()
	n := 0
	for _, it := range items {
		k := fx.byID[itemID(t, it)]
		if k != "h-hiring" && k != "h-job" && k != "h-tech" && k != "e-fund" && k != "e-post" {
			continue
		}
		n++
		wantSameJSON(t, k, it, fx.record(k))
	}
	if n == 0 {
		t.Errorf("no item with a known record in %v", items)
	}
}

// wantJSON compares a decoded JSON value with the JSON text want.
func wantSameJSON(t *testing.T, what string, got any, want string) {
	t.Helper()
	var w any
	if err := json.Unmarshal([]byte(want), &w); err != nil {
		t.Fatalf("test bug: %s: %v", what, err)
	}
	if !reflect.DeepEqual(got, w) {
		t.Errorf("%s:\n got %s\nwant %s", what, mustJSON(got), want)
	}
}

// dataOf returns a 200 response's data member, decoded.
func sigData(t *testing.T, r response) any {
	t.Helper()
	if r.status != http.StatusOK {
		t.Fatalf("status %d, want 200: %s", r.status, r.body)
	}
	var env map[string]any
	if err := json.Unmarshal(r.body, &env); err != nil || len(env) != 1 {
		t.Fatalf("not a data envelope (%v): %s", err, r.body)
	}
	return env["data"]
}

// list returns a 200 response's data, which must be an array.
func sigList(t *testing.T, r response) []any {
	t.Helper()
	l, ok := sigData(t, r).([]any)
	if !ok {
		t.Fatalf("data is not an array: %s", r.body)
	}
	return l
}

func signalsKey(e *env) string {
	_, key := e.workspace("signals", prospector.PlanGrowth, prospector.PlanGrowth)
	return key
}

func (e *env) bulk(t *testing.T, key, body string) map[string]any {
	t.Helper()
	r := e.post("/api/v1/signals/bulk", key, body)
	return r.data(t)
}

func TestSignalsBulk(t *testing.T) {
	engines(t, func(t *testing.T, e *env) {
		fx := seedSignals(e)
		key := signalsKey(e)
		r := e.post("/api/v1/signals/bulk", key, `{"company_domains":["HTTPS://www.Halcyon.example/about","ember.example",`+
			`"halcyon.example","unknown.example","quietquarry.example."]}`)
		wantRateHeaders(t, r)
		data := r.data(t)
		if len(data) != 4 {
			t.Fatalf("keys %v, want the 4 normalised domains", reflect.ValueOf(data).MapKeys())
		}
		var all []any
		for d, want := range map[string]string{
			"halcyon.example":     "h-job h-hiring h-fund h-tech",
			"ember.example":       "e-hiring e-post e-fund",
			"unknown.example":     "",
			"quietquarry.example": "",
		} {
			l, ok := data[d].([]any)
			if !ok {
				t.Errorf("%s: %v, want an array", d, data[d])
				continue
			}
			fx.wantKeys(t, l, want)
			all = append(all, l...)
		}
		fx.wantRecords(t, all)
		if !strings.Contains(string(r.body), `"unknown.example":[]`) {
			t.Errorf("unknown domain not an empty array: %s", r.body)
		}
		// Ids are stable: the same in a second call, after a re-import and
		// an update of the signal, and in every endpoint.
		first := fx.keys(t, data["halcyon.example"].([]any))
		ctx := context.Background()
		again := *fx.sig["h-hiring"]
		again.ID, again.Title = 0, "Hiring 13 account executives"
		if _, err := e.store.UpsertSignals(ctx, []*prospector.Signal{&again}); err != nil {
			t.Fatal(err)
		}
		data = e.bulk(t, key, `{"company_domains":["halcyon.example"]}`)
		if got := fx.keys(t, data["halcyon.example"].([]any)); got != first {
			t.Errorf("ids changed across calls and an update: %q, was %q", got, first)
		}
		fx.wantKeys(t, sigList(t, e.do("GET", "/api/v1/signals/company/halcyon.example", key, nil)), first)
	})
}

func TestSignalsBulkValidation(t *testing.T) {
	e := newEnv(t)
	seedSignals(e)
	key := signalsKey(e)
	domains := func(n int) string {
		ds := make([]string, n)
		for i := range ds {
			ds[i] = fmt.Sprintf("%q", fmt.Sprintf("d%d.example", i))
		}
		return `{"company_domains":[` + strings.Join(ds, ",") + `]}`
	}
	runInvalidCases(t, e, key, "/api/v1/signals/bulk", []invalidCase{
		{"no body", ``, "company_domains:"},
		{"no domains member", `{}`, "company_domains:"},
		{"null", `{"company_domains":null}`, "company_domains:"},
		{"empty list", `{"company_domains":[]}`, "company_domains:"},
		{"101 domains", domains(101), "company_domains:"},
		{"101 values that collapse", `{"company_domains":` + jsonList(101, "halcyon.example") + `}`, "company_domains:"},
		{"not a domain", `{"company_domains":["halcyon.example","not a domain"]}`, "company_domains[1]"},
		{"empty string", `{"company_domains":[""]}`, "company_domains[0]"},
		{"no dot", `{"company_domains":["localhost"]}`, "company_domains[0]"},
		{"a number", `{"company_domains":[42]}`, "company_domains"},
		{"a string", `{"company_domains":"halcyon.example"}`, "company_domains"},
		{"unknown member", `{"company_domains":["halcyon.example"],"limit":5}`, "limit"},
	})
	t.Run("100 domains", func(t *testing.T) {
		data := e.bulk(t, key, domains(100))
		if len(data) != 100 {
			t.Fatalf("%d keys, want 100", len(data))
		}
	})
	t.Run("duplicates collapse", func(t *testing.T) {
		data := e.bulk(t, key, `{"company_domains":["ember.example","EMBER.example","https://ember.example/x","www.ember.example."]}`)
		if len(data) != 1 || len(data["ember.example"].([]any)) != 3 {
			t.Fatalf("got %v, want one key with 3 signals", data)
		}
	})
	t.Run("401 without key", func(t *testing.T) {
		e.post("/api/v1/signals/bulk", "", `{"company_domains":["halcyon.example"]}`).wantError(t, http.StatusUnauthorized, "unauthorized")
	})
}

// TestSignalsPerCompanyBounds: bulk gives at most 50 signals per domain,
// signals/company at most 100, the newest.
func TestSignalsPerCompanyBounds(t *testing.T) {
	engines(t, func(t *testing.T, e *env) {
		ctx := context.Background()
		busy := &prospector.Company{Name: "Busy Beacon", Domain: "busy.example"}
		if _, err := e.store.UpsertCompanies(ctx, []*prospector.Company{busy}); err != nil {
			t.Fatal(err)
		}
		var ss []*prospector.Signal
		base := sigTime("2026-01-01T00:00:00Z")
		for i := range 105 {
			ss = append(ss, &prospector.Signal{ExternalID: fmt.Sprintf("busy-%03d", i), Type: "company_hiring", CompanyID: &busy.ID,
				CompanyDomain: busy.Domain, Title: fmt.Sprintf("Opening %03d", i), DetectedAt: base.Add(time.Duration(i) * time.Hour)})
		}
		if _, err := e.store.UpsertSignals(ctx, ss); err != nil {
			t.Fatal(err)
		}
		key := signalsKey(e)
		titles := func(items []any) (first, last string, n int) {
			return items[0].(map[string]any)["title"].(string), items[len(items)-1].(map[string]any)["title"].(string), len(items)
		}
		// First the search index does not know the company yet (answers
		// come from the store), then it does (answers from memory).
		for _, from := range []string{"store", "index"} {
			if from == "index" {
				e.sync()
			}
			data := e.bulk(t, key, `{"company_domains":["busy.example"]}`)
			if first, last, n := titles(data["busy.example"].([]any)); n != 50 || first != "Opening 104" || last != "Opening 055" {
				t.Errorf("bulk from the %s: %d signals from %s to %s, want the newest 50 (104..055)", from, n, first, last)
			}
			items := sigList(t, e.do("GET", "/api/v1/signals/company/busy.example", key, nil))
			if first, last, n := titles(items); n != 100 || first != "Opening 104" || last != "Opening 005" {
				t.Errorf("company from the %s: %d signals from %s to %s, want the newest 100 (104..005)", from, n, first, last)
			}
		}
	})
}

func TestSignalsCompany(t *testing.T) {
	engines(t, func(t *testing.T, e *env) {
		fx := seedSignals(e)
		key := signalsKey(e)
		path := func(id string) string { return "/api/v1/signals/company/" + url.PathEscape(id) }
		r := e.do("GET", path("halcyon.example"), key, nil)
		wantRateHeaders(t, r)
		items := sigList(t, r)
		fx.wantKeys(t, items, "h-job h-hiring h-fund h-tech")
		fx.wantRecords(t, items)
		for _, id := range []string{
			"HALCYON.example",
			"www.halcyon.example.",
			"https://network.example/company/halcyon", // profile URL, escaped
			"http://www.Network.example/company/halcyon/",
			"https://halcyon.example/about", // a website URL: no profile has it, its domain does
			"company:halcyon.example",
		} {
			t.Run(id, func(t *testing.T) {
				fx.wantKeys(t, sigList(t, e.do("GET", path(id), key, nil)), "h-job h-hiring h-fund h-tech")
			})
		}
		t.Run("a lead_id of a company signal", func(t *testing.T) {
			items := sigList(t, e.do("GET", path("company:ember.example"), key, nil))
			fx.wantKeys(t, items, "e-hiring e-post e-fund")
			fx.wantRecords(t, items)
		})
		t.Run("known company without signals", func(t *testing.T) {
			r := e.do("GET", path("quietquarry.example"), key, nil)
			if l := sigList(t, r); len(l) != 0 || !strings.Contains(string(r.body), `"data":[]`) {
				t.Errorf("got %s, want data []", r.body)
			}
		})
		for _, id := range []string{"unknown.example", "company:unknown.example", "https://network.example/company/nobody"} {
			t.Run("unknown "+id, func(t *testing.T) {
				msg := e.do("GET", path(id), key, nil).wantError(t, http.StatusNotFound, "not_found")
				if !strings.Contains(msg, "company data unavailable") {
					t.Errorf("message %q", msg)
				}
			})
		}
		for _, id := range []string{" ", "not a domain", "localhost", "company:", "company:nope"} {
			t.Run("invalid "+id, func(t *testing.T) {
				e.do("GET", path(id), key, nil).wantInvalid(t, "id")
			})
		}
		t.Run("401 without key", func(t *testing.T) {
			e.do("GET", path("halcyon.example"), "", nil).wantError(t, http.StatusUnauthorized, "unauthorized")
		})
	})
}

// feed gets a feed page and returns its items and pagination.
func (e *env) feed(t *testing.T, key, path string) ([]any, map[string]any) {
	t.Helper()
	d, ok := sigData(t, e.do("GET", path, key, nil)).(map[string]any)
	if !ok || len(d) != 2 {
		t.Fatalf("data %v, want items and pagination", d)
	}
	items, ok := d["items"].([]any)
	if !ok {
		t.Fatalf("items %v, want an array", d["items"])
	}
	pg, _ := d["pagination"].(map[string]any)
	return items, pg
}

func TestSignalFeeds(t *testing.T) {
	engines(t, func(t *testing.T, e *env) {
		fx := seedSignals(e)
		key := signalsKey(e)
		const hiring, funding = "/api/v1/signals/hiring", "/api/v1/signals/funding"
		items, pg := e.feed(t, key, hiring)
		// v-hiring ties h-hiring in time and was stored later.
		fx.wantKeys(t, items, "e-hiring v-hiring h-hiring v-hiring-old")
		fx.wantRecords(t, items)
		wantSameJSON(t, "pagination", pg, `{"page":1,"per_page":25,"has_more":false,"next_page":null}`)
		items, _ = e.feed(t, key, funding)
		fx.wantKeys(t, items, "e-fund h-fund")
		fx.wantRecords(t, items)

		for _, c := range []struct{ name, query, want, pagination string }{
			{"company", "?company_domain=WWW.Halcyon.example", "h-hiring", ""},
			{"known company without signals", "?company_domain=quietquarry.example", "", ""},
			{"industry alias", "?industry=saas", "v-hiring h-hiring v-hiring-old", ""},
			{"industry label", "?industry=Financial%20Services", "e-hiring", ""},
			{"country name", "?location=United%20Kingdom", "e-hiring", ""},
			{"country code", "?location=gb", "e-hiring", ""},
			{"WORLD", "?location=WORLD", "e-hiring v-hiring h-hiring v-hiring-old", ""},
			{"industry and country", "?industry=saas&location=Germany", "v-hiring v-hiring-old", ""},
			{"since a day", "?since=2026-03-10", "e-hiring v-hiring h-hiring", ""},
			{"since a time, inclusive", "?since=2026-03-10T09:00:00Z", "e-hiring v-hiring h-hiring", ""},
			{"since a time with offset", "?since=2026-03-10T10:00:01%2B01:00", "e-hiring", ""},
			{"every filter", "?since=2026-01-01&company_domain=vesper.example&industry=saas&location=DE", "v-hiring", ""},
			{"limit 1", "?limit=1", "e-hiring", `{"page":1,"per_page":1,"has_more":true,"next_page":2}`},
			{"limit 1 page 3", "?limit=1&page=3", "h-hiring", `{"page":3,"per_page":1,"has_more":true,"next_page":4}`},
			{"limit 1 last page", "?limit=1&page=4", "v-hiring-old", `{"page":4,"per_page":1,"has_more":false,"next_page":null}`},
			{"page past the end", "?limit=1&page=5", "", `{"page":5,"per_page":1,"has_more":false,"next_page":null}`},
			{"limit 2 page 2", "?limit=2&page=2", "h-hiring v-hiring-old", `{"page":2,"per_page":2,"has_more":false,"next_page":null}`},
			{"limit 50", "?limit=50", "e-hiring v-hiring h-hiring v-hiring-old", `{"page":1,"per_page":50,"has_more":false,"next_page":null}`},
			{"page 10000", "?page=10000", "", `{"page":10000,"per_page":25,"has_more":false,"next_page":null}`},
		} {
			t.Run(c.name, func(t *testing.T) {
				items, pg := e.feed(t, key, hiring+c.query)
				fx.wantKeys(t, items, c.want)
				if c.pagination != "" {
					wantSameJSON(t, "pagination", pg, c.pagination)
				}
			})
		}
		t.Run("walk", func(t *testing.T) {
			var got []string
			for page := 1; ; page++ {
				items, pg := e.feed(t, key, fmt.Sprintf("%s?limit=3&page=%d", hiring, page))
				got = append(got, fx.keys(t, items))
				if pg["next_page"] == nil {
					break
				}
				if pg["next_page"] != float64(page+1) {
					t.Fatalf("next_page %v on page %d", pg["next_page"], page)
				}
			}
			if w := strings.Join(got, " "); w != "e-hiring v-hiring h-hiring v-hiring-old" {
				t.Errorf("walk %q", w)
			}
		})
		for _, path := range []string{hiring, funding} {
			for _, c := range []struct{ name, query, field string }{
				{"since not a date", "?since=last%20week", "since"},
				{"company_domain invalid", "?company_domain=not%20a%20domain", "company_domain"},
				{"unknown industry", "?industry=astrology", "industry"},
				{"unknown country", "?location=Atlantis", "location"},
				{"a place is not a country", "?location=Austin", "location"},
				{"page 0", "?page=0", "page"},
				{"page 10001", "?page=10001", "page"},
				{"limit 0", "?limit=0", "limit"},
				{"limit 51", "?limit=51", "limit"},
				{"limit not an integer", "?limit=1e1", "limit"},
				{"repeated", "?industry=saas&industry=fintech", "industry"},
				{"malformed query", "?limit=%zz", "query"},
			} {
				t.Run(path+" "+c.name, func(t *testing.T) {
					e.do("GET", path+c.query, key, nil).wantInvalid(t, c.field)
				})
			}
			t.Run(path+" unknown company", func(t *testing.T) {
				msg := e.do("GET", path+"?company_domain=unknown.example", key, nil).wantError(t, http.StatusNotFound, "not_found")
				if !strings.Contains(msg, "company data unavailable") {
					t.Errorf("message %q", msg)
				}
			})
			t.Run(path+" 401 without key", func(t *testing.T) {
				e.do("GET", path, "", nil).wantError(t, http.StatusUnauthorized, "unauthorized")
			})
		}
	}, noRateLimit)
}

// TestSignalRecordTimestamps: every detected_at is UTC with milliseconds.
func TestSignalRecordTimestamps(t *testing.T) {
	e := newEnv(t)
	seedSignals(e)
	key := signalsKey(e)
	data := e.bulk(t, key, `{"company_domains":["halcyon.example","ember.example","vesper.example"]}`)
	for d, l := range data {
		for _, it := range l.([]any) {
			v := it.(map[string]any)["detected_at"]
			wantTimestamp(t, v)
			if s, _ := v.(string); len(s) != len("2026-01-02T03:04:05.000Z") {
				t.Errorf("%s: detected_at %q is not millisecond precision", d, s)
			}
		}
	}
}
