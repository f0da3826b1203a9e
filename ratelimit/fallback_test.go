package ratelimit

import (
	"bytes"
	"context"
	"log/slog"
	"net"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/prospectorhq/prospector"
)

// counting delegates to a limiter and counts the calls that reach it.
type counting struct {
	prospector.RateLimiter
	calls atomic.Int64
}

func (c *counting) Allow(ctx context.Context, key string, limit prospector.RateLimit) (prospector.RateResult, error) {
	c.calls.Add(1)
	return c.RateLimiter.Allow(ctx, key, limit)
}

// deadRedis returns a Redis limiter pointed at a port nothing listens on.
func deadRedis(t *testing.T) *Redis {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	client, err := NewRedisClient("redis://" + addr + "/0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { client.Close() })
	return NewRedis(client, "test:")
}

func TestFallback(t *testing.T) {
	ctx := context.Background()
	limit := prospector.RateLimit{Requests: 100, Window: time.Minute}

	t.Run("PrimaryDown", func(t *testing.T) {
		primary := &counting{RateLimiter: deadRedis(t)}
		var logs bytes.Buffer
		f := NewFallback(primary, NewMemory(), slog.New(slog.NewTextHandler(&logs, nil)))
		if f.Degraded() {
			t.Fatal("degraded before any call")
		}
		// spend fails the test on any error: every call must be answered.
		if got := spend(t, f, "key_secret_id", limit, 150); got != 100 {
			t.Fatalf("allowed %d of 150 locally, want 100", got)
		}
		if !f.Degraded() {
			t.Fatal("Degraded() = false after the primary failed")
		}
		// The first call failed and started the cool-down; the other 149
		// never waited on the dead Redis.
		if n := primary.calls.Load(); n != 1 {
			t.Fatalf("primary called %d times during the cool-down, want 1", n)
		}
		out := logs.String()
		if n := strings.Count(out, "level=WARN"); n != 1 {
			t.Fatalf("%d warnings logged, want 1:\n%s", n, out)
		}
		if strings.Contains(out, "key_secret_id") {
			t.Fatalf("log contains the key:\n%s", out)
		}
	})

	t.Run("RetryAfterCooldown", func(t *testing.T) {
		primary := &counting{RateLimiter: deadRedis(t)}
		var logs bytes.Buffer
		f := NewFallback(primary, NewMemory(), slog.New(slog.NewTextHandler(&logs, nil)))
		f.cooldown = 200 * time.Millisecond
		spend(t, f, "k1", limit, 10)
		time.Sleep(250 * time.Millisecond)
		spend(t, f, "k1", limit, 1)
		if n := primary.calls.Load(); n != 2 {
			t.Fatalf("primary called %d times, want 2: once, then once after the cool-down", n)
		}
		if !f.Degraded() {
			t.Fatal("Degraded() = false while the primary still fails")
		}
		if n := strings.Count(logs.String(), "level=WARN"); n != 1 {
			t.Fatalf("%d warnings logged within 30s, want 1:\n%s", n, logs.String())
		}
	})

	t.Run("Recovers", func(t *testing.T) {
		// A primary that fails once, then works.
		flaky := &flaky{RateLimiter: NewMemory()}
		flaky.failures.Store(1)
		var logs bytes.Buffer
		f := NewFallback(flaky, NewMemory(), slog.New(slog.NewTextHandler(&logs, nil)))
		f.cooldown = 20 * time.Millisecond
		spend(t, f, "k1", limit, 1)
		if !f.Degraded() {
			t.Fatal("Degraded() = false after a failure")
		}
		time.Sleep(30 * time.Millisecond)
		spend(t, f, "k1", limit, 1)
		if f.Degraded() {
			t.Fatal("Degraded() = true after the primary answered")
		}
		if !strings.Contains(logs.String(), "primary recovered") {
			t.Fatalf("no recovery logged:\n%s", logs.String())
		}
	})

	t.Run("PrimaryUp", func(t *testing.T) {
		primary := &counting{RateLimiter: NewMemory()}
		local := &counting{RateLimiter: NewMemory()}
		f := NewFallback(primary, local, nil)
		for i := range 150 {
			res, err := f.Allow(ctx, "k1", limit)
			if err != nil {
				t.Fatal(err)
			}
			if res.Allowed != (i < 100) || res.Remaining != max(99-i, 0) {
				t.Fatalf("request %d: got %+v", i+1, res)
			}
		}
		if f.Degraded() {
			t.Fatal("Degraded() = true with a working primary")
		}
		if p, l := primary.calls.Load(), local.calls.Load(); p != 150 || l != 0 {
			t.Fatalf("primary called %d times, local %d; want 150 and 0", p, l)
		}
	})

	t.Run("PrimaryRedisUp", func(t *testing.T) {
		client, prefix := newTestRedis(t)
		f := NewFallback(NewRedis(client, prefix), NewMemory(), nil)
		if got := spend(t, f, "k1", limit, 150); got != 100 {
			t.Fatalf("allowed %d of 150, want 100", got)
		}
		if f.Degraded() {
			t.Fatal("Degraded() = true with Redis up")
		}
	})
}

// flaky fails its first failures calls, then delegates.
type flaky struct {
	prospector.RateLimiter
	failures atomic.Int64
}

func (f *flaky) Allow(ctx context.Context, key string, limit prospector.RateLimit) (prospector.RateResult, error) {
	if f.failures.Add(-1) >= 0 {
		return prospector.RateResult{}, net.ErrClosed
	}
	return f.RateLimiter.Allow(ctx, key, limit)
}
