package api_test

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/prospectorhq/prospector"
	"github.com/prospectorhq/prospector/radar"
)

// patchRadar sends PATCH /radar/{id} with a JSON body.
func (e *env) patchRadar(key, id, body string) response {
	e.t.Helper()
	return e.do("PATCH", "/api/v1/radar/"+id, key, json.RawMessage(body))
}

// scan runs one incremental scan, as a node's scheduled scan job would.
func (e *env) scan() radar.Stats {
	e.t.Helper()
	eng := &radar.Engine{Store: e.store, Searcher: e.index, Logger: slog.New(slog.DiscardHandler)}
	st, err := eng.ScanOnce(context.Background())
	if err != nil {
		e.t.Fatal(err)
	}
	return st
}

// addSignal stores a job change of the person behind ext's signal,
// detected now.
func (e *env) addSignal(sigs map[string]*prospector.Signal, from, ext string) *prospector.Signal {
	e.t.Helper()
	base := sigs[from]
	s := &prospector.Signal{ExternalID: "radar-" + ext, Type: base.Type, CompanyID: base.CompanyID,
		CompanyDomain: base.CompanyDomain, PersonID: base.PersonID, Title: "Again: " + base.Title,
		SourceURL: "https://news.example/" + ext, DetectedAt: time.Now().UTC()}
	if _, err := e.store.UpsertSignals(context.Background(), []*prospector.Signal{s}); err != nil {
		e.t.Fatal(err)
	}
	e.sync()
	return s
}

func TestRadarList(t *testing.T) {
	e := newEnv(t)
	e.seedRadarData()
	_, key := e.workspace("lister", prospector.PlanGrowth, prospector.PlanGrowth)
	_, otherKey := e.workspace("other", prospector.PlanGrowth, prospector.PlanGrowth)
	empty := e.do("GET", "/api/v1/radar", key, nil).data(t)
	if items := empty["items"].([]any); len(items) != 0 ||
		!reflect.DeepEqual(empty["pagination"], map[string]any{"page": 1.0, "per_page": 25.0, "total": 0.0, "has_more": false, "next_page": nil}) {
		t.Fatalf("empty workspace: %v", empty)
	}
	var ids []string
	for _, body := range []string{`{"titles":["VP Sales"]}`, `{"signals_to_track":["funding"]}`, `{"geos":["GB"],"name":"UK"}`} {
		ids = append(ids, e.createRadar(t, key, body).ID)
	}
	e.createRadar(t, otherKey, `{"titles":["CRO"]}`)
	e.runRadarJobs()

	page := func(q string) ([]string, map[string]any) {
		t.Helper()
		d := e.do("GET", "/api/v1/radar"+q, key, nil).data(t)
		var got []string
		for _, it := range d["items"].([]any) {
			got = append(got, it.(map[string]any)["radar_id"].(string))
		}
		return got, d["pagination"].(map[string]any)
	}
	if got, pg := page(""); !reflect.DeepEqual(got, ids) || pg["total"] != 3.0 || pg["has_more"] != false {
		t.Fatalf("default page: %v %v, want the workspace's 3 radars oldest first", got, pg)
	}
	if got, pg := page("?limit=2"); !reflect.DeepEqual(got, ids[:2]) || pg["has_more"] != true || pg["next_page"] != 2.0 ||
		pg["per_page"] != 2.0 {
		t.Fatalf("first page of 2: %v %v", got, pg)
	}
	if got, pg := page("?limit=2&page=2"); !reflect.DeepEqual(got, ids[2:]) || pg["has_more"] != false || pg["next_page"] != nil {
		t.Fatalf("second page of 2: %v %v", got, pg)
	}
	// Bounds at both edges.
	for _, q := range []string{"?limit=1", "?limit=100", "?page=1", "?page=10000"} {
		page(q)
	}
	if got, pg := page("?page=10000&limit=100"); len(got) != 0 || pg["total"] != 3.0 {
		t.Fatalf("a page past the end: %v %v", got, pg)
	}
	for q, want := range map[string]string{
		"?limit=0":          "limit: must be between 1 and 100",
		"?limit=101":        "limit: must be between 1 and 100",
		"?limit=ten":        "limit: must be an integer between 1 and 100",
		"?page=0":           "page: must be between 1 and 10000",
		"?page=10001":       "page: must be between 1 and 10000",
		"?page=1&page=2":    "page: given 2 times; give it once",
		"?limit=2.5&page=1": "limit: must be an integer between 1 and 100",
	} {
		msg := e.do("GET", "/api/v1/radar"+q, key, nil).wantError(t, http.StatusBadRequest, prospector.EINVALID)
		if !strings.HasPrefix(msg, want) {
			t.Errorf("%s: %q, want %q", q, msg, want)
		}
	}
	// Each item is the radar GET /radar/{id} answers, counts included.
	d := e.do("GET", "/api/v1/radar?limit=1", key, nil).data(t)
	item := d["items"].([]any)[0].(map[string]any)
	one := e.do("GET", "/api/v1/radar/"+ids[0], key, nil).data(t)
	if !reflect.DeepEqual(item, one) {
		t.Fatalf("list item %v differs from GET %v", item, one)
	}
	leads := e.list(t, key, "/api/v1/radar/"+ids[0]+"/leads")
	signals := e.list(t, key, "/api/v1/radar/"+ids[0]+"/signals")
	if item["status"] != "active" || item["leads"] != float64(len(leads)) || item["signals"] != float64(len(signals)) ||
		len(leads) == 0 || item["last_scan_at"] == nil || item["paused_at"] != nil {
		t.Fatalf("backfilled radar: %v (%d leads, %d signals)", item, len(leads), len(signals))
	}
}

func TestRadarGet(t *testing.T) {
	e := newEnv(t)
	e.seedRadarData()
	_, key := e.workspace("reader", prospector.PlanGrowth, prospector.PlanGrowth)
	_, otherKey := e.workspace("other", prospector.PlanGrowth, prospector.PlanGrowth)
	r := e.createRadar(t, key, `{"name":"Enterprise","titles":["VP Sales"],"location":"Germany","geos":["Berlin, Germany"],`+
		`"signals_to_track":["funding","hiring"],"company_size_min":50,"competitor_urls":["pipewell.example"],`+
		`"exclude_keywords":["intern"],"company_types":["Privately Held"]}`)
	d := e.do("GET", "/api/v1/radar/"+r.ID, key, nil).data(t)
	if d["radar_id"] != r.ID || d["name"] != "Enterprise" || d["status"] != "backfilling" || d["leads"] != 0.0 ||
		d["signals"] != 0.0 || d["last_scan_at"] != nil || d["paused_at"] != nil {
		t.Fatalf("new radar: %v", d)
	}
	rules := d["rules"].(map[string]any)
	want := map[string]any{"titles": []any{"VP Sales"}, "geos": []any{"DE", "Berlin, DE"},
		"signals_to_track": []any{"funding", "hiring"}, "company_size_min": 50.0, "company_size_max": 10000.0,
		"competitor_urls": []any{"https://pipewell.example"}, "raised_funds": true, "recent_job_changes": false,
		"job_posting_keywords": []any{"hiring"}, "industries": []any{}, "company_network_url": nil}
	for k, v := range want {
		if !reflect.DeepEqual(rules[k], v) {
			t.Errorf("rules.%s = %v, want %v", k, rules[k], v)
		}
	}
	if !reflect.DeepEqual(d["signal_types"], []any{"company_hiring", "funding_announcement"}) {
		t.Errorf("signal_types %v", d["signal_types"])
	}
	// The rules sent back change nothing: GET, PATCH, GET is a fixed point.
	body, _ := json.Marshal(rules)
	e.runRadarJobs()
	e.patchRadar(key, r.ID, string(body)).data(t)
	after, _ := e.store.Radar(context.Background(), r.ID)
	if !reflect.DeepEqual(after.Config, r.Config) {
		t.Fatalf("rules sent back changed the configuration:\n%+v\n%+v", after.Config, r.Config)
	}
	// Sizes not given are null, and stay unfiltered when sent back.
	plain := e.createRadar(t, key, `{"titles":["CRO"]}`)
	pr := e.do("GET", "/api/v1/radar/"+plain.ID, key, nil).data(t)["rules"].(map[string]any)
	if pr["company_size_min"] != nil || pr["company_size_max"] != nil {
		t.Fatalf("unfiltered sizes: %v", pr)
	}
	e.wantRadarIDErrors(t, "GET", key, otherKey, r.ID, "")
	if e.do("GET", "/api/v1/radar/"+r.ID+"?x=1", key, nil).status != http.StatusOK {
		t.Fatal("an unknown query parameter is refused")
	}
}

// wantRadarIDErrors checks that a malformed id is 400 naming id, and that
// another workspace's radar answers exactly as an unknown one: 404.
func (e *env) wantRadarIDErrors(t *testing.T, method, key, otherKey, id, body string) {
	t.Helper()
	var b any
	if body != "" {
		b = json.RawMessage(body)
	}
	foreign := e.do(method, "/api/v1/radar/"+id, otherKey, b)
	foreign.wantError(t, http.StatusNotFound, prospector.ENOTFOUND)
	unknownID := prospector.NewRadarID()
	unknown := e.do(method, "/api/v1/radar/"+unknownID, key, b)
	unknown.wantError(t, http.StatusNotFound, prospector.ENOTFOUND)
	if strings.ReplaceAll(string(foreign.body), id, unknownID) != string(unknown.body) {
		t.Fatalf("%s: foreign %s and unknown %s differ", method, foreign.body, unknown.body)
	}
	for _, bad := range []string{"r_1", "rdr_short", strings.ToUpper(id), id + "x"} {
		msg := e.do(method, "/api/v1/radar/"+bad, key, b).wantError(t, http.StatusBadRequest, prospector.EINVALID)
		if !strings.HasPrefix(msg, "id: ") {
			t.Errorf("%s malformed id %s: %q", method, bad, msg)
		}
	}
	// radar/create is not a radar: other methods are told to POST.
	r := e.doUndocumented(method, "/api/v1/radar/create", key)
	if msg := r.wantError(t, http.StatusNotFound, prospector.ENOTFOUND); r.header.Get("Allow") != "POST" ||
		msg != method+" is not supported on /api/v1/radar/create; use POST" {
		t.Errorf("%s radar/create: %q, Allow %q", method, msg, r.header.Get("Allow"))
	}
}

func TestRadarRenameAndPause(t *testing.T) {
	e := newEnv(t)
	sigs := e.seedRadarData()
	_, key := e.workspace("pauser", prospector.PlanGrowth, prospector.PlanGrowth)
	_, otherKey := e.workspace("other", prospector.PlanGrowth, prospector.PlanGrowth)
	r := e.createRadar(t, key, `{"titles":["VP Sales"]}`)
	e.runRadarJobs()
	before := e.do("GET", "/api/v1/radar/"+r.ID, key, nil).data(t)

	// Renaming changes the name only: not the last scan.
	d := e.patchRadar(key, r.ID, `{"name":"  Sales leaders  "}`).data(t)
	if d["name"] != "Sales leaders" || d["last_scan_at"] != before["last_scan_at"] || d["status"] != "active" ||
		d["leads"] != before["leads"] {
		t.Fatalf("renamed: %v, before %v", d, before)
	}
	today := time.Now().UTC().Format(time.DateOnly)
	if d := e.patchRadar(key, r.ID, `{"name":" "}`).data(t); d["name"] != "VP Sales ("+today+")" {
		t.Fatalf("blank name: %v, want a generated one", d["name"])
	}

	// A paused radar matches nothing, and resuming skips what was stored
	// meanwhile.
	d = e.patchRadar(key, r.ID, `{"paused":true}`).data(t)
	if d["status"] != "paused" || d["paused_at"] == nil {
		t.Fatalf("paused: %v", d)
	}
	pausedAt := d["paused_at"]
	if d := e.patchRadar(key, r.ID, `{"paused":true}`).data(t); d["paused_at"] != pausedAt {
		t.Fatalf("paused again: paused_at moved from %v to %v", pausedAt, d["paused_at"])
	}
	e.addSignal(sigs, "a", "while-paused")
	e.scan()
	if d := e.do("GET", "/api/v1/radar/"+r.ID, key, nil).data(t); d["signals"] != before["signals"] ||
		d["last_scan_at"] != before["last_scan_at"] {
		t.Fatalf("a paused radar was scanned: %v, before %v", d, before)
	}
	if d := e.patchRadar(key, r.ID, `{"paused":false}`).data(t); d["status"] != "active" || d["paused_at"] != nil {
		t.Fatalf("resumed: %v", d)
	}
	e.scan()
	if d := e.do("GET", "/api/v1/radar/"+r.ID, key, nil).data(t); d["signals"] != before["signals"] {
		t.Fatalf("the signal stored while paused was matched after resuming: %v", d)
	}
	e.addSignal(sigs, "a", "after-resume")
	e.scan()
	if d := e.do("GET", "/api/v1/radar/"+r.ID, key, nil).data(t); d["signals"] != before["signals"].(float64)+1 ||
		d["last_scan_at"] == before["last_scan_at"] {
		t.Fatalf("a signal stored after resuming was not matched: %v, before %v", d, before)
	}

	// Pausing a radar before its backfill stops it; resuming runs it.
	fresh := e.createRadar(t, key, `{"titles":["VP Sales"],"name":"fresh"}`)
	e.patchRadar(key, fresh.ID, `{"paused":true}`).data(t)
	e.runRadarJobs()
	if d := e.do("GET", "/api/v1/radar/"+fresh.ID, key, nil).data(t); d["status"] != "paused" || d["leads"] != 0.0 {
		t.Fatalf("a radar paused before its backfill: %v", d)
	}
	e.patchRadar(key, fresh.ID, `{"paused":false}`).data(t)
	e.runRadarJobs()
	if d := e.do("GET", "/api/v1/radar/"+fresh.ID, key, nil).data(t); d["status"] != "active" || d["leads"] == 0.0 {
		t.Fatalf("resumed before its backfill, then backfilled: %v", d)
	}
	e.wantRadarIDErrors(t, "PATCH", key, otherKey, r.ID, `{"paused":true}`)
}

func TestRadarRulesChange(t *testing.T) {
	e := newEnv(t)
	e.seedRadarData()
	_, key := e.workspace("rules", prospector.PlanGrowth, prospector.PlanGrowth)
	r := e.createRadar(t, key, `{"titles":["VP Sales"],"signals_to_track":["job_change"]}`)
	// The backfill has not run: the rules cannot change yet, and nothing
	// of the request is applied.
	msg := e.patchRadar(key, r.ID, `{"titles":["Engineer"],"paused":true}`).wantError(t, http.StatusBadRequest, prospector.EINVALID)
	if msg != "radar "+r.ID+" is still backfilling: its rules can change once its status is active (name and paused can change now)" {
		t.Fatalf("rules of a backfilling radar: %q", msg)
	}
	if got, _ := e.store.Radar(context.Background(), r.ID); got.PausedAt != nil || !reflect.DeepEqual(got.Config, r.Config) {
		t.Fatalf("a refused change was written: %+v", got)
	}
	e.runRadarJobs()
	oldLeads := e.list(t, key, "/api/v1/radar/"+r.ID+"/leads")
	if len(oldLeads) != 1 || oldLeads[0].(map[string]any)["name"] != "Quinn Vale" {
		t.Fatalf("leads under the first rules: %v", oldLeads)
	}
	before, _ := e.store.Radar(context.Background(), r.ID)
	d := e.patchRadar(key, r.ID, `{"titles":["Engineer"],"signals_to_track":["posts"]}`).data(t)
	if d["status"] != "backfilling" || !reflect.DeepEqual(d["signal_types"], []any{"keyword_post", "keyword_comment"}) ||
		d["rules"].(map[string]any)["recent_job_changes"] != false {
		t.Fatalf("new rules: %v", d)
	}
	after, _ := e.store.Radar(context.Background(), r.ID)
	if after.Cursor != before.Cursor || after.BackfillThrough != before.Cursor || after.BackfilledAt != nil {
		t.Fatalf("cursor %d -> %d, backfill through %d, backfilled %v", before.Cursor, after.Cursor, after.BackfillThrough,
			after.BackfilledAt)
	}
	if n, _ := e.store.CountJobs(context.Background(), prospector.JobRadarBackfill, prospector.JobQueued); n != 1 {
		t.Fatalf("%d backfill jobs queued, want the new rules'", n)
	}
	e.runRadarJobs()
	var names []string
	for _, l := range e.list(t, key, "/api/v1/radar/"+r.ID+"/leads") {
		names = append(names, l.(map[string]any)["name"].(string))
	}
	sortStrings(names)
	// The old lead is kept; the new rules found the engineer's post.
	if !reflect.DeepEqual(names, []string{"Quinn Vale", "Sage Holt"}) {
		t.Fatalf("leads after the change: %v", names)
	}
	if d := e.do("GET", "/api/v1/radar/"+r.ID, key, nil).data(t); d["status"] != "active" {
		t.Fatalf("after the new backfill: %v", d)
	}
}

// PATCH validates rules exactly as radar/create does: the same bodies get
// the same messages.
func TestRadarUpdateValidation(t *testing.T) {
	e := newEnv(t)
	e.seedRadarData()
	_, key := e.workspace("validate", prospector.PlanGrowth, prospector.PlanGrowth)
	r := e.createRadar(t, key, `{"titles":["VP Sales"]}`)
	e.runRadarJobs()
	long := strings.Repeat("x", 201)
	list := func(n int) string {
		vs := make([]string, n)
		for i := range vs {
			vs[i] = fmt.Sprintf("v%d", i)
		}
		b, _ := json.Marshal(vs)
		return string(b)
	}
	bodies := []string{
		`{"exclude_keywords":["intern"],"company_types":["Public Company"],"track_profile_visitors":true}`,
		`{"titles":[]}`,
		`{"titles":["VP Sales",""]}`,
		`{"titles":["` + long + `"]}`,
		`{"name":"` + long + `","titles":["x"]}`,
		`{"industries":["saas","Underwater Basket Weaving"]}`,
		`{"signals_to_track":["hiring","gossip"]}`,
		`{"geos":["XX"]}`,
		`{"location":"` + long + `"}`,
		`{"company_size_min":0}`,
		`{"company_size_max":0}`,
		`{"company_size_min":2147483648}`,
		`{"company_size_min":500,"company_size_max":100}`,
		`{"company_size_min":1.5}`,
		`{"signals_to_track":["funding"],"raised_funds":false}`,
		`{"signals_to_track":["job_change"],"recent_job_changes":false}`,
		`{"competitor_urls":["not a url"]}`,
		`{"company_network_url":"halcyon"}`,
		`{"titles":["x"],"your_profile_url":"nope"}`,
		`{"company_followers_url":"::"}`,
		`{"titles":["x"],"unknown":1}`,
		`{"company_network_url":"https://network.example/company/nobody"}`,
		`{"titles":` + list(51) + `}`,
		`{"titles":["x"],"signals_to_track":` + list(21) + `}`,
	}
	for _, body := range bodies {
		created := e.post("/api/v1/radar/create", key, body)
		patched := e.patchRadar(key, r.ID, body)
		if created.status == http.StatusOK || patched.status != created.status || string(patched.body) != string(created.body) {
			t.Errorf("%.60s: create %d %s, patch %d %s", body, created.status, created.body, patched.status, patched.body)
		}
	}
	// The edges of the bounds are accepted by both.
	for _, body := range []string{`{"titles":` + list(50) + `}`, `{"company_size_min":1,"company_size_max":2147483647}`,
		`{"titles":["x"],"signals_to_track":["hiring","funding"],"company_types":` + list(20) + `}`} {
		e.createRadar(t, key, body)
		e.patchRadar(key, r.ID, body).data(t)
		e.runRadarJobs()
	}
	for body, want := range map[string]string{
		`{}`:                                      "Provide name, paused or at least one radar/create rule field to change",
		`{"name":null,"titles":null}`:             "Provide name, paused or at least one radar/create rule field to change",
		`{"paused":"yes"}`:                        "paused",
		`{"paused":true,"extra":1}`:               "extra: unknown field",
		`{"name":"` + long + `"}`:                 "name: at most 200 characters",
		`{"name":"ok","titles":["x"],"geos":[1]}`: "geos",
	} {
		msg := e.patchRadar(key, r.ID, body).wantError(t, http.StatusBadRequest, prospector.EINVALID)
		if !strings.Contains(msg, want) {
			t.Errorf("%s: %q, want %q", body, msg, want)
		}
	}
}

func TestRadarDelete(t *testing.T) {
	e := newEnv(t)
	e.seedRadarData()
	w, key := e.workspace("deleter", prospector.PlanDefault, prospector.PlanGrowth) // one radar
	_, otherKey := e.workspace("other", prospector.PlanGrowth, prospector.PlanGrowth)
	r := e.createRadar(t, key, `{"titles":["VP Sales"]}`)
	e.runRadarJobs()
	leads := e.list(t, key, "/api/v1/radar/"+r.ID+"/leads")
	var ids []string
	for _, l := range leads {
		ids = append(ids, l.(map[string]any)["id"].(string))
	}
	e.wantRadarIDErrors(t, "DELETE", key, otherKey, r.ID, "")
	if _, err := e.store.Radar(context.Background(), r.ID); err != nil {
		t.Fatalf("a refused delete deleted the radar: %v", err)
	}
	// At the plan's limit, deleting frees the unit.
	e.post("/api/v1/radar/create", key, `{"titles":["CRO"]}`).wantError(t, http.StatusTooManyRequests, prospector.ERATELIMIT)
	d := e.do("DELETE", "/api/v1/radar/"+r.ID, key, nil).data(t)
	if !reflect.DeepEqual(d, map[string]any{"radar_id": r.ID, "deleted": true, "leads_kept": float64(len(ids))}) || len(ids) == 0 {
		t.Fatalf("deleted: %v, want %d leads kept", d, len(ids))
	}
	u, _ := e.store.CreditUsage(context.Background(), w.ID, time.Now())
	if u.Radars.Used != 0 {
		t.Fatalf("%d radars in use after the delete", u.Radars.Used)
	}
	for _, p := range []string{"", "/leads", "/signals"} {
		e.do("GET", "/api/v1/radar/"+r.ID+p, key, nil).wantError(t, http.StatusNotFound, prospector.ENOTFOUND)
	}
	e.do("DELETE", "/api/v1/radar/"+r.ID, key, nil).wantError(t, http.StatusNotFound, prospector.ENOTFOUND)
	if u, _ := e.store.CreditUsage(context.Background(), w.ID, time.Now()); u.Radars.Used != 0 {
		t.Fatalf("a second delete released another unit: %d", u.Radars.Used)
	}
	// The leads stay, without their radar.
	body, _ := json.Marshal(map[string]any{"lead_ids": ids, "format": "json"})
	ex := e.post("/api/v1/leads/export", key, string(body)).data(t)
	if ex["lead_count"] != float64(len(ids)) {
		t.Fatalf("export of the kept leads: %v", ex)
	}
	for _, l := range ex["data"].([]any) {
		if l.(map[string]any)["radar_id"] != nil {
			t.Fatalf("a kept lead still names its radar: %v", l)
		}
	}
	if d := e.do("GET", "/api/v1/radar", key, nil).data(t); d["pagination"].(map[string]any)["total"] != 0.0 {
		t.Fatalf("listed after the delete: %v", d)
	}
	e.createRadar(t, key, `{"titles":["CRO"]}`)
}
