package fetch

import (
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// fakeClock moves only when someone sleeps: SleepUntil jumps to the
// wake-up time, so pacing is checked in exact virtual time.
type fakeClock struct {
	mu  sync.Mutex
	now time.Time
}

func newFakeClock() *fakeClock {
	return &fakeClock{now: time.Date(2026, 11, 24, 9, 0, 0, 0, time.UTC)}
}

func (f *fakeClock) Now() time.Time {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.now
}

func (f *fakeClock) SleepUntil(ctx context.Context, t time.Time) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	f.mu.Lock()
	if t.After(f.now) {
		f.now = t
	}
	f.mu.Unlock()
	return nil
}

func (f *fakeClock) Advance(d time.Duration) {
	f.mu.Lock()
	f.now = f.now.Add(d)
	f.mu.Unlock()
}

// useClock puts c's pacing, budget and robots expiry on clk.
func useClock(c *Client, clk clock) {
	c.clock = clk
	c.pacer.clock = clk
	if b, ok := c.limiter.(*Budget); ok {
		b.clock = clk
	}
}

func newClient(t testing.TB, cfg Config) *Client {
	t.Helper()
	if cfg.Version == "" {
		cfg.Version = "0.1.0"
	}
	c, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		c.guarded.CloseIdleConnections()
		c.direct.CloseIdleConnections()
	})
	return c
}

// site is a fixture server that records what reaches it.
type site struct {
	*httptest.Server
	hits atomic.Int64
	mu   sync.Mutex
	reqs []*http.Request
}

func newSite(t testing.TB, h http.HandlerFunc) *site {
	t.Helper()
	s := &site{}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.hits.Add(1)
		s.mu.Lock()
		s.reqs = append(s.reqs, r.Clone(context.Background()))
		s.mu.Unlock()
		h(w, r)
	}))
	t.Cleanup(s.Close)
	return s
}

func (s *site) addr() string { return strings.TrimPrefix(s.URL, "http://") }

func (s *site) port() string {
	_, p, err := net.SplitHostPort(s.addr())
	if err != nil {
		panic(err) // httptest's own URL
	}
	return p
}

// requests returns the requests received, in order.
func (s *site) requests() []*http.Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]*http.Request(nil), s.reqs...)
}

// paths lists the request URIs received, in order.
func (s *site) paths() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]string, len(s.reqs))
	for i, r := range s.reqs {
		out[i] = r.URL.RequestURI()
	}
	return out
}

func (s *site) count(path string) int {
	n := 0
	for _, p := range s.paths() {
		if p == path {
			n++
		}
	}
	return n
}

// stubResolver answers from a table; names not in it do not exist.
type stubResolver map[string][]string

func (s stubResolver) LookupIPAddr(_ context.Context, host string) ([]net.IPAddr, error) {
	addrs, ok := s[strings.ToLower(strings.TrimSuffix(host, "."))]
	if !ok {
		return nil, &net.DNSError{Err: "no such host", Name: host, IsNotFound: true}
	}
	out := make([]net.IPAddr, len(addrs))
	for i, a := range addrs {
		out[i] = net.IPAddr{IP: net.ParseIP(a)}
	}
	return out, nil
}
