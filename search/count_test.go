package search_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/prospectorhq/prospector"
)

// The count of a query is the number of rows its pages hold, whatever
// the filters: OR inside a field, AND across fields, exclusions, ranked
// keywords and titles (several tiers), and no filter at all.
func TestCountIsWhatThePagesHold(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	for _, q := range []prospector.CompanyQuery{
		{},
		{Industries: []string{"Software Development"}},
		{Industries: []string{"Software Development", "Retail"}, Countries: []string{"DE"}},
		{ExcludeIndustries: []string{"Software Development"}},
		{Keywords: []string{"robotics", "warehouse"}},
		{Keywords: []string{"robotics", "warehouse"}, Countries: []string{"US"}, ExcludeIndustries: []string{"Banking"}},
		{Keywords: []string{"warehouse automation"}},
		{Industries: []string{"Insurance"}},
	} {
		n, err := f.ix.CountCompanies(ctx, q)
		if err != nil {
			t.Fatal(err)
		}
		// Twice: the second count is the filter cache's.
		again, _ := f.ix.CountCompanies(ctx, q)
		if want := len(f.companies(t, q)); n != want || again != want {
			t.Errorf("count of %+v = %d then %d, pages hold %d", q, n, again, want)
		}
	}
	for _, q := range []prospector.PersonQuery{
		{},
		{Titles: []string{"VP Sales"}},
		{Titles: []string{"sales", "marketing"}},
		{Titles: []string{"sales"}, ExcludeTitles: []string{"head"}},
		{Functions: []string{"Sales"}, Countries: []string{"US"}, Levels: []string{"VP", "IC"}},
		{CompanyIndustries: []string{"Software Development"}},
		{Locations: []prospector.Place{{Country: "US", Name: "Austin"}, {Country: "DE"}}},
	} {
		n, err := f.ix.CountPeople(ctx, q)
		if err != nil {
			t.Fatal(err)
		}
		if want := len(f.people(t, q)); n != want {
			t.Errorf("count of %+v = %d, pages hold %d", q, n, want)
		}
	}
}

// A count follows the store: a row added and synced is counted at once
// (the filter cache is per index generation).
func TestCountFollowsUpdates(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	q := prospector.CompanyQuery{Industries: []string{"Software Development"}, Countries: []string{"US"}}
	before, _ := f.ix.CountCompanies(ctx, q)
	var cs []*prospector.Company
	for i := range 3 {
		cs = append(cs, &prospector.Company{Name: fmt.Sprint("New Soft ", i), Domain: fmt.Sprintf("new%d.example", i),
			Industry: "Software Development", CountryCode: "US"})
	}
	if _, err := f.st.UpsertCompanies(ctx, cs); err != nil {
		t.Fatal(err)
	}
	if _, err := f.ix.Sync(ctx); err != nil {
		t.Fatal(err)
	}
	if after, _ := f.ix.CountCompanies(ctx, q); after != before+3 {
		t.Fatalf("count after adding 3: %d, want %d", after, before+3)
	}
}
