package throttle

import (
	"sync"
	"testing"
	"time"
)

func TestGate(t *testing.T) {
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	g := New(30*time.Second, func() time.Time { return now })
	type pass struct {
		ok   bool
		held int
	}
	step := func(d time.Duration) pass {
		now = now.Add(d)
		ok, held := g.Pass()
		return pass{ok, held}
	}
	for i, c := range []struct {
		after time.Duration
		want  pass
	}{
		{0, pass{true, 0}},                // the first goes through
		{time.Second, pass{false, 0}},     // then each second is held
		{time.Second, pass{false, 0}},     //
		{28 * time.Second, pass{true, 2}}, // 30 s on: one line, counting two
		{29 * time.Second, pass{false, 0}},
		{time.Second, pass{true, 1}},
		{time.Hour, pass{true, 0}},
	} {
		if got := step(c.after); got != c.want {
			t.Fatalf("event %d: %+v, want %+v", i, got, c.want)
		}
	}
}

func TestGateConcurrent(t *testing.T) {
	g := New(time.Hour, nil)
	var wg sync.WaitGroup
	var mu sync.Mutex
	passed := 0
	for range 50 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if ok, _ := g.Pass(); ok {
				mu.Lock()
				passed++
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	if passed != 1 {
		t.Fatalf("%d of 50 concurrent events passed, want 1", passed)
	}
}
