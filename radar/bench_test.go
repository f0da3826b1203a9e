package radar

import (
	"context"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/prospectorhq/prospector"
	"github.com/prospectorhq/prospector/search"
	"github.com/prospectorhq/prospector/sqlite"
)

// The radar benchmarks run against a seeded SQLite store named by
// RADAR_BENCH_DIR, which they write to (radars, leads, and new signals
// for the scan), so point it at a copy:
//
//	cp -r /tmp/bs-full /tmp/radar-bench
//	RADAR_BENCH_DIR=/tmp/radar-bench go test -run '^$' -bench . -benchtime 1x -timeout 30m ./radar/
//
// Without RADAR_BENCH_DIR they skip: they are never part of go test.

type benchEnv struct {
	st  *sqlite.DB
	ix  *search.Index
	ws  *prospector.Workspace
	eng *Engine
}

var (
	benchOnce sync.Once
	bench     *benchEnv
	benchErr  error
)

func openBench(b *testing.B) *benchEnv {
	b.Helper()
	dir := os.Getenv("RADAR_BENCH_DIR")
	if dir == "" {
		b.Skip("RADAR_BENCH_DIR not set: see bench_test.go")
	}
	benchOnce.Do(func() {
		ctx := context.Background()
		st, err := sqlite.Open(ctx, dir)
		if err != nil {
			benchErr = err
			return
		}
		start := time.Now()
		ix := search.New(st)
		if _, err := ix.Sync(ctx); err != nil {
			benchErr = err
			return
		}
		stats := ix.Stats()
		ns, err := st.CountSignals(ctx)
		if err != nil {
			benchErr = err
			return
		}
		fmt.Printf("store %s: %d companies, %d people, %d signals; index built in %v\n", dir, stats.Companies, stats.People,
			ns, time.Since(start).Round(time.Millisecond))
		ws := &prospector.Workspace{Name: fmt.Sprintf("radar-bench-%d", time.Now().UnixNano()), Plan: prospector.PlanGrowth,
			PublicAPI: true} // unlimited quotas
		if err := st.CreateWorkspace(ctx, ws); err != nil {
			benchErr = err
			return
		}
		bench = &benchEnv{st: st, ix: ix, ws: ws,
			eng: &Engine{Store: st, Searcher: ix, Logger: slog.New(slog.DiscardHandler)}}
	})
	if benchErr != nil {
		b.Fatal(benchErr)
	}
	return bench
}

func (e *benchEnv) radar(b *testing.B, name string, c prospector.RadarConfig) *prospector.Radar {
	b.Helper()
	if c.CompanySizeMax == 0 {
		c.CompanySizeMin, c.CompanySizeMax = 1, 10000
	}
	c.Types = prospector.RadarSignalTypes(&c)
	r := &prospector.Radar{ID: prospector.NewRadarID(), WorkspaceID: e.ws.ID, Name: name, Config: c}
	if err := e.st.CreateRadar(context.Background(), r); err != nil {
		b.Fatal(err)
	}
	return r
}

// benchRadars are the backfill benchmark's configurations: a typical
// account-based radar, a title-only radar over every signal type, and a
// radar following every hiring signal of the dataset.
var benchRadars = []struct {
	name string
	c    prospector.RadarConfig
}{
	{"typical", prospector.RadarConfig{Titles: []string{"VP Sales", "Head of Sales", "Sales Director", "CRO"},
		Industries: []string{"Software Development", "IT Services and IT Consulting"}, Geos: []string{"US", "GB"},
		Places: []prospector.Place{{Country: "US"}, {Country: "GB"}}, SignalsToTrack: []string{"hiring", "funding", "job_change"},
		RaisedFunds: true, RecentJobChanges: true, JobPostingKeywords: []string{"hiring"}}},
	{"titles-all-types", prospector.RadarConfig{Titles: []string{"VP Sales"}}},
	{"all-hiring", prospector.RadarConfig{SignalsToTrack: []string{"hiring"}, JobPostingKeywords: []string{"hiring"}}},
}

// BenchmarkBackfill backfills one new radar over the whole store.
func BenchmarkBackfill(b *testing.B) {
	e := openBench(b)
	for _, c := range benchRadars {
		b.Run(c.name, func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				r := e.radar(b, fmt.Sprintf("bench %s %d", c.name, i), c.c)
				start := time.Now()
				st, err := e.eng.BackfillRadar(context.Background(), r.ID)
				if err != nil {
					b.Fatal(err)
				}
				elapsed := time.Since(start)
				b.ReportMetric(float64(st.Signals), "signals_read")
				b.ReportMetric(float64(st.LeadsCreated), "leads")
				b.ReportMetric(float64(st.SignalsAdded), "lead_signals")
				b.ReportMetric(elapsed.Seconds(), "s/backfill")
			}
		})
	}
}

// scanRadars are 100 radars of the shape radar/create describes, as the
// workspaces of a deployment would keep them: ideal-customer radars (two
// or three titles, one or two industries, one or two geos, a few signal
// categories), and one in ten each following conversations (pain
// keywords over posts) and competitor engagement.
func scanRadars() []prospector.RadarConfig {
	titles := []string{"VP Sales", "Head of Sales", "CTO", "VP Engineering", "Head of Marketing", "CFO",
		"Director of Operations", "Founder", "Revenue Operations Manager", "Account Executive", "Engineering Manager",
		"Head of People", "Product Manager", "Chief Revenue Officer"}
	industries := []string{"Software Development", "IT Services and IT Consulting", "Business Consulting and Services",
		"Technology, Information and Internet", "Financial Services", "Hospitals and Health Care", "Retail",
		"Manufacturing", "Education", "Real Estate", "Banking", "Insurance"}
	geos := []string{"US", "GB", "DE", "CA", "FR", "IN", "AU", "NL", "SG"}
	categories := [][]string{{"hiring", "funding"}, {"job_change"}, {"hiring", "job_change"}, {"funding", "techstack"},
		{"hiring"}, {"funding", "job_change", "events"}, {"recommendations", "job_change"}, {"techstack", "hiring"}}
	pick := func(l []string, i, n int) []string {
		var out []string
		for k := range n {
			out = append(out, l[(i*7+k*5)%len(l)])
		}
		return out
	}
	var out []prospector.RadarConfig
	for i := range 100 {
		var c prospector.RadarConfig
		switch i % 10 {
		case 8: // conversations
			c.PainKeywords = []string{[]string{"forecasting", "pipeline", "churn", "onboarding"}[i%4]}
			c.Geos = pick(geos, i, 1)
		case 9: // competitor engagement
			c.CompetitorURLs = []string{[]string{"https://enrichbase.example", "https://pipewellcrm.example",
				"https://callcraft.example", "https://cadencely.example"}[i%4]}
			c.Titles = pick(titles, i, 3)
		default:
			c.Titles = pick(titles, i, 2+i%2)
			c.Industries = pick(industries, i, 1+i%2)
			c.Geos = pick(geos, i, 1+(i/2)%2)
			c.SignalsToTrack = categories[i%len(categories)]
			if i%3 == 0 {
				c.SizeFilter, c.CompanySizeMin, c.CompanySizeMax = true, 11, 5000
			}
		}
		for _, g := range c.Geos {
			c.Places = append(c.Places, prospector.Place{Country: g})
		}
		for _, cat := range c.SignalsToTrack {
			switch cat {
			case "hiring":
				c.JobPostingKeywords = []string{"hiring"}
			case "funding":
				c.RaisedFunds = true
			case "job_change":
				c.RecentJobChanges = true
			}
		}
		out = append(out, c)
	}
	return out
}

// broadRadars are 100 radars as broad as the backfill's typical one:
// four titles, two industries, two geos and three categories each, for
// BENCH_SCAN_MIX=broad. They match about six times as many signals.
func broadRadars() []prospector.RadarConfig {
	out := scanRadars()
	for i := range out {
		c := &out[i]
		typical := benchRadars[0].c
		c.Titles = append(append(append([]string(nil), typical.Titles[:2]...), c.Titles...), typical.Titles[2:]...)[:4]
		c.Industries = append(append([]string(nil), c.Industries...), typical.Industries...)[:2]
		c.Geos, c.Places = typical.Geos, typical.Places
		c.SignalsToTrack, c.RaisedFunds, c.RecentJobChanges = typical.SignalsToTrack, true, true
		c.JobPostingKeywords, c.PainKeywords, c.CompetitorURLs, c.SizeFilter = typical.JobPostingKeywords, nil, nil, false
	}
	return out
}

// BenchmarkScan stores BENCH_SCAN_SIGNALS (default 100,000) new signals,
// copies of stored ones with new ids and recent detection times, and
// times the incremental scan of them against 100 new radars
// (scanRadars, or broadRadars with BENCH_SCAN_MIX=broad).
func BenchmarkScan(b *testing.B) {
	e := openBench(b)
	ctx := context.Background()
	n := 100000
	if v := os.Getenv("BENCH_SCAN_SIGNALS"); v != "" {
		fmt.Sscan(v, &n)
	}
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		// Only these radars may scan: earlier runs' radars are moved to
		// the end first, so the scan covers exactly the new signals.
		if _, err := e.eng.ScanOnce(ctx); err != nil {
			b.Fatal(err)
		}
		mix := scanRadars()
		if os.Getenv("BENCH_SCAN_MIX") == "broad" {
			mix = broadRadars()
		}
		var radars []*prospector.Radar
		for j, c := range mix {
			radars = append(radars, e.radar(b, fmt.Sprintf("scan %d/%d", i, j), c))
		}
		maxID := radars[0].Cursor
		src, err := e.st.ListSignals(ctx, maxID-int64(n)-1, n)
		if err != nil {
			b.Fatal(err)
		}
		rng := rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), 7))
		now := time.Now().UTC()
		stamp := time.Now().UnixNano()
		var batch []*prospector.Signal
		for k, s := range src {
			c := *s
			c.ID, c.ExternalID = 0, fmt.Sprintf("bench-scan-%d-%d", stamp, k)
			c.DetectedAt = now.Add(-time.Duration(rng.Int64N(int64(30 * 24 * time.Hour))))
			batch = append(batch, &c)
			if len(batch) == 10000 || k == len(src)-1 {
				if _, err := e.st.UpsertSignals(ctx, batch); err != nil {
					b.Fatal(err)
				}
				batch = batch[:0]
			}
		}
		b.StartTimer()
		start := time.Now()
		var total Stats
		for {
			st, err := e.eng.ScanOnce(ctx)
			if err != nil {
				b.Fatal(err)
			}
			total.Signals += st.Signals
			total.add(st.LeadBatchResult)
			if st.Signals == 0 {
				break
			}
		}
		elapsed := time.Since(start)
		all, err := e.st.ListRadars(ctx)
		if err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(float64(len(all)), "radars")
		b.ReportMetric(float64(total.Signals)/elapsed.Seconds(), "signals/s")
		b.ReportMetric(float64(total.Signals), "signals")
		b.ReportMetric(float64(total.LeadsCreated+total.LeadsUpdated), "lead_writes")
		b.ReportMetric(float64(total.SignalsAdded), "lead_signals")
	}
}
