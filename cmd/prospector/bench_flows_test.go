package main

import (
	"bytes"
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/prospectorhq/prospector"
	"github.com/prospectorhq/prospector/api"
	"github.com/prospectorhq/prospector/demo"
	"github.com/prospectorhq/prospector/email"
	"github.com/prospectorhq/prospector/sqlite"
	"github.com/prospectorhq/prospector/workflows"
)

// BenchmarkEndpoints sends the requests of `bench search` through the
// whole request path in process, one at a time, on a small demo store:
// what each endpoint costs the server, in ns/op and allocs/op, with less
// noise than the load benchmark on a shared machine.
//
//	go test -run '^$' -bench Endpoints -benchmem -count 6 ./cmd/prospector/
func BenchmarkEndpoints(b *testing.B) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	st, err := sqlite.Open(ctx, b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	if err := seedData(ctx, st, demo.Config{Companies: 2000, People: 20000, Seed: demoSeed, Now: time.Now()}, io.Discard, io.Discard); err != nil {
		b.Fatal(err)
	}
	logger := slog.New(slog.DiscardHandler)
	ix, key, _, err := startIndex(ctx, st, indexOptions{poll: time.Hour}, logger)
	if err != nil {
		b.Fatal(err)
	}
	w := prospector.NewWorkspace("bench", prospector.PlanGrowth)
	w.Credits.Limit = nil
	if err := st.CreateWorkspace(ctx, w); err != nil {
		b.Fatal(err)
	}
	k, secret := prospector.NewAPIKey(w.ID, prospector.PlanGrowth, nil)
	if err := st.CreateAPIKey(ctx, k); err != nil {
		b.Fatal(err)
	}
	srv := api.NewServer(api.Config{Store: st, Logger: logger, KeyCacheTTL: time.Minute,
		Workflows: workflows.New(workflows.Parts{Store: st, Index: ix, CursorKey: key,
			Emails: email.New(email.Config{Resolver: anyMX{}, People: st, Outcomes: st})})})
	sample, err := benchSampleOf(ctx, st)
	if err != nil {
		b.Fatal(err)
	}
	for _, ep := range []string{"discover/companies", "search/people", "contacts/find", "contacts/waterfall-icp",
		"contacts/employee-finder", "enrich/email", "signals/bulk", "signals/news-events"} {
		reqs := benchRequests(ep, 25, "http://bench.test/api/v1/"+ep, secret, sample)
		for i := range reqs { // as they arrive over the wire
			h := http.Header{}
			for k, vs := range reqs[i].Header {
				h[http.CanonicalHeaderKey(k)] = vs
			}
			reqs[i].Header = h
		}
		b.Run(ep, func(b *testing.B) {
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				q := reqs[i%len(reqs)]
				i++
				r := httptest.NewRequest(q.Method, q.URL, bytes.NewReader(q.Body))
				r.Header = q.Header
				rec := httptest.NewRecorder()
				srv.ServeHTTP(rec, r)
				if rec.Code != 200 {
					b.Fatalf("%s: %d %s", ep, rec.Code, rec.Body)
				}
			}
		})
	}
}
