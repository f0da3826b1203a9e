package api_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/prospectorhq/prospector"
	"github.com/prospectorhq/prospector/api"
	"github.com/prospectorhq/prospector/email"
	"github.com/prospectorhq/prospector/postgres"
	"github.com/prospectorhq/prospector/ratelimit"
	"github.com/prospectorhq/prospector/sqlite"
	"github.com/prospectorhq/prospector/workflows"
)

// feedbackBenchServer is benchServer's request path on a store of its
// own, with the email finder reading the feedback outcomes.
func feedbackBenchServer(b *testing.B, st prospector.Store) (http.Handler, *prospector.Workspace, string) {
	b.Helper()
	ctx := context.Background()
	w, err := st.WorkspaceByName(ctx, "bench") // a kept benchmark database has it
	if errors.Is(err, prospector.ErrNotFound) {
		w = prospector.NewWorkspace("bench", prospector.PlanGrowth)
		err = st.CreateWorkspace(ctx, w)
	}
	if err != nil {
		b.Fatal(err)
	}
	k, secret := prospector.NewAPIKey(w.ID, prospector.PlanGrowth, nil)
	if err := st.CreateAPIKey(ctx, k); err != nil {
		b.Fatal(err)
	}
	rates, _ := prospector.ParseTierRates("growth=1000000000/m")
	srv := api.NewServer(api.Config{Store: st, Logger: slog.New(slog.NewJSONHandler(io.Discard, nil)),
		Limiter: ratelimit.NewMemory(), TierRates: rates, KeyCacheTTL: time.Minute,
		Workflows: workflows.New(workflows.Parts{Store: st,
			Emails: email.New(email.Config{Resolver: mxResolver{}, People: st, Outcomes: st})})})
	return srv, w, secret
}

// benchSQLite opens a store in a temporary directory, with the
// synchronous setting PROSPECTOR_SQLITE_SYNCHRONOUS names (as serve
// takes it), so both settings can be measured.
func benchSQLite(b *testing.B) prospector.Store {
	b.Helper()
	st, err := sqlite.OpenWith(context.Background(), b.TempDir(),
		sqlite.Options{Synchronous: os.Getenv("PROSPECTOR_SQLITE_SYNCHRONOUS")})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { st.Close() })
	return st
}

// benchLeads writes n leads of w, each with a person (and an address
// following first.last at one of 50 domains) and a signal of its own,
// so events read what they read in production.
func benchLeads(b *testing.B, st prospector.Store, w *prospector.Workspace, n int) []*prospector.Lead {
	b.Helper()
	ctx := context.Background()
	var cs []*prospector.Company
	for i := range 50 {
		cs = append(cs, &prospector.Company{Name: fmt.Sprint("Bench Co ", i), Domain: fmt.Sprintf("bench%d.example", i)})
	}
	if _, err := st.UpsertCompanies(ctx, cs); err != nil {
		b.Fatal(err)
	}
	var ps []*prospector.Person
	var sigs []*prospector.Signal
	for i := range n {
		co := cs[i%len(cs)]
		p := &prospector.Person{ExternalID: fmt.Sprint("bp", i), FullName: fmt.Sprintf("Benchy Person%d", i),
			FirstName: "Benchy", LastName: fmt.Sprint("Person", i), Title: []string{"VP Sales", "CTO", "Head of Growth"}[i%3],
			CompanyID: &co.ID, CompanyName: co.Name, CompanyDomain: co.Domain,
			Email: fmt.Sprintf("benchy.person%d@%s", i, co.Domain)}
		ps = append(ps, p)
	}
	if _, err := st.UpsertPeople(ctx, ps); err != nil {
		b.Fatal(err)
	}
	types := prospector.SignalTypes()
	for i, p := range ps {
		sigs = append(sigs, &prospector.Signal{ExternalID: fmt.Sprint("bs", i), Type: types[i%len(types)], CompanyID: p.CompanyID,
			PersonID: &p.ID, Title: "bench", DetectedAt: time.Now().Add(-time.Hour)})
	}
	if _, err := st.UpsertSignals(ctx, sigs); err != nil {
		b.Fatal(err)
	}
	r := &prospector.Radar{ID: prospector.NewRadarID(), WorkspaceID: w.ID, Name: "bench",
		Config: prospector.RadarConfig{Titles: []string{"VP Sales"}, Types: []string{"company_hiring"},
			SignalsToTrack: []string{"hiring"}, CompanySizeMin: 1, CompanySizeMax: 10000}}
	if err := st.CreateRadar(ctx, r); err != nil {
		b.Fatal(err)
	}
	var ms []prospector.LeadMatch
	for i, p := range ps {
		ms = append(ms, prospector.LeadMatch{RadarID: r.ID, WorkspaceID: w.ID, Lead: prospector.Lead{PersonID: p.ID,
			CompanyID: p.CompanyID, FullName: p.FullName, FirstName: p.FirstName, LastName: p.LastName, Title: p.Title,
			Company: p.CompanyName}, Signals: []prospector.SignalMatch{{SignalID: sigs[i].ID, DetectedAt: sigs[i].DetectedAt,
			Score: prospector.ScoreBreakdown{Total: 50, Type: sigs[i].Type, SignalID: sigs[i].ID}}}})
	}
	for start := 0; start < len(ms); start += 2000 {
		if _, err := st.ApplyLeadBatch(ctx, &prospector.LeadBatch{Matches: ms[start:min(start+2000, len(ms))], Now: time.Now()}); err != nil {
			b.Fatal(err)
		}
	}
	ls, err := st.RadarLeads(ctx, prospector.LeadFilter{RadarID: r.ID, Limit: n})
	if err != nil || len(ls) != n {
		b.Fatalf("leads: %d, %v", len(ls), err)
	}
	return ls
}

// BenchmarkFeedbackEvents posts events concurrently through the whole
// request path on SQLite (16 clients per CPU) and reports events/s.
// Run it for long enough to be sustained:
//
//	go test -run '^$' -bench FeedbackEvents -benchtime 30000x ./api/
func BenchmarkFeedbackEvents(b *testing.B) {
	st := benchSQLite(b)
	srv, w, key := feedbackBenchServer(b, st)
	leads := benchLeads(b, st, w, 2000)
	types := prospector.FeedbackEventTypes()
	var next atomic.Int64
	b.SetParallelism(16)
	b.ResetTimer()
	start := time.Now()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			i := next.Add(1)
			body := fmt.Sprintf(`{"lead_id":%q,"event_type":%q,"source":"outreach_tool_a","content":"bench %d"}`,
				leads[i%int64(len(leads))].ID, types[i%int64(len(types))], i)
			req := httptest.NewRequest("POST", "/api/v1/feedback/events", strings.NewReader(body))
			req.Header.Set(prospector.KeyHeader, key)
			req.Header.Set("Content-Type", "application/json")
			rec := httptest.NewRecorder()
			srv.ServeHTTP(rec, req)
			if rec.Code != 200 {
				b.Errorf("event %d: %d %s", i, rec.Code, rec.Body)
				return
			}
		}
	})
	b.ReportMetric(float64(b.N)/time.Since(start).Seconds(), "events/s")
}

// BenchmarkFeedbackInsights measures GET /feedback/insights over a
// workspace with PROSPECTOR_BENCH_FEEDBACK_EVENTS events (1,000,000 in
// docs/benchmarks.md) on 100,000 leads (300 titles, 5,000 companies),
// spread evenly over the last 365 days, so most leads are active in any
// window: the queries read every lead's record whatever the window.
// Seeding takes minutes, so it only runs when the variable is set:
//
//	PROSPECTOR_BENCH_FEEDBACK_EVENTS=1000000 go test -run '^$' -bench FeedbackInsights -benchtime 200x -timeout 1h ./api/
//
// With TEST_DATABASE_URL set it runs on PostgreSQL too. With
// PROSPECTOR_BENCH_FEEDBACK_DIR set, the SQLite database is kept in that
// directory and reused by the next run; PROSPECTOR_BENCH_FEEDBACK_SCHEMA
// does the same with a PostgreSQL schema.
func BenchmarkFeedbackInsights(b *testing.B) {
	n, _ := strconv.Atoi(os.Getenv("PROSPECTOR_BENCH_FEEDBACK_EVENTS"))
	if n <= 0 {
		b.Skip("PROSPECTOR_BENCH_FEEDBACK_EVENTS not set")
	}
	// Each engine opens a store and says how to settle it after seeding.
	type opener func(b *testing.B) (prospector.Store, func())
	stores := map[string]opener{"sqlite": func(b *testing.B) (prospector.Store, func()) { return benchSQLite(b), nil }}
	if dir := os.Getenv("PROSPECTOR_BENCH_FEEDBACK_DIR"); dir != "" {
		// Keep the seeded SQLite database there, and reuse it next time.
		stores["sqlite"] = func(b *testing.B) (prospector.Store, func()) {
			st, err := sqlite.Open(context.Background(), dir)
			if err != nil {
				b.Fatal(err)
			}
			b.Cleanup(func() { st.Close() })
			return st, nil
		}
	}
	if url := os.Getenv("TEST_DATABASE_URL"); url != "" {
		stores["postgres"] = func(b *testing.B) (prospector.Store, func()) { return openPostgresB(b, url) }
	}
	for _, engine := range slices.Sorted(func(yield func(string) bool) {
		for k := range stores {
			if !yield(k) {
				return
			}
		}
	}) {
		b.Run(engine, func(b *testing.B) {
			st, settle := stores[engine](b)
			srv, w, key := feedbackBenchServer(b, st)
			if in, err := st.FeedbackInsights(context.Background(), w.ID, time.Time{}, 1); err != nil || in.Summary.TotalLeads == 0 {
				seedFeedback(b, st, w, n)
				if settle != nil {
					settle()
				}
			}
			for _, days := range []int{30, 365} {
				b.Run(fmt.Sprint("days=", days), func(b *testing.B) {
					path := fmt.Sprint("/api/v1/feedback/insights?days=", days)
					lat := make([]time.Duration, 0, b.N)
					var total float64
					for i := 0; i < b.N; i++ {
						req := httptest.NewRequest("GET", path, nil)
						req.Header.Set(prospector.KeyHeader, key)
						rec := httptest.NewRecorder()
						t0 := time.Now()
						srv.ServeHTTP(rec, req)
						lat = append(lat, time.Since(t0))
						if rec.Code != 200 {
							b.Fatalf("insights: %d %s", rec.Code, rec.Body)
						}
						if i == 0 {
							var env struct {
								Data struct {
									Summary struct {
										TotalLeads float64 `json:"total_leads"`
									} `json:"summary"`
								} `json:"data"`
							}
							_ = json.Unmarshal(rec.Body.Bytes(), &env)
							total = env.Data.Summary.TotalLeads
						}
					}
					slices.Sort(lat)
					b.ReportMetric(float64(lat[len(lat)/2].Microseconds())/1000, "p50-ms")
					b.ReportMetric(float64(lat[len(lat)*99/100].Microseconds())/1000, "p99-ms")
					b.ReportMetric(total, "active-leads")
				})
			}
		})
	}
}

// seedFeedback records n events on n/10 leads through the store, as the
// handler would, from 32 writers at once.
func seedFeedback(b *testing.B, st prospector.Store, w *prospector.Workspace, n int) {
	b.Helper()
	ctx := context.Background()
	nLeads := max(n/10, 1)
	start := time.Now()
	r := &prospector.Radar{ID: prospector.NewRadarID(), WorkspaceID: w.ID, Name: "insights",
		Config: prospector.RadarConfig{Titles: []string{"VP Sales"}, Types: []string{"company_hiring"},
			SignalsToTrack: []string{"hiring"}, CompanySizeMin: 1, CompanySizeMax: 10000}}
	if err := st.CreateRadar(ctx, r); err != nil {
		b.Fatal(err)
	}
	for from := 0; from < nLeads; from += 2000 {
		var ms []prospector.LeadMatch
		for i := from; i < min(from+2000, nLeads); i++ {
			ms = append(ms, prospector.LeadMatch{RadarID: r.ID, WorkspaceID: w.ID, Lead: prospector.Lead{
				PersonID: int64(i + 1), FullName: fmt.Sprint("Person ", i), Title: fmt.Sprint("Title ", i%300),
				Company: fmt.Sprint("Company ", i%5000)}, Signals: []prospector.SignalMatch{{SignalID: int64(i + 1),
				DetectedAt: start, Score: prospector.ScoreBreakdown{Total: 50, Type: "company_hiring", SignalID: int64(i + 1)}}}})
		}
		if _, err := st.ApplyLeadBatch(ctx, &prospector.LeadBatch{Matches: ms, Now: start}); err != nil {
			b.Fatal(err)
		}
	}
	leads, err := st.RadarLeads(ctx, prospector.LeadFilter{RadarID: r.ID, Limit: nLeads})
	if err != nil || len(leads) != nLeads {
		b.Fatalf("leads: %d, %v", len(leads), err)
	}
	b.Logf("%d leads in %v", nLeads, time.Since(start).Round(time.Millisecond))
	// A mix of outcomes as outreach reports them: per 100 events, 45
	// opens, 25 clicks, 14 replies, 8 positive replies, 4 bounces and 4
	// meetings.
	var types []string
	for _, m := range []struct {
		typ string
		n   int
	}{{"open", 45}, {"click", 25}, {"reply", 14}, {"positive_reply", 8}, {"bounce", 4}, {"meeting_booked", 4}} {
		for range m.n {
			types = append(types, m.typ)
		}
	}
	sigTypes := prospector.SignalTypes()
	now := time.Now()
	var wg sync.WaitGroup
	var done atomic.Int64
	start = time.Now()
	for g := range 32 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rng := rand.New(rand.NewPCG(uint64(g), 7))
			for i := g; i < n; i += 32 {
				l := leads[i%nLeads]
				j := i % nLeads
				ev := &prospector.FeedbackEvent{ID: prospector.NewID("fbe"), WorkspaceID: w.ID, LeadID: l.ID,
					Type: types[rng.IntN(len(types))], Source: "outreach_tool_a", Metadata: "{}",
					OccurredAt: now.Add(-time.Duration(rng.Int64N(int64(365 * 24 * time.Hour)))).Truncate(time.Microsecond),
					Facts: prospector.LeadFacts{Title: l.Title, Company: l.Company,
						SignalTypes: []string{sigTypes[j%len(sigTypes)], sigTypes[(j/9)%len(sigTypes)]},
						Email:       fmt.Sprintf("person%d@domain%d.example", j, j%500), EmailPatterns: []string{"first"}}}
				if _, _, err := st.RecordFeedbackEvent(ctx, ev, now); err != nil {
					b.Error(err)
					return
				}
				if c := done.Add(1); c%100000 == 0 {
					b.Logf("%d events in %v", c, time.Since(start).Round(time.Second))
				}
			}
		}()
	}
	wg.Wait()
	b.Logf("%d events in %v (%.0f/s)", n, time.Since(start).Round(time.Millisecond), float64(n)/time.Since(start).Seconds())
}

// openPostgresB is openPostgres for benchmarks: a store in a schema of
// its own, dropped at cleanup. settle vacuums lead_feedback, as
// autovacuum would have during a million updates (it may be off on a test
// server).
func openPostgresB(b *testing.B, url string) (st prospector.Store, settle func()) {
	b.Helper()
	ctx := context.Background()
	schema, keep := os.Getenv("PROSPECTOR_BENCH_FEEDBACK_SCHEMA"), true
	if schema == "" {
		schema, keep = fmt.Sprintf("b_api_%d", time.Now().UnixNano()), false
	}
	exec := func(sql string) error {
		conn, err := pgx.Connect(ctx, url)
		if err != nil {
			return err
		}
		defer conn.Close(ctx)
		_, err = conn.Exec(ctx, sql)
		return err
	}
	if err := exec("CREATE SCHEMA IF NOT EXISTS " + schema); err != nil {
		b.Fatalf("TEST_DATABASE_URL: %v", err)
	}
	sep := "?"
	if strings.Contains(url, "?") {
		sep = "&"
	}
	db, err := postgres.Open(ctx, url+sep+"search_path="+schema)
	if err != nil {
		_ = exec("DROP SCHEMA " + schema + " CASCADE")
		b.Fatal(err)
	}
	st = db
	settle = func() {
		if err := exec("VACUUM ANALYZE " + schema + ".lead_feedback"); err != nil {
			b.Fatal(err)
		}
	}
	b.Cleanup(func() {
		st.Close()
		if !keep {
			_ = exec("DROP SCHEMA " + schema + " CASCADE")
		}
	})
	return st, settle
}
