package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/prospectorhq/prospector/boards/boardtest"
	"github.com/prospectorhq/prospector/sources/sourcetest"
)

func TestPrivacyEndToEnd(t *testing.T) {
	testPrivacyEndToEnd(t, map[string]string{"PROSPECTOR_DATA": t.TempDir()})
}

func TestPrivacyEndToEndOnPostgres(t *testing.T) {
	url := os.Getenv("TEST_DATABASE_URL")
	if url == "" {
		t.Skip("TEST_DATABASE_URL not set: skipping PostgreSQL tests")
	}
	testPrivacyEndToEnd(t, map[string]string{"PROSPECTOR_DATABASE_URL": freshSchema(t, url), "PROSPECTOR_DATA": t.TempDir()})
}

const (
	keepDomain = "northwind-labs.example"
	gonePerson = "https://network.example/in/keep-0" // suppressed by profile URL
	goneName   = "Morgan Keeper"
)

// tempLines writes lines to a new file named name and returns its path.
func tempLines(t *testing.T, name string, lines ...string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	writeLines(t, path, lines...)
	return path
}

// The "done means": a person (by profile URL) and a domain (the
// watched company of the board fixture) are suppressed while they have
// leads in two workspaces; re-importing them, watching the domain again
// and a source cycle over the board that lists its jobs write nothing,
// and say so; no endpoint that could return them does.
func testPrivacyEndToEnd(t *testing.T, vars map[string]string) {
	bs := boardtest.NewServer()
	defer bs.Close()
	if err := bs.AddFixture("greenhouse", e2eToken); err != nil {
		t.Fatal(err)
	}
	site := sourcetest.NewSite()
	defer site.Close()
	site.Set(e2eDomain, "/", sourcetest.Page{Body: sourcetest.Homepage("Quillfeather Systems | Payments infrastructure",
		[]string{"https://boards.greenhouse.io/" + e2eToken}, nil)})
	sourcesRun := func() string {
		t.Helper()
		out, errOut, err := cli(t, vars, "sources", "run", "--once", "--allow-private-sources", "--contact-email", "ops@example.test",
			"--resolve", e2eDomain+"="+site.Addr(), "--source-base-url", "greenhouse="+bs.URL+"/greenhouse")
		if err != nil {
			t.Fatalf("sources run: %v\n%s", err, errOut)
		}
		return out + errOut
	}

	mustCLI(t, vars, "watch", "add", e2eDomain, "--board", "greenhouse:"+e2eToken)
	companies := tempLines(t, "companies.jsonl",
		fmt.Sprintf(`{"name":"Keepsake Labs","domain":%q,"country":"US","employee_count":60}`, keepDomain),
		fmt.Sprintf(`{"name":"Quillfeather Systems","domain":%q,"country":"US","employee_count":80}`, e2eDomain))
	people := tempLines(t, "people.jsonl",
		fmt.Sprintf(`{"full_name":%q,"title":"VP Sales","company_domain":%q,"network_url":%q,"country":"US"}`, goneName, keepDomain, gonePerson),
		fmt.Sprintf(`{"full_name":"Riley Stayer","title":"Head of Sales","company_domain":%q,"email":"riley.stayer@northwind-labs.example","network_url":"https://network.example/in/keep-1","country":"US"}`, keepDomain),
		fmt.Sprintf(`{"full_name":"Quinn Feather","title":"VP Engineering","company_domain":%q,"network_url":"https://network.example/in/qf-0","country":"US"}`, e2eDomain),
		fmt.Sprintf(`{"full_name":"Avery Quill","title":"Director of Sales","company_domain":%q,"network_url":"https://network.example/in/qf-1","country":"US"}`, e2eDomain))
	mustCLI(t, vars, "import", "--kind", "companies", companies)
	mustCLI(t, vars, "import", "--kind", "people", people)
	keys := map[string]string{}
	for _, ws := range []string{"alpha", "beta"} {
		mustCLI(t, vars, "workspace", "create", ws, "--plan", "growth")
		keys[ws] = lastLine(mustCLI(t, vars, "keys", "create", "--workspace", ws))
	}

	addr, _, stop := startServe(t, vars, "--no-demo", "--source-workers", "0")
	defer stop()
	api := "http://" + addr + "/api/v1"
	radars := map[string]string{}
	for ws, key := range keys {
		status, body := postJSON(t, api+"/radar/create", key, `{"name":"hiring","signals_to_track":["hiring"]}`)
		if status != 200 {
			t.Fatalf("radar create: %d %v", status, body)
		}
		radars[ws] = body["data"].(map[string]any)["radar_id"].(string)
	}
	day := time.Now().UTC().Add(-24 * time.Hour).Format(time.RFC3339)
	signals := tempLines(t, "signals.jsonl",
		fmt.Sprintf(`{"id":"keep-hiring-1","type":"company_hiring","company_domain":%q,"title":"Hiring sales","detected_at":%q}`, keepDomain, day))
	mustCLI(t, vars, "import", "--kind", "signals", signals)
	if out := sourcesRun(); !strings.Contains(out, "greenhouse:"+e2eToken) {
		t.Fatalf("first source cycle did not poll the board:\n%s", out)
	}
	radarLeads := func(ws string) string {
		t.Helper()
		status, body := getJSON(t, api+"/radar/"+radars[ws]+"/leads", keys[ws])
		if status != 200 {
			t.Fatalf("radar leads: %d %v", status, body)
		}
		b, _ := json.Marshal(body["data"])
		return string(b)
	}
	var leadIDs []string
	waitUntil(t, func() bool {
		a, b := radarLeads("alpha"), radarLeads("beta")
		return strings.Contains(a, goneName) && strings.Contains(b, goneName) && strings.Contains(a, "Quinn Feather")
	})
	var ls []map[string]any
	_, body := getJSON(t, api+"/radar/"+radars["alpha"]+"/leads", keys["alpha"])
	b, _ := json.Marshal(body["data"])
	json.Unmarshal(b, &ls)
	for _, l := range ls {
		leadIDs = append(leadIDs, fmt.Sprint(l["id"]))
	}

	// privacy find lists the person's leads in both workspaces.
	var rec struct {
		People []map[string]any `json:"people"`
		Leads  []struct {
			Workspace string `json:"workspace"`
		} `json:"leads"`
	}
	if err := json.Unmarshal([]byte(mustCLI(t, vars, "privacy", "find", gonePerson)), &rec); err != nil {
		t.Fatal(err)
	}
	inWS := map[string]bool{}
	for _, l := range rec.Leads {
		inWS[l.Workspace] = true
	}
	if len(rec.People) != 1 || !inWS["alpha"] || !inWS["beta"] {
		t.Fatalf("privacy find: %d people, leads in %v; want one person with leads in alpha and beta", len(rec.People), inWS)
	}

	mustCLI(t, vars, "privacy", "suppress", gonePerson, "--reason", "opt-out by e-mail")
	out := mustCLI(t, vars, "privacy", "suppress", e2eDomain, "--reason", "company request")
	if !strings.Contains(out, "suppressed") {
		t.Fatalf("suppress: %s", out)
	}
	list := mustCLI(t, vars, "privacy", "list")
	for _, raw := range []string{"keep-0", "quillfeather", "Morgan", "keeper"} {
		if strings.Contains(strings.ToLower(list), strings.ToLower(raw)) {
			t.Fatalf("privacy list shows %q:\n%s", raw, list)
		}
	}
	if !strings.Contains(list, "domain") || !strings.Contains(list, "profile_url") || !strings.Contains(list, "company request") {
		t.Fatalf("privacy list:\n%s", list)
	}

	// Nothing brings them back, and every writer says why.
	for _, c := range []struct{ kind, file, want string }{
		{"companies", companies, "suppressed 1"},
		{"people", people, "suppressed 3"},
		{"signals", tempLines(t, "more.jsonl",
			fmt.Sprintf(`{"id":"qf-hiring-9","type":"company_hiring","company_domain":%q,"detected_at":%q}`, e2eDomain, day),
			fmt.Sprintf(`{"id":"keep-hiring-2","type":"company_hiring","company_domain":%q,"detected_at":%q}`, keepDomain, day)),
			"suppressed 1"},
	} {
		if out := mustCLI(t, vars, "import", "--kind", c.kind, c.file); !strings.Contains(out, c.want) {
			t.Fatalf("re-import %s: %s, want %q", c.kind, out, c.want)
		}
	}
	if out := mustCLI(t, vars, "watch", "add", e2eDomain, "--board", "greenhouse:"+e2eToken); !strings.Contains(out, "suppressed 1") ||
		strings.Contains(out, "watching") {
		t.Fatalf("watch add of a suppressed domain: %s", out)
	}
	if _, err := bs.AddPosting("greenhouse", e2eToken, boardtest.Job{Title: "Staff Data Engineer", Location: "Berlin, Germany"}); err != nil {
		t.Fatal(err)
	}
	// A radar naming the domain as a competitor would have it watched.
	if status, body := postJSON(t, api+"/radar/create", keys["alpha"],
		fmt.Sprintf(`{"name":"rivals","signals_to_track":["hiring"],"competitor_urls":["https://%s"]}`, e2eDomain)); status != 200 {
		t.Fatalf("radar naming the suppressed domain: %d %v", status, body)
	}
	out = sourcesRun()
	if strings.Contains(out, e2eToken) || !strings.Contains(squash(out), "suppressed 1 watched domains") {
		t.Fatalf("a source cycle after suppression (want nothing polled for the domain, and it counted):\n%s", out)
	}

	// Every endpoint that could return them.
	key := keys["alpha"]
	forbidden := []string{goneName, gonePerson, e2eDomain, "Quinn Feather", "Avery Quill", "Quillfeather"}
	check := func(what, req string, status int, body map[string]any) {
		t.Helper()
		b, _ := json.Marshal(body)
		for _, f := range forbidden {
			if _, isErr := body["error"]; isErr && strings.Contains(req, f) {
				continue // a not_found names what the request gave
			}
			if strings.Contains(string(b), f) {
				t.Fatalf("%s (%d) returns %q: %s", what, status, f, b)
			}
		}
	}
	waitUntil(t, func() bool { // the server's index takes the erasures in within --index-poll
		_, body := postJSON(t, api+"/search/people", key, `{"titles":["VP Sales","VP Engineering"],"max_results":50}`)
		b, _ := json.Marshal(body)
		return !strings.Contains(string(b), goneName) && !strings.Contains(string(b), "Quinn Feather")
	})
	posts := map[string]string{
		"/search/people":             `{"max_results":100}`,
		"/search/companies":          `{"location":"WORLD","max_results":100}`,
		"/discover/people":           `{"titles":["VP Sales","VP Engineering","Director of Sales"],"max_results":100}`,
		"/discover/companies":        `{"location":"US","max_results":100}`,
		"/contacts/find":             fmt.Sprintf(`{"company_domain":%q,"target_titles":["VP Sales"],"max_contacts":10}`, keepDomain),
		"/contacts/employee-finder":  fmt.Sprintf(`{"company_domain":%q,"max_results":50}`, keepDomain),
		"/signals/bulk":              fmt.Sprintf(`{"company_domains":[%q,%q]}`, e2eDomain, keepDomain),
		"/enrich/email":              fmt.Sprintf(`{"name":%q,"company":%q}`, goneName, keepDomain),
		"/leads/export":              fmt.Sprintf(`{"lead_ids":%s,"format":"json"}`, jsonList(leadIDs)),
		"/leads/push":                fmt.Sprintf(`{"lead_ids":%s,"destination":"webhook_url","webhook_url":"http://127.0.0.1:9/x"}`, jsonList(leadIDs)),
		"/contacts/waterfall-icp":    fmt.Sprintf(`{"company_domain":%q,"max_results":5,"cascade":[{"role":"sales","include_titles":["VP Sales"]}]}`, keepDomain),
		"/discover/people?x=quill":   `{"titles":["VP Engineering"],"max_results":100}`,
		"/contacts/find?x=quill":     fmt.Sprintf(`{"company_domain":%q,"target_titles":["VP Engineering"]}`, e2eDomain),
		"/enrich/email?x=profileurl": fmt.Sprintf(`{"network_url":%q}`, gonePerson),
	}
	for path, req := range posts {
		p, _, _ := strings.Cut(path, "?")
		status, body := postJSON(t, api+p, key, req)
		if path == "/enrich/email" {
			// Answered as "nothing found", uncharged: the name at the
			// company's domain was entered when the profile URL was.
			data, _ := body["data"].(map[string]any)
			if status != 200 || data == nil || data["email"] != "" {
				t.Fatalf("enrich/email of a suppressed person: %d %v", status, body)
			}
		}
		if p == "/signals/bulk" {
			// The answer is keyed by the domains asked for: the domain
			// comes back as a key, with nothing under it.
			data, _ := body["data"].(map[string]any)
			if got, _ := data[e2eDomain].([]any); status != 200 || len(got) != 0 {
				t.Fatalf("signals/bulk: %d %v", status, body)
			}
			delete(data, e2eDomain)
		}
		check("POST "+path, req, status, body)
	}
	for _, path := range []string{
		"/signals/company/" + e2eDomain, "/signals/hiring?company_domain=" + e2eDomain, "/signals/hiring",
		"/signals/job-openings?company_domain=" + e2eDomain, "/signals/technologies?company_domain=" + e2eDomain,
		"/signals/news-events", "/radar/" + radars["alpha"] + "/leads", "/radar/" + radars["alpha"] + "/signals",
	} {
		status, body := getJSON(t, api+path, key)
		check("GET "+path, path, status, body)
	}
	for _, ws := range []string{"alpha", "beta"} {
		if l := radarLeads(ws); strings.Contains(l, goneName) || !strings.Contains(l, "Riley Stayer") {
			t.Fatalf("%s's radar after suppression: %s", ws, l)
		}
	}
	// The trail names the erasure in both workspaces, without the subject.
	for _, ws := range []string{"alpha", "beta"} {
		trail := mustCLI(t, vars, "audit", "--workspace", ws)
		for _, want := range []string{"key.create", "radar.create", "privacy.erase", "leads.export", "leads.push"} {
			if ws == "beta" && strings.HasPrefix(want, "leads.") {
				continue
			}
			if !strings.Contains(trail, want) {
				t.Fatalf("%s's audit trail lacks %s:\n%s", ws, want, trail)
			}
		}
		if strings.Contains(trail, "keep-0") || strings.Contains(trail, "psk_") && strings.Contains(trail, keys[ws]) {
			t.Fatalf("%s's audit trail holds the subject or a key:\n%s", ws, trail)
		}
	}
	// The person went in under every identifier the store held: the
	// profile URL and the name at the company's domain; the domain once.
	var entries []struct{ ID, Kind, Reason string }
	if err := json.Unmarshal([]byte(mustCLI(t, vars, "privacy", "list", "--json")), &entries); err != nil {
		t.Fatal(err)
	}
	kinds := map[string]int{}
	for _, e := range entries {
		kinds[e.Kind]++
	}
	if len(entries) != 3 || kinds["profile_url"] != 1 || kinds["name_at_domain"] != 1 || kinds["domain"] != 1 {
		t.Fatalf("suppression list: %+v", entries)
	}
	// Unsuppressing the domain lets it be watched again, and the
	// deployment's trail says so.
	mustCLI(t, vars, "privacy", "unsuppress", e2eDomain)
	if out := mustCLI(t, vars, "watch", "add", e2eDomain); !strings.Contains(out, "watching "+e2eDomain) {
		t.Fatalf("watch add after unsuppress: %s", out)
	}
	if trail := mustCLI(t, vars, "audit", "--since", "1h"); !strings.Contains(trail, "privacy.unsuppress") ||
		strings.Count(trail, "privacy.erase") != 2 {
		t.Fatalf("deployment trail:\n%s", trail)
	}
}

func jsonList(ss []string) string {
	b, _ := json.Marshal(ss)
	return string(b)
}
