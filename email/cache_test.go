package email

import (
	"strconv"
	"sync"
	"testing"
	"time"
)

func TestTTLCache(t *testing.T) {
	now := time.Date(2026, 11, 2, 9, 0, 0, 0, time.UTC)
	t.Run("Expiry", func(t *testing.T) {
		c := newTTLCache[int](10)
		c.set("a", 1, now, time.Minute)
		if v, ok := c.get("a", now.Add(time.Minute-time.Nanosecond)); !ok || v != 1 {
			t.Errorf("fresh entry: %v, %v", v, ok)
		}
		if _, ok := c.get("a", now.Add(time.Minute)); ok {
			t.Error("expired entry returned")
		}
		if _, ok := c.get("b", now); ok {
			t.Error("missing entry returned")
		}
	})
	t.Run("Bounded", func(t *testing.T) {
		c := newTTLCache[int](100)
		for i := range 1000 {
			c.set(strconv.Itoa(i), i, now, time.Hour)
			if c.len() > 100 {
				t.Fatalf("%d entries after %d sets", c.len(), i+1)
			}
		}
		if v, ok := c.get("999", now); !ok || v != 999 {
			t.Error("the newest entry was evicted")
		}
	})
	t.Run("ExpiredGoFirst", func(t *testing.T) {
		c := newTTLCache[int](10)
		for i := range 5 {
			c.set("old"+strconv.Itoa(i), i, now, time.Second)
		}
		for i := range 5 {
			c.set("new"+strconv.Itoa(i), i, now, time.Hour)
		}
		c.set("x", 0, now.Add(time.Minute), time.Hour)
		for i := range 5 {
			if _, ok := c.get("new"+strconv.Itoa(i), now.Add(time.Minute)); !ok {
				t.Errorf("live entry new%d evicted while expired ones were there", i)
			}
		}
	})
	t.Run("Concurrent", func(t *testing.T) {
		c := newTTLCache[int](50)
		var wg sync.WaitGroup
		for g := range 8 {
			wg.Go(func() {
				for i := range 500 {
					k := strconv.Itoa(g*1000 + i%80)
					c.set(k, i, now, time.Hour)
					c.get(k, now)
				}
			})
		}
		wg.Wait()
		if c.len() > 50 {
			t.Errorf("%d entries, bound 50", c.len())
		}
	})
}
