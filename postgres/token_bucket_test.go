package postgres_test

import (
	"context"
	"slices"
	"sync"
	"testing"
	"time"
)

// Two nodes sharing one database draw from one bucket: however their
// reservations interleave, the slots they are given are at least one
// interval apart, so together they send at most the rate.
func TestTokenBucketSharedAcrossNodes(t *testing.T) {
	url := freshSchema(t)
	nodes := []interface {
		Reserve(ctx context.Context, key string, rate float64, burst int) (time.Duration, error)
	}{openURL(t, url), openURL(t, url)}
	const (
		rate     = 4.0
		interval = 250 * time.Millisecond
		perNode  = 4 // goroutines per node
		each     = 5 // reservations per goroutine
	)
	type slot struct{ lo, hi time.Time } // the slot lies between the call's start and end, plus its wait
	var (
		mu    sync.Mutex
		slots []slot
		wg    sync.WaitGroup
	)
	for _, n := range nodes {
		for range perNode {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for range each {
					start := time.Now()
					wait, err := n.Reserve(context.Background(), "sec.gov", rate, 1)
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
	if len(slots) != 2*perNode*each {
		t.Fatalf("%d reservations", len(slots))
	}
	slices.SortFunc(slots, func(a, b slot) int { return a.lo.Compare(b.lo) })
	for i := 1; i < len(slots); i++ {
		// The true slots are exactly interval apart or more; each is known
		// to within its call's duration.
		if gap := slots[i].hi.Sub(slots[i-1].lo); gap < interval-time.Millisecond {
			t.Fatalf("slots %d and %d at most %v apart, want %v", i-1, i, gap, interval)
		}
	}
	if span := slots[len(slots)-1].hi.Sub(slots[0].lo); span < time.Duration(len(slots)-1)*interval-time.Millisecond {
		t.Fatalf("%d reservations span %v: more than %v a second", len(slots), span, rate)
	}
}
