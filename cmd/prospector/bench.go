package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"runtime"
	"runtime/pprof"
	"sort"
	"time"

	"github.com/prospectorhq/prospector"
	"github.com/prospectorhq/prospector/api"
	"github.com/prospectorhq/prospector/loadgen"
	"github.com/prospectorhq/prospector/ratelimit"
	"github.com/prospectorhq/prospector/sqlite"
	"github.com/spf13/cobra"
)

func newBenchCommand(e *env, so *storeOptions) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "bench",
		Short: "Load benchmarks over loopback (opt-in; never part of the tests)",
	}
	cmd.AddCommand(newBenchKeyInfoCommand(e), newBenchSearchCommand(e, so))
	return cmd
}

func newBenchKeyInfoCommand(e *env) *cobra.Command {
	var (
		concurrency int
		duration    time.Duration
		cpuProfile  string
		rounds      int
	)
	cmd := &cobra.Command{
		Use:   "keyinfo",
		Short: "Compare GET /account/key-info with a bare handler writing the same bytes",
		Long: `Start the API on a temporary SQLite store (rate limiting on, limits raised)
and a bare net/http handler that writes the same response bytes, both on
loopback, then drive each with --concurrency workers for --duration and print
throughput, p50 and p99, and the ratio of the two. The ratio shows what
authentication, the rate limiter, logging and metrics cost per request.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if cpuProfile != "" {
				f, err := os.Create(cpuProfile)
				if err != nil {
					return err
				}
				defer f.Close()
				if err := pprof.StartCPUProfile(f); err != nil {
					return err
				}
				defer pprof.StopCPUProfile()
			}
			return benchKeyInfo(cmd.Context(), e, concurrency, duration, rounds)
		},
	}
	cmd.Flags().IntVar(&concurrency, "concurrency", 32, "concurrent workers")
	cmd.Flags().DurationVar(&duration, "duration", 5*time.Second, "measured time per target and round")
	cmd.Flags().IntVar(&rounds, "rounds", 5, "alternating rounds; medians are reported")
	cmd.Flags().StringVar(&cpuProfile, "cpuprofile", "", "write a CPU profile of the whole run to this file")
	return cmd
}

func benchKeyInfo(ctx context.Context, e *env, concurrency int, duration time.Duration, rounds int) error {
	if rounds < 1 || concurrency < 1 {
		return fmt.Errorf("--rounds and --concurrency must be at least 1")
	}
	dir, err := os.MkdirTemp("", "prospector-bench-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	st, err := sqlite.Open(ctx, dir)
	if err != nil {
		return err
	}
	defer st.Close()
	w := prospector.NewWorkspace("bench", prospector.PlanGrowth)
	if err := st.CreateWorkspace(ctx, w); err != nil {
		return err
	}
	k, secret := prospector.NewAPIKey(w.ID, prospector.PlanGrowth, nil)
	if err := st.CreateAPIKey(ctx, k); err != nil {
		return err
	}
	rates, _ := prospector.ParseTierRates("growth=1000000000/m")
	logger := slog.New(slog.NewJSONHandler(io.Discard, nil))
	srv := api.NewServer(api.Config{Store: st, Logger: logger, Limiter: ratelimit.NewMemory(),
		TierRates: rates, KeyCacheTTL: 5 * time.Second, Version: version})

	// The bare handler answers with the bytes key-info produced.
	probe := httptest.NewRequest("GET", "/api/v1/account/key-info", nil)
	probe.Header.Set(prospector.KeyHeader, secret)
	rec := httptest.NewRecorder()
	srv.ServeHTTP(rec, probe)
	if rec.Code != http.StatusOK {
		return fmt.Errorf("bench: key-info answered %d: %s", rec.Code, rec.Body)
	}
	body := rec.Body.Bytes()
	bare := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write(body)
	})

	fmt.Fprintf(e.stdout, "key-info vs bare handler: %d workers, %s per round, %d rounds alternating, GOMAXPROCS %d, %s/%s\n",
		concurrency, duration, rounds, runtime.GOMAXPROCS(0), runtime.GOOS, runtime.GOARCH)
	targets := []struct {
		name string
		h    http.Handler
	}{{"bare", bare}, {"key-info", srv}}
	results := map[string][]loadgen.Result{}
	for round := 1; round <= rounds; round++ {
		for _, target := range targets {
			res, err := benchTarget(ctx, target.h, secret, concurrency, duration)
			if err != nil {
				return fmt.Errorf("bench %s: %w", target.name, err)
			}
			if res.Errors > 0 || res.Non2xx > 0 {
				return fmt.Errorf("bench %s: %d errors, %d non-2xx answers", target.name, res.Errors, res.Non2xx)
			}
			results[target.name] = append(results[target.name], res)
			fmt.Fprintf(e.stdout, "round %d  %-9s %s\n", round, target.name, res)
		}
	}
	bareMed, infoMed := medianResult(results["bare"]), medianResult(results["key-info"])
	fmt.Fprintf(e.stdout, "median    %-9s %s\nmedian    %-9s %s\n", "bare", bareMed, "key-info", infoMed)
	fmt.Fprintf(e.stdout, "key-info median throughput is %.0f%% of the bare handler's\n", 100*infoMed.Throughput/bareMed.Throughput)
	return nil
}

// medianResult is the run with the median throughput.
func medianResult(rs []loadgen.Result) loadgen.Result {
	sorted := append([]loadgen.Result(nil), rs...)
	sort.Slice(sorted, func(i, j int) bool { return sorted[i].Throughput < sorted[j].Throughput })
	return sorted[len(sorted)/2]
}

func benchTarget(ctx context.Context, h http.Handler, key string, concurrency int, d time.Duration) (loadgen.Result, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return loadgen.Result{}, err
	}
	hs := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = hs.Serve(ln) }()
	defer hs.Close()
	return loadgen.Run(ctx, loadgen.Config{
		Requests: []loadgen.Request{{Method: "GET", URL: "http://" + ln.Addr().String() + "/api/v1/account/key-info",
			Header: http.Header{prospector.KeyHeader: {key}}}},
		Concurrency: concurrency, Duration: d, Warmup: d / 5,
	})
}
