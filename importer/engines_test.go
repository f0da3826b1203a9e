package importer_test

import (
	"context"
	"os"
	"testing"
	"time"

	"github.com/prospectorhq/prospector/postgres/pgtest"

	"github.com/prospectorhq/prospector"
	"github.com/prospectorhq/prospector/demo"
	"github.com/prospectorhq/prospector/importer"
)

// engines returns a fresh store of each engine available: SQLite always,
// PostgreSQL when TEST_DATABASE_URL is set.
func engines(t *testing.T) map[string]func(t *testing.T) prospector.Store {
	out := map[string]func(t *testing.T) prospector.Store{"sqlite": openStore}
	url := os.Getenv("TEST_DATABASE_URL")
	if url == "" {
		t.Log("TEST_DATABASE_URL not set: PostgreSQL not covered")
		return out
	}
	out["postgres"] = func(t *testing.T) prospector.Store { return pgtest.Open(t, pgtest.FreshSchema(t)) }
	return out
}

// TestBothEnginesReadImportsAndDemo imports every sample and a generated
// dataset, then reads them back through the root interfaces.
func TestBothEnginesReadImportsAndDemo(t *testing.T) {
	for name, open := range engines(t) {
		t.Run(name, func(t *testing.T) {
			st := open(t)
			ctx := context.Background()
			for _, k := range importer.Kinds() {
				stats, errs := importFile(t, st, k, sample(string(k)+".jsonl"))
				if len(errs) > 0 || stats.Rejected > 0 {
					t.Fatalf("%s: %+v %v", k, stats, errs)
				}
				stats, _ = importFile(t, st, k, sample(string(k)+".jsonl"))
				if stats.Unchanged != stats.Read {
					t.Fatalf("re-import of %s changed rows: %+v", k, stats)
				}
			}
			acme, err := st.CompanyByDomain(ctx, "acme-robotics.example")
			if err != nil || acme.Industry != "Software Development" {
				t.Fatalf("acme: %+v %v", acme, err)
			}
			if p, err := st.PersonByKey(ctx, "id:crm-42"); err != nil || p.JobLevel != "Head" || *p.CompanyID != acme.ID {
				t.Fatalf("person: %+v %v", p, err)
			}
			if sigs, err := st.SignalsByCompanies(ctx, []int64{acme.ID}, 10); err != nil || len(sigs) != 2 {
				t.Fatalf("signals: %d, %v", len(sigs), err)
			}

			sink := &importer.StoreSink{Store: st}
			cfg := demo.Config{Companies: 40, People: 400, Seed: 3, Now: time.Now()}
			if err := demo.Generate(ctx, cfg, sink, nil); err != nil {
				t.Fatal(err)
			}
			if err := sink.Commit(ctx); err != nil {
				t.Fatal(err)
			}
			sink.Close()
			nc, err := st.CountCompanies(ctx)
			if err != nil {
				t.Fatal(err)
			}
			np, err := st.CountPeople(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if nc != 40+3 || np != 400+3 {
				t.Fatalf("after the demo: %d companies, %d people", nc, np)
			}
			people, err := st.ListPeople(ctx, 0, 1000)
			if err != nil {
				t.Fatal(err)
			}
			derived := 0
			for _, p := range people {
				if p.JobLevel != "" {
					derived++
				}
			}
			if derived != len(people) {
				t.Fatalf("%d of %d people have a derived level", derived, len(people))
			}
			again := &importer.StoreSink{Store: st}
			if err := demo.Generate(ctx, cfg, again, nil); err != nil {
				t.Fatal(err)
			}
			if err := again.Commit(ctx); err != nil {
				t.Fatal(err)
			}
			again.Close()
			if again.Stats().Inserted != 0 {
				t.Fatalf("the same seed inserted %d rows again", again.Stats().Inserted)
			}
		})
	}
}
