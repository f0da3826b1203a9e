package search_test

import (
	"context"
	"errors"
	"testing"

	"github.com/prospectorhq/prospector"
	"github.com/prospectorhq/prospector/search"
	"github.com/prospectorhq/prospector/sqlite"
)

// colleagues is a small store for CompanyPeople: Orbit with eight people
// of mixed seniority, Nimbus with one, Quiet with nobody, and one person
// with no company.
type colleagues struct {
	st  prospector.Store
	ix  *search.Index
	co  map[string]*prospector.Company
	per map[string]*prospector.Person
}

func newColleagues(t *testing.T) *colleagues {
	t.Helper()
	ctx := context.Background()
	st, err := sqlite.Open(ctx, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	f := &colleagues{st: st, ix: search.New(st), co: map[string]*prospector.Company{}, per: map[string]*prospector.Person{}}
	cs := []*prospector.Company{
		{Name: "Orbit Freight", Domain: "orbit.example", CountryCode: "US", EmployeeRange: "51-200"},
		{Name: "Nimbus Ledger", Domain: "nimbus.example", CountryCode: "GB", EmployeeRange: "11-50"},
		{Name: "Quiet Co", Domain: "quiet.example", CountryCode: "DE"},
	}
	if _, err := st.UpsertCompanies(ctx, cs); err != nil {
		t.Fatal(err)
	}
	for _, c := range cs {
		f.co[c.Domain] = c
	}
	orbit, nimbus := &f.co["orbit.example"].ID, &f.co["nimbus.example"].ID
	// Inserted in this order, so ids ascend along it; it is not the
	// seniority order.
	ps := []*prospector.Person{
		{ExternalID: "eng", FullName: "Indigo Swift", Title: "Software Engineer", JobLevel: "IC", JobFunction: "Engineering",
			CompanyID: orbit, CountryCode: "DE", City: "Berlin"},
		{ExternalID: "vpm", FullName: "Devon Lark", Title: "VP Marketing", JobLevel: "VP", JobFunction: "Marketing",
			CompanyID: orbit, CountryCode: "DE", City: "Berlin"},
		{ExternalID: "ceo", FullName: "Avery Quill", Title: "CEO", JobLevel: "CXO",
			CompanyID: orbit, CountryCode: "US", City: "Austin", Region: "Texas"},
		{ExternalID: "vps", FullName: "Casey Wren", Title: "VP of Sales", JobLevel: "VP", JobFunction: "Sales",
			CompanyID: orbit, CountryCode: "US", City: "New York", Region: "New York"},
		{ExternalID: "smgr", FullName: "Gray Plover", Title: "Sales Manager", JobLevel: "Manager", JobFunction: "Sales",
			CompanyID: orbit, CountryCode: "GB", City: "London"},
		{ExternalID: "fnd", FullName: "Blake Tern", Title: "Co-founder", JobLevel: "Founder",
			CompanyID: orbit, CountryCode: "GB", City: "London"},
		{ExternalID: "none", FullName: "Jules Kestrel", CompanyID: orbit},
		{ExternalID: "sdr", FullName: "Harper Robin", Title: "Sales Development Representative", JobLevel: "IC", JobFunction: "Sales",
			CompanyID: orbit, CountryCode: "US", City: "Austin", Region: "Texas"},
		{ExternalID: "nvp", FullName: "Morgan Vale", Title: "VP of Sales", JobLevel: "VP", JobFunction: "Sales",
			CompanyID: nimbus, CountryCode: "GB", City: "London"},
		{ExternalID: "free", FullName: "Nico Dale", Title: "VP of Sales", JobLevel: "VP", JobFunction: "Sales",
			CountryCode: "US", City: "Austin"},
	}
	if _, err := st.UpsertPeople(ctx, ps); err != nil {
		t.Fatal(err)
	}
	for i, p := range ps {
		if i > 0 && p.ID <= ps[i-1].ID {
			t.Fatalf("test bug: ids do not ascend with insertion order")
		}
		f.per[p.ExternalID] = p
	}
	f.sync(t)
	return f
}

func (f *colleagues) sync(t *testing.T) {
	t.Helper()
	if _, err := f.ix.Sync(context.Background()); err != nil {
		t.Fatal(err)
	}
}

// at returns the keys of the people CompanyPeople finds at the company.
func (f *colleagues) at(t *testing.T, domain string, q prospector.PersonQuery) []string {
	t.Helper()
	var id int64 = 999999
	if c := f.co[domain]; c != nil {
		id = c.ID
	}
	return f.atID(t, id, q)
}

func (f *colleagues) atID(t *testing.T, id int64, q prospector.PersonQuery) []string {
	t.Helper()
	ids, err := f.ix.CompanyPeople(context.Background(), id, q)
	if err != nil {
		t.Fatal(err)
	}
	byID := map[int64]string{}
	for k, p := range f.per {
		byID[p.ID] = k
	}
	var out []string
	for _, id := range ids {
		if k, ok := byID[id]; ok {
			out = append(out, k)
		} else {
			out = append(out, "?")
		}
	}
	return out
}

const orbit = "orbit.example"

func TestCompanyPeopleOrder(t *testing.T) {
	f := newColleagues(t)
	// Seniority (Founder, CXO, VP, Director, Head, Manager, IC, unknown),
	// then id.
	eq(t, "everyone", f.at(t, orbit, prospector.PersonQuery{}), "fnd", "ceo", "vpm", "vps", "smgr", "eng", "sdr", "none")
	eq(t, "one title", f.at(t, orbit, prospector.PersonQuery{Titles: []string{"Sales"}}), "vps", "smgr", "sdr")
	// More matched titles first, then seniority.
	eq(t, "title count beats seniority", f.at(t, orbit, prospector.PersonQuery{Titles: []string{"Sales", "Representative"}}),
		"sdr", "vps", "smgr")
	eq(t, "two titles", f.at(t, orbit, prospector.PersonQuery{Titles: []string{"VP", "Sales"}}), "vps", "vpm", "smgr", "sdr")
	// A title repeated (in any case or word order) counts once.
	eq(t, "repeated title", f.at(t, orbit, prospector.PersonQuery{Titles: []string{"Sales", "SALES", "VP"}}), "vps", "vpm", "smgr", "sdr")
	eq(t, "repeated phrase reordered", f.at(t, orbit, prospector.PersonQuery{Titles: []string{"Sales Manager", "manager sales", "VP"}}),
		"vpm", "vps", "smgr")
	// A phrase needs all its words; "vice president" reads as vp.
	eq(t, "phrase", f.at(t, orbit, prospector.PersonQuery{Titles: []string{"Vice President Marketing"}}), "vpm")
	eq(t, "founder in Co-founder", f.at(t, orbit, prospector.PersonQuery{Titles: []string{"Founder", "CEO"}}), "fnd", "ceo")
	eq(t, "no title match", f.at(t, orbit, prospector.PersonQuery{Titles: []string{"Astronaut"}}))
	eq(t, "untitled person never matches a title", f.at(t, orbit, prospector.PersonQuery{Titles: []string{"Jules"}}))
}

func TestCompanyPeopleFilters(t *testing.T) {
	f := newColleagues(t)
	for _, c := range []struct {
		name string
		q    prospector.PersonQuery
		want []string
	}{
		{"function", prospector.PersonQuery{Functions: []string{"Sales"}}, []string{"vps", "smgr", "sdr"}},
		{"functions OR", prospector.PersonQuery{Functions: []string{"Sales", "Marketing"}}, []string{"vpm", "vps", "smgr", "sdr"}},
		{"function nobody has", prospector.PersonQuery{Functions: []string{"Finance"}}, nil},
		{"level", prospector.PersonQuery{Levels: []string{"VP"}}, []string{"vpm", "vps"}},
		{"levels OR", prospector.PersonQuery{Levels: []string{"VP", "IC"}}, []string{"vpm", "vps", "eng", "sdr"}},
		{"country", prospector.PersonQuery{Countries: []string{"DE"}}, []string{"vpm", "eng"}},
		{"countries OR", prospector.PersonQuery{Countries: []string{"DE", "GB"}}, []string{"fnd", "vpm", "smgr", "eng"}},
		{"places", prospector.PersonQuery{Places: []string{"Austin"}}, []string{"ceo", "sdr"}},
		{"location country", prospector.PersonQuery{Locations: []prospector.Place{{Country: "US"}}}, []string{"ceo", "vps", "sdr"}},
		{"location name", prospector.PersonQuery{Locations: []prospector.Place{{Name: "London"}}}, []string{"fnd", "smgr"}},
		{"location name and country", prospector.PersonQuery{Locations: []prospector.Place{{Country: "DE", Name: "Berlin"}}}, []string{"vpm", "eng"}},
		{"location name in another country", prospector.PersonQuery{Locations: []prospector.Place{{Country: "US", Name: "Berlin"}}}, nil},
		{"location region", prospector.PersonQuery{Locations: []prospector.Place{{Name: "Texas"}}}, []string{"ceo", "sdr"}},
		{"location two words", prospector.PersonQuery{Locations: []prospector.Place{{Name: "New York"}}}, []string{"vps"}},
		{"location unknown place", prospector.PersonQuery{Locations: []prospector.Place{{Name: "Atlantis"}}}, nil},
		{"locations OR", prospector.PersonQuery{Locations: []prospector.Place{{Name: "Austin"}, {Country: "DE"}}}, []string{"ceo", "vpm", "eng", "sdr"}},
		{"function AND country", prospector.PersonQuery{Functions: []string{"Sales"}, Countries: []string{"US"}}, []string{"vps", "sdr"}},
		{"function AND location", prospector.PersonQuery{Functions: []string{"Sales"}, Locations: []prospector.Place{{Country: "GB"}}}, []string{"smgr"}},
		{"level AND function AND location", prospector.PersonQuery{Levels: []string{"IC"}, Functions: []string{"Sales"},
			Locations: []prospector.Place{{Name: "Austin"}}}, []string{"sdr"}},
		{"title AND level", prospector.PersonQuery{Titles: []string{"Sales"}, Levels: []string{"Manager", "IC"}}, []string{"smgr", "sdr"}},
		{"exclude", prospector.PersonQuery{ExcludeTitles: []string{"Sales"}}, []string{"fnd", "ceo", "vpm", "eng", "none"}},
		{"exclude phrase needs every word", prospector.PersonQuery{ExcludeTitles: []string{"Sales Manager"}},
			[]string{"fnd", "ceo", "vpm", "vps", "eng", "sdr", "none"}},
		{"exclude OR", prospector.PersonQuery{ExcludeTitles: []string{"Sales", "Engineer"}}, []string{"fnd", "ceo", "vpm", "none"}},
		{"include minus exclude", prospector.PersonQuery{Titles: []string{"VP"}, ExcludeTitles: []string{"Marketing"}}, []string{"vps"}},
		{"exclude everything included", prospector.PersonQuery{Titles: []string{"VP"}, ExcludeTitles: []string{"VP"}}, nil},
		{"exclude nobody has", prospector.PersonQuery{Levels: []string{"VP"}, ExcludeTitles: []string{"Astronaut"}}, []string{"vpm", "vps"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			eq(t, c.name, f.at(t, orbit, c.q), c.want...)
		})
	}
}

func TestCompanyPeopleScope(t *testing.T) {
	f := newColleagues(t)
	// Only the company's own people: Nimbus's VP and the person with no
	// company never show up at Orbit, and the other way round.
	eq(t, "nimbus", f.at(t, "nimbus.example", prospector.PersonQuery{}), "nvp")
	eq(t, "nimbus titles", f.at(t, "nimbus.example", prospector.PersonQuery{Titles: []string{"VP"}}), "nvp")
	eq(t, "orbit VPs", f.at(t, orbit, prospector.PersonQuery{Titles: []string{"VP of Sales"}}), "vps")
	eq(t, "company with nobody", f.at(t, "quiet.example", prospector.PersonQuery{}))
	eq(t, "unknown company", f.at(t, "nowhere.example", prospector.PersonQuery{}))
	eq(t, "company id 0", f.atID(t, 0, prospector.PersonQuery{}))
	eq(t, "negative company id", f.atID(t, -1, prospector.PersonQuery{}))

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := f.ix.CompanyPeople(ctx, f.co[orbit].ID, prospector.PersonQuery{}); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled context: err %v, want context.Canceled", err)
	}
}

func TestCompanyPeopleBeforeSync(t *testing.T) {
	ctx := context.Background()
	st, err := sqlite.Open(ctx, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	c := &prospector.Company{Name: "Orbit Freight", Domain: "orbit.example"}
	if _, err := st.UpsertCompanies(ctx, []*prospector.Company{c}); err != nil {
		t.Fatal(err)
	}
	ix := search.New(st)
	if ids, err := ix.CompanyPeople(ctx, c.ID, prospector.PersonQuery{}); err != nil || len(ids) != 0 {
		t.Errorf("empty index: %v %v, want nothing", ids, err)
	}
}

func TestCompanyPeopleUpdates(t *testing.T) {
	f := newColleagues(t)
	ctx := context.Background()
	upsert := func(p *prospector.Person) {
		t.Helper()
		if _, err := f.st.UpsertPeople(ctx, []*prospector.Person{p}); err != nil {
			t.Fatal(err)
		}
		f.sync(t)
	}
	nimbus := f.co["nimbus.example"].ID

	// The VP of Sales moves from Orbit to Nimbus: listed at Nimbus only.
	moved := *f.per["vps"]
	moved.CompanyID = &nimbus
	upsert(&moved)
	eq(t, "orbit after the move", f.at(t, orbit, prospector.PersonQuery{}), "fnd", "ceo", "vpm", "smgr", "eng", "sdr", "none")
	eq(t, "orbit titles after the move", f.at(t, orbit, prospector.PersonQuery{Titles: []string{"VP"}}), "vpm")
	eq(t, "orbit function after the move", f.at(t, orbit, prospector.PersonQuery{Functions: []string{"Sales"}}), "smgr", "sdr")
	eq(t, "nimbus after the move", f.at(t, "nimbus.example", prospector.PersonQuery{}), "vps", "nvp")

	// Leaving for no company: listed nowhere.
	gone := *f.per["smgr"]
	gone.CompanyID = nil
	upsert(&gone)
	eq(t, "orbit after leaving", f.at(t, orbit, prospector.PersonQuery{Functions: []string{"Sales"}}), "sdr")
	eq(t, "nimbus after leaving", f.at(t, "nimbus.example", prospector.PersonQuery{}), "vps", "nvp")

	// A promotion re-ranks and re-filters.
	promoted := *f.per["eng"]
	promoted.Title, promoted.JobLevel = "Director of Engineering", "Director"
	upsert(&promoted)
	eq(t, "orbit after the promotion", f.at(t, orbit, prospector.PersonQuery{}), "fnd", "ceo", "vpm", "eng", "sdr", "none")
	eq(t, "old title gone", f.at(t, orbit, prospector.PersonQuery{Titles: []string{"Software Engineer"}}))
	eq(t, "new level", f.at(t, orbit, prospector.PersonQuery{Levels: []string{"Director"}}), "eng")

	// Moving house: the location filters follow.
	relocated := *f.per["ceo"]
	relocated.City, relocated.Region, relocated.CountryCode = "Munich", "Bavaria", "DE"
	upsert(&relocated)
	eq(t, "old place", f.at(t, orbit, prospector.PersonQuery{Locations: []prospector.Place{{Name: "Austin"}}}), "sdr")
	eq(t, "new place", f.at(t, orbit, prospector.PersonQuery{Locations: []prospector.Place{{Country: "DE", Name: "Munich"}}}), "ceo")
}
