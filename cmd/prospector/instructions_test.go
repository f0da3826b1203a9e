package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"runtime"
	"strconv"
	"testing"
	"time"

	"github.com/prospectorhq/prospector"
	"github.com/prospectorhq/prospector/demo"
	"github.com/prospectorhq/prospector/sqlite"
)

// TestInstructionsPerRequest is not a test but a harness for callgrind,
// which counts instructions rather than time and so gives the same figure
// run after run on a machine whose timings move by a third
// (docs/benchmarks.md, "Instructions per request"). It builds the server
// as bench search does, on a demo store of 20,000 companies and 200,000
// people, and sends PROSPECTOR_INSTRUCTIONS_N requests of each endpoint
// of bench search (and key-info) in process, one at a time, after 50 to
// warm the caches and a collection, between calls of instrWindowStart
// and instrWindowEnd, where callgrind dumps its counts:
//
//	PROSPECTOR_INSTRUCTIONS_SEED=1 PROSPECTOR_INSTRUCTIONS_DATA=DIR go test ./cmd/prospector -run InstructionsPerRequest
//	go test -c -o instr.test ./cmd/prospector
//	GODEBUG=asyncpreemptoff=1 GOMAXPROCS=1 PROSPECTOR_INSTRUCTIONS_N=1000 PROSPECTOR_INSTRUCTIONS_DATA=COPY_OF_DIR \
//	  valgrind --tool=callgrind --callgrind-out-file=out.%p \
//	  --dump-before='*cmd/prospector.instrWindowStart' --dump-before='*cmd/prospector.instrWindowEnd' \
//	  ./instr.test -test.run InstructionsPerRequest
//
// Dump k (of out.PID.k) with k even holds the window of endpoint k/2-1 in
// the order printed; its totals line over N is the instructions a
// request, the server's own work and the garbage collection it causes.
func TestInstructionsPerRequest(t *testing.T) {
	dir := os.Getenv("PROSPECTOR_INSTRUCTIONS_DATA")
	n, _ := strconv.Atoi(os.Getenv("PROSPECTOR_INSTRUCTIONS_N"))
	seed := os.Getenv("PROSPECTOR_INSTRUCTIONS_SEED") != ""
	if dir == "" || n == 0 && !seed {
		t.Skip("a harness for callgrind: set PROSPECTOR_INSTRUCTIONS_DATA and _SEED or _N")
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	st, err := sqlite.Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if seed { // a fixed clock, so every seeded store is the same
		cfg := demo.Config{Companies: 20000, People: 200000, Seed: demoSeed, Now: time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)}
		if err := seedData(ctx, st, cfg, io.Discard, io.Discard); err != nil {
			t.Fatal(err)
		}
		return
	}
	srv, secret := instructionsServer(t, ctx, st)
	sample, err := benchSampleOf(ctx, st)
	if err != nil {
		t.Fatal(err)
	}
	for _, ep := range []string{"account/key-info", "discover/companies", "search/companies", "discover/people",
		"search/people", "contacts/find", "enrich/email"} {
		reqs := benchRequests(ep, 25, "http://bench.test/api/v1/"+ep, secret, sample)
		for i := range n + 50 {
			method, url, body, header := "GET", "http://bench.test/api/v1/"+ep, []byte(nil), http.Header{}
			header.Set(prospector.KeyHeader, secret)
			if ep != "account/key-info" {
				q := reqs[i%len(reqs)]
				method, url, body, header = q.Method, q.URL, q.Body, http.Header{}
				for k, vs := range q.Header { // as they arrive over the wire
					header[http.CanonicalHeaderKey(k)] = vs
				}
			}
			r := httptest.NewRequest(method, url, bytes.NewReader(body))
			r.Header = header
			rec := httptest.NewRecorder()
			if i == 50 {
				runtime.GC() // the garbage of what came before is not this window's
				instrWindowStart()
			}
			srv.ServeHTTP(rec, r)
			if rec.Code != http.StatusOK {
				t.Fatalf("%s: %d %s", ep, rec.Code, rec.Body)
			}
		}
		instrWindowEnd()
		fmt.Printf("%s: %d requests\n", ep, n)
	}
}

// instructionsServer builds the server as bench search does.
func instructionsServer(t *testing.T, ctx context.Context, st *sqlite.DB) (http.Handler, string) {
	logger := slog.New(slog.NewJSONHandler(io.Discard, nil))
	ix, key, _, err := startIndex(ctx, st, indexOptions{poll: time.Hour}, logger)
	if err != nil {
		t.Fatal(err)
	}
	srv, secret, err := benchSearchServer(ctx, st, ix, key, logger)
	if err != nil {
		t.Fatal(err)
	}
	return srv, secret
}

// instrWindowStart and instrWindowEnd mark a measured window for
// callgrind's --dump-before; they must stay functions of their own.
//
//go:noinline
func instrWindowStart() { instrWindows++ }

//go:noinline
func instrWindowEnd() { instrWindows++ }

var instrWindows int
