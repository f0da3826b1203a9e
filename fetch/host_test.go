package fetch

import (
	"context"
	"errors"
	"net/http"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/prospectorhq/prospector"
	"github.com/prospectorhq/prospector/ratelimit"
)

// TestConcurrencyNeverExceeded: an API host takes its policy's number of
// requests at once and never one more; a website one at a time. The
// handler holds each request until as many as allowed are in flight (or
// all that are left), then 20 ms longer, so an extra request would be
// seen, and the limit is reached without relying on timing.
func TestConcurrencyNeverExceeded(t *testing.T) {
	const total = 12
	for _, tc := range []struct {
		name  string
		hosts func(port string) map[string]HostPolicy
		limit int64
	}{
		{"api", func(p string) map[string]HostPolicy { return map[string]HostPolicy{"127.0.0.1:" + p: {Concurrency: 3}} }, 3},
		{"site", func(string) map[string]HostPolicy { return nil }, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var inflight, peak, finished atomic.Int64
			s := newSite(t, func(w http.ResponseWriter, r *http.Request) {
				n := inflight.Add(1)
				defer func() { inflight.Add(-1); finished.Add(1) }()
				for p := peak.Load(); n > p && !peak.CompareAndSwap(p, n); p = peak.Load() {
				}
				deadline := time.Now().Add(5 * time.Second)
				for inflight.Load() < min(tc.limit, total-finished.Load()) && time.Now().Before(deadline) {
					time.Sleep(time.Millisecond)
				}
				time.Sleep(20 * time.Millisecond)
				if n := inflight.Load(); n > peak.Load() {
					peak.Store(n)
				}
			})
			c := newClient(t, Config{AllowPrivate: true, Hosts: tc.hosts(s.port())})
			useClock(c, newFakeClock()) // intervals pass at once; slots do not
			var wg sync.WaitGroup
			for range total {
				wg.Add(1)
				go func() {
					defer wg.Done()
					if _, err := c.Fetch(context.Background(), prospector.FetchRequest{URL: s.URL + "/"}); err != nil {
						t.Error(err)
					}
				}()
			}
			wg.Wait()
			if peak.Load() != tc.limit {
				t.Fatalf("peak %d requests in flight, want %d", peak.Load(), tc.limit)
			}
		})
	}
}

// TestIntervalBetweenStarts: in virtual time, a website's requests start
// a second apart and an API host's 50 ms apart; the wait is counted.
func TestIntervalBetweenStarts(t *testing.T) {
	clk := newFakeClock()
	var mu sync.Mutex
	starts := map[string][]time.Time{}
	s := newSite(t, func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		starts[r.Host] = append(starts[r.Host], clk.Now())
		mu.Unlock()
	})
	res := stubResolver{"company.test": {"127.0.0.1"}, "boards-api.greenhouse.io": {"127.0.0.1"}}
	c := newClient(t, Config{AllowPrivate: true, Resolver: res})
	useClock(c, clk)
	for range 4 {
		for _, host := range []string{"company.test", "boards-api.greenhouse.io"} {
			if _, err := c.Fetch(context.Background(), prospector.FetchRequest{URL: "http://" + host + ":" + s.port() + "/"}); err != nil {
				t.Fatal(err)
			}
		}
	}
	for host, want := range map[string]time.Duration{"company.test": SiteInterval, "boards-api.greenhouse.io": APIInterval} {
		got := starts[host+":"+s.port()]
		if len(got) != 4 {
			t.Fatalf("%s: %d requests", host, len(got))
		}
		for i := 1; i < len(got); i++ {
			if d := got[i].Sub(got[i-1]); d < want {
				t.Errorf("%s: requests %d and %d started %s apart, want >= %s", host, i-1, i, d, want)
			}
		}
	}
	// The clock only moved for the website: 3 waits of 1 s; the API
	// host's waits fell inside them.
	if st := c.Stats(); st.PacingWait < 3*SiteInterval || st.Requests != 8 {
		t.Fatalf("stats %+v", st)
	}
}

// TestRetryAfter: 429 and 503 with Retry-After in seconds or as an HTTP
// date pause the host, and the request is retried after the wait.
func TestRetryAfter(t *testing.T) {
	for _, form := range []string{"seconds", "date"} {
		t.Run(form, func(t *testing.T) {
			clk := newFakeClock()
			var mu sync.Mutex
			var starts []time.Time
			s := newSite(t, func(w http.ResponseWriter, r *http.Request) {
				mu.Lock()
				starts = append(starts, clk.Now())
				n := len(starts)
				mu.Unlock()
				if n == 1 {
					if form == "seconds" {
						w.Header().Set("Retry-After", "7")
					} else {
						w.Header().Set("Retry-After", clk.Now().Add(7*time.Second).Format(http.TimeFormat))
					}
					w.WriteHeader(http.StatusTooManyRequests)
					return
				}
				w.Write([]byte("ok"))
			})
			c := newClient(t, Config{AllowPrivate: true, Hosts: map[string]HostPolicy{"127.0.0.1:" + s.port(): {Concurrency: 2}}})
			useClock(c, clk)
			res, err := c.Fetch(context.Background(), prospector.FetchRequest{URL: s.URL + "/jobs"})
			if err != nil || string(res.Body) != "ok" {
				t.Fatalf("%+v, %v", res, err)
			}
			if len(starts) != 2 || starts[1].Sub(starts[0]) < 7*time.Second {
				t.Fatalf("starts %v: the retry did not wait 7 s", starts)
			}
			if st := c.Stats(); st.Retries != 1 || st.Requests != 2 {
				t.Fatalf("stats %+v", st)
			}
		})
	}
}

// TestLongRetryAfter: a wait longer than the client retries fails with a
// RetryLaterError carrying the time, and every later fetch of that host
// fails the same way without a request until then.
func TestLongRetryAfter(t *testing.T) {
	clk := newFakeClock()
	var limited atomic.Bool
	limited.Store(true)
	s := newSite(t, func(w http.ResponseWriter, r *http.Request) {
		if limited.Load() {
			w.Header().Set("Retry-After", "3600")
			w.WriteHeader(http.StatusServiceUnavailable)
			return
		}
		w.Write([]byte("ok"))
	})
	c := newClient(t, Config{AllowPrivate: true, Hosts: map[string]HostPolicy{"127.0.0.1:" + s.port(): {Concurrency: 2}}})
	useClock(c, clk)
	want := clk.Now().Add(time.Hour)
	for _, path := range []string{"/a", "/b", "/c"} {
		_, err := c.Fetch(context.Background(), prospector.FetchRequest{URL: s.URL + path})
		var rl *prospector.RetryLaterError
		if !errors.As(err, &rl) || !rl.Until.Equal(want) || rl.Status != 503 || rl.Host != "127.0.0.1:"+s.port() {
			t.Fatalf("%s: %v", path, err)
		}
	}
	if n := s.hits.Load(); n != 1 {
		t.Fatalf("%d requests reached the paused host, want 1", n)
	}
	clk.Advance(time.Hour)
	limited.Store(false)
	if _, err := c.Fetch(context.Background(), prospector.FetchRequest{URL: s.URL + "/a"}); err != nil {
		t.Fatalf("after the pause: %v", err)
	}
}

// TestServiceUnavailableBackoff: a 503 without Retry-After is retried
// with growing waits a bounded number of times, then reported.
func TestServiceUnavailableBackoff(t *testing.T) {
	clk := newFakeClock()
	var starts []time.Time
	s := newSite(t, func(w http.ResponseWriter, r *http.Request) {
		starts = append(starts, clk.Now())
		w.WriteHeader(http.StatusServiceUnavailable)
	})
	c := newClient(t, Config{AllowPrivate: true, Hosts: map[string]HostPolicy{"127.0.0.1:" + s.port(): {Concurrency: 1}}})
	useClock(c, clk)
	_, err := c.Fetch(context.Background(), prospector.FetchRequest{URL: s.URL + "/"})
	var rl *prospector.RetryLaterError
	if !errors.As(err, &rl) || rl.Status != 503 {
		t.Fatalf("err %v", err)
	}
	if len(starts) != 1+DefaultMaxRetries {
		t.Fatalf("%d attempts, want %d", len(starts), 1+DefaultMaxRetries)
	}
	if starts[1].Sub(starts[0]) != time.Second || starts[2].Sub(starts[1]) != 2*time.Second {
		t.Fatalf("backoff %v", starts)
	}
}

func TestRetryAfterParse(t *testing.T) {
	now := time.Date(2026, 11, 24, 9, 0, 0, 0, time.UTC)
	for v, want := range map[string]time.Duration{
		"120":                           2 * time.Minute,
		" 0 ":                           0,
		"Tue, 24 Nov 2026 09:00:30 GMT": 30 * time.Second,
		"Tue, 24 Nov 2026 08:00:00 GMT": 0,
		"99999999999":                   prospector.MaxTargetBackoff,
	} {
		if got, ok := retryAfter(v, now); !ok || got != want {
			t.Errorf("%q: %s %v, want %s", v, got, ok, want)
		}
	}
	for _, v := range []string{"", "-5", "soon", "1.5"} {
		if _, ok := retryAfter(v, now); ok {
			t.Errorf("%q read as a wait", v)
		}
	}
}

func TestHostRule(t *testing.T) {
	pol := DefaultHostPolicies()
	pol["127.0.0.1:9001"] = HostPolicy{Concurrency: 9}
	for host, want := range map[string]string{
		"boards-api.greenhouse.io": "boards-api.greenhouse.io",
		"acme.recruitee.com":       "*.recruitee.com",
		"a.b.recruitee.com":        "*.recruitee.com",
		"recruitee.com":            "",
		"acme.jobs.personio.de":    "*.jobs.personio.de",
		"api.lever.co:8443":        "api.lever.co",
		"127.0.0.1:9001":           "127.0.0.1:9001",
		"127.0.0.1:9002":           "",
		"[::1]:9001":               "",
		"www.acme.example":         "",
	} {
		key, _, ok := hostRule(pol, host)
		if key != want || ok != (want != "") {
			t.Errorf("%s: %q %v, want %q", host, key, ok, want)
		}
	}
	if _, err := New(Config{Hosts: map[string]HostPolicy{"Bad.Host": {Concurrency: 1}}}); err == nil {
		t.Error("upper-case host pattern accepted")
	}
	if _, err := New(Config{Hosts: map[string]HostPolicy{"x.test": {}}}); err == nil {
		t.Error("zero concurrency accepted")
	}
}

// TestBudgets: the in-process budget spaces the starts of every host of
// a rule together; the shared one draws on a prospector.RateLimiter.
func TestBudgets(t *testing.T) {
	clk := newFakeClock()
	b, err := NewBudget(DefaultBudgets())
	if err != nil {
		t.Fatal(err)
	}
	b.clock = clk
	t0 := clk.Now()
	for _, h := range []string{"www.sec.gov", "data.sec.gov", "www.sec.gov", "data.sec.gov", "example.com"} {
		if err := b.Wait(context.Background(), h); err != nil {
			t.Fatal(err)
		}
	}
	if got := clk.Now().Sub(t0); got != 3*100*time.Millisecond {
		t.Fatalf("4 SEC requests took %s of budget, want 300ms", got)
	}

	m := ratelimit.NewMemory()
	m.Now = clk.Now
	sb, err := NewSharedBudget(m, []BudgetRule{{Key: "sec.gov", Hosts: []string{"*.sec.gov"},
		Rate: prospector.RateLimit{Requests: 1, Window: 100 * time.Millisecond}}})
	if err != nil {
		t.Fatal(err)
	}
	sb.clock = clk
	t0 = clk.Now()
	for range 5 {
		if err := sb.Wait(context.Background(), "data.sec.gov"); err != nil {
			t.Fatal(err)
		}
	}
	if got := clk.Now().Sub(t0); got < 400*time.Millisecond {
		t.Fatalf("5 requests at 1 per 100ms within %s", got)
	}
	if _, err := NewBudget([]BudgetRule{{Key: "x", Hosts: []string{"a.test"}}}); err == nil {
		t.Fatal("a budget without a rate accepted")
	}
}
