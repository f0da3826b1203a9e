package sources_test

import (
	"context"
	"net/url"
	"sync"
	"testing"
	"time"

	"github.com/prospectorhq/prospector"
	"github.com/prospectorhq/prospector/fetch"
	"github.com/prospectorhq/prospector/sec"
	"github.com/prospectorhq/prospector/sec/sectest"
	"github.com/prospectorhq/prospector/sources"
	"github.com/prospectorhq/prospector/sources/adapters"
	"github.com/prospectorhq/prospector/sqlite"
)

// secPoller is a poller with only the SEC source, over st and a fixture
// EDGAR, with its own fetch client and SEC client (one node), drawing
// from st's shared token bucket.
func secPoller(t testing.TB, st prospector.Store, srv *sectest.Server) *sources.Poller {
	t.Helper()
	u, _ := url.Parse(srv.URL)
	client, err := fetch.New(fetch.Config{Version: "test", Contact: "ops@example.test", AllowPrivate: true,
		Hosts: map[string]fetch.HostPolicy{u.Host: {Concurrency: fetch.SECConcurrency, Interval: fetch.SECInterval}}})
	if err != nil {
		t.Fatal(err)
	}
	c, err := sec.NewClient(client, sec.Options{ContactEmail: "ops@example.test", BaseURL: srv.URL, DataURL: srv.URL, Bucket: st})
	if err != nil {
		t.Fatal(err)
	}
	return &sources.Poller{Store: st, Fetcher: client, SEC: &sources.SEC{Store: st, Reader: &adapters.SEC{Client: c}}}
}

func openSQLite(t testing.TB) prospector.Store {
	t.Helper()
	st, err := sqlite.Open(context.Background(), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

// A day EDGAR has not published yet stops the cursor there; a missing
// day old enough to be a holiday is passed over.
func TestSECCursorWaitsForRecentDays(t *testing.T) {
	srv := sectest.New()
	defer srv.Close()
	st := openSQLite(t)
	p := secPoller(t, st, srv)
	ctx := context.Background()
	day := sectest.DefaultDay // Monday 2026-05-04
	sum, err := p.RunSEC(ctx, sources.SECOptions{Since: day, Until: day.AddDate(0, 0, 2)})
	if err != nil {
		t.Fatal(err)
	}
	if sum.Days != 1 || sum.Filings != 6 || sum.Applied != 0 || sum.Pending != 4 || sum.Recorded != 2 || sum.NextDay != "2026-05-05" {
		t.Fatalf("first run: %+v", sum)
	}
	state, err := sources.LoadSECState(ctx, st)
	if err != nil || state.NextDay != "2026-05-05" || state.Health(time.Now()) != prospector.HealthOK {
		t.Fatalf("state: %+v, %v", state, err)
	}
	// Eleven days later, the missing days up to three days before are
	// taken for holidays; the weekend is skipped without a request.
	before := len(srv.Requests())
	sum, err = p.RunSEC(ctx, sources.SECOptions{Until: day.AddDate(0, 0, 11)})
	if err != nil {
		t.Fatal(err)
	}
	if sum.Days != 0 || sum.DaysMissing != 6 || sum.NextDay != "2026-05-13" {
		t.Fatalf("second run: %+v", sum)
	}
	if n := len(srv.Requests()) - before; n != 7 {
		t.Fatalf("%d requests for 7 weekdays", n)
	}
}

// EDGAR throttling stops the run where it is: the day is read again
// next time, and no request is sent before EDGAR's Retry-After.
func TestSECRunStopsWhenThrottled(t *testing.T) {
	srv := sectest.New()
	defer srv.Close()
	st := openSQLite(t)
	p := secPoller(t, st, srv)
	ctx := context.Background()
	srv.Throttle(1, 429, "600")
	o := sources.SECOptions{Since: sectest.DefaultDay, Until: sectest.DefaultDay}
	sum, err := p.RunSEC(ctx, o)
	if err != nil {
		t.Fatal(err)
	}
	if sum.Stopped == "" || sum.Filings != 0 || sum.NextDay != "2026-05-04" {
		t.Fatalf("throttled run: %+v", sum)
	}
	state, err := sources.LoadSECState(ctx, st)
	if err != nil || state.Health(time.Now()) != prospector.HealthPaused || state.PausedUntil.Before(time.Now().Add(9*time.Minute)) ||
		state.NextRunAt.Before(*state.PausedUntil) {
		t.Fatalf("state after 429: %+v, %v", state, err)
	}
	sum, err = p.RunSEC(ctx, o)
	if err != nil || sum.Stopped == "" {
		t.Fatalf("run while paused: %+v, %v", sum, err)
	}
	if n := len(srv.Requests()); n != 1 {
		t.Fatalf("%d requests, want the one throttled", n)
	}
}

// Two nodes reading EDGAR at once draw from the store's one bucket, so
// together they take at least as long as one node sending every request
// at the SEC's 10 a second (two budgets would take half that), and every
// filing is stored once. (Load can only make them slower: the bound
// holds on any machine.)
func TestSECNodesShareOneBudget(t *testing.T) {
	if testing.Short() {
		t.Skip("about 5 s at the fair-access pace")
	}
	srv := sectest.New()
	defer srv.Close()
	day := time.Date(2026, time.May, 6, 0, 0, 0, 0, time.UTC)
	srv.GenerateFormDs(day, 10, 3)
	st := openSQLite(t)
	nodes := []*sources.Poller{secPoller(t, st, srv), secPoller(t, st, srv)}
	start := time.Now()
	var wg sync.WaitGroup
	sums := make([]*sources.SECSummary, len(nodes))
	errs := make([]error, len(nodes))
	for i, p := range nodes {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sums[i], errs[i] = p.RunSEC(context.Background(), sources.SECOptions{Since: day, Until: day})
		}()
	}
	wg.Wait()
	took := time.Since(start)
	for i := range nodes {
		if errs[i] != nil || sums[i].Filings != 10 {
			t.Fatalf("node %d: %+v, %v", i, sums[i], errs[i])
		}
	}
	if sums[0].Duplicates+sums[1].Duplicates < 10 {
		t.Fatalf("duplicates %d + %d: a filing was stored twice", sums[0].Duplicates, sums[1].Duplicates)
	}
	n := len(srv.Requests())
	if least := time.Duration(n-1) * time.Second / sec.MaxRate; took < least {
		t.Fatalf("two nodes sent %d requests in %s, faster than one budget of %d a second allows (%s)", n, took, sec.MaxRate, least)
	}
}
