package main

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/prospectorhq/prospector/boards/boardtest"
	"github.com/prospectorhq/prospector/sources/sourcetest"
)

// The company of the Greenhouse fixture, at a domain its board's name
// ("Quillfeather Systems, Inc.") is confirmed against.
const (
	e2eDomain = "quillfeather-systems.test"
	e2eToken  = "quillfeather"
)

func TestSourcesEndToEnd(t *testing.T) {
	testSourcesEndToEnd(t, map[string]string{"PROSPECTOR_DATA": t.TempDir()})
}

func TestSourcesEndToEndOnPostgres(t *testing.T) {
	url := os.Getenv("TEST_DATABASE_URL")
	if url == "" {
		t.Skip("TEST_DATABASE_URL not set: skipping PostgreSQL tests")
	}
	testSourcesEndToEnd(t, map[string]string{"PROSPECTOR_DATABASE_URL": freshSchema(t, url), "PROSPECTOR_DATA": t.TempDir()})
}

// hookReceiver collects the leads auto-sync delivers.
type hookReceiver struct {
	*httptest.Server
	mu    sync.Mutex
	leads []map[string]any
}

func newHookReceiver(t *testing.T) *hookReceiver {
	h := &hookReceiver{}
	h.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		var env struct {
			Source string           `json:"source"`
			Leads  []map[string]any `json:"leads"`
		}
		if json.Unmarshal(b, &env) == nil && env.Source == "auto_sync" {
			h.mu.Lock()
			h.leads = append(h.leads, env.Leads...)
			h.mu.Unlock()
		}
		w.WriteHeader(http.StatusNoContent)
	}))
	t.Cleanup(h.Close)
	return h
}

func (h *hookReceiver) count() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return len(h.leads)
}

// The "done means", end to end through the binary's commands
// and the API: a watched company's homepage links its Greenhouse board
// (three jobs) and loads HubSpot and Stripe; sources run --once stores
// the jobs as openings and company_hiring signals, a radar tracking
// hiring turns them into leads that the workspace's webhook receives;
// the board drops a job and adds one: the next cycle signals the new
// one, the one after closes the dropped one; the homepage yields the
// board and both technologies.
func testSourcesEndToEnd(t *testing.T, vars map[string]string) {
	vars["PROSPECTOR_ALLOW_PRIVATE_WEBHOOKS"] = "1"
	bs := boardtest.NewServer()
	defer bs.Close()
	if err := bs.AddFixture("greenhouse", e2eToken); err != nil {
		t.Fatal(err)
	}
	site := sourcetest.NewSite()
	defer site.Close()
	site.Set(e2eDomain, "/", sourcetest.Page{Body: sourcetest.Homepage("Quillfeather Systems | Payments infrastructure",
		[]string{"https://boards.greenhouse.io/" + e2eToken},
		[]string{"https://js.hs-scripts.com/4410021.js", "https://js.stripe.com/v3/"})})
	site.Set(e2eDomain, "/careers", sourcetest.Page{Body: "<html><title>Careers at Quillfeather</title></html>"})
	hooks := newHookReceiver(t)

	mustCLI(t, vars, "watch", "add", e2eDomain)
	people := filepath.Join(t.TempDir(), "people.jsonl")
	var lines []string
	for i, title := range []string{"VP Engineering", "Head of Talent", "Director of Sales"} {
		lines = append(lines, fmt.Sprintf(`{"full_name":"Person%c Testcase","title":%q,"company_domain":%q,"network_url":"https://network.example/in/qf-person-%d","country":"US"}`,
			'A'+i, title, e2eDomain, i))
	}
	if err := os.WriteFile(people, []byte(strings.Join(lines, "\n")+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	mustCLI(t, vars, "import", "--kind", "people", people)
	mustCLI(t, vars, "workspace", "create", "growthco", "--plan", "growth")
	key := lastLine(mustCLI(t, vars, "keys", "create", "--workspace", "growthco"))
	mustCLI(t, vars, "integrations", "webhook", "--workspace", "growthco", "--url", hooks.URL+"/leads", "--auto-sync")

	addr, _, stop := startServe(t, vars, "--no-demo", "--source-workers", "0")
	defer stop()
	api := "http://" + addr + "/api/v1"
	status, body := postJSON(t, api+"/radar/create", key, `{"signals_to_track":["hiring"]}`)
	if status != 200 {
		t.Fatalf("radar create: %d %v", status, body)
	}
	radarID := body["data"].(map[string]any)["radar_id"].(string)

	run := func() string {
		t.Helper()
		out, errOut, err := cli(t, vars, "sources", "run", "--once", "--allow-private-sources", "--contact-email", "ops@example.test",
			"--resolve", e2eDomain+"="+site.Addr(), "--source-base-url", "greenhouse="+bs.URL+"/greenhouse")
		if err != nil {
			t.Fatalf("sources run: %v\n%s", err, errOut)
		}
		return out + errOut
	}
	items := func(path string) []any {
		t.Helper()
		status, body := getJSON(t, api+path, key)
		if status != 200 {
			t.Fatalf("GET %s: %d %v", path, status, body)
		}
		return body["data"].(map[string]any)["items"].([]any)
	}
	titles := func(items []any) []string {
		var out []string
		for _, it := range items {
			out = append(out, it.(map[string]any)["title"].(string))
		}
		slices.Sort(out)
		return out
	}
	q := "?company_domain=" + url.QueryEscape(e2eDomain)

	out := run()
	for _, want := range []string{"board greenhouse:quillfeather", "3 new", "openings      3 new, 0 changed, 0 closed", "signals       3 created"} {
		if !strings.Contains(squash(out), squash(want)) {
			t.Fatalf("first run lacks %q:\n%s", want, out)
		}
	}
	jobs := []string{"Account Executive, Mid-Market", "Head of Product Marketing", "Senior Backend Engineer, Payments"}
	if got := titles(items("/signals/job-openings" + q)); !slices.Equal(got, jobs) {
		t.Fatalf("job openings: %v", got)
	}
	if got := titles(items("/signals/hiring" + q)); !slices.Equal(got, jobs) {
		t.Fatalf("hiring signals: %v", got)
	}
	// The radar turns the hiring signals into leads (the company's
	// decision makers), and auto-sync sends them to the webhook.
	waitUntil(t, func() bool {
		_, b := getJSON(t, api+"/radar/"+radarID+"/leads", key)
		ls, _ := b["data"].([]any)
		return len(ls) > 0 && hooks.count() > 0
	})

	if !bs.RemovePosting("greenhouse", e2eToken, "4012399") {
		t.Fatal("no posting 4012399 on the fixture")
	}
	if _, err := bs.AddPosting("greenhouse", e2eToken, boardtest.Job{Title: "Staff Data Engineer", Location: "Berlin, Germany"}); err != nil {
		t.Fatal(err)
	}
	out = run()
	if !strings.Contains(squash(out), squash("openings      1 new, 0 changed, 0 closed")) {
		t.Fatalf("second run:\n%s", out)
	}
	if got := titles(items("/signals/hiring" + q)); len(got) != 4 || !slices.Contains(got, "Staff Data Engineer") {
		t.Fatalf("hiring signals after the change: %v", got)
	}
	if n := len(items("/signals/job-openings" + q + "&active_only=true")); n != 4 {
		t.Fatalf("%d active openings after one miss, want 4 (the dropped job closes at its second miss)", n)
	}
	out = run()
	if !strings.Contains(squash(out), squash("openings      0 new, 0 changed, 1 closed")) {
		t.Fatalf("third run:\n%s", out)
	}
	active := items("/signals/job-openings" + q + "&active_only=true")
	if got := titles(active); len(got) != 3 || slices.Contains(got, "Account Executive, Mid-Market") {
		t.Fatalf("active openings after the close: %v", got)
	}
	for _, it := range items("/signals/job-openings" + q) {
		o := it.(map[string]any)
		if o["title"] == "Account Executive, Mid-Market" && o["closed_at"] == nil {
			t.Fatalf("the dropped job is not closed: %v", o)
		}
	}

	// The homepage yielded the board and both technologies (confirmed by
	// the second crawl), with their evidence.
	techs := map[string]map[string]any{}
	for _, it := range items("/signals/technologies" + q) {
		tc := it.(map[string]any)
		techs[tc["name"].(string)] = tc
	}
	for name, script := range map[string]string{"HubSpot": "js.hs-scripts.com", "Stripe": "js.stripe.com"} {
		tc := techs[name]
		if tc == nil {
			t.Fatalf("technologies: %v, want %s", techs, name)
		}
		ev, _ := tc["evidence"].([]any)
		if len(ev) == 0 || !strings.Contains(fmt.Sprint(ev[0]), script) || tc["first_seen_at"] == nil {
			t.Fatalf("%s: %v", name, tc)
		}
	}
	status, body = getJSON(t, api+"/signals/company/"+e2eDomain, key)
	if status != 200 || !strings.Contains(fmt.Sprint(body), "HubSpot added") {
		t.Fatalf("company signals: %d %v", status, body)
	}
	st := mustCLI(t, vars, "sources", "status", "--domain", e2eDomain)
	for _, want := range []string{"greenhouse:quillfeather", "discovered", "confirmed", "https://" + e2eDomain + "/careers", "feed"} {
		if !strings.Contains(st, want) {
			t.Fatalf("sources status lacks %q:\n%s", want, st)
		}
	}
}
