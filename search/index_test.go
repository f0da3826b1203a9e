package search_test

import (
	"context"
	"fmt"
	"sort"
	"sync"
	"testing"

	"github.com/prospectorhq/prospector"
	"github.com/prospectorhq/prospector/search"
	"github.com/prospectorhq/prospector/sqlite"
)

func i64(n int64) *int64 { return &n }

type fixture struct {
	st  prospector.Store
	ix  *search.Index
	co  map[string]*prospector.Company
	per map[string]*prospector.Person
}

func newFixture(t *testing.T) *fixture {
	t.Helper()
	st, err := sqlite.Open(context.Background(), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	f := &fixture{st: st, ix: search.New(st), co: map[string]*prospector.Company{}, per: map[string]*prospector.Person{}}
	cs := []*prospector.Company{
		{Name: "Acme Robotics", Domain: "acme.example", Industry: "Software Development", CountryCode: "US", City: "Austin", Region: "Texas",
			EmployeeRange: "51-200", Keywords: []string{"robotics", "warehouse automation"}, RevenueUSD: i64(12e6)},
		{Name: "Bluepeak Bank", Domain: "bluepeak.example", Industry: "Banking", CountryCode: "GB", City: "London",
			EmployeeRange: "5001-10000", Description: "A digital bank for warehouse operators.", RevenueUSD: i64(2e9)},
		{Name: "Cobalt Retail", Domain: "cobalt.example", Industry: "Retail", CountryCode: "DE", City: "Berlin",
			EmployeeRange: "10001+", Keywords: []string{"robotics"}},
		{Name: "Delta Soft", Domain: "delta.example", Industry: "Software Development", CountryCode: "US", City: "San Francisco",
			Region: "California", Keywords: []string{"warehouse", "robotics", "automation"}},
	}
	if _, err := st.UpsertCompanies(context.Background(), cs); err != nil {
		t.Fatal(err)
	}
	for _, c := range cs {
		f.co[c.Domain] = c
	}
	co := func(d string) *int64 { return &f.co[d].ID }
	ps := []*prospector.Person{
		{ExternalID: "p1", FullName: "Ada", Title: "VP of Sales", JobLevel: "VP", JobFunction: "Sales", CompanyID: co("acme.example"), CountryCode: "US", City: "Austin"},
		{ExternalID: "p2", FullName: "Bo", Title: "Vice President, Sales & Marketing", JobLevel: "VP", JobFunction: "Sales", CompanyID: co("bluepeak.example"), CountryCode: "GB", City: "London"},
		{ExternalID: "p3", FullName: "Cy", Title: "Sales Development Representative", JobLevel: "IC", JobFunction: "Sales", CompanyID: co("acme.example"), CountryCode: "US"},
		{ExternalID: "p4", FullName: "Di", Title: "Co-founder & CEO", JobLevel: "Founder", CompanyID: co("delta.example"), CountryCode: "US", City: "San Francisco"},
		{ExternalID: "p5", FullName: "Ed", Title: "Head of Sales", JobLevel: "Head", JobFunction: "Sales", CompanyID: co("cobalt.example"), CountryCode: "DE"},
		{ExternalID: "p6", FullName: "Fa", Title: "Senior Software Engineer", JobLevel: "IC", JobFunction: "Engineering", CountryCode: "US"},
	}
	if _, err := st.UpsertPeople(context.Background(), ps); err != nil {
		t.Fatal(err)
	}
	for _, p := range ps {
		f.per[p.ExternalID] = p
	}
	if _, err := f.ix.Sync(context.Background()); err != nil {
		t.Fatal(err)
	}
	return f
}

func (f *fixture) companies(t *testing.T, q prospector.CompanyQuery) []string {
	t.Helper()
	page, err := f.ix.SearchCompanies(context.Background(), q, prospector.SearchPosition{}, 100)
	if err != nil {
		t.Fatal(err)
	}
	byID := map[int64]string{}
	for d, c := range f.co {
		byID[c.ID] = d
	}
	var out []string
	for _, id := range page.IDs {
		out = append(out, byID[id])
	}
	return out
}

func (f *fixture) people(t *testing.T, q prospector.PersonQuery) []string {
	t.Helper()
	page, err := f.ix.SearchPeople(context.Background(), q, prospector.SearchPosition{}, 100)
	if err != nil {
		t.Fatal(err)
	}
	byID := map[int64]string{}
	for k, p := range f.per {
		byID[p.ID] = k
	}
	var out []string
	for _, id := range page.IDs {
		out = append(out, byID[id])
	}
	return out
}

func eq(t *testing.T, what string, got []string, want ...string) {
	t.Helper()
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("%s = %v, want %v", what, got, want)
	}
}

func TestCompanyFilters(t *testing.T) {
	f := newFixture(t)
	eq(t, "industry", f.companies(t, prospector.CompanyQuery{Industries: []string{"Software Development"}}), "acme.example", "delta.example")
	eq(t, "industry OR", f.companies(t, prospector.CompanyQuery{Industries: []string{"Banking", "Retail"}}), "cobalt.example", "bluepeak.example")
	eq(t, "industry AND country", f.companies(t, prospector.CompanyQuery{Industries: []string{"Software Development", "Retail"}, Countries: []string{"DE"}}), "cobalt.example")
	eq(t, "exclude", f.companies(t, prospector.CompanyQuery{ExcludeIndustries: []string{"Software Development"}}), "cobalt.example", "bluepeak.example")
	eq(t, "size", f.companies(t, prospector.CompanyQuery{Sizes: []string{"51-200", "10001+"}}), "cobalt.example", "acme.example")
	eq(t, "revenue", f.companies(t, prospector.CompanyQuery{Revenues: []string{"1B+"}}), "bluepeak.example")
	eq(t, "place", f.companies(t, prospector.CompanyQuery{Places: []string{"san francisco"}}), "delta.example")
	eq(t, "place by region", f.companies(t, prospector.CompanyQuery{Places: []string{"Texas", "Berlin"}}), "cobalt.example", "acme.example")
	eq(t, "no match", f.companies(t, prospector.CompanyQuery{Industries: []string{"Insurance"}}))
	// Keywords hit name, industry, description and keywords; rows that
	// match more of the keywords come first, then bigger companies.
	eq(t, "keywords ranked", f.companies(t, prospector.CompanyQuery{Keywords: []string{"robotics", "warehouse"}}),
		"acme.example", "delta.example", "cobalt.example", "bluepeak.example")
	eq(t, "keyword phrase needs every word", f.companies(t, prospector.CompanyQuery{Keywords: []string{"warehouse automation"}}),
		"acme.example", "delta.example")
	eq(t, "keyword in name", f.companies(t, prospector.CompanyQuery{Keywords: []string{"bank"}}), "bluepeak.example")
	eq(t, "everything, biggest first", f.companies(t, prospector.CompanyQuery{}),
		"cobalt.example", "bluepeak.example", "acme.example", "delta.example")
}

func TestPeopleFilters(t *testing.T) {
	f := newFixture(t)
	// "VP Sales" is word-aware: it matches "VP of Sales" and "Vice
	// President, Sales & Marketing", not "Sales Development Representative".
	eq(t, "title words", f.people(t, prospector.PersonQuery{Titles: []string{"VP Sales"}}), "p1", "p2")
	eq(t, "title case", f.people(t, prospector.PersonQuery{Titles: []string{"vice president of SALES"}}), "p1", "p2")
	eq(t, "titles ranked by how many match, then seniority", f.people(t, prospector.PersonQuery{Titles: []string{"sales", "marketing"}}),
		"p2", "p1", "p5", "p3")
	eq(t, "the same title in other words counts once", f.people(t, prospector.PersonQuery{Titles: []string{"Sales Representative", "Representative, Sales", "Head of Sales"}}),
		"p5", "p3")
	eq(t, "function", f.people(t, prospector.PersonQuery{Functions: []string{"Engineering"}}), "p6")
	eq(t, "level OR", f.people(t, prospector.PersonQuery{Levels: []string{"Founder", "Head"}}), "p4", "p5")
	eq(t, "country", f.people(t, prospector.PersonQuery{Countries: []string{"GB", "DE"}}), "p2", "p5")
	eq(t, "place", f.people(t, prospector.PersonQuery{Places: []string{"Austin"}}), "p1")
	eq(t, "company size", f.people(t, prospector.PersonQuery{CompanySizes: []string{"51-200"}}), "p1", "p3")
	eq(t, "company industry", f.people(t, prospector.PersonQuery{CompanyIndustries: []string{"Software Development"}}), "p4", "p1", "p3")
	eq(t, "AND across fields", f.people(t, prospector.PersonQuery{Functions: []string{"Sales"}, Countries: []string{"US"}, Levels: []string{"VP", "IC"}}), "p1", "p3")
	eq(t, "all by seniority", f.people(t, prospector.PersonQuery{}), "p4", "p1", "p2", "p5", "p3", "p6")
}

func TestUpdatesReachTheIndex(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	acme := *f.co["acme.example"]
	acme.EmployeeRange, acme.Industry = "201-500", "Banking"
	if _, err := f.st.UpsertCompanies(ctx, []*prospector.Company{&acme}); err != nil {
		t.Fatal(err)
	}
	moved := *f.per["p6"]
	moved.CompanyID, moved.Title, moved.JobLevel = &f.co["cobalt.example"].ID, "Engineering Manager", "Manager"
	newcomer := &prospector.Person{ExternalID: "p7", FullName: "Gi", Title: "VP Sales", JobLevel: "VP", CountryCode: "US"}
	if _, err := f.st.UpsertPeople(ctx, []*prospector.Person{&moved, newcomer}); err != nil {
		t.Fatal(err)
	}
	f.per["p7"] = newcomer
	if n, err := f.ix.Sync(ctx); err != nil || n != 3 {
		t.Fatalf("sync applied %d rows (%v), want the 3 changed", n, err)
	}
	eq(t, "old size gone", f.companies(t, prospector.CompanyQuery{Sizes: []string{"51-200"}}))
	eq(t, "people follow their company's new size", f.people(t, prospector.PersonQuery{CompanySizes: []string{"201-500"}}), "p1", "p3")
	eq(t, "and industry", f.people(t, prospector.PersonQuery{CompanyIndustries: []string{"Banking"}}), "p1", "p2", "p3")
	eq(t, "moved person", f.people(t, prospector.PersonQuery{CompanySizes: []string{"10001+"}}), "p5", "p6")
	eq(t, "new title", f.people(t, prospector.PersonQuery{Titles: []string{"engineer"}}))
	eq(t, "newcomer", f.people(t, prospector.PersonQuery{Titles: []string{"VP Sales"}}), "p1", "p2", "p7")
	if n, err := f.ix.Sync(ctx); err != nil {
		t.Fatal(err)
	} else if n != 0 {
		t.Fatalf("a second sync applied %d rows", n)
	}
}

// TestPagingUnderConcurrentInserts walks every page while another
// goroutine inserts people: every person that existed before the walk is
// seen exactly once.
func TestPagingUnderConcurrentInserts(t *testing.T) {
	st, err := sqlite.Open(context.Background(), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	ctx := context.Background()
	levels := []string{"VP", "IC", "Director", "Founder"}
	mk := func(prefix string, n int) []*prospector.Person {
		var ps []*prospector.Person
		for i := 0; i < n; i++ {
			ps = append(ps, &prospector.Person{ExternalID: fmt.Sprintf("%s%d", prefix, i), FullName: "X",
				Title: "Sales Lead", JobLevel: levels[i%len(levels)], CountryCode: "US"})
		}
		return ps
	}
	before := mk("a", 1000)
	if _, err := st.UpsertPeople(ctx, before); err != nil {
		t.Fatal(err)
	}
	ix := search.New(st)
	if _, err := ix.Sync(ctx); err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for i := 0; i < 10; i++ {
			if _, err := st.UpsertPeople(ctx, mk(fmt.Sprintf("b%d-", i), 50)); err != nil {
				t.Error(err)
			}
			ix.Sync(ctx)
		}
	}()
	seen := map[int64]int{}
	pos := prospector.SearchPosition{}
	for pages := 0; ; pages++ {
		page, err := ix.SearchPeople(ctx, prospector.PersonQuery{Titles: []string{"sales"}, Countries: []string{"US"}}, pos, 37)
		if err != nil {
			t.Fatal(err)
		}
		for _, id := range page.IDs {
			seen[id]++
		}
		if page.Next == nil {
			break
		}
		pos = *page.Next
	}
	wg.Wait()
	for _, p := range before {
		if seen[p.ID] != 1 {
			t.Fatalf("person %d seen %d times", p.ID, seen[p.ID])
		}
	}
	for id, n := range seen {
		if n != 1 {
			t.Fatalf("person %d seen %d times", id, n)
		}
	}
	var ids []int64
	for id := range seen {
		ids = append(ids, id)
	}
	sort.Slice(ids, func(i, j int) bool { return ids[i] < ids[j] })
}

func TestPagesEndExactly(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	all := f.people(t, prospector.PersonQuery{})
	for _, size := range []int{1, 2, 3, 6, 7} {
		var got []string
		pos := prospector.SearchPosition{}
		for {
			page, err := f.ix.SearchPeople(ctx, prospector.PersonQuery{}, pos, size)
			if err != nil {
				t.Fatal(err)
			}
			for _, id := range page.IDs {
				for k, p := range f.per {
					if p.ID == id {
						got = append(got, k)
					}
				}
			}
			if page.Next == nil {
				if len(page.IDs) == 0 && len(got) < len(all) {
					t.Fatalf("empty last page at size %d", size)
				}
				break
			}
			if len(page.IDs) != size {
				t.Fatalf("short page with a next position at size %d", size)
			}
			pos = *page.Next
		}
		eq(t, fmt.Sprintf("pages of %d", size), got, all...)
	}
}

// TestPeopleVersion: the version moves when changed people are taken in,
// and only then, so a cache keyed on it keeps its entries while nobody
// changes.
func TestPeopleVersion(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t)
	v := f.ix.PeopleVersion()
	if _, err := f.ix.Sync(ctx); err != nil {
		t.Fatal(err)
	}
	if f.ix.PeopleVersion() != v {
		t.Fatal("a sync with no changes moved the version")
	}
	if _, err := f.st.UpsertCompanies(ctx, []*prospector.Company{{Name: "Echo", Domain: "echo.example"}}); err != nil {
		t.Fatal(err)
	}
	if _, err := f.ix.Sync(ctx); err != nil {
		t.Fatal(err)
	}
	if f.ix.PeopleVersion() != v {
		t.Fatal("a change of companies only moved the people version")
	}
	p := *f.per["p1"]
	p.Email = "new.address@acme.example"
	if _, err := f.st.UpsertPeople(ctx, []*prospector.Person{&p}); err != nil {
		t.Fatal(err)
	}
	if f.ix.PeopleVersion() != v {
		t.Fatal("the version moved before the index took the change in")
	}
	if _, err := f.ix.Sync(ctx); err != nil {
		t.Fatal(err)
	}
	if f.ix.PeopleVersion() == v {
		t.Fatal("a changed person did not move the version")
	}
}
