package sources_test

import (
	"context"
	"fmt"
	"os"
	"testing"
	"time"

	"github.com/prospectorhq/prospector"
	"github.com/prospectorhq/prospector/sec/sectest"
	"github.com/prospectorhq/prospector/sources"
)

// BenchmarkSECDay is the SEC figure (docs/benchmarks.md): a
// day's index listing 500 Form D notices, each fetched, resolved against
// a store of 20,500 companies (the 500 issuers known by name, state and
// city) and stored with its financing event and signal, through the SEC
// source as serve runs it: the real fetch client, the SEC client at its
// default 9.5 requests a second drawing from the store's shared bucket,
// SQLite. Target: at most 60 s. Opt-in, about a minute:
//
//	PROSPECTOR_BENCH_SEC=1 go test ./sources -run X -bench SECDay -benchtime 1x
func BenchmarkSECDay(b *testing.B) {
	if os.Getenv("PROSPECTOR_BENCH_SEC") != "1" {
		b.Skip("set PROSPECTOR_BENCH_SEC=1 to run the SEC day benchmark (about a minute)")
	}
	ctx := context.Background()
	day := time.Date(2026, time.May, 6, 0, 0, 0, 0, time.UTC)
	for range b.N {
		b.StopTimer()
		srv := sectest.New()
		issuers := srv.GenerateFormDs(day, 500, 1)
		st := openSQLite(b)
		var cs []*prospector.Company
		for _, is := range issuers {
			cs = append(cs, &prospector.Company{Name: is.Name, Domain: is.Domain, City: is.City, Region: is.Region,
				CountryCode: "US"})
		}
		for i := range 20_000 {
			cs = append(cs, &prospector.Company{Name: fmt.Sprintf("Filler %d Holdings", i), Domain: fmt.Sprintf("filler-%d.example", i)})
		}
		for len(cs) > 0 {
			k := min(len(cs), 5000)
			if _, err := st.UpsertCompanies(ctx, cs[:k]); err != nil {
				b.Fatal(err)
			}
			cs = cs[k:]
		}
		// Index the companies' names before the clock starts, as the
		// first lookup after an import does once.
		if _, err := st.IssuerCandidates(ctx, prospector.IssuerCandidateQuery{Names: []string{"x"}}); err != nil {
			b.Fatal(err)
		}
		p := secPoller(b, st, srv)
		b.StartTimer()
		start := time.Now()
		sum, err := p.RunSEC(ctx, sources.SECOptions{Since: day, Until: day})
		took := time.Since(start)
		b.StopTimer()
		if err != nil {
			b.Fatal(err)
		}
		if sum.Applied != 500 || sum.EventsInserted != 500 || sum.SignalsInserted != 500 {
			b.Fatalf("%+v", sum)
		}
		b.ReportMetric(took.Seconds(), "wall-s")
		b.ReportMetric(float64(len(srv.Requests())), "requests")
		b.ReportMetric(float64(srv.MaxPerSecond()), "max-req/s")
		// The shortest time eleven requests in a row took to arrive, and
		// the shortest gap between two: how close the pace came to 10 a
		// second as the fixture saw it (its own scheduling included).
		rs := srv.Requests()
		span, gap := time.Hour, time.Hour
		for i := 1; i < len(rs); i++ {
			gap = min(gap, rs[i].At.Sub(rs[i-1].At))
			if i >= 10 {
				span = min(span, rs[i].At.Sub(rs[i-10].At))
			}
		}
		b.ReportMetric(float64(span.Milliseconds()), "min-11-span-ms")
		b.ReportMetric(float64(gap.Milliseconds()), "min-gap-ms")
		srv.Close()
		b.StartTimer()
	}
}
