package api

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/prospectorhq/prospector"
)

// keyCacheMax bounds the cache; past it the cache is emptied, which is
// cheap and only costs a database read per key.
const keyCacheMax = 100000

// keyCache keeps resolved keys for a short TTL so authentication needs
// no database round trip on the hot path. Entries are keyed by the key's
// hash, never by the secret. Unknown keys are cached too, so a client
// retrying a bad key does not hit the database each time.
type keyCache struct {
	store prospector.KeyStore
	ttl   time.Duration
	now   func() time.Time

	mu      sync.RWMutex
	entries map[string]*keyEntry
}

// keyEntry is one resolved key. Facts derived only from the principal
// (the rendered key-info) are memoised here and expire with it.
type keyEntry struct {
	principal *prospector.Principal // nil: no such key
	expires   time.Time
	keyInfo   atomic.Pointer[[]byte]
}

func newKeyCache(store prospector.KeyStore, ttl time.Duration, now func() time.Time) *keyCache {
	return &keyCache{store: store, ttl: ttl, now: now, entries: map[string]*keyEntry{}}
}

// resolve returns the entry of secret; its principal is nil when no key
// has that secret.
func (c *keyCache) resolve(ctx context.Context, secret string) (*keyEntry, error) {
	hash := prospector.HashKey(secret)
	now := c.now()
	if c.ttl > 0 {
		c.mu.RLock()
		e, ok := c.entries[hash]
		c.mu.RUnlock()
		if ok && now.Before(e.expires) {
			return e, nil
		}
	}
	p, err := c.store.PrincipalByKeyHash(ctx, hash)
	if errors.Is(err, prospector.ErrNotFound) {
		p, err = nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("resolve key: %w", err)
	}
	e := &keyEntry{principal: p, expires: now.Add(c.ttl)}
	if c.ttl > 0 {
		c.mu.Lock()
		if len(c.entries) >= keyCacheMax {
			c.entries = map[string]*keyEntry{}
		}
		c.entries[hash] = e
		c.mu.Unlock()
	}
	return e, nil
}
