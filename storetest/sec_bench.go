package storetest

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/prospectorhq/prospector"
)

// benchCompanies stores n companies named "<prefix> <i> Systems" on
// <prefix>-<i>.example in California.
func benchCompanies(b *testing.B, s prospector.Store, prefix string, n int) {
	b.Helper()
	for start := 0; start < n; start += 1000 {
		var cs []*prospector.Company
		for i := start; i < min(start+1000, n); i++ {
			cs = append(cs, &prospector.Company{Name: fmt.Sprintf("%s %d Systems", prefix, i),
				Domain: fmt.Sprintf("%s-%d.example", prefix, i), City: "San Jose", Region: "California", CountryCode: "US"})
		}
		if _, err := s.UpsertCompanies(context.Background(), cs); err != nil {
			b.Fatal(err)
		}
	}
}

// benchFormD is notice j of day: issuer j of an offering of its own;
// even issuers are named like stored company j, odd ones like nobody.
func benchFormD(prefix string, day, j int) *prospector.SECFiling {
	filed := srcT0.AddDate(0, 0, day).Format(time.DateOnly)
	cik := fmt.Sprint(3_000_000 + day*1000 + j)
	acc := fmt.Sprintf("%010s-26-%06d", cik, j+1)
	name := fmt.Sprintf("%s %d Systems, Inc.", prefix, j)
	if j%2 == 1 {
		name = fmt.Sprintf("Unlisted Holdings %d-%d LLC", day, j)
	}
	f := formD(acc, "D", filed, int64(100_000*(j+1)))
	f.URL = "https://www.sec.example/Archives/edgar/data/" + cik + "/" + acc + "-index.htm"
	f.Issuer = prospector.SECIssuer{CIK: cik, Name: name, State: "CA", City: "San Jose"}
	f.Financing.ExternalID = "sec-formd-" + cik + "-" + acc
	f.Financing.SourceURLs = []string{f.URL}
	f.Offering.Original = acc
	return f
}

// BenchSECDay measures a day's 500 Form D notices stored against a store
// of companies companies, as the SEC source does it: per notice the
// candidate lookup, a resolution (the candidate with the issuer's
// normalised name), and ApplyFiling; half the issuers are stored
// companies and get an event and a signal, the others wait unresolved.
// "index" measures catching the name index up on 10,000 new companies.
func BenchSECDay(b *testing.B, s prospector.Store, companies int) {
	ctx := context.Background()
	const perDay = 500
	prefix := fmt.Sprintf("Benchco%d", time.Now().UnixNano()%1000)
	benchCompanies(b, s, prefix, companies)
	if _, err := s.IssuerCandidates(ctx, prospector.IssuerCandidateQuery{Names: []string{"x"}}); err != nil {
		b.Fatal(err)
	}
	day := 0 // days already stored, across the runs b.Run makes
	b.Run("day", func(b *testing.B) {
		b.ReportAllocs()
		start := time.Now()
		for range b.N {
			day++
			applied := 0
			for j := range perDay {
				f := benchFormD(prefix, day, j)
				cs, err := s.IssuerCandidates(ctx, prospector.IssuerCandidateQuery{Names: []string{f.Issuer.Name},
					Website: f.Issuer.Website})
				if err != nil {
					b.Fatal(err)
				}
				for _, c := range cs {
					if prospector.NormalizeLegalName(c.Name) == prospector.NormalizeLegalName(f.Issuer.Name) {
						f.Match = prospector.IssuerMatch{CompanyID: c.ID, Confidence: 0.9, Reason: prospector.MatchNameStateCity, Resolved: true}
					}
				}
				r, err := s.ApplyFiling(ctx, f)
				if err != nil {
					b.Fatal(err)
				}
				if r.Status == prospector.FilingApplied {
					applied++
				}
			}
			if applied != perDay/2 {
				b.Fatalf("%d of %d notices applied, want half", applied, perDay)
			}
		}
		b.ReportMetric(float64(time.Since(start).Milliseconds())/float64(b.N*perDay), "ms/filing")
	})
	b.Run("index", func(b *testing.B) {
		const n = 10_000
		for range b.N {
			b.StopTimer()
			day++
			benchCompanies(b, s, fmt.Sprintf("%s-more%d", prefix, day), n)
			b.StartTimer()
			if _, err := s.IssuerCandidates(ctx, prospector.IssuerCandidateQuery{Names: []string{"x"}}); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N*n), "µs/company")
	})
}

// BenchNews measures ApplyNews on a feed of 50 new stories of 50
// companies (each an event, half with a signal), then the same feed read
// again (every article seen).
func BenchNews(b *testing.B, s prospector.Store) {
	ctx := context.Background()
	prefix := fmt.Sprintf("newsco%d", time.Now().UnixNano()%1000)
	benchCompanies(b, s, prefix, 50)
	feed := func(i int) []*prospector.NewsStory {
		var out []*prospector.NewsStory
		for j := range 50 {
			st := story(fmt.Sprintf("news-%d-%d", i, j), fmt.Sprintf("https://wire.example/%d/%d", i, j), "gdelt", srcT0)
			st.Event.CompanyDomain = fmt.Sprintf("%s-%d.example", prefix, j)
			if j%2 == 1 {
				st.SignalType = ""
			}
			out = append(out, st)
		}
		return out
	}
	fed := 0 // feeds already stored, across the runs b.Run makes
	for _, c := range []struct {
		name  string
		again bool
	}{{"new", false}, {"seen", true}} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for range b.N {
				fed++
				f := feed(fed)
				if c.again {
					b.StopTimer()
					if _, err := s.ApplyNews(ctx, f); err != nil {
						b.Fatal(err)
					}
					b.StartTimer()
				}
				r, err := s.ApplyNews(ctx, f)
				if err != nil || (c.again && r.Seen != 50) || (!c.again && r.Events != 50) {
					b.Fatalf("%+v, %v", r, err)
				}
			}
		})
	}
}
