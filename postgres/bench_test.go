package postgres_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/prospectorhq/prospector"
	"github.com/prospectorhq/prospector/postgres"
)

const (
	benchPeople    = 50_000
	benchBatch     = 2_000
	benchCompanies = 5_000
)

// benchPerson is a person as the importer hands it over: normalised, with
// the company resolved, every usual field filled.
func benchPerson(i int, companyIDs []int64, title string) *prospector.Person {
	id := companyIDs[i%len(companyIDs)]
	score := float64(i%100) / 2
	first, last := fmt.Sprintf("First%d", i), fmt.Sprintf("Last%d", i%5000)
	return &prospector.Person{
		ExternalID: fmt.Sprintf("src-%08d", i), FullName: first + " " + last, FirstName: first, LastName: last,
		Title: title, JobLevel: "VP", JobFunction: "Sales", CompanyID: &id,
		CompanyName: fmt.Sprintf("Company %d", id), CompanyDomain: fmt.Sprintf("company-%d.example", id),
		NetworkURL: fmt.Sprintf("https://network.example/in/%s-%s-%08d", first, last, i),
		Email:      fmt.Sprintf("%s.%s@company-%d.example", first, last, id), Phone: "+1 512 555 0100",
		City: "Austin", Region: "Texas", CountryCode: "US", Score: &score,
	}
}

func benchPeopleSet(companyIDs []int64, title string) []*prospector.Person {
	ps := make([]*prospector.Person, benchPeople)
	for i := range ps {
		ps[i] = benchPerson(i, companyIDs, title)
	}
	return ps
}

// benchStore is a fresh schema holding benchCompanies companies.
func benchStore(b *testing.B) (*postgres.DB, []int64) {
	b.Helper()
	db := openURL(b, freshSchema(b))
	var cs []*prospector.Company
	for i := range benchCompanies {
		cs = append(cs, &prospector.Company{Name: fmt.Sprintf("Company %d", i), Domain: fmt.Sprintf("company-%d.example", i),
			Keywords: []string{"saas", "b2b"}, CountryCode: "US"})
	}
	if _, err := db.UpsertCompanies(context.Background(), cs); err != nil {
		b.Fatal(err)
	}
	ids := make([]int64, len(cs))
	for i, c := range cs {
		ids[i] = c.ID
	}
	return db, ids
}

func upsertInBatches(b *testing.B, db *postgres.DB, ps []*prospector.Person) (prospector.UpsertResult, time.Duration) {
	b.Helper()
	var total prospector.UpsertResult
	start := time.Now()
	for i := 0; i < len(ps); i += benchBatch {
		res, err := db.UpsertPeople(context.Background(), ps[i:min(i+benchBatch, len(ps))])
		if err != nil {
			b.Fatal(err)
		}
		total.Add(res)
	}
	return total, time.Since(start)
}

// BenchmarkUpsertPeople loads benchPeople people in batches of benchBatch
// into a fresh schema (insert), then the same people again (unchanged:
// a re-import of the same file) and with a new title each (update). Each
// reports people/s over the whole load, commits included.
//
//	TEST_DATABASE_URL=postgres://... go test -run '^$' -bench UpsertPeople ./postgres/
func BenchmarkUpsertPeople(b *testing.B) {
	baseURL(b)
	for _, tc := range []struct {
		name string
		want func(prospector.UpsertResult) bool
	}{
		{"insert", func(r prospector.UpsertResult) bool { return r.Inserted == benchPeople }},
		{"unchanged", func(r prospector.UpsertResult) bool { return r.Unchanged == benchPeople }},
		{"update", func(r prospector.UpsertResult) bool { return r.Updated == benchPeople }},
	} {
		b.Run(tc.name, func(b *testing.B) {
			var loaded int
			var spent time.Duration
			for range b.N {
				b.StopTimer()
				db, companyIDs := benchStore(b)
				ps := benchPeopleSet(companyIDs, "VP of Sales")
				if tc.name != "insert" {
					upsertInBatches(b, db, ps)
					title := "VP of Sales"
					if tc.name == "update" {
						title = "Chief Revenue Officer"
					}
					ps = benchPeopleSet(companyIDs, title)
				}
				b.StartTimer()
				res, d := upsertInBatches(b, db, ps)
				if !tc.want(res) {
					b.Fatalf("result %+v", res)
				}
				loaded += len(ps)
				spent += d
				b.StopTimer()
				db.Close()
				b.StartTimer()
			}
			b.ReportMetric(float64(loaded)/spent.Seconds(), "people/s")
		})
	}
}
