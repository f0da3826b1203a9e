package sources_test

import (
	"context"
	"fmt"
	"log/slog"
	"testing"
	"time"

	"github.com/prospectorhq/prospector"
	"github.com/prospectorhq/prospector/boards"
	"github.com/prospectorhq/prospector/boards/boardtest"
	"github.com/prospectorhq/prospector/sources"
	"github.com/prospectorhq/prospector/sources/adapters"
	"github.com/prospectorhq/prospector/sqlite"
)

// unchangedFetcher answers a conditional request with a 304 at once and
// any other through the board fixture: what a cycle costs besides HTTP.
type unchangedFetcher struct {
	boardtest.Fetcher
}

func (f *unchangedFetcher) Fetch(ctx context.Context, req prospector.FetchRequest) (*prospector.FetchResponse, error) {
	if req.ETag != "" {
		return &prospector.FetchResponse{URL: req.URL, Status: 304, NotModified: true, ETag: req.ETag}, nil
	}
	return f.Fetcher.Fetch(ctx, req)
}

// BenchmarkUnchangedCycle is the part of a second cycle over unchanged
// boards that is not HTTP: dispatch, adapters, batching, the SQLite
// store, progress, GC. Each op is one cycle over 1,000 boards of 10
// postings whose fetches answer 304 in-process; us/board is per board.
//
//	go test ./sources -run X -bench UnchangedCycle -benchmem
func BenchmarkUnchangedCycle(b *testing.B) {
	const n = 1000
	ctx := context.Background()
	st, err := sqlite.Open(ctx, b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	srv := boardtest.NewServer()
	defer srv.Close()
	vendors := []string{"greenhouse", "lever", "ashby"}
	var reqs []prospector.WatchRequest
	for i := range n {
		tok := fmt.Sprintf("bench%05d", i)
		if err := srv.AddGenerated(vendors[i%3], tok, tok, 10, uint64(i)); err != nil {
			b.Fatal(err)
		}
		reqs = append(reqs, prospector.WatchRequest{Domain: tok + ".test", AddedBy: "bench",
			Boards: []prospector.BoardRef{{Kind: vendors[i%3], Token: tok}}})
	}
	if _, err := st.AddWatches(ctx, reqs, time.Now()); err != nil {
		b.Fatal(err)
	}
	reg, err := boards.NewRegistry(srv.BaseURLs())
	if err != nil {
		b.Fatal(err)
	}
	p := &sources.Poller{Store: st, Fetcher: &unchangedFetcher{}, Boards: adapters.Boards{Registry: reg},
		Logger: slog.New(slog.DiscardHandler)}
	lines := 0
	o := sources.CycleOptions{All: true, Source: sources.SourceBoards,
		Progress: func(done, total int, r *sources.Result) { lines += len(r.Line()) }}
	if _, err := p.Cycle(ctx, o); err != nil {
		b.Fatal(err)
	}
	cycles := 0
	for b.Loop() {
		cycles++
		sum, err := p.Cycle(ctx, o)
		if err != nil {
			b.Fatal(err)
		}
		if sum.Targets != n {
			b.Fatalf("polled %d targets, want %d", sum.Targets, n)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(cycles*n), "us/board")
}
