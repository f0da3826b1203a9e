package search_test

import (
	"context"
	"testing"
	"time"

	"github.com/prospectorhq/prospector"
)

func erase(t *testing.T, f *fixture, subject string) {
	t.Helper()
	sub, err := prospector.ParseSubject(subject)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.st.EraseSubject(context.Background(), prospector.EraseRequest{Subject: sub, Actor: "test"}, time.Now()); err != nil {
		t.Fatal(err)
	}
}

// Erased companies and people leave every structure of the index: search
// results, cards, domains and company signals; a later row written under
// the same id (SQLite reuses the highest) is indexed again.
func TestErasuresReachTheIndex(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	acme := f.co["acme.example"]
	sg := &prospector.Signal{ExternalID: "s1", Type: "company_hiring", CompanyID: &acme.ID, CompanyDomain: acme.Domain,
		Title: "Hiring", DetectedAt: time.Now()}
	if _, err := f.st.UpsertSignals(ctx, []*prospector.Signal{sg}); err != nil {
		t.Fatal(err)
	}
	if _, err := f.ix.Sync(ctx); err != nil {
		t.Fatal(err)
	}
	if sigs, _ := f.ix.CompanySignals([]int64{acme.ID}, 5); len(sigs) != 1 {
		t.Fatalf("signals before: %d", len(sigs))
	}
	version := f.ix.PeopleVersion()
	erase(t, f, "acme.example")
	if n, err := f.ix.Sync(ctx); err != nil || n == 0 {
		t.Fatalf("sync after erasure: %d, %v", n, err)
	}
	eq(t, "robotics companies", f.companies(t, prospector.CompanyQuery{Keywords: []string{"robotics"}}), "cobalt.example", "delta.example")
	eq(t, "sales people", f.people(t, prospector.PersonQuery{Functions: []string{"Sales"}}), "p2", "p5")
	if cards := f.ix.CompanyCards([]int64{acme.ID}); len(cards) != 0 {
		t.Fatalf("erased company's card: %+v", cards[0])
	}
	if cards := f.ix.PersonCards([]int64{f.per["p1"].ID, f.per["p3"].ID}); len(cards) != 0 {
		t.Fatalf("erased people's cards: %d", len(cards))
	}
	if ids := f.ix.CompanyIDsByDomain([]string{"acme.example"}); len(ids) != 0 {
		t.Fatalf("erased domain resolves: %v", ids)
	}
	if sigs, missing := f.ix.CompanySignals([]int64{acme.ID}, 5); len(sigs) != 0 || len(missing) != 1 {
		t.Fatalf("erased company's signals: %d, missing %v", len(sigs), missing)
	}
	if f.ix.PeopleVersion() == version {
		t.Fatal("PeopleVersion did not move: caches keyed on it would keep erased people")
	}
	// p6 has the highest person id: erased, then a newcomer takes its id.
	erase(t, f, "fa@unemployed.example") // no such address: nothing erased
	p6 := f.per["p6"]
	p6.Email = "fa@solo.example"
	if _, err := f.st.UpsertPeople(ctx, []*prospector.Person{p6}); err != nil {
		t.Fatal(err)
	}
	erase(t, f, "fa@solo.example")
	newcomer := &prospector.Person{ExternalID: "p9", FullName: "Ny", Title: "Senior Software Engineer", JobLevel: "IC",
		JobFunction: "Engineering", CountryCode: "US"}
	if _, err := f.st.UpsertPeople(ctx, []*prospector.Person{newcomer}); err != nil {
		t.Fatal(err)
	}
	if newcomer.ID != p6.ID {
		t.Fatalf("newcomer got id %d, not the erased %d: the case this checks did not arise", newcomer.ID, p6.ID)
	}
	if _, err := f.ix.Sync(ctx); err != nil {
		t.Fatal(err)
	}
	f.per["p9"] = newcomer
	delete(f.per, "p6")
	eq(t, "engineers", f.people(t, prospector.PersonQuery{Functions: []string{"Engineering"}}), "p9")
}
