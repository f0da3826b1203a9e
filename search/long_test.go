package search_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/prospectorhq/prospector"
	"github.com/prospectorhq/prospector/search"
	"github.com/prospectorhq/prospector/sqlite"
)

// BenchmarkLongKeywords: a search's cost is linear in the words of its
// filter values. 50 keywords (and 50 titles) of n words each, words new
// to every iteration so the filter cache never answers; ns/word stays
// flat from 25 to 2,500 words per value. Tokenising with a scan per word
// made 2,500 take seconds per request.
func BenchmarkLongKeywords(b *testing.B) {
	ctx := context.Background()
	st, err := sqlite.Open(ctx, b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	cs := []*prospector.Company{{Name: "Acme Robotics", Domain: "acme.example", Keywords: []string{"robotics", "warehouse"}}}
	if _, err := st.UpsertCompanies(ctx, cs); err != nil {
		b.Fatal(err)
	}
	ps := []*prospector.Person{{ExternalID: "p1", FullName: "Ada", Title: "VP of Sales", CompanyID: &cs[0].ID}}
	if _, err := st.UpsertPeople(ctx, ps); err != nil {
		b.Fatal(err)
	}
	ix := search.New(st)
	if _, err := ix.Sync(ctx); err != nil {
		b.Fatal(err)
	}
	values := func(iter, n int) []string {
		out := make([]string, 50)
		for v := range out {
			var sb strings.Builder
			sb.WriteString("robotics sales") // words the index has, so every word is looked up
			for w := range n {
				fmt.Fprintf(&sb, " %x.%x.%x", iter, v, w)
			}
			out[v] = sb.String()
		}
		return out
	}
	for _, n := range []int{25, 250, 2500} {
		b.Run(fmt.Sprintf("words=%d", n), func(b *testing.B) {
			iter := 0
			for b.Loop() {
				b.StopTimer()
				vs := values(iter, n)
				iter++
				b.StartTimer()
				if _, err := ix.SearchCompanies(ctx, prospector.CompanyQuery{Keywords: vs}, prospector.SearchPosition{}, 100); err != nil {
					b.Fatal(err)
				}
				if _, err := ix.SearchPeople(ctx, prospector.PersonQuery{Titles: vs}, prospector.SearchPosition{}, 100); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*50*2*n), "ns/word")
		})
	}
}
