package api_test

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/prospectorhq/prospector"
	"github.com/prospectorhq/prospector/api"
	"github.com/prospectorhq/prospector/search"
	"github.com/prospectorhq/prospector/sqlite"
	"github.com/prospectorhq/prospector/taxonomy"
	"github.com/prospectorhq/prospector/workflows"
)

// prospects is the fixture the discovery and search tests query: a few
// synthetic companies and people, each known by a short key.
func TestDiscoverShapes(t *testing.T) {
	engines(t, func(t *testing.T, e *env) {
		fx := seed(e)
		_, key := e.workspace("shapes", prospector.PlanGrowth, prospector.PlanGrowth)

		r := e.post("/api/v1/discover/companies", key, `{"location":"WORLD"}`)
		wantRateHeaders(t, r)
		items := r.items(t)
		fx.wantOrder(t, items, allCompanies)
		fx.wantItems(t, items, wantCompanyItems)

		items = e.post("/api/v1/discover/people", key, `{"location":"WORLD"}`).items(t)
		fx.wantOrder(t, items, allPeople)
		fx.wantItems(t, items, wantPersonItems)

		// No match is an empty array, not null.
		r = e.post("/api/v1/discover/companies", key, `{"industry":"Insurance"}`)
		if !strings.Contains(string(r.body), `"data":[]`) {
			t.Errorf("no match: %s, want an empty data array", r.body)
		}
		r = e.post("/api/v1/discover/people", key, `{"titles":["Astronaut"]}`)
		if !strings.Contains(string(r.body), `"data":[]`) {
			t.Errorf("no match: %s, want an empty data array", r.body)
		}
	})
}

// noRateLimit switches rate limiting off, for tests that walk many pages.
func noRateLimit(c *apiConfig) { c.Limiter = nil }

type filterCase struct {
	name, body, want string
}

func runFilterCases(t *testing.T, e *env, fx *prospects, key, path string, cases []filterCase) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			fx.wantOrder(t, e.post(path, key, c.body).items(t), c.want)
		})
	}
}

func TestDiscoverCompaniesFilters(t *testing.T) {
	e := newEnv(t)
	fx := seed(e)
	_, key := e.workspace("filters", prospector.PlanGrowth, prospector.PlanGrowth)
	runFilterCases(t, e, fx, key, "/api/v1/discover/companies", []filterCase{
		{"industry alias saas", `{"industry":"saas"}`, "acme > gamma ion"},
		{"industry alias software", `{"industry":"software"}`, "acme > gamma ion"},
		{"industry label lowercase", `{"industry":"software development"}`, "acme > gamma ion"},
		{"industry label uppercase", `{"industry":"SOFTWARE DEVELOPMENT"}`, "acme > gamma ion"},
		{"industry padded", `{"industry":"  saas "}`, "acme > gamma ion"},
		{"industry alias fintech", `{"industry":"fintech"}`, "delta"},
		{"industry alias finance", `{"industry":"finance"}`, "delta"},
		{"industry alias healthcare", `{"industry":"healthcare"}`, "cura"},
		{"industry alias real_estate", `{"industry":"real_estate"}`, "estate"},
		{"industry alias real estate", `{"industry":"real estate"}`, "estate"},
		{"industry alias banking", `{"industry":"banking"}`, "betabank"},
		{"industry alias education", `{"industry":"education"}`, "kilo"},
		{"industry alias manufacturing", `{"industry":"manufacturing"}`, "fabrik"},
		{"industry with no companies", `{"industry":"insurance"}`, ""},
		{"employee_size", `{"employee_size":"1-10"}`, "gamma ion"},
		{"employee_size top bucket", `{"employee_size":"10001+"}`, "fabrik"},
		{"employee_size 51-200", `{"employee_size":"51-200"}`, "acme kilo"},
		{"location country name", `{"location":"Germany"}`, "fabrik > betabank"},
		{"location country code", `{"location":"DE"}`, "fabrik > betabank"},
		{"location lowercase code", `{"location":"de"}`, "fabrik > betabank"},
		{"location alias UK", `{"location":"UK"}`, "cura > kilo"},
		{"location United Kingdom", `{"location":"United Kingdom"}`, "cura > kilo"},
		{"location WORLD", `{"location":"WORLD"}`, allCompanies},
		{"location city", `{"location":"Austin"}`, "acme"},
		{"location city and country code", `{"location":"Austin, US"}`, "acme"},
		{"location city and other country", `{"location":"Austin, DE"}`, ""},
		{"location city and country name", `{"location":"Munich, Germany"}`, "fabrik"},
		{"location region", `{"location":"Texas"}`, "acme"},
		{"location region Bavaria", `{"location":"Bavaria"}`, "fabrik"},
		{"location city and region", `{"location":"Austin, Texas"}`, "acme"},
		{"location two-word city", `{"location":"New York"}`, "delta"},
		{"location unknown place", `{"location":"Atlantis"}`, ""},
		{"revenue band", `{"revenue":"1M-10M"}`, "acme"},
		{"revenue with dollars", `{"revenue":"$1M-$10M"}`, "acme"},
		{"revenue lowercase", `{"revenue":"1m-10m"}`, "acme"},
		{"revenue top band", `{"revenue":"1B+"}`, "betabank"},
		{"revenue 10M-50M", `{"revenue":"10M-50M"}`, "delta"},
		{"revenue 500M-1B", `{"revenue":"500M-1B"}`, "fabrik"},
		{"revenue 0-1M", `{"revenue":"0-1M"}`, "gamma"},
		{"revenue no company", `{"revenue":"50M-100M"}`, ""},
		{"keyword in keywords", `{"keywords":["payments"]}`, "acme > delta"},
		{"keyword in name", `{"keywords":["Acme"]}`, "acme"},
		{"keyword in industry", `{"keywords":["banking"]}`, "betabank"},
		{"keyword in description", `{"keywords":["scheduling"]}`, "cura"},
		{"keyword phrase needs every word", `{"keywords":["billing platform"]}`, "acme"},
		{"keyword phrase not all words", `{"keywords":["billing lending"]}`, ""},
		{"keyword case-insensitive", `{"keywords":["PAYMENTS"]}`, "acme > delta"},
		{"keyword two-word industry", `{"keywords":["health care"]}`, "cura"},
		{"keywords OR", `{"keywords":["lending","scheduling"]}`, "betabank > cura"},
		{"keyword unknown", `{"keywords":["zeppelin"]}`, ""},
		{"industry AND location", `{"industry":"saas","location":"US"}`, "acme"},
		{"industry AND location other country", `{"industry":"saas","location":"CA"}`, "gamma"},
		{"keywords AND location", `{"keywords":["payments"],"location":"United States"}`, "acme > delta"},
		{"keywords AND size", `{"keywords":["payments"],"employee_size":"11-50"}`, "delta"},
		{"industry AND revenue", `{"industry":"banking","revenue":"1B+"}`, "betabank"},
		{"industry AND revenue mismatch", `{"industry":"banking","revenue":"1M-10M"}`, ""},
		{"fintech AND Germany", `{"industry":"fintech","location":"Germany"}`, ""},
		{"WORLD AND industry", `{"industry":"saas","location":"WORLD"}`, "acme > gamma ion"},
		{"every filter", `{"industry":"saas","employee_size":"51-200","location":"Austin, US","revenue":"1M-10M","keywords":["cloud"]}`, "acme"},
		{"null filters beside one", `{"industry":null,"employee_size":null,"revenue":null,"keywords":null,"location":"Germany"}`, "fabrik > betabank"},
	})
}

func TestDiscoverPeopleFilters(t *testing.T) {
	e := newEnv(t)
	fx := seed(e)
	_, key := e.workspace("filters", prospector.PlanGrowth, prospector.PlanGrowth)
	runFilterCases(t, e, fx, key, "/api/v1/discover/people", []filterCase{
		{"title word-aware", `{"titles":["VP Sales"]}`, "ada ben hal"},
		{"title spelled out", `{"titles":["Vice President of Sales"]}`, "ada ben hal"},
		{"title lowercase", `{"titles":["vp sales"]}`, "ada ben hal"},
		{"title one word", `{"titles":["Sales"]}`, "ada ben hal > dan"},
		{"title words in any order", `{"titles":["Manager Sales"]}`, "dan"},
		{"title founder", `{"titles":["Founder"]}`, "eve"},
		{"title CEO", `{"titles":["CEO"]}`, "eve"},
		{"titles OR", `{"titles":["Director of Marketing","Head of People"]}`, "finn > ivy"},
		{"title no match", `{"titles":["Astronaut"]}`, ""},
		{"industry alias saas", `{"industry":"saas"}`, "eve > ada hal > ivy"},
		{"industry alias banking", `{"industry":"banking"}`, "ben"},
		{"industry alias healthcare", `{"industry":"healthcare"}`, "finn"},
		{"industry label", `{"industry":"Hospitals and Health Care"}`, "finn"},
		{"industry alias fintech", `{"industry":"fintech"}`, "dan"},
		{"industry with nobody", `{"industry":"real_estate"}`, ""},
		{"location country name", `{"location":"Germany"}`, "ben > gia"},
		{"location country code", `{"location":"DE"}`, "ben > gia"},
		{"location alias UK", `{"location":"UK"}`, "jon > finn"},
		{"location WORLD", `{"location":"WORLD"}`, allPeople},
		{"location city", `{"location":"Austin"}`, "ada"},
		{"location city and country", `{"location":"Austin, US"}`, "ada"},
		{"location city and other country", `{"location":"Austin, DE"}`, ""},
		{"location region", `{"location":"Ontario"}`, "eve > hal"},
		{"company_size", `{"company_size":"51-200"}`, "jon > ada > ivy"},
		{"company_size small", `{"company_size":"1-10"}`, "eve > hal"},
		{"titles AND location", `{"titles":["VP Sales"],"location":"US"}`, "ada"},
		{"titles AND industry", `{"titles":["VP Sales"],"industry":"saas"}`, "ada hal"},
		{"titles AND company_size", `{"titles":["Sales"],"company_size":"11-50"}`, "dan"},
		{"industry AND location", `{"industry":"saas","location":"Canada"}`, "eve > hal"},
		{"every filter", `{"titles":["VP"],"industry":"software","location":"Toronto, CA","company_size":"1-10"}`, "hal"},
	})
}

// TestDiscoverRanking checks the order rules on small examples: more
// matched titles or keywords first, then seniority (people) or a bigger
// size band (companies), then id.
func TestDiscoverRanking(t *testing.T) {
	e := newEnv(t)
	fx := seed(e)
	_, key := e.workspace("ranking", prospector.PlanGrowth, prospector.PlanGrowth)
	runFilterCases(t, e, fx, key, "/api/v1/discover/people", []filterCase{
		// Dan matches both titles: first, though a Manager ranks below VPs.
		{"more titles first", `{"titles":["Sales","Manager"]}`, "dan > ada ben hal"},
		{"seniority", `{"titles":["Sales","Marketing","People","Founder","Revenue","Engineer"]}`, "eve > jon > ada ben hal > finn > ivy > dan > gia"},
		{"seniority then id", `{"titles":["VP"]}`, "ada ben hal"},
		{"repeated title counts once", `{"titles":["Sales Manager","SALES MANAGER","VP"]}`, "ada ben hal > dan"},
	})
	runFilterCases(t, e, fx, key, "/api/v1/discover/companies", []filterCase{
		// Acme matches both keywords; the rest by size band, then id.
		{"more keywords first", `{"keywords":["software","cloud"]}`, "acme > cura > gamma ion"},
		{"size band then id", `{"keywords":["software"]}`, "cura > acme > gamma ion"},
		{"count beats size", `{"keywords":["payments","cards"]}`, "delta > acme"},
		// A keyword sent twice is still one keyword.
		{"repeated keyword counts once", `{"keywords":["cards","Cards","billing"]}`, "acme > delta"},
	})
}

func TestDiscoverRequiresAFilter(t *testing.T) {
	e := newEnv(t)
	seed(e)
	_, key := e.workspace("nofilter", prospector.PlanGrowth, prospector.PlanGrowth)
	for _, path := range []string{"/api/v1/discover/companies", "/api/v1/discover/people"} {
		for _, body := range []string{
			`{}`, ``, `{"max_results":10}`, `{"keywords":[]}`, `{"titles":[]}`, `{"industry":null}`, `  `,
		} {
			if strings.HasSuffix(path, "people") && strings.Contains(body, "keywords") ||
				strings.HasSuffix(path, "companies") && strings.Contains(body, "titles") {
				continue
			}
			t.Run(path+" "+body, func(t *testing.T) {
				r := e.post(path, key, body)
				if msg := r.wantError(t, http.StatusBadRequest, "validation_error"); msg != "Provide at least one discovery filter" {
					t.Errorf("message %q", msg)
				}
			})
		}
	}
	// No body and no Content-Type at all, through env.do.
	for _, path := range []string{"/api/v1/discover/companies", "/api/v1/discover/people"} {
		r := e.do("POST", path, key, nil)
		if msg := r.wantError(t, http.StatusBadRequest, "validation_error"); msg != "Provide at least one discovery filter" {
			t.Errorf("%s without a body: message %q", path, msg)
		}
	}
}

type invalidCase struct {
	name, body, field string
}

func runInvalidCases(t *testing.T, e *env, key, path string, cases []invalidCase) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e.post(path, key, c.body).wantInvalid(t, c.field)
		})
	}
}

// jsonList is a JSON array of n copies of v.
func jsonList(n int, v string) string {
	vs := make([]string, n)
	for i := range vs {
		vs[i] = fmt.Sprintf("%q", v)
	}
	return "[" + strings.Join(vs, ",") + "]"
}

func TestDiscoverValidation(t *testing.T) {
	e := newEnv(t)
	seed(e)
	_, key := e.workspace("invalid", prospector.PlanGrowth, prospector.PlanGrowth)
	runInvalidCases(t, e, key, "/api/v1/discover/companies", []invalidCase{
		{"max_results 0", `{"industry":"saas","max_results":0}`, "max_results"},
		{"max_results 101", `{"industry":"saas","max_results":101}`, "max_results"},
		{"max_results -1", `{"industry":"saas","max_results":-1}`, "max_results"},
		{"max_results 1.5", `{"industry":"saas","max_results":1.5}`, "max_results"},
		{"max_results string", `{"industry":"saas","max_results":"10"}`, "max_results"},
		{"max_results huge", `{"industry":"saas","max_results":1e40}`, "max_results"},
		{"unknown industry", `{"industry":"astrology"}`, "industry"},
		{"industry not a string", `{"industry":5}`, "industry"},
		{"unknown employee_size", `{"employee_size":"11-49"}`, "employee_size"},
		{"employee_size written loosely", `{"employee_size":"11 - 50"}`, "employee_size"},
		{"unknown revenue band", `{"revenue":"lots"}`, "revenue"},
		{"revenue not a band", `{"revenue":"2M-5M"}`, "revenue"},
		{"keywords with a number", `{"keywords":["cloud",1]}`, "keywords"},
		{"keywords as a string", `{"keywords":"cloud"}`, "keywords"},
		{"keywords empty string", `{"keywords":["cloud",""]}`, "keywords[1]"},
		{"keywords blank string", `{"keywords":["  "]}`, "keywords[0]"},
		{"keywords over 50", `{"keywords":` + jsonList(51, "cloud") + `}`, "keywords"},
		{"location punctuation only", `{"location":","}`, "location"},
		{"location too long", `{"location":"` + strings.Repeat("a", 300) + `"}`, "location"},
		{"unknown member", `{"industy":"saas"}`, "industy"},
		{"duplicate member", `{"industry":"saas","industry":"banking"}`, "industry"},
		{"titles belong to people", `{"titles":["VP"]}`, "titles"},
		{"malformed JSON", `{"industry":`, "body"},
		{"truncated JSON", `{"industry":"saas"`, "body"},
		{"trailing data", `{"industry":"saas"} {}`, "body"},
		{"not an object", `["saas"]`, "body"},
		{"a string body", `"saas"`, "body"},
	})
	runInvalidCases(t, e, key, "/api/v1/discover/people", []invalidCase{
		{"max_results 0", `{"titles":["VP"],"max_results":0}`, "max_results"},
		{"max_results 101", `{"titles":["VP"],"max_results":101}`, "max_results"},
		{"max_results -1", `{"titles":["VP"],"max_results":-1}`, "max_results"},
		{"max_results 1.5", `{"titles":["VP"],"max_results":1.5}`, "max_results"},
		{"max_results string", `{"titles":["VP"],"max_results":"10"}`, "max_results"},
		{"titles as a string", `{"titles":"VP Sales"}`, "titles"},
		{"titles with a number", `{"titles":["VP",7]}`, "titles"},
		{"titles empty string", `{"titles":["VP",""]}`, "titles[1]"},
		{"titles over 50", `{"titles":` + jsonList(51, "VP") + `}`, "titles"},
		{"unknown industry", `{"industry":"astrology"}`, "industry"},
		{"unknown company_size", `{"company_size":"11-49"}`, "company_size"},
		{"company_size not a string", `{"company_size":["1-10"]}`, "company_size"},
		{"keywords belong to companies", `{"keywords":["cloud"]}`, "keywords"},
		{"malformed JSON", `{"titles":["VP"`, "body"},
	})
	t.Run("wrong content type", func(t *testing.T) {
		e.postAs("/api/v1/discover/companies", key, "text/plain", []byte(`{"industry":"saas"}`)).wantInvalid(t, "Content-Type")
	})
	t.Run("50 values accepted", func(t *testing.T) {
		if r := e.post("/api/v1/discover/companies", key, `{"keywords":`+jsonList(50, "cloud")+`}`); r.status != 200 {
			t.Errorf("50 keywords: %d %s", r.status, r.body)
		}
		if r := e.post("/api/v1/discover/people", key, `{"titles":`+jsonList(50, "VP")+`}`); r.status != 200 {
			t.Errorf("50 titles: %d %s", r.status, r.body)
		}
	})
}

func TestDiscoverMaxResults(t *testing.T) {
	e := newEnv(t)
	fx := seed(e)
	_, key := e.workspace("limits", prospector.PlanGrowth, prospector.PlanGrowth)
	fx.wantOrder(t, e.post("/api/v1/discover/companies", key, `{"location":"WORLD","max_results":1}`).items(t), "fabrik")
	fx.wantOrder(t, e.post("/api/v1/discover/companies", key, `{"location":"WORLD","max_results":3}`).items(t), "fabrik > betabank > cura")
	fx.wantOrder(t, e.post("/api/v1/discover/companies", key, `{"location":"WORLD","max_results":100}`).items(t), allCompanies)
	fx.wantOrder(t, e.post("/api/v1/discover/companies", key, `{"location":"WORLD","max_results":null}`).items(t), allCompanies)
	fx.wantOrder(t, e.post("/api/v1/discover/people", key, `{"location":"WORLD","max_results":1}`).items(t), "eve")
	fx.wantOrder(t, e.post("/api/v1/discover/people", key, `{"location":"WORLD","max_results":100}`).items(t), allPeople)
}

// addMany inserts n companies in Education and n people titled "Teacher"
// working there, for the default page size.
func addMany(t *testing.T, st prospector.Store, n int) {
	t.Helper()
	ctx := context.Background()
	cs := make([]*prospector.Company, n)
	for i := range cs {
		cs[i] = &prospector.Company{Name: fmt.Sprintf("School %03d", i), Domain: fmt.Sprintf("school%03d.example", i),
			Industry: "Education", CountryCode: "AU", EmployeeRange: taxonomy.EmployeeRanges()[i%8]}
	}
	if _, err := st.UpsertCompanies(ctx, cs); err != nil {
		t.Fatal(err)
	}
	ps := make([]*prospector.Person, n)
	for i := range ps {
		ps[i] = importedPerson(fmt.Sprintf("teacher-%03d", i), "", fmt.Sprintf("Teacher %03d", i), "Teacher", cs[i], "Perth", "", "AU", nil)
	}
	if _, err := st.UpsertPeople(ctx, ps); err != nil {
		t.Fatal(err)
	}
}

func TestDiscoverDefaultMaxResults(t *testing.T) {
	e := newEnv(t)
	addMany(t, e.store, 130)
	e.sync()
	_, key := e.workspace("many", prospector.PlanGrowth, prospector.PlanGrowth)
	for _, c := range []struct{ path, body string }{
		{"/api/v1/discover/companies", `{"industry":"education"}`},
		{"/api/v1/discover/people", `{"titles":["teacher"]}`},
	} {
		if n := len(e.post(c.path, key, c.body).items(t)); n != 100 {
			t.Errorf("%s without max_results: %d items, want the default 100", c.path, n)
		}
		body := strings.TrimSuffix(c.body, "}") + `,"max_results":100}`
		if n := len(e.post(c.path, key, body).items(t)); n != 100 {
			t.Errorf("%s max_results 100: %d items", c.path, n)
		}
		body = strings.TrimSuffix(c.body, "}") + `,"max_results":37}`
		if n := len(e.post(c.path, key, body).items(t)); n != 37 {
			t.Errorf("%s max_results 37: %d items", c.path, n)
		}
	}
}

func TestDiscoverAndSearchAccess(t *testing.T) {
	e := newEnv(t)
	seed(e)
	_, off := e.workspace("closed", prospector.PlanGrowth, prospector.PlanGrowth, func(w *prospector.Workspace) { w.PublicAPI = false })
	for _, path := range []string{"/api/v1/discover/companies", "/api/v1/discover/people", "/api/v1/search/companies", "/api/v1/search/people"} {
		r := e.post(path, "", `{"location":"WORLD"}`)
		r.wantError(t, http.StatusUnauthorized, "unauthorized")
		wantRateHeaders(t, r)
		e.post(path, "not-a-key", `{"location":"WORLD"}`).wantError(t, http.StatusUnauthorized, "unauthorized")
		e.post(path, off, `{"location":"WORLD"}`).wantError(t, http.StatusNotFound, "not_found")
	}
}

// fuzzServer is a server over a seeded SQLite store, with rate limiting
// off, and a key for it.
func fuzzServer(f *testing.F) (*api.Server, string) {
	ctx := context.Background()
	st, err := sqlite.Open(ctx, f.TempDir())
	if err != nil {
		f.Fatal(err)
	}
	f.Cleanup(func() { st.Close() })
	if _, err := insertProspects(ctx, st); err != nil {
		f.Fatal(err)
	}
	ix := search.New(st)
	if _, err := ix.Sync(ctx); err != nil {
		f.Fatal(err)
	}
	w := prospector.NewWorkspace("fuzz", prospector.PlanGrowth)
	w.Email = "fuzz@example.test"
	if err := st.CreateWorkspace(ctx, w); err != nil {
		f.Fatal(err)
	}
	k, secret := prospector.NewAPIKey(w.ID, prospector.PlanGrowth, nil)
	if err := st.CreateAPIKey(ctx, k); err != nil {
		f.Fatal(err)
	}
	return api.NewServer(api.Config{Store: st,
		Workflows: workflows.New(workflows.Parts{Store: st, Index: ix, CursorKey: []byte("fuzz cursor key")})}), secret
}

// fuzzBody posts body and fails unless the answer is a documented 200 or
// 400: never a 500, which is also what a panic becomes.
func fuzzBody(t *testing.T, srv *api.Server, key, path string, body []byte) {
	req := httptest.NewRequest("POST", path, bytes.NewReader(body))
	req.Header.Set(prospector.KeyHeader, key)
	req.Header.Set("Content-Type", "application/json")
	rec := httptest.NewRecorder()
	srv.ServeHTTP(rec, req)
	if rec.Code != http.StatusOK && rec.Code != http.StatusBadRequest {
		t.Fatalf("%s %q: status %d: %s", path, body, rec.Code, rec.Body)
	}
	if err := openAPIResponseError(req, rec.Code, rec.Header(), rec.Body.Bytes()); err != nil {
		t.Fatalf("%s %q: %v", path, body, err)
	}
}

func FuzzDiscoverCompaniesBody(f *testing.F) {
	srv, key := fuzzServer(f)
	for _, s := range []string{
		``, `{}`, `null`, `{"industry":"saas"}`, `{"location":"Austin, US","max_results":5}`, `{"revenue":"$1M-$10M"}`,
		`{"keywords":["billing platform","x"],"employee_size":"51-200"}`, `{"location":","}`, `{"keywords":[""]}`,
		`{"max_results":1e99,"industry":"x"}`, `{"industry":"saas","industry":"saas"}`, `[[[[[`, `{"location":"WORLD"}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		fuzzBody(t, srv, key, "/api/v1/discover/companies", body)
	})
}
