package api_test

import (
	"context"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"os"
	"sync/atomic"
	"testing"
	"time"

	"github.com/prospectorhq/prospector"
	"github.com/prospectorhq/prospector/proxytest"
	"github.com/prospectorhq/prospector/ratelimit"
)

// sharedLimiter returns a limiter on the test Redis with its own client,
// as a separate server node would have.
func sharedLimiter(t *testing.T, url, prefix string) *ratelimit.Fallback {
	t.Helper()
	client, err := ratelimit.NewRedisClient(url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { client.Close() })
	return ratelimit.NewFallback(ratelimit.NewRedis(client, prefix), ratelimit.NewMemory(), slog.New(slog.DiscardHandler))
}

func TestTwoServersShareOneBudgetThroughRedis(t *testing.T) {
	url := os.Getenv("TEST_REDIS_URL")
	if url == "" {
		t.Skip("TEST_REDIS_URL not set: skipping Redis tests")
	}
	prefix := fmt.Sprintf("test:%d:", time.Now().UnixNano())
	a := newEnv(t)
	_, key := a.workspace("shared", prospector.PlanDefault, prospector.PlanDefault)
	la, lb := sharedLimiter(t, url, prefix), sharedLimiter(t, url, prefix)
	nodeA := newEnvOn(t, a.store, func(c *apiConfig) { c.Limiter, c.LimiterMode, c.Degraded = la, "redis", la.Degraded })
	nodeB := newEnvOn(t, a.store, func(c *apiConfig) { c.Limiter, c.LimiterMode, c.Degraded = lb, "redis", lb.Degraded })
	ok := 0
	for i := 0; i < 75; i++ {
		for _, node := range []*env{nodeA, nodeB} {
			r := node.do("GET", "/api/v1/account/key-info", key, nil)
			switch r.status {
			case http.StatusOK:
				ok++
			case http.StatusTooManyRequests:
			default:
				t.Fatalf("status %d: %s", r.status, r.body)
			}
		}
	}
	if ok != 100 {
		t.Fatalf("150 requests over two nodes on a default key: %d succeeded, want exactly 100", ok)
	}
	if la.Degraded() || lb.Degraded() {
		t.Fatal("a healthy Redis reported degraded")
	}
	if d := nodeA.do("GET", "/api/v1/health", "", nil).data(t); d["rate_limiter"] != "redis" || d["status"] != "ok" {
		t.Errorf("health with Redis = %v", d)
	}
}

// With Redis stopped the API stays up and each node enforces the tier
// limit on its own (fail open to per-node limits).
func TestRedisDownFallsBackToLocalLimits(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	dead := "redis://" + ln.Addr().String() + "/0"
	ln.Close()
	lim := sharedLimiter(t, dead, "test:")
	e := newEnv(t, func(c *apiConfig) { c.Limiter, c.LimiterMode, c.Degraded = lim, "redis", lim.Degraded })
	_, key := e.workspace("redisdown", prospector.PlanDefault, prospector.PlanDefault)
	ok, limited := 0, 0
	for i := 0; i < 150; i++ {
		r := e.do("GET", "/api/v1/account/key-info", key, nil)
		wantRateHeaders(t, r)
		switch r.status {
		case http.StatusOK:
			ok++
		case http.StatusTooManyRequests:
			limited++
		default:
			t.Fatalf("status %d with Redis down: %s", r.status, r.body)
		}
	}
	if ok != 100 || limited != 50 {
		t.Fatalf("Redis down: %d ok, %d limited; want the local limit, 100 and 50", ok, limited)
	}
	d := e.do("GET", "/api/v1/health", "", nil).data(t)
	if d["status"] != "degraded" || d["rate_limiter"] != "redis_degraded" {
		t.Errorf("health with Redis down = %v, want degraded", d)
	}
}

// An idle node learns from health itself that Redis died, and that it
// came back: no request has to touch the limiter first. Health checks at
// most once a second however often it is probed.
func TestHealthChecksRedisOnAnIdleNode(t *testing.T) {
	raw := os.Getenv("TEST_REDIS_URL")
	if raw == "" {
		t.Skip("TEST_REDIS_URL not set: skipping Redis tests")
	}
	u, err := url.Parse(raw)
	if err != nil {
		t.Fatal(err)
	}
	proxy := proxytest.New(t, u.Host)
	u.Host = proxy.Addr()
	lim := sharedLimiter(t, u.String(), fmt.Sprintf("test:%d:", time.Now().UnixNano()))
	var checks atomic.Int64
	now := time.Now()
	e := newEnv(t, func(c *apiConfig) {
		c.Limiter, c.LimiterMode, c.Degraded = lim, "redis", lim.Degraded
		c.LimiterCheck = func(ctx context.Context) error { checks.Add(1); return lim.Check(ctx) }
		c.Now = func() time.Time { return now }
	})
	health := func() map[string]any { return e.do("GET", "/api/v1/health", "", nil).data(t) }
	if d := health(); d["status"] != "ok" || d["rate_limiter"] != "redis" {
		t.Fatalf("health with Redis up = %v", d)
	}

	proxy.Cut()
	now = now.Add(time.Second)
	for range 20 {
		if d := health(); d["status"] != "degraded" || d["rate_limiter"] != "redis_degraded" {
			t.Fatalf("health of an idle node after Redis died = %v", d)
		}
	}
	if n := checks.Load(); n != 2 {
		t.Errorf("Redis checked %d times for 21 probes in two seconds, want 2", n)
	}
	if !lim.Degraded() {
		t.Error("the failed check did not move the node to local limits")
	}

	proxy.Restore()
	now = now.Add(time.Second)
	if d := health(); d["status"] != "ok" || d["rate_limiter"] != "redis" {
		t.Fatalf("health after Redis came back = %v", d)
	}
	if lim.Degraded() {
		t.Error("shared limits not restored after Redis answered the check")
	}
}
