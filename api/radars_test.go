package api_test

import (
	"context"
	"encoding/json"
	"errors"
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

// createRadar posts a radar/create body and returns the new radar as
// stored.
func (e *env) createRadar(t *testing.T, key, body string) *prospector.Radar {
	t.Helper()
	r := e.post("/api/v1/radar/create", key, body)
	d := r.data(t)
	if len(d) != 1 {
		t.Fatalf("create answered %v, want radar_id alone", d)
	}
	id, _ := d["radar_id"].(string)
	if !prospector.ValidRadarID(id) {
		t.Fatalf("radar_id %q is not an opaque radar id", id)
	}
	got, err := e.store.Radar(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	return got
}

func TestCreateRadarNormalises(t *testing.T) {
	e := newEnv(t)
	e.seedRadarData()
	_, key := e.workspace("radars", prospector.PlanGrowth, prospector.PlanGrowth)
	ctx := context.Background()
	today := time.Now().UTC().Format(time.DateOnly)
	for _, c := range []struct {
		name, body string
		check      func(t *testing.T, r *prospector.Radar)
	}{
		{"defaults", `{"titles":["VP Sales"]}`, func(t *testing.T, r *prospector.Radar) {
			c := r.Config
			if r.Name != "VP Sales ("+today+")" || c.CompanySizeMin != 1 || c.CompanySizeMax != 10000 || c.SizeFilter ||
				c.RaisedFunds || c.RecentJobChanges || len(c.JobPostingKeywords) != 0 || c.TrackProfileVisitors ||
				len(c.Types) != 10 {
				t.Fatalf("defaults: name %q, config %+v", r.Name, c)
			}
		}},
		{"name generated from title, industry and geo", `{"industries":["saas"],"titles":["CRO"],"geos":["us"],"name":"  "}`,
			func(t *testing.T, r *prospector.Radar) {
				if r.Name != "CRO · Software Development · US ("+today+")" {
					t.Fatalf("name %q", r.Name)
				}
			}},
		{"name generated from categories", `{"signals_to_track":["Hiring","funding"]}`, func(t *testing.T, r *prospector.Radar) {
			if r.Name != "hiring, funding signals ("+today+")" {
				t.Fatalf("name %q", r.Name)
			}
		}},
		{"name kept", `{"name":"  Enterprise CROs ","titles":["CRO"]}`, func(t *testing.T, r *prospector.Radar) {
			if r.Name != "Enterprise CROs" {
				t.Fatalf("name %q", r.Name)
			}
		}},
		{"location, locations and geos merged without repeats",
			`{"location":"Germany","locations":["DE","Berlin, Germany","Austin"],"geos":["de","austin","GB"]}`,
			func(t *testing.T, r *prospector.Radar) {
				want := []prospector.Place{{Country: "DE"}, {Country: "DE", Name: "Berlin"}, {Name: "Austin"}, {Country: "GB"}}
				if strings.Join(r.Config.Geos, "|") != "DE|Berlin, DE|Austin|GB" || !reflect.DeepEqual(r.Config.Places, want) {
					t.Fatalf("geos %q places %+v", r.Config.Geos, r.Config.Places)
				}
			}},
		{"WORLD lifts the geo restriction", `{"locations":["US","Worldwide"]}`, func(t *testing.T, r *prospector.Radar) {
			if strings.Join(r.Config.Geos, "|") != "US|WORLD" || len(r.Config.Places) != 0 {
				t.Fatalf("geos %q places %+v", r.Config.Geos, r.Config.Places)
			}
		}},
		{"signal defaults", `{"signals_to_track":["hiring","Funding","job-change","techstack","hiring"]}`, func(t *testing.T, r *prospector.Radar) {
			c := r.Config
			if strings.Join(c.SignalsToTrack, ",") != "hiring,funding,job_change,techstack" || !c.RaisedFunds || !c.RecentJobChanges ||
				strings.Join(c.JobPostingKeywords, ",") != "hiring" ||
				strings.Join(c.Types, ",") != "job_change,company_hiring,funding_announcement,tech_changes" {
				t.Fatalf("config %+v", c)
			}
		}},
		{"job posting keywords given", `{"signals_to_track":["hiring"],"job_posting_keywords":["SDR","account executive"]}`,
			func(t *testing.T, r *prospector.Radar) {
				if strings.Join(r.Config.JobPostingKeywords, ",") != "SDR,account executive" || r.Config.RaisedFunds {
					t.Fatalf("config %+v", r.Config)
				}
			}},
		{"raised_funds alone tracks funding", `{"raised_funds":true,"recent_job_changes":false}`, func(t *testing.T, r *prospector.Radar) {
			if strings.Join(r.Config.Types, ",") != "funding_announcement" || r.Config.RecentJobChanges {
				t.Fatalf("config %+v", r.Config)
			}
		}},
		{"engagement categories and aliases", `{"signals_to_track":["engagement","recommendations","events","keyword_post"]}`,
			func(t *testing.T, r *prospector.Radar) {
				if strings.Join(r.Config.Types, ",") != "keyword_post,competitor_engagement,influencer_engagement,asking_for_recommendations,event_rsvp" {
					t.Fatalf("types %v", r.Config.Types)
				}
			}},
		{"size range given", `{"company_size_min":50,"company_size_max":50}`, func(t *testing.T, r *prospector.Radar) {
			if c := r.Config; c.CompanySizeMin != 50 || c.CompanySizeMax != 50 || !c.SizeFilter {
				t.Fatalf("config %+v", c)
			}
		}},
		{"urls normalised", `{"competitor_urls":["Enrichbase.example","https://www.Pipewell.example/Blog/"],` +
			`"influencer_urls":["network.example/in/ada-quill-1a2b3c4d"],` +
			`"company_followers_url":"https://network.example/company/halcyon/followers/","your_profile_url":"https://network.example/in/me",` +
			`"track_profile_visitors":true,"company_types":["Privately Held"],"exclude_keywords":["intern"]}`,
			func(t *testing.T, r *prospector.Radar) {
				c := r.Config
				if strings.Join(c.CompetitorURLs, " ") != "https://enrichbase.example https://pipewell.example/blog" ||
					c.InfluencerURLs[0] != "https://network.example/in/ada-quill-1a2b3c4d" ||
					c.CompanyFollowersURL != "https://network.example/company/halcyon/followers" ||
					c.FollowersCompanyURL != "https://network.example/company/halcyon" || c.FollowersName != "Halcyon Freight" ||
					c.YourProfileURL != "https://network.example/in/me" || !c.TrackProfileVisitors || c.CompanyTypes[0] != "Privately Held" {
					t.Fatalf("config %+v", c)
				}
			}},
		{"company_network_url resolved", `{"company_network_url":"https://network.example/company/Halcyon/"}`,
			func(t *testing.T, r *prospector.Radar) {
				halcyon, _ := e.store.CompanyByDomain(ctx, "halcyon.example")
				if r.Config.CompanyNetworkURL != "https://network.example/company/halcyon" || r.Config.CompanyID != halcyon.ID {
					t.Fatalf("config %+v", r.Config)
				}
			}},
	} {
		t.Run(c.name, func(t *testing.T) { c.check(t, e.createRadar(t, key, c.body)) })
	}
	// Each create enqueued its backfill.
	if n, err := e.store.CountJobs(ctx, prospector.JobRadarBackfill, prospector.JobQueued); err != nil || n != 13 {
		t.Fatalf("%d backfill jobs queued (%v), want 13", n, err)
	}
}

func TestCreateRadarValidation(t *testing.T) {
	e := newEnv(t)
	e.seedRadarData()
	w, key := e.workspace("radars", prospector.PlanDefault, prospector.PlanGrowth) // one radar
	list := func(n int, v string) string {
		vs := make([]string, n)
		for i := range vs {
			vs[i] = fmt.Sprintf("%s%d", v, i)
		}
		b, _ := json.Marshal(vs)
		return string(b)
	}
	long := strings.Repeat("x", 201)
	cases := []struct {
		body, status, msg string
	}{
		{`{}`, "400", "Provide at least one radar filter"},
		{`{"name":"only a name","exclude_keywords":["intern"],"company_types":["Public Company"],"track_profile_visitors":true,` +
			`"your_profile_url":"https://network.example/in/me","raised_funds":false}`, "400", "Provide at least one radar filter"},
		{`{"titles":[]}`, "400", "Provide at least one radar filter"},
		{`{"titles":["VP Sales"],"unknown":1}`, "400", "unknown: unknown field"},
		{`{"titles":["VP Sales",""]}`, "400", "titles[1]: must not be empty"},
		{`{"titles":["` + long + `"]}`, "400", "titles[0]: at most 200 characters"},
		{`{"name":"` + long + `","titles":["x"]}`, "400", "name: at most 200 characters"},
		{`{"industries":["saas","Underwater Basket Weaving"]}`, "400", "industries[1]: unknown industry"},
		{`{"signals_to_track":["hiring","gossip"]}`, "400", "signals_to_track[1]: unknown signal category"},
		{`{"geos":["XX"]}`, "400", "geos[0]: unknown country code"},
		{`{"location":"` + long + `"}`, "400", "location: at most 200 characters"},
		{`{"location":"WORLD","locations":` + list(50, "Springfield ") + `}`, "400", "geos: at most 50 values"},
		{`{"company_size_min":0}`, "400", "company_size_min: must be between 1"},
		{`{"company_size_max":0}`, "400", "company_size_max: must be between 1"},
		{`{"company_size_min":500,"company_size_max":100}`, "400", "company_size_min: 500 is above company_size_max 100"},
		{`{"company_size_min":1.5}`, "400", "company_size_min"},
		{`{"company_size_max":"10"}`, "400", "company_size_max"},
		{`{"signals_to_track":["funding"],"raised_funds":false}`, "400", "raised_funds: false, but signals_to_track includes funding"},
		{`{"signals_to_track":["job_change"],"recent_job_changes":false}`, "400", "recent_job_changes: false"},
		{`{"competitor_urls":["not a url"]}`, "400", "competitor_urls[0]: \"not a url\" is not a URL or a domain"},
		{`{"influencer_urls":["ftp://x"]}`, "400", "influencer_urls[0]"},
		{`{"company_network_url":"halcyon"}`, "400", "company_network_url: \"halcyon\" is not an http(s) profile URL"},
		{`{"titles":["x"],"your_profile_url":"nope"}`, "400", "your_profile_url"},
		{`{"company_followers_url":"::"}`, "400", "company_followers_url"},
		{`{"track_profile_visitors":"yes","titles":["x"]}`, "400", "track_profile_visitors"},
		{`{"company_network_url":"https://network.example/company/nobody"}`, "404", "company data unavailable"},
	}
	for _, f := range []string{"titles", "industries", "locations", "geos", "pain_keywords", "category_keywords",
		"competitor_urls", "influencer_urls", "exclude_keywords", "job_posting_keywords"} {
		cases = append(cases, struct{ body, status, msg string }{`{"` + f + `":` + list(51, "v") + `}`, "400", f + ": at most 50 values"})
	}
	for _, f := range []string{"signals_to_track", "company_types"} {
		cases = append(cases, struct{ body, status, msg string }{`{"titles":["x"],"` + f + `":` + list(21, "v") + `}`, "400",
			f + ": at most 20 values"})
	}
	for _, c := range cases {
		r := e.post("/api/v1/radar/create", key, c.body)
		code, status := prospector.EINVALID, http.StatusBadRequest
		if c.status == "404" {
			code, status = prospector.ENOTFOUND, http.StatusNotFound
		}
		if msg := r.wantError(t, status, code); !strings.Contains(msg, c.msg) {
			t.Errorf("%.80s: message %q, want it to contain %q", c.body, msg, c.msg)
		}
	}
	// None of the refused requests took the workspace's one radar.
	u, _ := e.store.CreditUsage(context.Background(), w.ID, time.Now())
	if u.Radars.Used != 0 {
		t.Fatalf("refused requests used %d radars", u.Radars.Used)
	}
	if n, _ := e.store.CountJobs(context.Background(), prospector.JobRadarBackfill, ""); n != 0 {
		t.Fatalf("refused requests enqueued %d backfills", n)
	}
}

func TestCreateRadarQuota(t *testing.T) {
	e := newEnv(t)
	w, key := e.workspace("one-radar", prospector.PlanDefault, prospector.PlanGrowth)
	e.createRadar(t, key, `{"titles":["VP Sales"]}`)
	r := e.post("/api/v1/radar/create", key, `{"titles":["CRO"]}`)
	msg := r.wantError(t, http.StatusTooManyRequests, prospector.ERATELIMIT)
	if !strings.Contains(msg, "Radar limit reached: 1 of 1 radars") || !strings.Contains(msg, "default plan") ||
		!strings.Contains(msg, "prospector workspace update one-radar --plan starter (5 radars)") {
		t.Fatalf("message %q", msg)
	}
	d := e.do("GET", "/api/v1/account/credit-usage", key, nil).data(t)
	radars := d["limits"].(map[string]any)["radars"].(map[string]any)
	if radars["used"] != float64(1) || radars["limit"] != float64(1) {
		t.Fatalf("credit-usage radars %v", radars)
	}
	radarsOf := func() int {
		all, _ := e.store.ListRadars(context.Background())
		n := 0
		for _, r := range all {
			if r.WorkspaceID == w.ID {
				n++
			}
		}
		return n
	}
	if n := radarsOf(); n != 1 {
		t.Fatalf("%d radars stored, want 1", n)
	}
	// Bypassed and unlimited radar quotas never block.
	_, bkey := e.workspace("bypassed", prospector.PlanDefault, prospector.PlanGrowth, func(w *prospector.Workspace) {
		w.Radars.Bypassed = true
	})
	for range 3 {
		e.createRadar(t, bkey, `{"titles":["VP Sales"]}`)
	}
}

// seedRadarData stores two companies, three people and five signals
// detected 2 hours, 1, 3, 20, 60 and 120 days ago.
func (e *env) seedRadarData() map[string]*prospector.Signal {
	e.t.Helper()
	t, ctx := e.t, context.Background()
	halcyon := &prospector.Company{Name: "Halcyon Freight", Domain: "halcyon.example", Industry: "Software Development",
		City: "Austin", Region: "Texas", CountryCode: "US", EmployeeCount: ptr64(240), EmployeeRange: "201-500",
		NetworkURL: "https://network.example/company/halcyon"}
	ember := &prospector.Company{Name: "Ember Ledger", Domain: "ember.example", Industry: "Financial Services",
		City: "London", CountryCode: "GB", EmployeeRange: "51-200"}
	if _, err := e.store.UpsertCompanies(ctx, []*prospector.Company{halcyon, ember}); err != nil {
		t.Fatal(err)
	}
	quinn := importedPerson("quinn", "https://network.example/in/quinn-vale", "Quinn Vale", "VP Sales", halcyon, "Austin", "Texas", "US", nil)
	rory := importedPerson("rory", "https://network.example/in/rory-finch", "Rory Finch", "VP of Sales", ember, "London", "England", "GB", nil)
	sage := importedPerson("sage", "https://network.example/in/sage-holt", "Sage Holt", "Engineer", halcyon, "Austin", "Texas", "US", nil)
	if _, err := e.store.UpsertPeople(ctx, []*prospector.Person{quinn, rory, sage}); err != nil {
		t.Fatal(err)
	}
	now := time.Now().UTC()
	type def struct {
		ext, typ string
		co       *prospector.Company
		p        *prospector.Person
		title    string
		age      time.Duration
	}
	day := 24 * time.Hour
	defs := []def{
		{"a", "job_change", halcyon, quinn, "Started as VP Sales at Halcyon Freight", 2 * time.Hour},
		{"e", "keyword_post", halcyon, sage, "Posted about build pipelines", day},
		{"b", "company_hiring", halcyon, nil, "Hiring 3 account executives", 3 * day},
		{"c", "keyword_post", ember, rory, "Posted about revenue forecasting", 20 * day},
		{"d", "funding_announcement", ember, nil, "Raised a Series A", 60 * day},
		{"old", "funding_announcement", ember, nil, "Raised a seed round", 120 * day},
	}
	out := map[string]*prospector.Signal{}
	var ss []*prospector.Signal
	for _, d := range defs {
		s := &prospector.Signal{ExternalID: "radar-" + d.ext, Type: d.typ, CompanyID: &d.co.ID, CompanyDomain: d.co.Domain,
			Title: d.title, Detail: "Detail of " + d.ext, SourceURL: "https://news.example/" + d.ext, DetectedAt: now.Add(-d.age)}
		if d.p != nil {
			s.PersonID = &d.p.ID
		}
		ss = append(ss, s)
		out[d.ext] = s
	}
	if _, err := e.store.UpsertSignals(ctx, ss); err != nil {
		t.Fatal(err)
	}
	e.sync()
	return out
}

func ptr64(n int64) *int64 { return &n }

// runRadarJobs runs the queued radar jobs, as a node's jobs.Runner would.
func (e *env) runRadarJobs() {
	e.t.Helper()
	ctx := context.Background()
	eng := &radar.Engine{Store: e.store, Searcher: e.index, Logger: slog.New(slog.DiscardHandler)}
	handlers := map[string]func(context.Context, *prospector.Job) error{
		prospector.JobRadarBackfill: eng.Backfill, prospector.JobRadarScan: eng.Scan}
	for {
		js, err := e.store.ClaimJobs(ctx, "test", nil, 10, time.Minute, time.Now())
		if err != nil {
			e.t.Fatal(err)
		}
		if len(js) == 0 {
			return
		}
		for _, j := range js {
			if err := handlers[j.Kind](ctx, j); err != nil {
				e.t.Fatalf("job %s: %v", j.Kind, err)
			}
			if err := e.store.CompleteJob(ctx, j.ID, j.LeaseToken); err != nil {
				e.t.Fatal(err)
			}
		}
	}
}

func TestRadarReads(t *testing.T) {
	e := newEnv(t)
	sigs := e.seedRadarData()
	_, key := e.workspace("reads", prospector.PlanGrowth, prospector.PlanGrowth)
	r := e.createRadar(t, key, `{"titles":["VP Sales"]}`)
	leadsPath, signalsPath := "/api/v1/radar/"+r.ID+"/leads", "/api/v1/radar/"+r.ID+"/signals"
	// Before the backfill has run, the radar answers with no leads.
	if got := e.list(t, key, leadsPath); len(got) != 0 {
		t.Fatalf("%d leads before the backfill", len(got))
	}
	e.runRadarJobs()

	leads := e.list(t, key, leadsPath)
	if len(leads) != 2 {
		t.Fatalf("%d leads, want Quinn and Rory: %v", len(leads), leads)
	}
	quinn, rory := leads[0].(map[string]any), leads[1].(map[string]any)
	wantKeys := "company id location name network_url score score_breakdown signal_context title"
	if keys := sortedKeys(quinn); keys != wantKeys {
		t.Fatalf("lead members %q, want %q", keys, wantKeys)
	}
	if quinn["name"] != "Quinn Vale" || quinn["title"] != "VP Sales" || quinn["company"] != "Halcyon Freight" ||
		quinn["network_url"] != "https://network.example/in/quinn-vale" || quinn["location"] != "Austin, Texas, United States" ||
		!prospector.ValidLeadID(quinn["id"].(string)) || rory["name"] != "Rory Finch" {
		t.Fatalf("leads %v", leads)
	}
	qScore, rScore := quinn["score"].(float64), rory["score"].(float64)
	if qScore <= rScore || qScore > 100 || rScore <= 0 {
		t.Fatalf("scores %v, %v: want best first, within 0..100", qScore, rScore)
	}
	qid := quinn["id"].(string)
	ctxIDs := func(lead map[string]any) string {
		var out []string
		for _, s := range lead["signal_context"].([]any) {
			out = append(out, s.(map[string]any)["id"].(string))
		}
		return strings.Join(out, " ")
	}
	// Quinn's job change and Halcyon's hiring signal, newest first.
	if got, want := ctxIDs(quinn), fmt.Sprintf("%s:%d %s:%d", qid, sigs["a"].ID, qid, sigs["b"].ID); got != want {
		t.Fatalf("Quinn's signal_context %q, want %q", got, want)
	}
	sb := quinn["score_breakdown"].(map[string]any)
	if sb["total"] != qScore || sb["signal"] != fmt.Sprintf("%s:%d", qid, sigs["a"].ID) || sb["type"] != "job_change" ||
		sb["signal_type"].(float64)+sb["recency"].(float64)+sb["title_fit"].(float64)+sb["company_fit"].(float64) != qScore {
		t.Fatalf("score_breakdown %v", sb)
	}
	sc := quinn["signal_context"].([]any)[0].(map[string]any)
	if sc["type"] != "job_change" || sc["lead_id"] != qid || sc["lead_name"] != "Quinn Vale" || sc["company"] != "Halcyon Freight" ||
		sc["title"] != "Started as VP Sales at Halcyon Freight" || sc["detail"] != "Detail of a" ||
		sc["source_url"] != "https://news.example/a" || sc["score"] != qScore {
		t.Fatalf("signal record %v", sc)
	}
	wantTimestamp(t, sc["detected_at"])

	// min_score: at or above.
	if got := e.list(t, key, leadsPath+"?min_score="+fmt.Sprint(qScore)); len(got) != 1 {
		t.Fatalf("min_score %v: %d leads", qScore, len(got))
	}
	if got := e.list(t, key, leadsPath+"?min_score=0"); len(got) != 2 {
		t.Fatalf("min_score 0: %d leads", len(got))
	}
	if got := e.list(t, key, leadsPath+"?min_score=100"); len(got) != 0 {
		t.Fatalf("min_score 100: %d leads", len(got))
	}
	// date_range, on leads (a signal in the range; signal_context cut to
	// it) and on signals.
	for _, c := range []struct{ token, leads, signals string }{
		{"last_24_hours", "Quinn Vale:a", "a"},
		{"last_7_days", "Quinn Vale:a,b", "a b"},
		{"last_30_days", "Quinn Vale:a,b Rory Finch:c", "a b c"},
		{"last_90_days", "Quinn Vale:a,b Rory Finch:c,d", "a b c d"},
		{"all_time", "Quinn Vale:a,b Rory Finch:c,d", "a b c d"},
		{"", "Quinn Vale:a,b Rory Finch:c,d", "a b c d"},
	} {
		query := ""
		if c.token != "" {
			query = "?date_range=" + c.token
		}
		var got []string
		for _, l := range e.list(t, key, leadsPath+query) {
			lead := l.(map[string]any)
			var exts []string
			for _, s := range lead["signal_context"].([]any) {
				exts = append(exts, extOf(sigs, s.(map[string]any)["id"].(string)))
			}
			got = append(got, lead["name"].(string)+":"+strings.Join(exts, ","))
		}
		if strings.Join(got, " ") != c.leads {
			t.Errorf("leads %s: %q, want %q", c.token, strings.Join(got, " "), c.leads)
		}
		var exts []string
		for _, s := range e.list(t, key, signalsPath+query) {
			exts = append(exts, extOf(sigs, s.(map[string]any)["id"].(string)))
		}
		if strings.Join(exts, " ") != c.signals {
			t.Errorf("signals %s: %q, want %q", c.token, strings.Join(exts, " "), c.signals)
		}
	}
	// Radar signal records are the lead's signal_context entries.
	all := e.list(t, key, signalsPath)
	if first := all[0].(map[string]any); !reflect.DeepEqual(first, sc) {
		t.Fatalf("radar signal %v\n!= signal_context entry %v", first, sc)
	}
	// A company signal's record: Halcyon's hiring signal went to Quinn.
	hiring := all[1].(map[string]any)
	if hiring["type"] != "company_hiring" || hiring["lead_id"] != qid || hiring["company"] != "Halcyon Freight" {
		t.Fatalf("hiring record %v", hiring)
	}

	for _, q := range []string{"min_score=abc", "min_score=-1", "min_score=100.5", "min_score=NaN", "min_score=1e3",
		"date_range=yesterday", "date_range=LAST_7_DAYS", "min_score=1&min_score=2", "%zz"} {
		r := e.do("GET", leadsPath+"?"+q, key, nil)
		r.wantError(t, http.StatusBadRequest, prospector.EINVALID)
	}
	e.do("GET", signalsPath+"?date_range=last_year", key, nil).wantError(t, http.StatusBadRequest, prospector.EINVALID)
	// min_score is not a parameter of signals: ignored like any unknown one.
	if got := e.list(t, key, signalsPath+"?min_score=abc"); len(got) != 4 {
		t.Fatalf("signals with an unknown parameter: %d", len(got))
	}
}

func extOf(sigs map[string]*prospector.Signal, recordID string) string {
	_, n, _ := strings.Cut(recordID, ":")
	for ext, s := range sigs {
		if fmt.Sprint(s.ID) == n {
			return ext
		}
	}
	return "?" + recordID
}

func sortedKeys(m map[string]any) string {
	var keys []string
	for k := range m {
		keys = append(keys, k)
	}
	sortStrings(keys)
	return strings.Join(keys, " ")
}

func sortStrings(s []string) {
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && s[j] < s[j-1]; j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
}

// list returns the data array of a 200 response.
func (e *env) list(t *testing.T, key, path string) []any {
	t.Helper()
	r := e.do("GET", path, key, nil)
	if r.status != http.StatusOK {
		t.Fatalf("GET %s: %d %s", path, r.status, r.body)
	}
	var env struct {
		Data []any `json:"data"`
	}
	if err := json.Unmarshal(r.body, &env); err != nil || env.Data == nil {
		t.Fatalf("GET %s: data is not an array: %s", path, r.body)
	}
	return env.Data
}

func TestRadarIDs(t *testing.T) {
	e := newEnv(t)
	e.seedRadarData()
	_, key := e.workspace("owner", prospector.PlanGrowth, prospector.PlanGrowth)
	_, otherKey := e.workspace("other", prospector.PlanGrowth, prospector.PlanGrowth)
	r := e.createRadar(t, key, `{"titles":["VP Sales"]}`)
	e.runRadarJobs()
	for _, suffix := range []string{"/leads", "/signals"} {
		if got := e.list(t, key, "/api/v1/radar/"+r.ID+suffix); len(got) == 0 {
			t.Fatalf("owner reads no %s", suffix)
		}
		// Another workspace's radar answers exactly like an unknown one.
		foreign := e.do("GET", "/api/v1/radar/"+r.ID+suffix, otherKey, nil)
		foreign.wantError(t, http.StatusNotFound, prospector.ENOTFOUND)
		unknownID := prospector.NewRadarID()
		unknown := e.do("GET", "/api/v1/radar/"+unknownID+suffix, otherKey, nil)
		unknown.wantError(t, http.StatusNotFound, prospector.ENOTFOUND)
		if strings.ReplaceAll(string(foreign.body), r.ID, unknownID) != string(unknown.body) {
			t.Fatalf("foreign %s and unknown %s differ", foreign.body, unknown.body)
		}
		// Ids that cannot be radar ids are 400.
		for _, bad := range []string{"r_1", "rdr_short", strings.ToUpper(r.ID), r.ID + "x", "rdr_" + strings.Repeat("1", 26)} {
			msg := e.do("GET", "/api/v1/radar/"+bad+suffix, key, nil).wantError(t, http.StatusBadRequest, prospector.EINVALID)
			if !strings.HasPrefix(msg, "id: ") {
				t.Errorf("malformed id %s: %q", bad, msg)
			}
		}
	}
}

// failingRadars is a store whose radar creation fails, for fault
// injection.
type failingRadars struct{ prospector.Store }

func (failingRadars) CreateRadarInQuota(context.Context, *prospector.Radar, *prospector.Job) error {
	return fmt.Errorf("disk on fire")
}

// A radar that cannot be stored gives its unit of the radar quota back.
func TestCreateRadarReleasesQuotaOnFailure(t *testing.T) {
	base := newEnv(t)
	e := newEnvOn(t, failingRadars{base.store})
	w, key := e.workspace("unlucky", prospector.PlanDefault, prospector.PlanGrowth)
	e.post("/api/v1/radar/create", key, `{"titles":["VP Sales"]}`).wantError(t, http.StatusInternalServerError, prospector.EINTERNAL)
	if u, _ := e.store.CreditUsage(context.Background(), w.ID, time.Now()); u.Radars.Used != 0 {
		t.Fatalf("failed create kept %d radars of the quota", u.Radars.Used)
	}
	if !strings.Contains(e.logs.String(), "disk on fire") {
		t.Fatalf("the cause was not logged: %s", e.logs.String())
	}
}

// crashAfterQuota is a store that dies after a radar's quota unit is
// taken: every later step of a creation fails, and nothing that would
// give the unit back runs (a crash runs no cleanup). Its transactional
// creation fails at its last step, the backfill job, as the same crash
// would inside the transaction.
type crashAfterQuota struct{ prospector.Store }

var errCrash = errors.New("process killed")

func (crashAfterQuota) CreateRadar(context.Context, *prospector.Radar) error         { return errCrash }
func (crashAfterQuota) ReleaseQuota(context.Context, string, prospector.Quota) error { return errCrash }
func (crashAfterQuota) EnqueueJob(context.Context, *prospector.Job) (bool, error) {
	return false, errCrash
}

func (c crashAfterQuota) CreateRadarInQuota(ctx context.Context, r *prospector.Radar, backfill *prospector.Job) error {
	crashed := *backfill
	crashed.Payload = []byte("{") // refused by the step that enqueues it, after the quota and radar steps
	return c.Store.CreateRadarInQuota(ctx, r, &crashed)
}

// TestCreateRadarCrashKeepsQuota: a crash between taking the quota unit
// and storing the radar with its backfill leaves the unit unspent and no
// radar, so the workspace can create its radar again.
func TestCreateRadarCrashKeepsQuota(t *testing.T) {
	base := newEnv(t)
	e := newEnvOn(t, crashAfterQuota{base.store})
	w, key := e.workspace("unlucky", prospector.PlanDefault, prospector.PlanGrowth) // 1 radar
	if r := e.post("/api/v1/radar/create", key, `{"titles":["VP Sales"]}`); r.status == http.StatusOK {
		t.Fatalf("the create that crashed answered 200: %s", r.body)
	}
	ctx := context.Background()
	u, err := base.store.CreditUsage(ctx, w.ID, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	radars, err := base.store.RadarSummaries(ctx, w.ID)
	if err != nil {
		t.Fatal(err)
	}
	if u.Radars.Used != 0 || len(radars) != 0 {
		t.Fatalf("after the crash: %d quota units spent, %d radars; want none", u.Radars.Used, len(radars))
	}
	// Restarted, the node creates the radar within the same quota.
	ok := newEnvOn(t, base.store)
	var res struct {
		Data struct {
			RadarID string `json:"radar_id"`
		} `json:"data"`
	}
	if r := ok.post("/api/v1/radar/create", key, `{"titles":["VP Sales"]}`); r.status != http.StatusOK || json.Unmarshal(r.body, &res) != nil {
		t.Fatalf("after restart: %d %s", r.status, r.body)
	}
	if n, err := base.store.CountJobs(ctx, prospector.JobRadarBackfill, prospector.JobQueued); err != nil || n != 1 {
		t.Fatalf("backfill jobs queued: %d, %v", n, err)
	}
}

// TestRadarAuditNamesTheKey: what a key does through the API is audited
// with the key's prefix as the actor, never the secret.
func TestRadarAuditNamesTheKey(t *testing.T) {
	e := newEnv(t)
	e.seedRadarData()
	w, key := e.workspace("audited", prospector.PlanGrowth, prospector.PlanGrowth)
	if r := e.do("POST", "/api/v1/radar/create", key, map[string]any{"titles": []string{"VP Sales"}}); r.status != 201 && r.status != 200 {
		t.Fatalf("create radar: %d %s", r.status, r.body)
	}
	events, err := e.store.AuditEvents(context.Background(), w.ID, time.Time{}, 10)
	if err != nil {
		t.Fatal(err)
	}
	var found bool
	for _, ev := range events {
		if ev.Action == prospector.AuditRadarCreate {
			found = true
			if ev.Actor != key[:12] {
				t.Errorf("radar.create actor %q, want the key's prefix %q", ev.Actor, key[:12])
			}
		}
	}
	if !found {
		t.Fatalf("no radar.create event among %d", len(events))
	}
}
