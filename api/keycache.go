package api

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"github.com/prospectorhq/prospector"
	"github.com/prospectorhq/prospector/throttle"
)

// keyCacheMax bounds the cache; past it the cache is emptied, which is
// cheap and only costs a database read per key.
const keyCacheMax = 100000

// DefaultKeyCacheGrace is how long past its TTL a cached key keeps
// working while the store cannot be read, when Config sets no grace.
const DefaultKeyCacheGrace = 10 * time.Minute

// While the store fails, a cached key is re-read at most every
// keyRetryEvery, each read bounded by keyRefreshTimeout, so an outage
// costs one request a second a short wait rather than every request a
// long one; the rest answer from the cache meanwhile.
const (
	keyRefreshTimeout = time.Second
	keyRetryEvery     = time.Second
	keyWarnEvery      = 30 * time.Second
)

// keyReader resolves a key hash to its principal.
type keyReader interface {
	PrincipalByKeyHash(ctx context.Context, hash string) (*prospector.Principal, error)
}

// keyCache keeps resolved keys for a short TTL so authentication needs
// no database round trip on the hot path. Entries are keyed by the key's
// hash, never by the secret. Unknown keys are cached too, so a client
// retrying a bad key does not hit the database each time.
//
// When the store cannot be read (down, unreachable, too slow), an entry
// past its TTL keeps standing in for up to the grace, so the endpoints
// that answer from memory (search, discovery, signals) stay up through a
// database outage. The first read that succeeds replaces it, so a
// revocation applies as soon as the database answers again.
type keyCache struct {
	store  keyReader
	ttl    time.Duration
	grace  time.Duration
	now    func() time.Time
	logger *slog.Logger
	warn   *throttle.Gate

	mu      sync.RWMutex
	entries map[string]*keyEntry
}

// keyEntry is one resolved key. Facts derived only from the principal
// (the rendered key-info) are memoised here and expire with it.
type keyEntry struct {
	principal *prospector.Principal // nil: no such key
	expires   time.Time             // read + TTL
	lapses    time.Time             // expires + grace: the stand-in's limit
	// retryAt (Unix ns) is when the store may be asked again after a
	// failed re-read; zero while no re-read has failed.
	retryAt atomic.Int64
	keyInfo atomic.Pointer[[]byte]
}

func newKeyCache(store keyReader, ttl, grace time.Duration, now func() time.Time, logger *slog.Logger) *keyCache {
	return &keyCache{store: store, ttl: ttl, grace: grace, now: now, logger: logger,
		warn: throttle.New(keyWarnEvery, now), entries: map[string]*keyEntry{}}
}

// resolve returns the entry of secret; its principal is nil when no key
// has that secret. When the store fails and no entry may stand in, it
// returns the error and the last entry known for secret, if any (nil
// otherwise), so the caller can still tell the key's tier.
func (c *keyCache) resolve(ctx context.Context, secret string) (*keyEntry, error) {
	hash := prospector.HashKey(secret)
	now := c.now()
	var last, standIn *keyEntry
	if c.ttl > 0 {
		c.mu.RLock()
		last = c.entries[hash]
		c.mu.RUnlock()
		if last != nil {
			if now.Before(last.expires) {
				return last, nil
			}
			if now.Before(last.lapses) {
				standIn = last
				// The store failed lately: only one caller per retry
				// period asks it again; the others use the entry.
				if at := last.retryAt.Load(); at != 0 &&
					(now.UnixNano() < at || !last.retryAt.CompareAndSwap(at, now.Add(keyRetryEvery).UnixNano())) {
					return last, nil
				}
			}
		}
	}
	lctx := ctx
	if standIn != nil {
		var cancel context.CancelFunc
		lctx, cancel = context.WithTimeout(ctx, keyRefreshTimeout)
		defer cancel()
	}
	p, err := c.store.PrincipalByKeyHash(lctx, hash)
	if errors.Is(err, prospector.ErrNotFound) {
		p, err = nil, nil
	}
	if err != nil {
		// A caller that went away says nothing about the store.
		if standIn != nil && ctx.Err() == nil {
			standIn.retryAt.Store(now.Add(keyRetryEvery).UnixNano())
			if ok, held := c.warn.Pass(); ok {
				c.logger.LogAttrs(ctx, slog.LevelWarn, "key cache: store unreachable, cached keys stand in",
					slog.String("error", err.Error()), slog.Duration("grace", c.grace),
					slog.Int("repeats_held_back", held))
			}
			return standIn, nil
		}
		return last, fmt.Errorf("resolve key: %w", err)
	}
	e := &keyEntry{principal: p, expires: now.Add(c.ttl), lapses: now.Add(c.ttl + c.grace)}
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
