package console_test

import (
	"encoding/csv"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/prospectorhq/prospector/webhook"
	"github.com/prospectorhq/prospector/workflows"
)

// createRadar creates a radar through the form and backfills it; it
// returns its id.
func (b *browser) createRadar(form url.Values) string {
	b.e.t.Helper()
	form.Set("csrf", b.csrf("/radars/new"))
	p := b.post("/radars", form)
	loc := p.header.Get("Location")
	if p.status != http.StatusSeeOther || !strings.HasPrefix(loc, "/radars/rdr_") {
		b.e.t.Fatalf("create radar: %d %q", p.status, errorOf(p))
	}
	id := strings.TrimPrefix(strings.Split(loc, "?")[0], "/radars/")
	b.e.backfill(id)
	return id
}

var leadIDRE = regexp.MustCompile(`name="lead_id" value="(ld_[a-z0-9]+)"`)

func TestRadarLeadsExportFeedbackInsights(t *testing.T) {
	e := newEnv(t)
	b := e.signedIn()
	id := b.createRadar(url.Values{"name": {"Hiring watch"}, "signals_to_track": {"hiring", "funding"}})
	p := b.get("/radars/" + id + "?notice=created")
	if p.status != http.StatusOK || !strings.Contains(p.body, "Radar created.") {
		t.Fatalf("radar page: %d", p.status)
	}
	if !strings.Contains(p.body, "Score breakdown") || !strings.Contains(p.body, `class="context"`) {
		t.Fatal("the radar's leads show no score breakdown or signal context")
	}
	if p := b.get("/radars"); !strings.Contains(p.body, "Hiring watch") {
		t.Fatal("the radar is not listed")
	}

	leadsPage := b.get("/leads?radar=" + id)
	ids := leadIDRE.FindAllStringSubmatch(leadsPage.body, 3)
	if len(ids) < 2 {
		t.Fatalf("leads page lists %d leads", len(ids))
	}
	token := csrfRE.FindStringSubmatch(leadsPage.body)[1]
	ex := b.post("/leads/export", url.Values{"csrf": {token}, "format": {"csv"}, "lead_id": {ids[0][1], ids[1][1]}})
	if ex.status != http.StatusOK || !strings.HasPrefix(ex.header.Get("Content-Type"), "text/csv") ||
		!strings.HasPrefix(ex.header.Get("Content-Disposition"), "attachment; filename=") {
		t.Fatalf("export: %d %v", ex.status, ex.header)
	}
	rows, err := csv.NewReader(strings.NewReader(ex.body)).ReadAll()
	if err != nil || len(rows) != 3 || !strings.Contains(ex.body, ids[0][1]) {
		t.Fatalf("export CSV: %d rows, %v\n%s", len(rows), err, ex.body)
	}
	js := b.post("/leads/export", url.Values{"csrf": {token}, "format": {"json"}, "lead_id": {ids[0][1]}})
	var records []map[string]any
	if err := json.Unmarshal([]byte(js.body), &records); err != nil || len(records) != 1 {
		t.Fatalf("export JSON: %v %s", err, js.body)
	}

	before := b.get("/insights?days=30")
	if !strings.Contains(before.body, `data-rate="reply">0.0%`) {
		t.Fatalf("reply rate before any reply: %s", regexp.MustCompile(`data-rate="reply">[^<]*`).FindString(before.body))
	}
	fb := b.post("/feedback", url.Values{"csrf": {token}, "lead_id": {ids[0][1]}, "event_type": {"reply"},
		"content": {"Sounds good"}, "back": {"/leads?radar=" + id}})
	if fb.status != http.StatusSeeOther || !strings.Contains(fb.header.Get("Location"), "notice=recorded") {
		t.Fatalf("feedback: %d %q", fb.status, errorOf(fb))
	}
	if p := b.get(fb.header.Get("Location")); !strings.Contains(p.body, "Outcome recorded.") {
		t.Fatal("no notice after recording an outcome")
	}
	after := b.get("/insights?days=30")
	if strings.Contains(after.body, `data-rate="reply">0.0%`) || !strings.Contains(after.body, "<svg") {
		t.Fatalf("reply rate after a reply: %s", regexp.MustCompile(`data-rate="reply">[^<]*`).FindString(after.body))
	}

	// Pause, resume, delete.
	for _, step := range []struct{ action, notice string }{{"pause", "Radar paused."}, {"resume", "Radar resumed."}} {
		p := b.post("/radars/"+id+"/"+step.action, url.Values{"csrf": {token}})
		if p.status != http.StatusSeeOther {
			t.Fatalf("%s: %d %q", step.action, p.status, errorOf(p))
		}
		if p := b.get(p.header.Get("Location")); !strings.Contains(p.body, step.notice) {
			t.Fatalf("%s: no notice", step.action)
		}
	}
	if p := b.post("/radars/"+id+"/delete", url.Values{"csrf": {token}}); p.status != http.StatusSeeOther {
		t.Fatalf("delete: %d", p.status)
	}
	if p := b.get("/radars/" + id); p.status != http.StatusNotFound {
		t.Fatalf("deleted radar: %d", p.status)
	}
}

func TestPushShowsTheResult(t *testing.T) {
	e := newEnv(t)
	b := e.signedIn()
	id := b.createRadar(url.Values{"signals_to_track": {"hiring"}})
	p := b.get("/leads?radar=" + id)
	ids := leadIDRE.FindAllStringSubmatch(p.body, 1)
	if len(ids) == 0 {
		t.Fatal("no leads")
	}
	token := csrfRE.FindStringSubmatch(p.body)[1]
	// The default webhook client refuses loopback: the push fails and
	// says why, as the API's result does.
	res := b.post("/leads/push", url.Values{"csrf": {token}, "radar": {id}, "lead_id": {ids[0][1]},
		"destination": {"webhook_url"}, "webhook_url": {"http://127.0.0.1:1/hook"}})
	if res.status != http.StatusOK || !strings.Contains(res.body, "Push failed") || !strings.Contains(res.body, "dispatch_failed") {
		t.Fatalf("push: %d %q", res.status, errorOf(res))
	}
}

func TestPageErrors(t *testing.T) {
	e := newEnv(t)
	b := e.signedIn()
	token := b.csrf("/radars/new")
	id := b.createRadar(url.Values{"signals_to_track": {"hiring"}})
	gets := []struct {
		path   string
		status int
		msg    string
	}{
		{"/search?kind=people&job_level=bogus", 400, "unknown job level"},
		{"/search?kind=companies&employee_size=huge", 400, "employee_size"},
		{"/search?kind=companies&industry=Software+Development&cursor=forged", 400, "cursor"},
		{"/companies/unknown.example", 404, "company data unavailable"},
		{"/companies/%20", 400, ""},
		{"/radars/rdr_aaaaaaaaaaaaaaaaaaaaaaaaaa", 404, ""},
		{"/radars/not-a-radar", 400, ""},
		{"/radars/" + id + "?min_score=500", 400, "min_score"},
		{"/radars/" + id + "?date_range=yesterday", 400, "date_range"},
		{"/leads?radar=rdr_aaaaaaaaaaaaaaaaaaaaaaaaaa", 404, ""},
		{"/insights?days=0", 400, "days"},
		{"/insights?days=abc", 400, "days"},
		{"/nothing/here", 404, "There is no such page."},
		{"/static/missing.js", 404, ""},
	}
	for _, tc := range gets {
		t.Run("GET "+tc.path, func(t *testing.T) {
			p := b.get(tc.path)
			if p.status != tc.status || errorOf(p) == "" || !strings.Contains(errorOf(p), tc.msg) {
				t.Fatalf("%d %q", p.status, errorOf(p))
			}
		})
	}
	posts := []struct {
		path   string
		form   url.Values
		status int
		msg    string
	}{
		{"/radars", url.Values{"name": {"x"}}, 400, "Provide at least one radar filter"},
		{"/radars", url.Values{"signals_to_track": {"hiring"}, "company_size_min": {"many"}}, 400, "company_size_min: must be a whole number"},
		{"/radars", url.Values{"signals_to_track": {"hiring"}, "company_size_min": {"500"}, "company_size_max": {"10"}}, 400, "company_size"},
		{"/radars", url.Values{"signals_to_track": {"weather"}}, 400, "unknown signal category"},
		{"/radars", url.Values{"signals_to_track": {"hiring"}, "company_network_url": {"https://www.linkedin.com/company/nobody-here"}}, 404, ""},
		{"/leads/export", url.Values{"format": {"csv"}}, 400, "select at least one lead"},
		{"/leads/export", url.Values{"format": {"xml"}, "lead_id": {"ld_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"}}, 400, "format"},
		{"/leads/push", url.Values{"radar": {id}}, 400, "select at least one lead"},
		{"/leads/push", url.Values{"radar": {id}, "lead_id": {"ld_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"}, "destination": {"carrier_pigeon"}}, 400, "destination"},
		{"/leads/push", url.Values{"radar": {id}, "lead_id": {"ld_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"}, "destination": {"webhook_url"}}, 400, "webhook_url"},
		{"/feedback", url.Values{"lead_id": {"ld_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"}, "event_type": {"reply"}}, 404, ""},
		{"/feedback", url.Values{"lead_id": {"nope"}, "event_type": {"reply"}}, 400, "lead_id"},
		{"/feedback", url.Values{"lead_id": {"ld_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"}, "event_type": {"shrug"}}, 400, "event_type"},
		{"/radars/rdr_aaaaaaaaaaaaaaaaaaaaaaaaaa/pause", url.Values{}, 404, ""},
		{"/radars/rdr_aaaaaaaaaaaaaaaaaaaaaaaaaa/delete", url.Values{}, 404, ""},
	}
	for _, tc := range posts {
		t.Run("POST "+tc.path+" "+tc.form.Encode(), func(t *testing.T) {
			tc.form.Set("csrf", token)
			p := b.post(tc.path, tc.form)
			if p.status != tc.status || errorOf(p) == "" || !strings.Contains(errorOf(p), tc.msg) {
				t.Fatalf("%d %q", p.status, errorOf(p))
			}
		})
	}
	// A refused radar form keeps what was typed.
	p := b.post("/radars", url.Values{"csrf": {token}, "name": {"Keep me"}, "titles": {"CTO"}, "company_size_min": {"many"}})
	if !strings.Contains(p.body, `value="Keep me"`) || !strings.Contains(p.body, ">CTO</textarea>") {
		t.Fatal("the refused form lost its values")
	}
}

func TestSearchPagesWithCursors(t *testing.T) {
	e := newEnv(t)
	b := e.signedIn()
	p := b.get("/search?kind=people&titles=engineer,manager,director,vp,head,founder")
	if p.status != http.StatusOK || !strings.Contains(p.body, "Showing 1–25; more results follow") {
		t.Fatalf("first page: %d %s", p.status, regexp.MustCompile(`class="count"[^<]*`).FindString(p.body))
	}
	m := regexp.MustCompile(`href="(/search\?[^"]*)" rel="next"`).FindStringSubmatch(p.body)
	if m == nil {
		t.Fatal("no next page link")
	}
	next := b.get(strings.ReplaceAll(m[1], "&amp;", "&"))
	if next.status != http.StatusOK || !strings.Contains(next.body, "Showing 26–") || !strings.Contains(next.body, "First page") {
		t.Fatalf("second page: %d %s", next.status, regexp.MustCompile(`class="count"[^<]*`).FindString(next.body))
	}
	if p := b.get("/search"); strings.Contains(p.body, "Results") {
		t.Fatal("the empty form searched")
	}
	if p := b.get("/search?kind=companies&industry=Software+Development&location=ZZ"); p.status != http.StatusBadRequest &&
		!strings.Contains(p.body, "No companies match") {
		t.Fatalf("no results: %d", p.status)
	}
}

func TestCompanyAndAccountPages(t *testing.T) {
	e := newEnv(t)
	b := e.signedIn()
	p := b.get("/search?kind=companies&industry=Software+Development")
	m := regexp.MustCompile(`href="(/companies/[^"]+)"`).FindStringSubmatch(p.body)
	if m == nil {
		t.Fatal("no company link")
	}
	co := b.get(m[1])
	for _, want := range []string{"Signal timeline", "People (", "News", "Financing events", "Job openings", "Technologies"} {
		if !strings.Contains(co.body, want) {
			t.Errorf("company page lacks %q", want)
		}
	}
	acct := b.get("/account")
	keys, _ := e.store.ListAPIKeys(t.Context(), e.ws.ID)
	for _, want := range []string{"growth", keys[0].Prefix + "…", "Credits this period", "<svg", "Period elapsed", " days</text>"} {
		if !strings.Contains(acct.body, want) {
			t.Errorf("account page lacks %q", want)
		}
	}
	if strings.Contains(acct.body, e.key) {
		t.Fatal("the account page shows the key")
	}
}

// An internal failure (here: the store is closed) shows a generic page
// with status 500 and is logged; its text is not shown.
func TestInternalErrorsAreLoggedNotShown(t *testing.T) {
	e := newEnv(t)
	b := e.signedIn()
	e.closeStore()
	p := b.get("/account")
	if p.status != http.StatusInternalServerError || !strings.Contains(errorOf(p), "could not complete the request") {
		t.Fatalf("%d %q", p.status, errorOf(p))
	}
	if strings.Contains(p.body, "sql") || !strings.Contains(e.logs.String(), `"msg":"console"`) {
		t.Fatalf("internal error shown or not logged:\n%s", e.logs.String())
	}
}

func TestPushToAWebhookShowsWhatItAnswered(t *testing.T) {
	var got atomic.Int32
	hook := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got.Add(1)
		w.WriteHeader(http.StatusAccepted)
		io.WriteString(w, `{"queued":true}`)
	}))
	defer hook.Close()
	e := newEnv(t, func(p *workflows.Parts) { p.Webhooks = webhook.NewClient(webhook.Config{AllowPrivate: true}) })
	b := e.signedIn()
	id := b.createRadar(url.Values{"signals_to_track": {"hiring"}})
	p := b.get("/leads?radar=" + id)
	ids := leadIDRE.FindAllStringSubmatch(p.body, 2)
	token := csrfRE.FindStringSubmatch(p.body)[1]
	res := b.post("/leads/push", url.Values{"csrf": {token}, "radar": {id}, "lead_id": {ids[0][1], ids[1][1]},
		"destination": {"webhook_url"}, "webhook_url": {hook.URL + "/in"}})
	if res.status != http.StatusOK || got.Load() != 1 {
		t.Fatalf("push: %d, %d deliveries, %q", res.status, got.Load(), errorOf(res))
	}
	for _, want := range []string{"Push dispatched", "2 of 2", "HTTP 202", "{&#34;queued&#34;:true}"} {
		if !strings.Contains(res.body, want) {
			t.Errorf("push result lacks %q", want)
		}
	}
}
