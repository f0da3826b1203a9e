package ratelimit

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"
	"unsafe"

	"github.com/prospectorhq/prospector"
)

// clock is a settable time source for Memory.Now.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *clock) Advance(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

func newTestMemory() (*Memory, *clock) {
	c := &clock{t: time.Date(2026, 11, 22, 9, 0, 0, 0, time.UTC)}
	m := NewMemory()
	m.Now = c.Now
	return m, c
}

// spend makes n requests for key and returns how many were allowed.
func spend(t testing.TB, l prospector.RateLimiter, key string, limit prospector.RateLimit, n int) int {
	t.Helper()
	allowed := 0
	for range n {
		res, err := l.Allow(context.Background(), key, limit)
		if err != nil {
			t.Fatalf("Allow: %v", err)
		}
		if res.Allowed {
			allowed++
		}
	}
	return allowed
}

func TestMemory(t *testing.T) {
	ctx := context.Background()
	limit := prospector.RateLimit{Requests: 100, Window: time.Minute}

	t.Run("OK", func(t *testing.T) {
		m, _ := newTestMemory()
		if got := spend(t, m, "k1", limit, 150); got != 100 {
			t.Fatalf("allowed %d of 150, want 100", got)
		}
	})

	t.Run("RemainingAndReset", func(t *testing.T) {
		m, c := newTestMemory()
		for i := range 100 {
			res, err := m.Allow(ctx, "k1", limit)
			if err != nil {
				t.Fatal(err)
			}
			want := prospector.RateResult{Allowed: true, Limit: 100, Remaining: 99 - i, Reset: time.Minute - time.Duration(i)*500*time.Millisecond}
			if res != want {
				t.Fatalf("request %d: got %+v, want %+v", i+1, res, want)
			}
			c.Advance(500 * time.Millisecond)
		}
		res, err := m.Allow(ctx, "k1", limit)
		if err != nil {
			t.Fatal(err)
		}
		if want := (prospector.RateResult{Limit: 100, Reset: 10 * time.Second}); res != want {
			t.Fatalf("request 101: got %+v, want %+v", res, want)
		}
	})

	t.Run("RefusedDoesNotExtendWindow", func(t *testing.T) {
		m, c := newTestMemory()
		small := prospector.RateLimit{Requests: 2, Window: time.Second}
		spend(t, m, "k1", small, 2)
		c.Advance(500 * time.Millisecond)
		res, err := m.Allow(ctx, "k1", small)
		if err != nil {
			t.Fatal(err)
		}
		if want := (prospector.RateResult{Limit: 2, Reset: 500 * time.Millisecond}); res != want {
			t.Fatalf("over limit: got %+v, want %+v", res, want)
		}
		c.Advance(500 * time.Millisecond)
		res, err = m.Allow(ctx, "k1", small)
		if err != nil {
			t.Fatal(err)
		}
		if want := (prospector.RateResult{Allowed: true, Limit: 2, Remaining: 1, Reset: time.Second}); res != want {
			t.Fatalf("new window: got %+v, want %+v", res, want)
		}
	})

	t.Run("NewWindowAfterWindow", func(t *testing.T) {
		m, c := newTestMemory()
		spend(t, m, "k1", limit, 150)
		c.Advance(59 * time.Second)
		if res, err := m.Allow(ctx, "k1", limit); err != nil {
			t.Fatal(err)
		} else if res.Allowed || res.Remaining != 0 || res.Reset != time.Second {
			t.Fatalf("before the window ends: got %+v", res)
		}
		c.Advance(time.Second)
		if got := spend(t, m, "k1", limit, 150); got != 100 {
			t.Fatalf("second window: allowed %d of 150, want 100", got)
		}
	})

	t.Run("KeysIndependent", func(t *testing.T) {
		m, _ := newTestMemory()
		spend(t, m, "k1", limit, 150)
		if got := spend(t, m, "k2", limit, 150); got != 100 {
			t.Fatalf("k2 after k1 spent: allowed %d, want 100", got)
		}
	})

	t.Run("ErrInvalidLimit", func(t *testing.T) {
		m, _ := newTestMemory()
		for _, l := range []prospector.RateLimit{{Requests: 0, Window: time.Minute}, {Requests: 10}} {
			if _, err := m.Allow(ctx, "k1", l); err != errInvalidLimit {
				t.Fatalf("%+v: got %v, want errInvalidLimit", l, err)
			}
		}
	})
}

func TestMemoryConcurrent(t *testing.T) {
	m := NewMemory()
	limit := prospector.RateLimit{Requests: 1000, Window: time.Minute}
	var allowed atomic.Int64
	var wg sync.WaitGroup
	for range 64 {
		wg.Go(func() {
			for range 50 {
				res, err := m.Allow(context.Background(), "shared", limit)
				if err != nil {
					t.Error(err)
					return
				}
				if res.Allowed {
					allowed.Add(1)
				}
				// Other keys on the same shards, to mix in inserts.
				m.Allow(context.Background(), fmt.Sprint(res.Remaining), limit)
			}
		})
	}
	wg.Wait()
	if got := allowed.Load(); got != 1000 {
		t.Fatalf("allowed %d of 3200, want 1000", got)
	}
}

func TestMemoryEviction(t *testing.T) {
	m, c := newTestMemory()
	limit := prospector.RateLimit{Requests: 10, Window: time.Second}
	const perRound, rounds = 10_000, 20
	for r := range rounds {
		for i := range perRound {
			if _, err := m.Allow(context.Background(), fmt.Sprintf("r%d-k%d", r, i), limit); err != nil {
				t.Fatal(err)
			}
		}
		c.Advance(2 * time.Second) // every window so far has ended
	}
	// Growth sweeps keep at most about twice the live windows per shard.
	if n, max := m.len(), 2*perRound+shardCount*minSweep; n > max {
		t.Fatalf("after %d rounds of %d keys: %d windows held, want <= %d", rounds, perRound, n, max)
	}

	// Once sweepEvery passes, the next call on each shard drops what expired.
	c.Advance(sweepEvery)
	const fresh = 5000 // enough that every shard sees a call
	for i := range fresh {
		m.Allow(context.Background(), fmt.Sprintf("fresh-%d", i), limit)
	}
	if n := m.len(); n != fresh {
		t.Fatalf("after the periodic sweep: %d windows held, want %d", n, fresh)
	}
}

func TestMemoryNoAllocs(t *testing.T) {
	m := NewMemory()
	limit := prospector.RateLimit{Requests: 1 << 30, Window: time.Minute}
	m.Allow(context.Background(), "k1", limit)
	if n := testing.AllocsPerRun(1000, func() { m.Allow(context.Background(), "k1", limit) }); n != 0 {
		t.Fatalf("Allow on an open window: %v allocs, want 0", n)
	}
}

func TestShardSize(t *testing.T) {
	if s := unsafe.Sizeof(shard{}); s != 128 {
		t.Fatalf("shard is %d bytes, want 128: adjust its padding", s)
	}
}

func BenchmarkMemoryAllow(b *testing.B) {
	m := NewMemory()
	limit := prospector.RateLimit{Requests: 1 << 30, Window: time.Minute}
	keys := make([]string, 1024)
	for i := range keys {
		keys[i] = fmt.Sprintf("key_%04d", i)
	}
	var next atomic.Int64
	b.ReportAllocs()
	b.RunParallel(func(pb *testing.PB) {
		i := int(next.Add(1)) * 97
		for pb.Next() {
			m.Allow(context.Background(), keys[i%len(keys)], limit)
			i++
		}
	})
}
