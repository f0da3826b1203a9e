package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"net"
	"net/http"
	"os"
	"runtime"
	"runtime/debug"
	"runtime/pprof"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/prospectorhq/prospector"
	"github.com/prospectorhq/prospector/api"
	"github.com/prospectorhq/prospector/demo"
	"github.com/prospectorhq/prospector/email"
	"github.com/prospectorhq/prospector/loadgen"
	"github.com/prospectorhq/prospector/ratelimit"
	"github.com/prospectorhq/prospector/search"
	"github.com/prospectorhq/prospector/workflows"
	"github.com/spf13/cobra"
)

type benchSearchOptions struct {
	companies, people int
	concurrency       int
	duration          time.Duration
	maxResults        []int
	endpoints         []string
	cpuProfile        string
	startProfile      string
	memProfile        string
	snapshot          string
}

func newBenchSearchCommand(e *env, so *storeOptions) *cobra.Command {
	var o benchSearchOptions
	cmd := &cobra.Command{
		Use:   "search",
		Short: "Load-benchmark discovery, search, contacts and email at scale",
		Long: `Seed the store (if it holds fewer people than --people) with the demo dataset,
build the search index, start the API on loopback with limits raised, and drive
each endpoint of --endpoints at --concurrency for --duration, printing p50, p99
and throughput per endpoint and page size, the index build time and the peak
RSS. Discovery and search get a mix of one to four filters; contacts/find,
contacts/waterfall-icp and contacts/employee-finder get companies of the
dataset with title lists; signals/bulk gets 100 of its domains per call and
signals/news-events one; enrich/email gets people of the dataset by profile
URL (after the warm-up every answer comes from the finder's caches; DNS is a
stub that gives every domain a mail exchanger and SMTP probing is off, so
the figure is the service's own cost, each answer still charged in its own
transaction). Reuse a seeded store with
--data (or PROSPECTOR_DATABASE_URL) to skip seeding on later runs.

It prints the resident memory after the index is ready and again after a
garbage collection, per person; with --index-snapshot, how long the start
took from the snapshot or the database and how long saving took. The
endpoint "bare" is a plain net/http handler writing the bytes of one
25-result search/people answer, the ceiling to compare the others with.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return benchSearch(cmd.Context(), e, so, o)
		},
	}
	f := cmd.Flags()
	f.IntVar(&o.companies, "companies", 200000, "companies to seed")
	f.IntVar(&o.people, "people", 2000000, "people to seed")
	f.IntVar(&o.concurrency, "concurrency", 32, "concurrent workers")
	f.DurationVar(&o.duration, "duration", 10*time.Second, "measured time per endpoint and page size")
	f.IntSliceVar(&o.maxResults, "max-results", []int{25, 100}, "page sizes to measure")
	f.StringSliceVar(&o.endpoints, "endpoints", []string{"discover/companies", "search/companies", "discover/people", "search/people"},
		"endpoints to measure; also bare (a plain handler writing one 25-result search/people answer), contacts/find, contacts/waterfall-icp, contacts/employee-finder, enrich/email, signals/bulk, signals/news-events")
	f.StringVar(&o.cpuProfile, "cpuprofile", "", "write a CPU profile of the load phase to this file")
	f.StringVar(&o.startProfile, "start-cpuprofile", "", "write a CPU profile of the index's start (the cold build, or the snapshot's load) to this file")
	f.StringVar(&o.memProfile, "memprofile", "", "write a heap profile taken after the index is built to this file")
	f.StringVar(&o.snapshot, "index-snapshot", "", "start the index from this snapshot when it is valid, and save it there at the end (run twice to time both starts)")
	return cmd
}

// benchMemoryLimit is the Go soft memory limit the benchmark runs under
// unless GOMEMLIMIT says otherwise: the index trades memory for speed, and
// without a limit the garbage collector lets the heap grow to twice what
// is live.
const benchMemoryLimit = 1350 << 20

func benchSearch(ctx context.Context, e *env, so *storeOptions, o benchSearchOptions) error {
	if e.getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(benchMemoryLimit)
	}
	st, err := so.open(ctx, e)
	if err != nil {
		return err
	}
	defer st.Close()
	if n, err := st.CountPeople(ctx); err != nil {
		return err
	} else if n < int64(o.people) {
		fmt.Fprintf(e.stderr, "seeding %d companies and %d people (%s)...\n", o.companies, o.people, so.describe(e))
		if err := seedData(ctx, st, demo.Config{Companies: o.companies, People: o.people, Seed: demoSeed, Now: time.Now()}, e.stderr, e.stderr); err != nil {
			return err
		}
	}
	logger := slog.New(slog.NewJSONHandler(io.Discard, nil))
	start := time.Now()
	// The index's own lines (built, or loaded from the snapshot) go to
	// stderr.
	ixLogger := slog.New(slog.NewJSONHandler(e.stderr, &slog.HandlerOptions{Level: slog.LevelInfo}))
	stopProfile, err := startCPUProfile(o.startProfile)
	if err != nil {
		return err
	}
	ix, key, save, err := startIndex(ctx, st, indexOptions{poll: time.Second, snapshot: o.snapshot}, ixLogger)
	stopProfile()
	if err != nil {
		return err
	}
	build := time.Since(start)
	stats := ix.Stats()
	rssStart := residentBytes()
	runtime.GC()
	debug.FreeOSMemory()
	var mem runtime.MemStats
	runtime.ReadMemStats(&mem)
	rssGC := residentBytes()
	if o.memProfile != "" {
		if err := writeHeapProfile(o.memProfile); err != nil {
			return err
		}
	}

	srv, secret, err := benchSearchServer(ctx, st, ix, key, logger)
	if err != nil {
		return err
	}
	sample, err := benchSampleOf(ctx, st)
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	hs := &http.Server{Handler: srv, ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = hs.Serve(ln) }()
	defer hs.Close()
	base := "http://" + ln.Addr().String() + "/api/v1/"

	fmt.Fprintf(e.stdout, "store: %s; %d companies, %d people indexed in %s (bitmaps %.1f MiB, live heap %d MiB); Go memory limit %d MiB\n",
		so.describe(e), stats.Companies, stats.People, build.Round(time.Millisecond), float64(stats.Bytes)/(1<<20),
		mem.HeapAlloc>>20, debug.SetMemoryLimit(-1)>>20)
	perPerson := func(b uint64) uint64 { return b / max(stats.People, 1) }
	fmt.Fprintf(e.stdout, "resident after start %d MiB (%d bytes/person), after GC %d MiB (%d bytes/person); live heap %d bytes/person; peak during the start %s\n",
		rssStart>>20, perPerson(rssStart), rssGC>>20, perPerson(rssGC), perPerson(mem.HeapAlloc), peakRSS())
	// The peak reported at the end is the load mix's alone (Linux resets
	// the high-water mark on this write; elsewhere it stays the process's).
	loadPeak := "under the load mix"
	if os.WriteFile("/proc/self/clear_refs", []byte("5"), 0) != nil {
		loadPeak = "since the process started"
	}
	bare, err := bareSearchPage(ctx, base, secret, sample)
	if err != nil {
		return err
	}
	bareLn, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	bareSrv := &http.Server{Handler: bare, ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = bareSrv.Serve(bareLn) }()
	defer bareSrv.Close()
	tw := tabwriter.NewWriter(e.stdout, 0, 4, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "endpoint\tmax_results\treq/s\tp50 ms\tp99 ms\tmax ms\terrors\t")
	stopProfile, err = startCPUProfile(o.cpuProfile)
	if err != nil {
		return err
	}
	defer stopProfile()
	for _, size := range o.maxResults {
		for _, ep := range o.endpoints {
			reqs := benchRequests(ep, size, base+ep, secret, sample)
			if ep == "bare" {
				reqs = benchRequests("search/people", 25, "http://"+bareLn.Addr().String()+"/", secret, sample)
			}
			res, err := loadgen.Run(ctx, loadgen.Config{Requests: reqs, Concurrency: o.concurrency, Duration: o.duration, Warmup: o.duration / 5})
			if err != nil {
				return fmt.Errorf("bench %s: %w", ep, err)
			}
			fmt.Fprintf(tw, "%s\t%d\t%.0f\t%.2f\t%.2f\t%.2f\t%d\t\n", ep, size, res.Throughput,
				float64(res.P50.Microseconds())/1000, float64(res.P99.Microseconds())/1000,
				float64(res.Max.Microseconds())/1000, res.Errors+res.Non2xx)
		}
	}
	tw.Flush()
	fmt.Fprintf(e.stdout, "peak RSS %s %s (server, index and load generator in one process)\n", loadPeak, peakRSS())
	if o.snapshot != "" {
		began := time.Now()
		save()
		fi, err := os.Stat(o.snapshot)
		if err != nil {
			return err
		}
		fmt.Fprintf(e.stdout, "index snapshot saved in %s (%d MiB) to %s\n", time.Since(began).Round(time.Millisecond), fi.Size()>>20, o.snapshot)
	}
	return nil
}

// residentBytes is the process's resident set size now (Linux; 0
// elsewhere).
func residentBytes() uint64 {
	b, err := os.ReadFile("/proc/self/statm")
	if err != nil {
		return 0
	}
	var size, resident uint64
	if _, err := fmt.Sscan(string(b), &size, &resident); err != nil {
		return 0
	}
	return resident * uint64(os.Getpagesize())
}

// bareSearchPage returns a plain handler that answers every request with
// the bytes of one 25-result search/people answer.
func bareSearchPage(ctx context.Context, base, key string, sample benchSample) (http.Handler, error) {
	req := benchRequests("search/people", 25, base+"search/people", key, sample)[0]
	r, err := http.NewRequestWithContext(ctx, req.Method, req.URL, bytes.NewReader(req.Body))
	if err != nil {
		return nil, err
	}
	r.Header = req.Header
	res, err := http.DefaultClient.Do(r)
	if err != nil {
		return nil, err
	}
	defer res.Body.Close()
	body, err := io.ReadAll(res.Body)
	if err != nil {
		return nil, err
	}
	return http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write(body)
	}), nil
}

// benchRequests makes 500 deterministic request bodies for an endpoint,
// each with one to four filters drawn from realistic values.
func benchRequests(endpoint string, maxResults int, url, key string, sample benchSample) []loadgen.Request {
	r := rand.New(rand.NewPCG(42, uint64(len(endpoint))))
	pick := func(vs []string) string { return vs[r.IntN(len(vs))] }
	industries := []string{"Software Development", "IT Services and IT Consulting", "Financial Services", "saas",
		"fintech", "healthcare", "Retail", "Manufacturing", "Marketing Services", "Computer and Network Security"}
	countries := []string{"US", "GB", "DE", "FR", "CA", "AU", "SG", "IN", "NL"}
	sizes := []string{"11-50", "51-200", "201-500", "501-1000", "1001-5000"}
	titles := []string{"VP Sales", "Head of Marketing", "Software Engineer", "Account Executive", "Founder",
		"Director of Engineering", "Head of RevOps", "Customer Success Manager", "CFO", "Product Manager"}
	keywords := []string{"saas", "payments", "analytics", "logistics", "cybersecurity", "crm", "platform", "cloud", "data", "automation"}
	places := []string{"Austin", "London", "Berlin", "San Francisco", "Toronto", "Sydney"}
	levels := []string{"VP", "Director", "Head", "Manager", "CXO"}
	functions := []string{"Sales", "Marketing", "Engineering", "Finance", "Product"}
	header := http.Header{prospector.KeyHeader: {key}, "Content-Type": {"application/json"}}
	var out []loadgen.Request
	for i := 0; i < 500; i++ {
		if req, ok := sampledRequest(endpoint, maxResults, r, sample, titles, levels, functions, countries); ok {
			req.URL, req.Header = url+req.URL, header
			out = append(out, req)
			continue
		}
		n := 1 + r.IntN(4)
		body := map[string]any{"max_results": maxResults}
		filters := r.Perm(4)[:n]
		for _, f := range filters {
			switch endpoint {
			case "discover/companies":
				switch f {
				case 0:
					body["industry"] = pick(industries)
				case 1:
					body["location"] = pick(append(countries, places...))
				case 2:
					body["employee_size"] = pick(sizes)
				case 3:
					body["keywords"] = []string{pick(keywords)}
				}
			case "search/companies":
				company, _ := body["company"].(map[string]any)
				if company == nil {
					company = map[string]any{}
					body["company"] = company
				}
				switch f {
				case 0:
					company["industry"] = map[string]any{"include": []string{pick(industries), pick(industries)}}
				case 1:
					company["hq"] = map[string]any{"country_code": []string{pick(countries)}}
				case 2:
					company["employee_range"] = []string{pick(sizes), pick(sizes)}
				case 3:
					company["keywords"] = map[string]any{"include": []string{pick(keywords), pick(keywords)}}
				}
			case "discover/people":
				switch f {
				case 0:
					body["titles"] = []string{pick(titles), pick(titles)}
				case 1:
					body["location"] = pick(append(countries, places...))
				case 2:
					body["company_size"] = pick(sizes)
				case 3:
					body["industry"] = pick(industries)
				}
			case "search/people":
				people, _ := body["people"].(map[string]any)
				if people == nil {
					people = map[string]any{}
					body["people"] = people
				}
				switch f {
				case 0:
					people["job_title"] = map[string]any{"include": []string{pick(titles)}}
				case 1:
					people["job_level"] = []string{pick(levels), pick(levels)}
				case 2:
					people["job_function"] = []string{pick(functions)}
				case 3:
					people["location"] = map[string]any{"country_code": []string{pick(countries)}}
				}
			}
		}
		b, _ := json.Marshal(body)
		out = append(out, loadgen.Request{Method: "POST", URL: url, Header: header, Body: b})
	}
	return out
}

// peakRSS reads the process's high-water resident set size (Linux).
func peakRSS() string {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return "unknown"
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			return strings.TrimSpace(v)
		}
	}
	return "unknown"
}

// writeHeapProfile writes the live heap, as after a collection, to path.
func writeHeapProfile(path string) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := pprof.WriteHeapProfile(f); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// startCPUProfile writes a CPU profile to path until the returned func is
// called; with no path it does nothing.
func startCPUProfile(path string) (stop func(), err error) {
	if path == "" {
		return func() {}, nil
	}
	f, err := os.Create(path)
	if err != nil {
		return nil, err
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		return nil, err
	}
	return func() {
		pprof.StopCPUProfile()
		f.Close()
	}, nil
}

// benchSearchServer makes the workspace and key bench search drives and
// the server it drives: a rate limit nobody reaches, and the stub DNS of
// enrich/email. The callgrind harness (instructions_test.go) builds the
// same.
func benchSearchServer(ctx context.Context, st prospector.Store, ix *search.Index, cursorKey []byte, logger *slog.Logger) (*api.Server, string, error) {
	w := prospector.NewWorkspace(fmt.Sprintf("bench-%d", time.Now().UnixNano()), prospector.PlanGrowth)
	w.Credits.Limit = nil // every enrich/email answer is charged, never refused
	if err := st.CreateWorkspace(ctx, w); err != nil {
		return nil, "", err
	}
	k, secret := prospector.NewAPIKey(w.ID, prospector.PlanGrowth, nil)
	if err := st.CreateAPIKey(ctx, k); err != nil {
		return nil, "", err
	}
	rates, _ := prospector.ParseTierRates("growth=1000000000/m")
	srv := api.NewServer(api.Config{Store: st, Logger: logger, Limiter: ratelimit.NewMemory(), TierRates: rates,
		KeyCacheTTL: 5 * time.Second, Version: version,
		Workflows: workflows.New(workflows.Parts{Store: st, Index: ix, CursorKey: cursorKey, Logger: api.WorkflowLogger(logger),
			Emails: email.New(email.Config{Resolver: anyMX{}, People: st, Outcomes: st})})})
	return srv, secret, nil
}
