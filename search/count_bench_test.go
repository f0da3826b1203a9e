package search_test

import (
	"context"
	"os"
	"strconv"
	"testing"
	"time"

	"github.com/prospectorhq/prospector"
	"github.com/prospectorhq/prospector/demo"
	"github.com/prospectorhq/prospector/importer"
	"github.com/prospectorhq/prospector/search"
	"github.com/prospectorhq/prospector/sqlite"
)

// BenchmarkCount compares counting a query's matches with reading its
// first page of 25, on the demo dataset (PROSPECTOR_COUNT_BENCH_PEOPLE,
// default 200,000 people; companies are a tenth). The console's search
// page does both. Repeated counts are the filter cache's (paging one
// query); cold-ns is the query's first count.
func BenchmarkCount(b *testing.B) {
	people := 200000
	if v, err := strconv.Atoi(os.Getenv("PROSPECTOR_COUNT_BENCH_PEOPLE")); err == nil && v > 0 {
		people = v
	}
	ctx := context.Background()
	st, err := sqlite.Open(ctx, b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	sink := &importer.StoreSink{Store: st}
	if err := demo.Generate(ctx, demo.Config{Companies: people / 10, People: people, Seed: 7, Now: time.Now()}, sink, nil); err != nil {
		b.Fatal(err)
	}
	if err := sink.Commit(ctx); err != nil {
		b.Fatal(err)
	}
	sink.Close()
	ix := search.New(st)
	if _, err := ix.Sync(ctx); err != nil {
		b.Fatal(err)
	}
	for _, q := range []struct {
		name string
		q    prospector.PersonQuery
	}{
		{"everyone", prospector.PersonQuery{}},
		{"title+country", prospector.PersonQuery{Titles: []string{"engineer"}, Countries: []string{"US"}}},
		{"3titles+level+country", prospector.PersonQuery{Titles: []string{"engineer", "manager", "director"},
			Levels: []string{"Manager", "Director", "IC"}, Countries: []string{"US", "GB"}}},
	} {
		// The first count of a query misses the filter cache: cold-ns.
		start := time.Now()
		if _, err := ix.CountPeople(ctx, q.q); err != nil {
			b.Fatal(err)
		}
		cold := time.Since(start)
		b.Run(q.name+"/count", func(b *testing.B) {
			n := 0
			for b.Loop() {
				if n, err = ix.CountPeople(ctx, q.q); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(n), "matches")
			b.ReportMetric(float64(cold.Nanoseconds()), "cold-ns")
		})
		b.Run(q.name+"/page", func(b *testing.B) {
			for b.Loop() {
				if _, err := ix.SearchPeople(ctx, q.q, prospector.SearchPosition{}, 25); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
