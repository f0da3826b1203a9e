package ratelimit

import (
	"context"
	"crypto/rand"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/prospectorhq/prospector"
)

// newTestRedis returns a client for TEST_REDIS_URL and a key prefix unique
// to the test, whose keys are deleted when it ends.
func newTestRedis(t *testing.T) (*redis.Client, string) {
	t.Helper()
	u := os.Getenv("TEST_REDIS_URL")
	if u == "" {
		t.Skip("TEST_REDIS_URL not set: skipping Redis tests")
	}
	client, err := NewRedisClient(u)
	if err != nil {
		t.Fatal(err)
	}
	if err := client.Ping(context.Background()).Err(); err != nil {
		t.Fatalf("TEST_REDIS_URL: %v", err)
	}
	prefix := "test:ratelimit:" + rand.Text() + ":"
	t.Cleanup(func() {
		ctx := context.Background()
		iter := client.Scan(ctx, 0, prefix+"*", 100).Iterator()
		for iter.Next(ctx) {
			client.Del(ctx, iter.Val())
		}
		client.Close()
	})
	return client, prefix
}

func TestRedis(t *testing.T) {
	ctx := context.Background()
	limit := prospector.RateLimit{Requests: 100, Window: time.Minute}

	t.Run("OK", func(t *testing.T) {
		client, prefix := newTestRedis(t)
		r := NewRedis(client, prefix)
		for i := range 150 {
			res, err := r.Allow(ctx, "k1", limit)
			if err != nil {
				t.Fatal(err)
			}
			wantAllowed, wantRemaining := i < 100, max(99-i, 0)
			if res.Allowed != wantAllowed || res.Limit != 100 || res.Remaining != wantRemaining {
				t.Fatalf("request %d: got %+v, want allowed %v remaining %d", i+1, res, wantAllowed, wantRemaining)
			}
			if res.Reset <= 0 || res.Reset > limit.Window {
				t.Fatalf("request %d: reset %v, want in (0, %v]", i+1, res.Reset, limit.Window)
			}
		}
		if n, err := client.Exists(ctx, prefix+"k1").Result(); err != nil {
			t.Fatal(err)
		} else if n != 1 {
			t.Fatalf("key %q not found in Redis", prefix+"k1")
		}
	})

	t.Run("NodesShareBudget", func(t *testing.T) {
		client, prefix := newTestRedis(t)
		other, _ := newTestRedis(t) // a second node with its own connections
		nodes := []*Redis{NewRedis(client, prefix), NewRedis(other, prefix)}
		var allowed atomic.Int64
		var wg sync.WaitGroup
		for _, node := range nodes {
			wg.Go(func() { allowed.Add(int64(spend(t, node, "k1", limit, 60))) })
		}
		wg.Wait()
		if got := allowed.Load(); got != 100 {
			t.Fatalf("two nodes allowed %d of 120, want 100", got)
		}
	})

	t.Run("RefusedDoesNotExtendWindow", func(t *testing.T) {
		client, prefix := newTestRedis(t)
		r := NewRedis(client, prefix)
		small := prospector.RateLimit{Requests: 2, Window: time.Second}
		start := time.Now()
		spend(t, r, "k1", small, 2)
		time.Sleep(500 * time.Millisecond)
		res, err := r.Allow(ctx, "k1", small)
		if err != nil || res.Allowed || res.Remaining != 0 || res.Reset <= 0 || res.Reset >= small.Window {
			t.Fatalf("over limit: got %+v, %v", res, err)
		}
		// Had the refused request restarted the window, this would be refused.
		time.Sleep(1100*time.Millisecond - time.Since(start))
		res, err = r.Allow(ctx, "k1", small)
		if err != nil || !res.Allowed || res.Remaining != 1 {
			t.Fatalf("after the window: got %+v, %v; want a new window", res, err)
		}
	})

	t.Run("KeysIndependent", func(t *testing.T) {
		client, prefix := newTestRedis(t)
		r := NewRedis(client, prefix)
		spend(t, r, "k1", limit, 150)
		if got := spend(t, r, "k2", limit, 150); got != 100 {
			t.Fatalf("k2 after k1 spent: allowed %d, want 100", got)
		}
	})
}

func TestNewRedisClient(t *testing.T) {
	t.Run("OK", func(t *testing.T) {
		c, err := NewRedisClient("redis://127.0.0.1:6379/2")
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		o := c.Options()
		if o.DB != 2 || o.DialTimeout != 250*time.Millisecond || o.ReadTimeout != 250*time.Millisecond ||
			o.WriteTimeout != 250*time.Millisecond || o.MaxRetries != 1 {
			t.Fatalf("options: db %d dial %v read %v write %v retries %d",
				o.DB, o.DialTimeout, o.ReadTimeout, o.WriteTimeout, o.MaxRetries)
		}
	})

	t.Run("URLTimeoutWins", func(t *testing.T) {
		c, err := NewRedisClient("redis://127.0.0.1:6379/0?dial_timeout=2s")
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		if d := c.Options().DialTimeout; d != 2*time.Second {
			t.Fatalf("dial timeout %v, want 2s", d)
		}
	})

	t.Run("ErrNoPasswordInError", func(t *testing.T) {
		_, err := NewRedisClient("redis://user:s3cret@127.0.0.1:bad port/0")
		if err == nil {
			t.Fatal("want an error")
		}
		if msg := err.Error(); strings.Contains(msg, "s3cret") {
			t.Fatalf("error leaks the password: %s", msg)
		}
	})
}
