package api_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// events gets an events endpoint and checks the result's fixed members.
func (e *env) events(t *testing.T, key, path, typ string) (string, []any) {
	t.Helper()
	d, ok := sigData(t, e.do("GET", path, key, nil)).(map[string]any)
	if !ok || len(d) != 4 {
		t.Fatalf("data %v, want company_domain, type, count, items", d)
	}
	items, ok := d["items"].([]any)
	if !ok {
		t.Fatalf("items %v, want an array", d["items"])
	}
	if d["type"] != typ || d["count"] != float64(len(items)) {
		t.Errorf("type %v count %v with %d items", d["type"], d["count"], len(items))
	}
	domain, _ := d["company_domain"].(string)
	return domain, items
}

func eventIDs(t *testing.T, items []any) string {
	t.Helper()
	var ids []string
	for _, it := range items {
		ids = append(ids, itemID(t, it))
	}
	return strings.Join(ids, " ")
}

const newsH1 = `{"id":"news-h-1","event_type":"news_event","categories":["launches"],"effective_date":"2026-01-09",` +
	`"found_at":"2026-01-10T12:00:00.000Z","attributes":{"summary":"Halcyon launches Dispatch","confidence":0.9,` +
	`"article_sentence":null,"planning":false,"amount":null,"amount_normalized":null,"assets":null,"assets_tags":[],` +
	`"award":null,"contact":null,"division":null,"event":null,"financing_type":null,"financing_type_normalized":null,` +
	`"financing_type_tags":[],"headcount":12,"job_title":null,"job_title_tags":[],"location":null,` +
	`"location_data":[{"city":"Austin","state":null,"country":null,"country_code":"US"}],"product":"Dispatch",` +
	`"product_data":{"full_text":null,"name":"Dispatch","release_type":"new","release_version":null,"fuzzy_match":true},` +
	`"product_tags":["logistics"],"recognition":null,"vulnerability":null}}`

const newsH2 = `{"id":"news-h-2","event_type":"news_event","categories":[],"effective_date":null,` +
	`"found_at":"2026-02-10T12:00:00.000Z","attributes":{"summary":null,"confidence":null,` +
	`"article_sentence":null,"planning":null,"amount":null,"amount_normalized":null,"assets":null,"assets_tags":[],` +
	`"award":null,"contact":null,"division":null,"event":null,"financing_type":null,"financing_type_normalized":null,` +
	`"financing_type_tags":[],"headcount":null,"job_title":null,"job_title_tags":[],"location":null,` +
	`"location_data":[],"product":null,` +
	`"product_data":{"full_text":null,"name":null,"release_type":null,"release_version":null,"fuzzy_match":null},` +
	`"product_tags":[],"recognition":null,"vulnerability":null}}`

func TestNewsEvents(t *testing.T) {
	engines(t, func(t *testing.T, e *env) {
		seedSignals(e)
		key := signalsKey(e)
		const base = "/api/v1/signals/news-events?company_domain="
		domain, items := e.events(t, key, base+url.QueryEscape("HTTPS://WWW.Halcyon.example/news"), "news_events")
		if domain != "halcyon.example" {
			t.Errorf("company_domain %q, want the normalised halcyon.example", domain)
		}
		if got := eventIDs(t, items); got != "news-h-4 news-h-3 news-h-2 news-h-1" {
			t.Fatalf("order %q, want newest first", got)
		}
		wantSameJSON(t, "full item", items[3], newsH1)
		wantSameJSON(t, "empty item", items[2], newsH2)
		for _, c := range []struct{ name, query, want string }{
			{"days are inclusive", "&found_at_from=2026-02-10&found_at_until=2026-03-10", "news-h-3 news-h-2"},
			{"one day", "&found_at_from=2026-03-10&found_at_until=2026-03-10", "news-h-3"},
			{"RFC 3339 bounds are inclusive", "&found_at_from=2026-02-10T12:00:00Z&found_at_until=2026-03-10T23:59:59Z", "news-h-3 news-h-2"},
			{"RFC 3339 with an offset", "&found_at_from=2026-03-11T01:00:00%2B01:00", "news-h-4"},
			{"fractional seconds", "&found_at_until=2026-01-10T12:00:00.000Z", "news-h-1"},
			{"from only", "&found_at_from=2026-03-11", "news-h-4"},
			{"until only", "&found_at_until=2026-01-10", "news-h-1"},
			{"limit 1", "&limit=1", "news-h-4"},
			{"limit 50", "&limit=50", "news-h-4 news-h-3 news-h-2 news-h-1"},
			{"page 2", "&limit=1&page=2", "news-h-3"},
			{"last page", "&limit=3&page=2", "news-h-1"},
			{"page past the end", "&limit=3&page=3", ""},
			{"page 10000", "&page=10000", ""},
			{"blank values are absent", "&page=&limit=&found_at_from=", "news-h-4 news-h-3 news-h-2 news-h-1"},
			{"unknown parameters are ignored", "&_=123&sort=asc", "news-h-4 news-h-3 news-h-2 news-h-1"},
		} {
			t.Run(c.name, func(t *testing.T) {
				_, items := e.events(t, key, base+"halcyon.example"+c.query, "news_events")
				if got := eventIDs(t, items); got != c.want {
					t.Errorf("got %q, want %q", got, c.want)
				}
			})
		}
		t.Run("known company without news", func(t *testing.T) {
			d, items := e.events(t, key, base+"quietquarry.example", "news_events")
			if d != "quietquarry.example" || len(items) != 0 {
				t.Errorf("got %s %v", d, items)
			}
		})
		runEventErrors(t, e, key, "/api/v1/signals/news-events", "found_at_from", "found_at_until")
	})
}

func runEventErrors(t *testing.T, e *env, key, path, from, until string) {
	t.Helper()
	for _, c := range []struct{ name, query, field string }{
		{"company_domain missing", "", "company_domain"},
		{"company_domain blank", "?company_domain=%20", "company_domain"},
		{"company_domain invalid", "?company_domain=not%20a%20domain", "company_domain"},
		{"company_domain repeated", "?company_domain=halcyon.example&company_domain=ember.example", "company_domain"},
		{"from not a date", "?company_domain=halcyon.example&" + from + "=yesterday", from},
		{"from impossible date", "?company_domain=halcyon.example&" + from + "=2026-02-30", from},
		{"until without zone", "?company_domain=halcyon.example&" + until + "=2026-03-10T10:00:00", until},
		{"until with unencoded plus", "?company_domain=halcyon.example&" + until + "=2026-03-10T10:00:00+01:00", until},
		{"from after until", "?company_domain=halcyon.example&" + from + "=2026-03-11&" + until + "=2026-03-10", from},
		{"page 0", "?company_domain=halcyon.example&page=0", "page"},
		{"page 10001", "?company_domain=halcyon.example&page=10001", "page"},
		{"page not an integer", "?company_domain=halcyon.example&page=1.5", "page"},
		{"limit 0", "?company_domain=halcyon.example&limit=0", "limit"},
		{"limit 51", "?company_domain=halcyon.example&limit=51", "limit"},
		{"limit not an integer", "?company_domain=halcyon.example&limit=ten", "limit"},
		{"limit repeated", "?company_domain=halcyon.example&limit=5&limit=6", "limit"},
		// Parameters are checked before the company is looked up.
		{"bad limit of an unknown company", "?company_domain=unknown.example&limit=51", "limit"},
	} {
		t.Run(c.name, func(t *testing.T) {
			e.do("GET", path+c.query, key, nil).wantInvalid(t, c.field)
		})
	}
	t.Run("unknown company", func(t *testing.T) {
		msg := e.do("GET", path+"?company_domain=unknown.example", key, nil).wantError(t, http.StatusNotFound, "not_found")
		if !strings.Contains(msg, "company data unavailable") || !strings.Contains(msg, "unknown.example") {
			t.Errorf("message %q", msg)
		}
	})
	t.Run("401 without key", func(t *testing.T) {
		e.do("GET", path+"?company_domain=halcyon.example", "", nil).wantError(t, http.StatusUnauthorized, "unauthorized")
	})
}

func TestFinancingEvents(t *testing.T) {
	engines(t, func(t *testing.T, e *env) {
		seedSignals(e)
		key := signalsKey(e)
		const base = "/api/v1/signals/financing-events?company_domain="
		domain, items := e.events(t, key, base+"Halcyon.Example.", "financing_events")
		if domain != "halcyon.example" {
			t.Errorf("company_domain %q, want halcyon.example", domain)
		}
		if got := eventIDs(t, items); got != "fin-h-b fin-h-old" {
			t.Fatalf("order %q, want newest first", got)
		}
		halcyon := `{"id":"https://network.example/company/halcyon","name":"Halcyon Freight","domain":"halcyon.example","ticker":"HLCN"}`
		wantSameJSON(t, "full item", items[0], `{"id":"fin-h-b","event_type":"financing_event","categories":["venture"],`+
			`"financing_type":"Series B","financing_type_normalized":"series_b","amount":"$25M","amount_normalized":25000000,`+
			`"effective_date":"2026-02-27","found_at":"2026-03-01T08:00:00.000Z","source_urls":["https://news.example/halcyon-b"],`+
			`"company":`+halcyon+`,"investors":[{"id":"investor-granite","name":"Granite Peak Ventures","domain":"granite.example","ticker":null}]}`)
		wantSameJSON(t, "empty item", items[1], `{"id":"fin-h-old","event_type":"financing_event","categories":[],`+
			`"financing_type":null,"financing_type_normalized":null,"amount":null,"amount_normalized":null,`+
			`"effective_date":null,"found_at":"2025-11-01T00:00:00.000Z","source_urls":[],"company":`+halcyon+`,"investors":[]}`)
		_, items = e.events(t, key, base+"ember.example", "financing_events")
		if len(items) != 1 {
			t.Fatalf("ember: %v", items)
		}
		wantSameJSON(t, "company without profile or ticker", items[0].(map[string]any)["company"],
			`{"id":"company:ember.example","name":"Ember Ledger","domain":"ember.example","ticker":null}`)
		for _, c := range []struct{ name, query, want string }{
			{"days are inclusive", "&first_seen_at_from=2025-11-01&first_seen_at_until=2026-03-01", "fin-h-b fin-h-old"},
			{"until the day before", "&first_seen_at_until=2026-02-28", "fin-h-old"},
			{"RFC 3339", "&first_seen_at_from=2026-03-01T08:00:00Z", "fin-h-b"},
			{"RFC 3339 just after", "&first_seen_at_from=2026-03-01T08:00:00.001Z", ""},
			{"limit 1 page 2", "&limit=1&page=2", "fin-h-old"},
		} {
			t.Run(c.name, func(t *testing.T) {
				_, items := e.events(t, key, base+"halcyon.example"+c.query, "financing_events")
				if got := eventIDs(t, items); got != c.want {
					t.Errorf("got %q, want %q", got, c.want)
				}
			})
		}
		runEventErrors(t, e, key, "/api/v1/signals/financing-events", "first_seen_at_from", "first_seen_at_until")
	})
}
