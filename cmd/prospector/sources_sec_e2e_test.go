package main

import (
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/prospectorhq/prospector/sec/sectest"
	"github.com/prospectorhq/prospector/sources/sourcetest"
)

func TestSECAndNewsEndToEnd(t *testing.T) {
	testSECAndNewsEndToEnd(t, map[string]string{"PROSPECTOR_DATA": t.TempDir()})
}

func TestSECAndNewsEndToEndOnPostgres(t *testing.T) {
	url := os.Getenv("TEST_DATABASE_URL")
	if url == "" {
		t.Skip("TEST_DATABASE_URL not set: skipping PostgreSQL tests")
	}
	testSECAndNewsEndToEnd(t, map[string]string{"PROSPECTOR_DATABASE_URL": freshSchema(t, url), "PROSPECTOR_DATA": t.TempDir()})
}

// The "done means", end to end through the binary's commands
// and the API. A fixture EDGAR's day lists a Form D of Acme Robotics, its
// amendment, a pooled fund's Form D, a Form D of an issuer no company
// matches (Bluefield Coatings) and an 8-K with Item 5.02 (Northwind
// Analytics): sources run --once --source sec yields one financing event
// for Acme with the amended amount and a funding_announcement signal,
// job_change signals for Northwind, nothing for the fund, and Bluefield
// waits in sources unresolved until sources map applies its filing. A
// watched company's feed with a financing story and a partnership story
// yields two news events with their categories and attributes; a radar
// tracking funding gets leads and auto-sync delivers them.
func testSECAndNewsEndToEnd(t *testing.T, vars map[string]string) {
	vars["PROSPECTOR_ALLOW_PRIVATE_WEBHOOKS"] = "1"
	edgar := sectest.New()
	defer edgar.Close()
	edgar.RequireContactEmail(true)
	// The news package's RSS fixture, its stories dated this week and
	// last: radars count signals of the last 90 days only.
	raw, err := os.ReadFile(filepath.Join("..", "..", "news", "testdata", "feeds", "rss2.xml"))
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now().UTC()
	financedAt, partneredAt := now.AddDate(0, 0, -2), now.AddDate(0, 0, -9)
	feed := strings.NewReplacer("Tue, 14 Apr 2026 09:30:00 +0000", financedAt.Format(time.RFC1123Z),
		"Mon, 06 Apr 2026 14:00:00 GMT", partneredAt.Format(time.RFC1123Z)).Replace(string(raw))
	// A recent weekday's index with one generated Form D, whose issuer
	// the store knows by name, state and city.
	recent := now.AddDate(0, 0, -1)
	for recent.Weekday() == time.Saturday || recent.Weekday() == time.Sunday {
		recent = recent.AddDate(0, 0, -1)
	}
	fresh := edgar.GenerateFormDs(recent, 1, 7)[0]
	site := sourcetest.NewSite()
	defer site.Close()
	site.Set("kestrel-payments.example", "/news/feed.xml", sourcetest.Page{Body: feed,
		Header: http.Header{"Content-Type": {"application/rss+xml"}}})
	hooks := newHookReceiver(t)

	// Acme and Northwind are known by name and domain only: the SEC
	// source resolves them through their submissions records' websites.
	dir := t.TempDir()
	companies := filepath.Join(dir, "companies.jsonl")
	writeLines(t, companies,
		`{"name":"Acme Robotics","domain":"acme-robotics.example","country":"US"}`,
		`{"name":"Northwind Analytics","domain":"northwind-analytics.example","country":"US"}`,
		`{"name":"Kestrel Payments","domain":"kestrel-payments.example","country":"US"}`,
		fmt.Sprintf(`{"name":%q,"domain":%q,"city":%q,"region":%q,"country":"United States"}`, fresh.Name, fresh.Domain,
			fresh.City, fresh.Region))
	mustCLI(t, vars, "import", "--kind", "companies", companies)
	people := filepath.Join(dir, "people.jsonl")
	writeLines(t, people,
		`{"full_name":"Persona Fundtest","title":"Chief Executive Officer","company_domain":"acme-robotics.example","network_url":"https://network.example/in/sec-e2e-0","country":"US"}`,
		`{"full_name":"Personb Newstest","title":"Chief Financial Officer","company_domain":"kestrel-payments.example","network_url":"https://network.example/in/sec-e2e-1","country":"US"}`,
		fmt.Sprintf(`{"full_name":"Personc Formdtest","title":"Chief Executive Officer","company_domain":%q,"network_url":"https://network.example/in/sec-e2e-2","country":"US"}`, fresh.Domain))
	mustCLI(t, vars, "import", "--kind", "people", people)
	mustCLI(t, vars, "watch", "add", "kestrel-payments.example", "--feed", "https://kestrel-payments.example/news/feed.xml")
	mustCLI(t, vars, "workspace", "create", "fundco", "--plan", "growth")
	key := lastLine(mustCLI(t, vars, "keys", "create", "--workspace", "fundco"))
	mustCLI(t, vars, "integrations", "webhook", "--workspace", "fundco", "--url", hooks.URL+"/leads", "--auto-sync")

	addr, _, stop := startServe(t, vars, "--no-demo", "--source-workers", "0")
	defer stop()
	api := "http://" + addr + "/api/v1"
	status, body := postJSON(t, api+"/radar/create", key, `{"signals_to_track":["funding"]}`)
	if status != 200 {
		t.Fatalf("radar create: %d %v", status, body)
	}
	radarID := body["data"].(map[string]any)["radar_id"].(string)
	items := func(path string) []map[string]any {
		t.Helper()
		status, body := getJSON(t, api+path, key)
		if status != 200 {
			t.Fatalf("GET %s: %d %v", path, status, body)
		}
		var out []map[string]any
		for _, it := range body["data"].(map[string]any)["items"].([]any) {
			out = append(out, it.(map[string]any))
		}
		return out
	}
	signalTypes := func(domain string) []string {
		t.Helper()
		status, body := getJSON(t, api+"/signals/company/"+domain, key)
		if status != 200 {
			t.Fatalf("company signals of %s: %d %v", domain, status, body)
		}
		var out []string
		for _, s := range findSignals(body) {
			out = append(out, fmt.Sprint(s["type"]))
		}
		slices.Sort(out)
		return out
	}

	secRun := func(extra ...string) string {
		t.Helper()
		args := append([]string{"sources", "run", "--once", "--source", "sec", "--allow-private-sources",
			"--contact-email", "ops@example.test", "--source-base-url", "sec=" + edgar.URL}, extra...)
		out, errOut, err := cli(t, vars, args...)
		if err != nil {
			t.Fatalf("sources run --source sec: %v\n%s%s", err, out, errOut)
		}
		return out + errOut
	}
	// Without a contact email in its User-Agent the SEC source refuses
	// to run, before any request.
	if _, errOut, err := cli(t, vars, "sources", "run", "--once", "--source", "sec", "--allow-private-sources",
		"--source-base-url", "sec="+edgar.URL); err == nil || !strings.Contains(err.Error()+errOut, "contact email") {
		t.Fatalf("sources run --source sec without a contact: err %v, %s", err, errOut)
	}
	if n := len(edgar.Requests()); n != 0 {
		t.Fatalf("%d requests to EDGAR without a contact", n)
	}

	day := []string{"--since", "2026-05-04", "--until", "2026-05-04"}
	out := secRun(day...)
	for _, want := range []string{"events 1 new, 1 updated", "waiting for their issuer"} {
		if !strings.Contains(squash(out), want) {
			t.Fatalf("sec run lacks %q:\n%s", want, out)
		}
	}
	fin := items("/signals/financing-events?company_domain=acme-robotics.example")
	if len(fin) != 1 {
		t.Fatalf("acme financing events: %v", fin)
	}
	ev := fin[0]
	if ev["amount"] != "$4,000,000" || ev["amount_normalized"] != 4000000.0 || ev["effective_date"] == nil ||
		ev["event_type"] != "financing_event" || len(ev["source_urls"].([]any)) != 2 {
		t.Fatalf("acme's event does not carry the amended offering: %v", ev)
	}
	if co := ev["company"].(map[string]any); co["domain"] != "acme-robotics.example" {
		t.Fatalf("event company: %v", co)
	}
	// The index follows the store's signals every few seconds.
	waitUntil(t, func() bool {
		return slices.Equal(signalTypes("acme-robotics.example"), []string{"funding_announcement"})
	})
	waitUntil(t, func() bool {
		got := signalTypes("northwind-analytics.example")
		return len(got) > 0 && !slices.ContainsFunc(got, func(s string) bool { return s != "job_change" })
	})
	for _, r := range edgar.Requests() {
		if !strings.Contains(r.UserAgent, "ops@example.test") {
			t.Fatalf("request %s without the contact: %q", r.Path, r.UserAgent)
		}
	}

	// The pooled fund yields nothing and waits for nothing; Bluefield
	// (no website, no company of its name) waits.
	unresolved := func() []map[string]any {
		var rows []map[string]any
		if err := json.Unmarshal([]byte(mustCLI(t, vars, "sources", "unresolved", "--json")), &rows); err != nil {
			t.Fatal(err)
		}
		return rows
	}
	rows := unresolved()
	if len(rows) != 1 || rows[0]["cik"] != "1900004" || rows[0]["pending_filings"] != 1.0 {
		t.Fatalf("unresolved: %v", rows)
	}
	if st := mustCLI(t, vars, "sources", "unresolved", "--cik", "0001900004"); !strings.Contains(st, "Bluefield Coatings") ||
		!strings.Contains(st, "0001900004-26-000001") {
		t.Fatalf("unresolved --cik:\n%s", st)
	}
	// Running the day again stores nothing new and keeps Bluefield waiting.
	if out := secRun(day...); !strings.Contains(squash(out), "events 0 new, 0 updated") {
		t.Fatalf("second sec run:\n%s", out)
	}
	if rows := unresolved(); len(rows) != 1 {
		t.Fatalf("unresolved after a second run: %v", rows)
	}
	if _, errOut, err := cli(t, vars, "sources", "map", "1900004", "bluefield-coatings.example"); err == nil ||
		!strings.Contains(err.Error()+errOut, "not found") {
		t.Fatalf("map to an unknown company: %v %s", err, errOut)
	}
	mustCLI(t, vars, "watch", "add", "bluefield-coatings.example")
	if out := mustCLI(t, vars, "sources", "map", "1900004", "bluefield-coatings.example"); !strings.Contains(out, "1 filings applied, 1 events new") {
		t.Fatalf("sources map: %s", out)
	}
	if rows := unresolved(); len(rows) != 0 {
		t.Fatalf("unresolved after the map: %v", rows)
	}
	if fin := items("/signals/financing-events?company_domain=bluefield-coatings.example"); len(fin) != 1 || fin[0]["amount"] != "$750,000" {
		t.Fatalf("bluefield financing events: %v", fin)
	}
	if list := mustCLI(t, vars, "sources", "list"); !strings.Contains(list, "sec") || !strings.Contains(list, "next day 2026-05-05") {
		t.Fatalf("sources list:\n%s", list)
	}

	// A recent day's Form D: its issuer resolves by name, state and city.
	d := recent.Format(time.DateOnly)
	if out := secRun("--since", d, "--until", d); !strings.Contains(squash(out), "events 1 new, 0 updated") {
		t.Fatalf("sec run of %s:\n%s", d, out)
	}

	// News: the company's feed, through --resolve.
	out, errOut, err := cli(t, vars, "sources", "run", "--once", "--source", "news", "--allow-private-sources",
		"--contact-email", "ops@example.test", "--resolve", "kestrel-payments.example="+site.Addr())
	if err != nil {
		t.Fatalf("sources run --source news: %v\n%s", err, errOut)
	}
	if !strings.Contains(squash(out), "news 3 items, 2 new events") {
		t.Fatalf("news run:\n%s%s", out, errOut)
	}
	news := items("/signals/news-events?company_domain=kestrel-payments.example")
	byCat := map[string]map[string]any{}
	for _, e := range news {
		cats := e["categories"].([]any)
		byCat[fmt.Sprint(cats[0])] = e
	}
	if len(news) != 2 || byCat["receives_financing"] == nil || byCat["partners_with"] == nil {
		t.Fatalf("news events: %v", news)
	}
	a := byCat["receives_financing"]["attributes"].(map[string]any)
	if a["amount_normalized"] != 40000000.0 || a["financing_type"] == nil || !strings.Contains(fmt.Sprint(a["financing_type"]), "Series B") ||
		a["article_sentence"] == nil {
		t.Fatalf("financing story attributes: %v", a)
	}
	if byCat["partners_with"]["effective_date"] != partneredAt.Format(time.DateOnly) {
		t.Fatalf("partnership event: %v", byCat["partners_with"])
	}
	waitUntil(t, func() bool {
		return slices.Equal(signalTypes("kestrel-payments.example"), []string{"funding_announcement"})
	})

	// The radar tracking funding turns the recent funding signals, of the
	// news story and of the Form D, into leads (their companies' people),
	// and auto-sync sends them. Acme's Form D is older than the radars'
	// 90 days.
	waitUntil(t, func() bool {
		_, b := getJSON(t, api+"/radar/"+radarID+"/leads", key)
		s := fmt.Sprint(b["data"])
		return strings.Contains(s, "Personb Newstest") && strings.Contains(s, "Personc Formdtest") && hooks.count() >= 2
	})
}

// findSignals returns the signal objects of a /signals/company answer,
// wherever the envelope puts them.
func findSignals(body map[string]any) []map[string]any {
	var out []map[string]any
	var walk func(v any)
	walk = func(v any) {
		switch x := v.(type) {
		case map[string]any:
			if _, ok := x["type"]; ok {
				if _, ok := x["detected_at"]; ok {
					out = append(out, x)
					return
				}
			}
			for _, v := range x {
				walk(v)
			}
		case []any:
			for _, v := range x {
				walk(v)
			}
		}
	}
	walk(body["data"])
	return out
}

func writeLines(t *testing.T, path string, lines ...string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(strings.Join(lines, "\n")+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
}

// serve --sec refuses to start without a contact email; with one, its
// scheduler queues the SEC job and a node runs it: EDGAR's indexes of
// the last days are asked for and the run is recorded in sources list.
func TestServeRunsTheSECSource(t *testing.T) {
	vars := map[string]string{"PROSPECTOR_DATA": t.TempDir()}
	edgar := sectest.New()
	defer edgar.Close()
	_, _, err := cli(t, vars, "serve", "--no-demo", "--sec", "--allow-private-sources", "--source-base-url", "sec="+edgar.URL)
	if err == nil || !strings.Contains(err.Error(), "--sec") || !strings.Contains(err.Error(), "contact email") {
		t.Fatalf("serve --sec without a contact: %v", err)
	}
	_, _, stop := startServe(t, vars, "--no-demo", "--sec", "--contact-email", "ops@example.test", "--allow-private-sources",
		"--source-base-url", "sec="+edgar.URL, "--source-workers", "1")
	defer stop()
	var row map[string]any
	waitUntil(t, func() bool {
		var rows []map[string]any
		if err := json.Unmarshal([]byte(mustCLI(t, vars, "sources", "list", "--json")), &rows); err != nil {
			t.Fatal(err)
		}
		for _, r := range rows {
			if r["source"] == "sec" && r["last_poll_at"] != nil {
				row = r
				return true
			}
		}
		return false
	})
	if row["health"] == nil || !strings.HasPrefix(fmt.Sprint(row["health"]), "ok") {
		t.Fatalf("sec row: %v", row)
	}
	// A first run reads yesterday and today: on a Sunday both are
	// weekend days, read without a request.
	reqs := edgar.Requests()
	if len(reqs) == 0 && time.Now().UTC().Weekday() != time.Sunday {
		t.Fatal("no request to EDGAR")
	}
	for _, r := range reqs {
		if !strings.Contains(r.Path, "/daily-index/") || !strings.Contains(r.UserAgent, "ops@example.test") {
			t.Fatalf("request: %+v", r)
		}
	}
}
