package sqlite_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/prospectorhq/prospector"
)

// BenchmarkImportPeopleSuppression imports batches of 5,000 new people in
// bulk sessions with an empty suppression list and with 1,000 entries, so
// the cost of checking every row (five keyed hashes a person) shows side
// by side.
func BenchmarkImportPeopleSuppression(b *testing.B) {
	for _, entries := range []int{0, 1000} {
		b.Run(fmt.Sprintf("entries=%d", entries), func(b *testing.B) {
			ctx := context.Background()
			db := openBench(b)
			if entries > 0 {
				secret, err := prospector.SuppressionSecret(ctx, db)
				if err != nil {
					b.Fatal(err)
				}
				for i := range entries {
					sub := prospector.Subject{Kind: prospector.SubjectEmail, Value: fmt.Sprintf("gone%d@elsewhere.example", i)}
					e := &prospector.Suppression{Hash: sub.Hash(secret), Kind: sub.Kind, CreatedAt: time.Now()}
					if _, err := db.EraseSubject(ctx, prospector.EraseRequest{Subject: sub, Suppress: []*prospector.Suppression{e}}, time.Now()); err != nil {
						b.Fatal(err)
					}
				}
			}
			const batch = 5000
			b.ResetTimer()
			for n := range b.N {
				ps := make([]*prospector.Person, batch)
				for i := range ps {
					id := fmt.Sprintf("%d-%d", n, i)
					ps[i] = &prospector.Person{ExternalID: id, FullName: "Person " + id, Title: "VP Sales",
						CompanyDomain: "acme.example", Email: "p" + id + "@acme.example", NetworkURL: "https://network.example/in/p" + id}
				}
				bulk, err := db.BeginBulk(ctx)
				if err != nil {
					b.Fatal(err)
				}
				if _, err := bulk.UpsertPeople(ctx, ps); err != nil {
					b.Fatal(err)
				}
				if err := bulk.Commit(ctx); err != nil {
					b.Fatal(err)
				}
				bulk.Close()
			}
			b.ReportMetric(float64(b.N*batch)/b.Elapsed().Seconds(), "people/s")
		})
	}
}
