package ratelimit

import (
	"context"
	"hash/maphash"
	"math"
	"strings"
	"sync"
	"time"

	"github.com/prospectorhq/prospector"
)

const (
	// shardCount splits the key space so concurrent requests for different
	// keys rarely wait on the same mutex.
	shardCount = 64
	// minSweep is the shard size below which growth alone never triggers a
	// sweep: scanning a few dozen entries is not worth doing on every insert.
	minSweep = 64
	// sweepEvery bounds how long expired windows linger when no new keys
	// arrive to trigger a size-based sweep.
	sweepEvery = time.Minute
)

var _ prospector.RateLimiter = (*Memory)(nil)

// Memory is an in-process limiter, safe for concurrent use. Its windows are
// per node: several nodes each allow a full budget. Expired windows are
// evicted lazily by the calls that land on their shard, so no goroutine
// runs in the background.
type Memory struct {
	// Now returns the current time; tests replace it before first use.
	Now func() time.Time

	epoch  time.Time // windows are kept as offsets from here
	seed   maphash.Seed
	shards [shardCount]shard
}

type shard struct {
	mu        sync.Mutex
	windows   map[string]window
	sweepAt   int           // sweep when an insert finds this many entries
	nextSweep time.Duration // or when a call comes after this offset
	// Pad to two cache lines so neighbouring shards' locks do not share one.
	_ [128 - 32]byte
}

// window is a key's current window; it holds no pointers so a large map
// costs the garbage collector nothing to scan.
type window struct {
	end   time.Duration // offset from Memory.epoch
	count int
}

// NewMemory returns an empty in-process limiter on the wall clock.
func NewMemory() *Memory {
	m := &Memory{Now: time.Now, epoch: time.Now(), seed: maphash.MakeSeed()}
	for i := range m.shards {
		m.shards[i] = shard{
			windows:   make(map[string]window),
			sweepAt:   minSweep,
			nextSweep: math.MinInt64, // first call sets the schedule
		}
	}
	return m
}

// Allow counts one request for key. It returns an error only for a limit
// with no requests or no window. It does not allocate unless key starts
// its first window or the shard's map grows.
func (m *Memory) Allow(_ context.Context, key string, limit prospector.RateLimit) (prospector.RateResult, error) {
	if err := checkLimit(limit); err != nil {
		return prospector.RateResult{}, err
	}
	now := m.Now().Sub(m.epoch)
	s := &m.shards[maphash.String(m.seed, key)%shardCount]

	s.mu.Lock()
	if now >= s.nextSweep {
		s.sweep(now)
	}
	w, ok := s.windows[key]
	allowed := true
	switch {
	case !ok:
		if len(s.windows) >= s.sweepAt {
			s.sweep(now)
		}
		// Clone so the map does not pin a larger buffer the key was cut from.
		w = window{end: now + limit.Window, count: 1}
		s.windows[strings.Clone(key)] = w
	case now >= w.end:
		w = window{end: now + limit.Window, count: 1}
		s.windows[key] = w
	case w.count < limit.Requests:
		w.count++
		s.windows[key] = w
	default:
		// Refused: neither the count nor the window end moves.
		allowed = false
	}
	s.mu.Unlock()

	return prospector.RateResult{
		Allowed:   allowed,
		Limit:     limit.Requests,
		Remaining: max(limit.Requests-w.count, 0),
		Reset:     w.end - now,
	}, nil
}

// sweep deletes expired windows. Sweeps triggered by growth are scheduled
// at twice the surviving size, so their cost is constant per insert.
func (s *shard) sweep(now time.Duration) {
	before := len(s.windows)
	for k, w := range s.windows {
		if now >= w.end {
			delete(s.windows, k)
		}
	}
	live := len(s.windows)
	// Go maps keep their buckets after deletes; after a burst of keys has
	// expired, copy the survivors so the memory is returned.
	if before >= 4*minSweep && live < before/4 {
		fresh := make(map[string]window, live)
		for k, w := range s.windows {
			fresh[k] = w
		}
		s.windows = fresh
	}
	s.sweepAt = max(2*live, minSweep)
	s.nextSweep = now + sweepEvery
}

// len reports how many windows are held, expired or not.
func (m *Memory) len() int {
	n := 0
	for i := range m.shards {
		s := &m.shards[i]
		s.mu.Lock()
		n += len(s.windows)
		s.mu.Unlock()
	}
	return n
}
