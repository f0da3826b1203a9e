package email

import (
	"sync"
	"time"
)

// maxCacheEntries bounds each cache, so a crawl over millions of domains
// cannot grow the process without limit.
const maxCacheEntries = 100_000

// ttlCache is a map whose entries expire, safe for concurrent use. When
// it is full, expired entries are dropped first, then arbitrary ones
// until a tenth of the room is free, so a full cache does not sweep on
// every insert.
type ttlCache[V any] struct {
	mu  sync.RWMutex
	max int
	m   map[string]ttlEntry[V]
}

type ttlEntry[V any] struct {
	v       V
	expires time.Time
}

func newTTLCache[V any](max int) *ttlCache[V] {
	return &ttlCache[V]{max: max, m: make(map[string]ttlEntry[V])}
}

// get returns the value under key unless it is missing or expired at now.
func (c *ttlCache[V]) get(key string, now time.Time) (V, bool) {
	c.mu.RLock()
	e, ok := c.m[key]
	c.mu.RUnlock()
	if !ok || !now.Before(e.expires) {
		var zero V
		return zero, false
	}
	return e.v, true
}

// set stores v under key until now+ttl.
func (c *ttlCache[V]) set(key string, v V, now time.Time, ttl time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.m[key]; !ok && len(c.m) >= c.max {
		c.makeRoom(now)
	}
	c.m[key] = ttlEntry[V]{v: v, expires: now.Add(ttl)}
}

// delete drops key.
func (c *ttlCache[V]) delete(key string) {
	c.mu.Lock()
	delete(c.m, key)
	c.mu.Unlock()
}

func (c *ttlCache[V]) makeRoom(now time.Time) {
	for k, e := range c.m {
		if !now.Before(e.expires) {
			delete(c.m, k)
		}
	}
	// Map iteration order is unspecified, which makes this eviction
	// arbitrary without keeping a list.
	for k := range c.m {
		if len(c.m) < c.max-c.max/10 {
			break
		}
		delete(c.m, k)
	}
}

// len counts the entries, expired ones included.
func (c *ttlCache[V]) len() int {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return len(c.m)
}
