package api_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"testing"

	"github.com/prospectorhq/prospector"
	"github.com/prospectorhq/prospector/taxonomy"
)

type walkCase struct {
	name, path, filters string
	company             func(c *prospector.Company) bool
	person              func(p *prospector.Person) bool
}

var walkTitles = []string{"VP Sales", "Sales Manager", "Account Executive", "Director of Sales", "Founder", "Engineer",
	"Vice President, Sales Operations", "", "Head of Sales", "Sales Director"}

func hasValue(list []string, v string) bool {
	for _, x := range list {
		if x == v {
			return true
		}
	}
	return false
}

var walkCases = []walkCase{
	{name: "companies all", path: "/api/v1/search/companies",
		company: func(*prospector.Company) bool { return true }},
	{name: "companies two keywords", path: "/api/v1/search/companies",
		filters: `"company":{"keywords":{"include":["alpha","beta"]}}`,
		company: func(c *prospector.Company) bool { return hasValue(c.Keywords, "alpha") || hasValue(c.Keywords, "beta") }},
	{name: "companies three keywords and size", path: "/api/v1/search/companies",
		filters: `"keywords":["alpha","beta","gamma"],"company":{"employee_range":["1-10","51-200","1001-5000","10001+"]}`,
		company: func(c *prospector.Company) bool {
			return len(c.Keywords) > 0 && hasValue([]string{"1-10", "51-200", "1001-5000", "10001+"}, c.EmployeeRange)
		}},
	{name: "people all", path: "/api/v1/search/people",
		person: func(*prospector.Person) bool { return true }},
	{name: "people titles", path: "/api/v1/search/people",
		filters: `"titles":["Sales","VP","Director"]`,
		person: func(p *prospector.Person) bool {
			return p.Title != "" && p.Title != "Account Executive" && p.Title != "Founder" && p.Title != "Engineer"
		}},
	{name: "people country", path: "/api/v1/search/people",
		filters: `"people":{"location":{"country_code":["US","DE"]}}`,
		person:  func(p *prospector.Person) bool { return p.CountryCode == "US" || p.CountryCode == "DE" }},
}

// walkRows are the rows addWalkRows wrote.
type walkRows struct {
	companies []*prospector.Company
	people    []*prospector.Person
}

// matching returns the public ids of the rows c matches.
func (w walkRows) matching(c walkCase) map[string]bool {
	out := map[string]bool{}
	for _, co := range w.companies {
		if c.company != nil && c.company(co) {
			out[co.PublicID()] = true
		}
	}
	for _, p := range w.people {
		if c.person != nil && c.person(p) {
			out[p.PublicID()] = true
		}
	}
	return out
}

// addWalkRows inserts n companies and n people with varied sizes,
// keywords, titles and countries, so that walks cross every rank tier.
func addWalkRows(t *testing.T, st prospector.Store, tag string, n int) walkRows {
	t.Helper()
	ctx := context.Background()
	ranges := append(taxonomy.EmployeeRanges(), "")
	countries := []string{"US", "DE", "GB", "US", ""}
	cs := make([]*prospector.Company, n)
	for i := range cs {
		var kws []string
		if i%2 == 0 {
			kws = append(kws, "alpha")
		}
		if i%3 == 0 {
			kws = append(kws, "beta")
		}
		if i%5 == 0 {
			kws = append(kws, "gamma")
		}
		cs[i] = &prospector.Company{Name: fmt.Sprintf("Walk %s %03d", tag, i), Domain: fmt.Sprintf("walk-%s-%03d.example", tag, i),
			Industry: "Retail", Keywords: kws, CountryCode: countries[i%len(countries)], EmployeeRange: ranges[(i*7)%len(ranges)]}
	}
	if _, err := st.UpsertCompanies(ctx, cs); err != nil {
		t.Fatal(err)
	}
	ps := make([]*prospector.Person, n)
	for i := range ps {
		ps[i] = importedPerson(fmt.Sprintf("walk-%s-%03d", tag, i), "", fmt.Sprintf("Walker %s %03d", tag, i), walkTitles[(i*3)%len(walkTitles)],
			cs[(i*11)%n], "", "", countries[(i+1)%len(countries)], nil)
	}
	if _, err := st.UpsertPeople(ctx, ps); err != nil {
		t.Fatal(err)
	}
	return walkRows{companies: cs, people: ps}
}

// searchBody joins filters, max_results and a cursor into a body.
func searchBody(filters string, max int, cursor *string) string {
	var parts []string
	if filters != "" {
		parts = append(parts, filters)
	}
	parts = append(parts, fmt.Sprintf(`"max_results":%d`, max))
	if cursor != nil {
		parts = append(parts, fmt.Sprintf(`"cursor":%q`, *cursor))
	}
	return "{" + strings.Join(parts, ",") + "}"
}

// walkIDs follows next_cursor to the end and returns the ids of every
// page in order, checking the pagination members of each page. between,
// when set, runs after each page.
func walkIDs(t *testing.T, e *env, key string, c walkCase, size int, between func()) []string {
	t.Helper()
	var ids []string
	var cursor *string
	for pages := 0; ; pages++ {
		if pages > 1000 {
			t.Fatalf("%s: walk does not end", c.name)
		}
		p := e.post(c.path, key, searchBody(c.filters, size, cursor)).searchPage(t)
		if (cursor == nil) != (p.cursor == nil) || cursor != nil && *p.cursor != *cursor {
			t.Fatalf("%s page %d: pagination.cursor %v, want the cursor sent (%v)", c.name, pages, p.cursor, cursor)
		}
		if len(p.items) > size || p.hasMore && len(p.items) != size {
			t.Fatalf("%s page %d: %d items with max_results %d, has_more %v", c.name, pages, len(p.items), size, p.hasMore)
		}
		if len(p.items) == 0 && cursor != nil {
			t.Fatalf("%s page %d: a cursor led to an empty page", c.name, pages)
		}
		for _, it := range p.items {
			ids = append(ids, itemID(t, it))
		}
		if !p.hasMore {
			return ids
		}
		if between != nil {
			between()
		}
		cursor = p.nextCursor
	}
}

func TestSearchCursorWalk(t *testing.T) {
	engines(t, func(t *testing.T, e *env) {
		rows := addWalkRows(t, e.store, "a", 90)
		e.sync()
		_, key := e.workspace("walk", prospector.PlanGrowth, prospector.PlanGrowth)
		for _, c := range walkCases {
			t.Run(c.name, func(t *testing.T) {
				want := rows.matching(c)
				if len(want) < 20 || len(want) > 100 {
					t.Fatalf("test bug: %d rows match, want between 20 and 100", len(want))
				}
				all := walkIDs(t, e, key, c, 100, nil)
				wantEach(t, "single page", all, want)
				for _, size := range []int{1, 7, 25} {
					got := walkIDs(t, e, key, c, size, nil)
					wantEach(t, fmt.Sprintf("max_results %d", size), got, want)
					if strings.Join(got, " ") != strings.Join(all, " ") {
						t.Errorf("max_results %d: the walk's order differs from the single page's\n got %v\nwant %v", size, got, all)
					}
				}
			})
		}
	}, noRateLimit)
}

// wantEach checks that ids holds every id of want exactly once, and
// nothing else.
func wantEach(t *testing.T, what string, ids []string, want map[string]bool) {
	t.Helper()
	seen := map[string]int{}
	for _, id := range ids {
		seen[id]++
		if seen[id] == 2 {
			t.Errorf("%s: %s returned twice", what, id)
		}
		if !want[id] {
			t.Errorf("%s: %s does not match", what, id)
		}
	}
	for id := range want {
		if seen[id] == 0 {
			t.Errorf("%s: %s never returned", what, id)
		}
	}
}

// TestSearchCursorWalkWhileInserting adds matching rows between pages:
// keyset paging must still return each row that existed at the start
// exactly once, and no row twice.
func TestSearchCursorWalkWhileInserting(t *testing.T) {
	engines(t, func(t *testing.T, e *env) {
		existing := []walkRows{addWalkRows(t, e.store, "a", 90)}
		e.sync()
		_, key := e.workspace("walk", prospector.PlanGrowth, prospector.PlanGrowth)
		for _, c := range walkCases {
			t.Run(c.name, func(t *testing.T) {
				before := map[string]bool{}
				for _, rows := range existing {
					for id := range rows.matching(c) {
						before[id] = true
					}
				}
				var added []walkRows
				defer func() { existing = append(existing, added...) }()
				pages, batch := 1, 0
				ids := walkIDs(t, e, key, c, 7, func() {
					pages++
					if batch == 6 { // keep the walk finite
						return
					}
					batch++
					added = append(added, addWalkRows(t, e.store, fmt.Sprintf("%s-%d", strings.ReplaceAll(c.name, " ", "-"), batch), 6))
					e.sync()
				})
				if pages < 8 {
					t.Fatalf("test bug: the walk had only %d pages", pages)
				}
				seen := map[string]int{}
				newRows := 0
				for _, id := range ids {
					seen[id]++
					if seen[id] > 1 {
						t.Errorf("%s returned twice", id)
					}
					if !before[id] {
						newRows++
						ok := false
						for _, a := range added {
							ok = ok || a.matching(c)[id]
						}
						if !ok {
							t.Errorf("%s returned but matches nothing", id)
						}
					}
				}
				for id := range before {
					if seen[id] != 1 {
						t.Errorf("%s existed before the walk and was returned %d times", id, seen[id])
					}
				}
				t.Logf("%d pages; %d matching rows inserted during the walk were returned", pages, newRows)
			})
		}
	}, noRateLimit)
}

// cursorEnv is a seeded environment, the next_cursor of a first page of
// two companies, and the ids of the whole result.
func cursorEnv(t *testing.T) (e *env, key, cursor string, all []string) {
	t.Helper()
	e = newEnv(t, noRateLimit)
	seed(e)
	_, key = e.workspace("cursors", prospector.PlanGrowth, prospector.PlanGrowth)
	p := e.post("/api/v1/search/companies", key, `{"max_results":2}`).searchPage(t)
	if p.nextCursor == nil {
		t.Fatal("no next_cursor after a first page of 2")
	}
	for _, it := range e.post("/api/v1/search/companies", key, `{}`).searchPage(t).items {
		all = append(all, itemID(t, it))
	}
	if ckeys, _ := fixtureCompanies(); len(all) != len(ckeys) {
		t.Fatalf("%d companies, want the fixture's %d", len(all), len(ckeys))
	}
	return e, key, *p.nextCursor, all
}

const base64URL = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"

func TestSearchCursorTampering(t *testing.T) {
	e, key, cursor, _ := cursorEnv(t)
	send := func(c string) response {
		return e.post("/api/v1/search/companies", key, fmt.Sprintf(`{"max_results":2,"cursor":%q}`, c))
	}
	if r := send(cursor); r.status != 200 {
		t.Fatalf("the genuine cursor: %d %s", r.status, r.body)
	}
	payload, sig, ok := strings.Cut(cursor, ".")
	if !ok {
		t.Fatalf("cursor %q: want payload.signature", cursor)
	}

	t.Run("every character altered", func(t *testing.T) {
		for i := 0; i < len(cursor); i++ {
			at := strings.IndexByte(base64URL, cursor[i])
			if at < 0 {
				continue // the separator
			}
			for _, d := range []int{1, 32} {
				c := cursor[:i] + string(base64URL[(at+d)%64]) + cursor[i+1:]
				r := send(c)
				if r.status != http.StatusBadRequest {
					part := "payload"
					if i > len(payload) {
						part = "signature"
					}
					t.Errorf("character %d (%s) %c -> %c: status %d, want 400", i, part, cursor[i], base64URL[(at+d)%64], r.status)
					continue
				}
				r.wantInvalid(t, "cursor")
			}
		}
	})

	for name, c := range map[string]string{
		"last character dropped":   cursor[:len(cursor)-1],
		"last four characters":     cursor[:len(cursor)-4],
		"payload only":             payload,
		"payload and dot":          payload + ".",
		"signature only":           sig,
		"dot and signature":        "." + sig,
		"half":                     cursor[:len(cursor)/2],
		"signature doubled":        payload + "." + sig + sig,
		"extra segment":            cursor + ".AAAA",
		"padding added":            cursor + "==",
		"garbage":                  "not-a-cursor",
		"dot":                      ".",
		"dots":                     "....",
		"not base64":               "%%%.%%%",
		"unsigned payload":         "eyJ2IjoxLCJxIjoiIiwidCI6MCwiYSI6MH0.AAAAAAAAAAAAAAAAAAAAAA",
		"long":                     strings.Repeat("A", 5000) + "." + sig,
		"spaces inside":            payload + " ." + sig,
		"standard base64 alphabet": strings.NewReplacer("-", "+", "_", "/").Replace(cursor) + "+/",
		"swapped payload and sig":  sig + "." + payload,
		"cursor of a cursor":       cursor + "." + cursor,
		"unicode":                  "é.é",
		"leading garbage":          "x" + cursor,
	} {
		t.Run(name, func(t *testing.T) { send(c).wantInvalid(t, "cursor") })
	}

	t.Run("another server key", func(t *testing.T) {
		other := newEnvOn(t, e.store, noRateLimit, func(c *apiConfig) { c.CursorKey = []byte("another cursor key") })
		other.sync()
		p := other.post("/api/v1/search/companies", key, `{"max_results":2}`).searchPage(t)
		if p.nextCursor == nil {
			t.Fatal("no next_cursor")
		}
		if *p.nextCursor == cursor {
			t.Fatal("two cursor keys signed the same cursor")
		}
		send(*p.nextCursor).wantInvalid(t, "cursor")
		// And the other way round.
		other.post("/api/v1/search/companies", key, fmt.Sprintf(`{"max_results":2,"cursor":%q}`, cursor)).wantInvalid(t, "cursor")
	})
}

func TestSearchCursorReplay(t *testing.T) {
	e, key, cursor, all := cursorEnv(t)
	with := func(path, body string) response {
		return e.post(path, key, strings.Replace(body, "CURSOR", fmt.Sprintf("%q", cursor), 1))
	}
	for name, body := range map[string]string{
		"an added filter":         `{"cursor":CURSOR,"industry":"saas"}`,
		"a nested filter":         `{"cursor":CURSOR,"company":{"hq":{"country_code":["US"]}}}`,
		"an exclude":              `{"cursor":CURSOR,"company":{"industry":{"exclude":["banking"]}}}`,
		"keywords":                `{"cursor":CURSOR,"keywords":["payments"]}`,
		"a location":              `{"cursor":CURSOR,"location":"Germany"}`,
		"a size with max_results": `{"cursor":CURSOR,"employee_size":"1-10","max_results":2}`,
	} {
		t.Run(name, func(t *testing.T) { with("/api/v1/search/companies", body).wantInvalid(t, "cursor") })
	}
	t.Run("another endpoint", func(t *testing.T) {
		with("/api/v1/search/people", `{"cursor":CURSOR}`).wantInvalid(t, "cursor")
	})
	t.Run("a people cursor with other titles", func(t *testing.T) {
		p := e.post("/api/v1/search/people", key, `{"titles":["VP"],"max_results":1}`).searchPage(t)
		if p.nextCursor == nil {
			t.Fatal("no next_cursor")
		}
		body := fmt.Sprintf(`{"titles":["VP","Sales"],"cursor":%q}`, *p.nextCursor)
		e.post("/api/v1/search/people", key, body).wantInvalid(t, "cursor")
		body = fmt.Sprintf(`{"people":{"job_level":["VP"]},"titles":["VP"],"cursor":%q}`, *p.nextCursor)
		e.post("/api/v1/search/people", key, body).wantInvalid(t, "cursor")
		body = fmt.Sprintf(`{"titles":["VP"],"cursor":%q}`, *p.nextCursor)
		if r := e.post("/api/v1/search/people", key, body); r.status != 200 {
			t.Errorf("same titles: %d %s", r.status, r.body)
		}
	})
	t.Run("same query, other max_results", func(t *testing.T) {
		for _, size := range []int{1, 3, 5, 100} {
			p := with("/api/v1/search/companies", fmt.Sprintf(`{"cursor":CURSOR,"max_results":%d}`, size)).searchPage(t)
			want := all[2:min(2+size, len(all))]
			got := make([]string, 0, len(p.items))
			for _, it := range p.items {
				got = append(got, itemID(t, it))
			}
			if p.cursor == nil || *p.cursor != cursor {
				t.Errorf("max_results %d: pagination.cursor %v, want the cursor sent", size, p.cursor)
			}
			if strings.Join(got, " ") != strings.Join(want, " ") || (2+size < len(all)) != p.hasMore {
				t.Errorf("max_results %d: items %v, has_more %v; want %v", size, got, p.hasMore, want)
			}
		}
	})
	t.Run("reused cursor gives the same page", func(t *testing.T) {
		a := with("/api/v1/search/companies", `{"cursor":CURSOR,"max_results":2}`)
		b := with("/api/v1/search/companies", `{"cursor":CURSOR,"max_results":2}`)
		if string(mustJSON(a.searchPage(t).items)) != string(mustJSON(b.searchPage(t).items)) {
			t.Error("the same cursor twice gave different pages")
		}
	})
}

func FuzzSearchPeopleBody(f *testing.F) {
	srv, key := fuzzServer(f)
	seeds := []string{
		``, `{}`, `null`, `{"titles":["VP Sales"]}`, `{"people":{"job_level":["vp"],"location":{"country_code":["WORLD","de"]}}}`,
		`{"company":{"industry":{"include":["saas"]}},"industry":"banking"}`, `{"location":"Austin, US","max_results":1}`,
		`{"cursor":"x.y"}`, `{"cursor":""}`, `{"people":{"job_title":{"include":[""]}}}`, `{"max_results":-0}`,
		`{"people":{"job_function":["sales","hr"]},"company_size":"1-10"}`, `{"titles":["\u0000"]}`, `{"a":{"b":{"c":[[[]]]}}}`,
	}
	// A genuine cursor, for the fuzzer to alter.
	rec := httptest.NewRecorder()
	req := httptest.NewRequest("POST", "/api/v1/search/people", strings.NewReader(`{"max_results":1}`))
	req.Header.Set(prospector.KeyHeader, key)
	req.Header.Set("Content-Type", "application/json")
	srv.ServeHTTP(rec, req)
	var first struct {
		Data struct {
			Pagination struct {
				NextCursor string `json:"next_cursor"`
			} `json:"pagination"`
		} `json:"data"`
	}
	if err := json.Unmarshal(rec.Body.Bytes(), &first); err != nil || first.Data.Pagination.NextCursor == "" {
		f.Fatalf("first page: %v: %s", err, rec.Body)
	}
	c := first.Data.Pagination.NextCursor
	seeds = append(seeds, fmt.Sprintf(`{"cursor":%q}`, c), fmt.Sprintf(`{"cursor":%q,"max_results":3}`, c),
		fmt.Sprintf(`{"cursor":%q,"titles":["VP"]}`, c))
	for _, s := range seeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		fuzzBody(t, srv, key, "/api/v1/search/people", body)
	})
}

// TestSearchFollowsUpdates changes stored rows after the index was
// built: a company's industry and size (which people are filtered by),
// a title, a job change. Results and items must follow once the index
// has caught up.
func TestSearchFollowsUpdates(t *testing.T) {
	engines(t, func(t *testing.T, e *env) {
		fx := seed(e)
		_, key := e.workspace("updates", prospector.PlanGrowth, prospector.PlanGrowth)
		ctx := context.Background()
		keys, cs := fixtureCompanies()
		co := map[string]*prospector.Company{}
		for i, c := range cs {
			co[keys[i]] = c
		}
		gamma := co["gamma"]
		gamma.Industry, gamma.EmployeeRange, gamma.EmployeeCount = "Financial Services", "11-50", i64p(40)
		if _, err := e.store.UpsertCompanies(ctx, []*prospector.Company{gamma, co["acme"]}); err != nil {
			t.Fatal(err)
		}
		ada := importedPerson("", "https://network.example/in/ada", "Ada Lovelace", "Head of Marketing", co["acme"], "Austin", "Texas", "US", f64p(88.5))
		hal := importedPerson("", "https://network.example/in/hal", "Hal Berg", "VP Sales", co["acme"], "Austin", "Texas", "US", nil)
		if _, err := e.store.UpsertPeople(ctx, []*prospector.Person{ada, hal}); err != nil {
			t.Fatal(err)
		}
		if ada.ID != fx.rows["ada"].id || hal.ID != fx.rows["hal"].id || gamma.ID != fx.rows["gamma"].id {
			t.Fatal("an update made a new row")
		}
		e.sync()

		for _, c := range []struct{ path, body, want string }{
			{"/api/v1/search/companies", `{"industry":"saas"}`, "acme > ion"},
			{"/api/v1/search/companies", `{"industry":"fintech"}`, "gamma delta"},
			{"/api/v1/discover/companies", `{"employee_size":"11-50"}`, "delta gamma"},
			{"/api/v1/search/people", `{"industry":"saas"}`, "hal > ada ivy"},
			{"/api/v1/search/people", `{"company":{"industry":{"include":["fintech"]}}}`, "eve > dan"},
			{"/api/v1/discover/people", `{"company_size":"11-50"}`, "eve > dan"},
			{"/api/v1/discover/people", `{"company_size":"1-10"}`, ""},
			{"/api/v1/search/people", `{"titles":["VP Sales"]}`, "ben hal"},
			{"/api/v1/search/people", `{"people":{"job_function":["Marketing"]}}`, "finn > ada"},
			{"/api/v1/search/people", `{"people":{"job_level":["Head"]}}`, "ada ivy"},
			{"/api/v1/search/people", `{"location":"Ontario"}`, "eve"},
			{"/api/v1/search/people", `{"location":"Austin"}`, "hal > ada"},
		} {
			fx.wantOrder(t, e.post(c.path, key, c.body).items(t), c.want)
		}
		items := e.post("/api/v1/discover/people", key, `{"titles":["VP Sales"],"location":"Texas"}`).items(t)
		want := `[{"id":"https://network.example/in/hal","name":"Hal Berg","title":"VP Sales","company":"Acme Cloud",` +
			`"network_url":"https://network.example/in/hal","location":"Austin, Texas, United States","score":null}]`
		var w []any
		if err := json.Unmarshal([]byte(want), &w); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(items, w) {
			t.Errorf("moved person:\n got %s\nwant %s", mustJSON(items), want)
		}
	})
}
