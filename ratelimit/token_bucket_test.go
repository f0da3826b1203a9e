package ratelimit

import (
	"context"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/prospectorhq/prospector"
)

// Two clients (two nodes) on one Redis share the bucket: the slots they
// are given are one interval apart or more.
func TestRedisBucketShared(t *testing.T) {
	client, prefix := newTestRedis(t)
	otherClient, _ := newTestRedis(t) // a connection of its own; the keys are prefix's
	nodes := []*RedisBucket{NewRedisBucket(client, prefix), NewRedisBucket(otherClient, prefix)}
	const interval = 250 * time.Millisecond
	type slot struct{ lo, hi time.Time }
	var (
		mu    sync.Mutex
		slots []slot
		wg    sync.WaitGroup
	)
	for _, n := range nodes {
		for range 4 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for range 5 {
					start := time.Now()
					wait, err := n.Reserve(context.Background(), "sec.gov", 4, 1)
					end := time.Now()
					if err != nil {
						t.Error(err)
						return
					}
					mu.Lock()
					slots = append(slots, slot{start.Add(wait), end.Add(wait)})
					mu.Unlock()
				}
			}()
		}
	}
	wg.Wait()
	if len(slots) != 40 {
		t.Fatalf("%d reservations", len(slots))
	}
	slices.SortFunc(slots, func(a, b slot) int { return a.lo.Compare(b.lo) })
	for i := 1; i < len(slots); i++ {
		if gap := slots[i].hi.Sub(slots[i-1].lo); gap < interval-time.Millisecond {
			t.Fatalf("slots %d and %d at most %v apart, want %v", i-1, i, gap, interval)
		}
	}
}

func TestRedisBucketBurstAndErrors(t *testing.T) {
	client, prefix := newTestRedis(t)
	b := NewRedisBucket(client, prefix)
	ctx := context.Background()
	for i := range 3 {
		if wait, err := b.Reserve(ctx, "gdelt", 0.2, 3); err != nil || wait != 0 {
			t.Fatalf("burst reservation %d waits %v, %v", i, wait, err)
		}
	}
	if wait, err := b.Reserve(ctx, "gdelt", 0.2, 3); err != nil || wait < 4*time.Second || wait > 5*time.Second {
		t.Fatalf("a fourth reservation of a burst of 3 at 0.2/s waits %v, %v", wait, err)
	}
	if ttl := client.PTTL(ctx, prefix+"gdelt").Val(); ttl <= 0 || ttl > 22*time.Second {
		t.Fatalf("the key expires in %v, want once the bucket is full again (about 20 s)", ttl)
	}
	if _, err := b.Reserve(ctx, "x", 0, 1); prospector.ErrorCode(err) != prospector.EINVALID {
		t.Fatalf("rate 0: %v", err)
	}
}
