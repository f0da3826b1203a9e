package api_test

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/prospectorhq/prospector/postgres/pgtest"

	"github.com/prospectorhq/prospector"
	"github.com/prospectorhq/prospector/taxonomy"
)

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
	if os.Getenv("TEST_DATABASE_URL") == "" {
		t.Log("TEST_DATABASE_URL not set: PostgreSQL not covered")
		return
	}
	t.Run("postgres", func(t *testing.T) { f(t, newEnvOn(t, openPostgres(t), opts...)) })
}

// openPostgres opens a store in a schema of its own, dropped at cleanup.
func openPostgres(t *testing.T) prospector.Store {
	return pgtest.Open(t, pgtest.FreshSchema(t))
}
