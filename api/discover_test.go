package api_test

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/prospectorhq/prospector"
	"github.com/prospectorhq/prospector/api"
	"github.com/prospectorhq/prospector/postgres"
	"github.com/prospectorhq/prospector/search"
	"github.com/prospectorhq/prospector/sqlite"
	"github.com/prospectorhq/prospector/taxonomy"
)

// prospects is the fixture the discovery and search tests query: a few
// synthetic companies and people, each known by a short key.
type prospects struct {
	rows  map[string]fixtureRow // key -> row
	byPub map[string]string     // public id (an item's id) -> key
}

type fixtureRow struct {
	id     int64  // row id: ties in ranking are broken by it
	public string // the item id the API returns
}

func i64p(n int64) *int64     { return &n }
func f64p(n float64) *float64 { return &n }

// fixtureCompanies are keyed, in insertion order.
func fixtureCompanies() ([]string, []*prospector.Company) {
	keys := []string{"acme", "betabank", "cura", "delta", "estate", "fabrik", "gamma", "ion", "kilo"}
	cs := []*prospector.Company{
		{Name: "Acme Cloud", Domain: "acme.example", Website: "https://acme.example", Industry: "Software Development",
			Description: "Cloud billing platform for subscription businesses", Keywords: []string{"billing", "payments"},
			City: "Austin", Region: "Texas", CountryCode: "US", EmployeeCount: i64p(120), EmployeeRange: "51-200",
			RevenueUSD: i64p(5_000_000), NetworkURL: "https://network.example/company/acme"},
		{Name: "Beta Bank", Domain: "betabank.example", Website: "https://betabank.example", Industry: "Banking",
			Description: "Retail and business lending", Keywords: []string{"lending"},
			City: "Berlin", CountryCode: "DE", EmployeeRange: "1001-5000", RevenueUSD: i64p(2_000_000_000)},
		{Name: "Cura Health", Domain: "cura.example", Website: "https://cura.example", Industry: "Hospitals and Health Care",
			Description: "Patient scheduling software", City: "London", Region: "England", CountryCode: "GB",
			EmployeeCount: i64p(300), EmployeeRange: "201-500", NetworkURL: "https://network.example/company/cura"},
		{Name: "Delta Pay", Domain: "deltapay.example", Website: "https://deltapay.example", Industry: "Financial Services",
			Description: "Card issuing", Keywords: []string{"payments", "cards"}, City: "New York", Region: "New York",
			CountryCode: "US", EmployeeCount: i64p(30), EmployeeRange: "11-50", RevenueUSD: i64p(20_000_000)},
		{Name: "Estate Partners", Domain: "estate.example", Website: "https://estate.example", Industry: "Real Estate"},
		{Name: "Fabrik Werke", Domain: "fabrik.example", Website: "https://fabrik.example", Industry: "Manufacturing",
			City: "Munich", Region: "Bavaria", CountryCode: "DE", EmployeeCount: i64p(20000), EmployeeRange: "10001+",
			RevenueUSD: i64p(800_000_000)},
		{Name: "Gamma Analytics", Domain: "gamma.example", Website: "https://gamma.example", Industry: "Software Development",
			Description: "Product analytics", Keywords: []string{"analytics"}, City: "Toronto", Region: "Ontario",
			CountryCode: "CA", EmployeeCount: i64p(8), EmployeeRange: "1-10", RevenueUSD: i64p(500_000)},
		{Name: "Ion Labs", Domain: "ionlabs.example", Website: "https://ionlabs.example", Industry: "Software Development",
			Description: "Developer tools", CountryCode: "SG", EmployeeRange: "1-10"},
		{Name: "Kilo Learning", Domain: "kilo.example", Website: "https://kilo.example", Industry: "Education",
			City: "London", CountryCode: "GB", EmployeeCount: i64p(75), EmployeeRange: "51-200"},
	}
	return keys, cs
}

// importedPerson builds a person the way the importer would: level and
// function derived from the title.
func importedPerson(ext, url, name, title string, co *prospector.Company, city, region, country string, score *float64) *prospector.Person {
	p := &prospector.Person{ExternalID: ext, NetworkURL: url, FullName: name, Title: title,
		City: city, Region: region, CountryCode: country, Score: score}
	if first, last, ok := strings.Cut(name, " "); ok {
		p.FirstName, p.LastName = first, last
	}
	if co != nil {
		p.CompanyID, p.CompanyName, p.CompanyDomain = &co.ID, co.Name, co.Domain
	}
	t := taxonomy.ParseTitle(title)
	p.JobLevel, p.JobFunction = t.Level, t.Function
	return p
}

// insertProspects writes the fixture through the store.
func insertProspects(ctx context.Context, st prospector.Store) (*prospects, error) {
	fx := &prospects{rows: map[string]fixtureRow{}, byPub: map[string]string{}}
	ckeys, cs := fixtureCompanies()
	if _, err := st.UpsertCompanies(ctx, cs); err != nil {
		return nil, err
	}
	co := map[string]*prospector.Company{}
	for i, c := range cs {
		co[ckeys[i]] = c
		fx.add(ckeys[i], c.ID, c.PublicID())
	}
	pkeys := []string{"ada", "ben", "cleo", "dan", "eve", "finn", "gia", "hal", "ivy", "jon"}
	ps := []*prospector.Person{
		importedPerson("", "https://network.example/in/ada", "Ada Lovelace", "VP of Sales", co["acme"], "Austin", "Texas", "US", f64p(88.5)),
		importedPerson("crm-2", "", "Ben Okafor", "Vice President, Sales", co["betabank"], "Berlin", "", "DE", nil),
		importedPerson("crm-3", "", "Cleo Park", "", nil, "", "", "", nil),
		importedPerson("crm-4", "https://network.example/in/dan", "Dan Reyes", "Sales Manager", co["delta"], "New York", "New York", "US", f64p(40)),
		importedPerson("crm-5", "", "Eve Stone", "CEO & Co-Founder", co["gamma"], "Toronto", "Ontario", "CA", f64p(95)),
		importedPerson("crm-6", "", "Finn Hale", "Director of Marketing", co["cura"], "London", "England", "GB", nil),
		importedPerson("crm-7", "", "Gia Russo", "Software Engineer", co["fabrik"], "Munich", "Bavaria", "DE", f64p(0)),
		importedPerson("", "https://network.example/in/hal", "Hal Berg", "VP Sales", co["gamma"], "Toronto", "Ontario", "CA", nil),
		importedPerson("crm-9", "", "Ivy Chen", "Head of People", co["acme"], "", "", "US", f64p(70)),
		importedPerson("crm-10", "", "Jon Miles", "Chief Revenue Officer", co["kilo"], "London", "", "GB", nil),
	}
	if _, err := st.UpsertPeople(ctx, ps); err != nil {
		return nil, err
	}
	for i, p := range ps {
		fx.add(pkeys[i], p.ID, p.PublicID())
	}
	return fx, nil
}

func (fx *prospects) add(key string, id int64, public string) {
	fx.rows[key] = fixtureRow{id: id, public: public}
	fx.byPub[public] = key
}

// seed inserts the fixture into e's store and brings the index up to date.
func seed(e *env) *prospects {
	e.t.Helper()
	fx, err := insertProspects(context.Background(), e.store)
	if err != nil {
		e.t.Fatal(err)
	}
	e.sync()
	return fx
}

// wantCompanyItems and wantPersonItems are the exact items of the
// fixture's rows: every field, null where unknown.
var wantCompanyItems = map[string]string{
	"acme": `{"id":"https://network.example/company/acme","name":"Acme Cloud","domain":"acme.example","website":"https://acme.example",` +
		`"industry":"Software Development","location":"Austin, Texas, United States","employee_size":"51-200","employee_count":120}`,
	"betabank": `{"id":"company:betabank.example","name":"Beta Bank","domain":"betabank.example","website":"https://betabank.example",` +
		`"industry":"Banking","location":"Berlin, Germany","employee_size":"1001-5000","employee_count":null}`,
	"cura": `{"id":"https://network.example/company/cura","name":"Cura Health","domain":"cura.example","website":"https://cura.example",` +
		`"industry":"Hospitals and Health Care","location":"London, England, United Kingdom","employee_size":"201-500","employee_count":300}`,
	"delta": `{"id":"company:deltapay.example","name":"Delta Pay","domain":"deltapay.example","website":"https://deltapay.example",` +
		`"industry":"Financial Services","location":"New York, New York, United States","employee_size":"11-50","employee_count":30}`,
	"estate": `{"id":"company:estate.example","name":"Estate Partners","domain":"estate.example","website":"https://estate.example",` +
		`"industry":"Real Estate","location":null,"employee_size":null,"employee_count":null}`,
	"fabrik": `{"id":"company:fabrik.example","name":"Fabrik Werke","domain":"fabrik.example","website":"https://fabrik.example",` +
		`"industry":"Manufacturing","location":"Munich, Bavaria, Germany","employee_size":"10001+","employee_count":20000}`,
	"gamma": `{"id":"company:gamma.example","name":"Gamma Analytics","domain":"gamma.example","website":"https://gamma.example",` +
		`"industry":"Software Development","location":"Toronto, Ontario, Canada","employee_size":"1-10","employee_count":8}`,
	"ion": `{"id":"company:ionlabs.example","name":"Ion Labs","domain":"ionlabs.example","website":"https://ionlabs.example",` +
		`"industry":"Software Development","location":"Singapore","employee_size":"1-10","employee_count":null}`,
	"kilo": `{"id":"company:kilo.example","name":"Kilo Learning","domain":"kilo.example","website":"https://kilo.example",` +
		`"industry":"Education","location":"London, United Kingdom","employee_size":"51-200","employee_count":75}`,
}

var wantPersonItems = map[string]string{
	"ada": `{"id":"https://network.example/in/ada","name":"Ada Lovelace","title":"VP of Sales","company":"Acme Cloud",` +
		`"network_url":"https://network.example/in/ada","location":"Austin, Texas, United States","score":88.5}`,
	"ben": `{"id":"person:crm-2","name":"Ben Okafor","title":"Vice President, Sales","company":"Beta Bank",` +
		`"network_url":null,"location":"Berlin, Germany","score":null}`,
	"cleo": `{"id":"person:crm-3","name":"Cleo Park","title":null,"company":null,"network_url":null,"location":null,"score":null}`,
	"dan": `{"id":"https://network.example/in/dan","name":"Dan Reyes","title":"Sales Manager","company":"Delta Pay",` +
		`"network_url":"https://network.example/in/dan","location":"New York, New York, United States","score":40}`,
	"eve": `{"id":"person:crm-5","name":"Eve Stone","title":"CEO & Co-Founder","company":"Gamma Analytics",` +
		`"network_url":null,"location":"Toronto, Ontario, Canada","score":95}`,
	"finn": `{"id":"person:crm-6","name":"Finn Hale","title":"Director of Marketing","company":"Cura Health",` +
		`"network_url":null,"location":"London, England, United Kingdom","score":null}`,
	"gia": `{"id":"person:crm-7","name":"Gia Russo","title":"Software Engineer","company":"Fabrik Werke",` +
		`"network_url":null,"location":"Munich, Bavaria, Germany","score":0}`,
	"hal": `{"id":"https://network.example/in/hal","name":"Hal Berg","title":"VP Sales","company":"Gamma Analytics",` +
		`"network_url":"https://network.example/in/hal","location":"Toronto, Ontario, Canada","score":null}`,
	"ivy": `{"id":"person:crm-9","name":"Ivy Chen","title":"Head of People","company":"Acme Cloud",` +
		`"network_url":null,"location":"United States","score":70}`,
	"jon": `{"id":"person:crm-10","name":"Jon Miles","title":"Chief Revenue Officer","company":"Kilo Learning",` +
		`"network_url":null,"location":"London, United Kingdom","score":null}`,
}

// Whole-fixture orders: the result of a filter every row passes.
const (
	allCompanies = "fabrik > betabank > cura > acme kilo > delta > gamma ion > estate"
	allPeople    = "eve > jon > ada ben hal > finn > ivy > dan > gia > cleo"
)

// wantOrder checks the items' ids against an expected order written with
// fixture keys: groups separated by ">" come in that order, and the keys
// of one group (separated by spaces) by ascending row id. "" is no items.
func (fx *prospects) wantOrder(t *testing.T, items []any, order string) {
	t.Helper()
	var want []string
	for _, group := range strings.Split(order, ">") {
		keys := strings.Fields(group)
		for i := range keys {
			if _, ok := fx.rows[keys[i]]; !ok {
				t.Fatalf("test bug: no fixture row %q", keys[i])
			}
			for j := i + 1; j < len(keys); j++ {
				if fx.rows[keys[j]].id < fx.rows[keys[i]].id {
					keys[i], keys[j] = keys[j], keys[i]
				}
			}
		}
		want = append(want, keys...)
	}
	got := fx.keys(t, items)
	if !reflect.DeepEqual(got, want) && !(len(got) == 0 && len(want) == 0) {
		t.Errorf("got %v, want %v (%s)", got, want, order)
	}
}

// keys maps items to fixture keys; an item not of the fixture is shown by
// its id.
func (fx *prospects) keys(t *testing.T, items []any) []string {
	t.Helper()
	var out []string
	for _, it := range items {
		id := itemID(t, it)
		if k, ok := fx.byPub[id]; ok {
			out = append(out, k)
		} else {
			out = append(out, id)
		}
	}
	return out
}

func itemID(t *testing.T, item any) string {
	t.Helper()
	m, ok := item.(map[string]any)
	if !ok {
		t.Fatalf("item is not an object: %v", item)
	}
	id, ok := m["id"].(string)
	if !ok || id == "" {
		t.Fatalf("item without a string id: %v", m)
	}
	return id
}

// wantItems checks each item against the exact JSON of its fixture row.
func (fx *prospects) wantItems(t *testing.T, items []any, want map[string]string) {
	t.Helper()
	for _, it := range items {
		key := fx.byPub[itemID(t, it)]
		var w any
		if err := json.Unmarshal([]byte(want[key]), &w); err != nil {
			t.Fatalf("no expected item for %q: %v", key, err)
		}
		if !reflect.DeepEqual(it, w) {
			t.Errorf("item %s:\n got %s\nwant %s", key, mustJSON(it), want[key])
		}
	}
}

// post sends a raw JSON body and checks the response against the
// OpenAPI document, as env.do does.
func (e *env) post(path, key, body string) response {
	e.t.Helper()
	return e.postAs(path, key, "application/json", []byte(body))
}

func (e *env) postAs(path, key, contentType string, body []byte) response {
	e.t.Helper()
	req := httptest.NewRequest("POST", path, bytes.NewReader(body))
	req.Header.Set(prospector.KeyHeader, key)
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	rec := httptest.NewRecorder()
	e.server.ServeHTTP(rec, req)
	res := response{status: rec.Code, header: rec.Header(), body: rec.Body.Bytes()}
	validateAgainstOpenAPI(e.t, req, res.status, res.header, res.body)
	return res
}

// items returns the items of a discover (data is an array) or search
// (data.items) response.
func (r response) items(t *testing.T) []any {
	t.Helper()
	if r.status != http.StatusOK {
		t.Fatalf("status %d, want 200: %s", r.status, r.body)
	}
	var env map[string]any
	if err := json.Unmarshal(r.body, &env); err != nil || len(env) != 1 {
		t.Fatalf("not a data envelope (%v): %s", err, r.body)
	}
	switch d := env["data"].(type) {
	case []any:
		return d
	case map[string]any:
		items, ok := d["items"].([]any)
		if !ok {
			t.Fatalf("data.items is not an array: %s", r.body)
		}
		return items
	}
	t.Fatalf("data is neither an array nor an object: %s", r.body)
	return nil
}

// wantInvalid checks a 400 validation_error whose message starts with the
// field it is about.
func (r response) wantInvalid(t *testing.T, field string) {
	t.Helper()
	msg := r.wantError(t, http.StatusBadRequest, "validation_error")
	if !strings.HasPrefix(msg, field) {
		t.Errorf("message %q does not name %s", msg, field)
	}
}

// engines runs f on a fresh environment of each store engine: SQLite
// always, PostgreSQL when TEST_DATABASE_URL is set.
func engines(t *testing.T, f func(t *testing.T, e *env), opts ...option) {
	t.Run("sqlite", func(t *testing.T) { f(t, newEnv(t, opts...)) })
	url := os.Getenv("TEST_DATABASE_URL")
	if url == "" {
		t.Log("TEST_DATABASE_URL not set: PostgreSQL not covered")
		return
	}
	t.Run("postgres", func(t *testing.T) { f(t, newEnvOn(t, openPostgres(t, url), opts...)) })
}

// openPostgres opens a store in a schema of its own, dropped at cleanup.
func openPostgres(t *testing.T, url string) prospector.Store {
	t.Helper()
	ctx := context.Background()
	b := make([]byte, 6)
	rand.Read(b)
	schema := "t_api_" + hex.EncodeToString(b)
	exec := func(sql string) error {
		conn, err := pgx.Connect(ctx, url)
		if err != nil {
			return err
		}
		defer conn.Close(ctx)
		_, err = conn.Exec(ctx, sql)
		return err
	}
	if err := exec("CREATE SCHEMA " + schema); err != nil {
		t.Fatalf("TEST_DATABASE_URL: %v", err)
	}
	sep := "?"
	if strings.Contains(url, "?") {
		sep = "&"
	}
	st, err := postgres.Open(ctx, url+sep+"search_path="+schema)
	if err != nil {
		exec("DROP SCHEMA " + schema + " CASCADE")
		t.Fatal(err)
	}
	t.Cleanup(func() {
		st.Close()
		if err := exec("DROP SCHEMA " + schema + " CASCADE"); err != nil {
			t.Errorf("drop %s: %v", schema, err)
		}
	})
	return st
}

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
			`{}`, ``, `{"max_results":10}`, `{"keywords":[]}`, `{"titles":[]}`, `{"industry":null}`, `  `, `null`,
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
	return api.NewServer(api.Config{Store: st, Searcher: ix, CursorKey: []byte("fuzz cursor key")}), secret
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
