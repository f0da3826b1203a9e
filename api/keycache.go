package api

import (
	"context"
	"errors"
	"fmt"
	"sync"
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
	entries map[string]keyEntry
}

type keyEntry struct {
	principal *prospector.Principal // nil: no such key
	expires   time.Time
}

func newKeyCache(store prospector.KeyStore, ttl time.Duration, now func() time.Time) *keyCache {
	return &keyCache{store: store, ttl: ttl, now: now, entries: map[string]keyEntry{}}
}

// resolve returns the principal of secret, or nil when no key has it.
func (c *keyCache) resolve(ctx context.Context, secret string) (*prospector.Principal, error) {
	hash := prospector.HashKey(secret)
	now := c.now()
	if c.ttl > 0 {
		c.mu.RLock()
		e, ok := c.entries[hash]
		c.mu.RUnlock()
		if ok && now.Before(e.expires) {
			return e.principal, nil
		}
	}
	p, err := c.store.PrincipalByKeyHash(ctx, hash)
	if errors.Is(err, prospector.ErrNotFound) {
		p, err = nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("resolve key: %w", err)
	}
	if c.ttl > 0 {
		c.mu.Lock()
		if len(c.entries) >= keyCacheMax {
			c.entries = map[string]keyEntry{}
		}
		c.entries[hash] = keyEntry{principal: p, expires: now.Add(c.ttl)}
		c.mu.Unlock()
	}
	return p, nil
}
