package search

import (
	"crypto/sha256"
	"encoding/hex"
	"strings"
	"sync"

	"github.com/RoaringBitmap/roaring/v2"
)

// filterCacheBytes bounds the memory the filter cache may hold.
const filterCacheBytes = 64 << 20

// filterCache keeps the bitmaps computed for one field's values (a union
// of several industries, the rows having every word of a title) so that
// popular filters are not recomputed per request, as search engines cache
// filter bitsets. Any change applied to the index empties it.
type filterCache struct {
	mu    sync.Mutex
	gen   uint64
	bytes uint64
	m     map[string]*roaring.Bitmap
	// sizes are the cardinalities of the bitmaps a walk orders by size
	// (postings lists and the cached bitmaps above): a run-compressed
	// bitmap of millions of rows sums its runs on every count, which was
	// a third of discover/people's CPU at 10M people.
	sizes map[*roaring.Bitmap]uint64
}

// maxSizes bounds the cardinalities kept; past it they are forgotten.
const maxSizes = 4096

// reset empties the cache for gen; c.mu is held.
func (c *filterCache) reset(gen uint64) {
	c.m, c.sizes, c.gen, c.bytes = map[string]*roaring.Bitmap{}, map[*roaring.Bitmap]uint64{}, gen, 0
}

// size returns b's cardinality, counted once per generation.
func (c *filterCache) size(gen uint64, b *roaring.Bitmap) uint64 {
	c.mu.Lock()
	if c.gen != gen || c.m == nil {
		c.reset(gen)
	}
	n, ok := c.sizes[b]
	c.mu.Unlock()
	if ok {
		return n
	}
	n = b.GetCardinality()
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.gen == gen {
		if len(c.sizes) >= maxSizes {
			c.sizes = map[*roaring.Bitmap]uint64{}
		}
		c.sizes[b] = n
	}
	return n
}

func (c *filterCache) get(gen uint64, key string, compute func() *roaring.Bitmap) *roaring.Bitmap {
	c.mu.Lock()
	if c.gen != gen || c.m == nil {
		c.reset(gen)
	}
	if b, ok := c.m[key]; ok {
		c.mu.Unlock()
		return b
	}
	c.mu.Unlock()
	b := compute()
	size := b.GetSizeInBytes()
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.gen == gen {
		if c.bytes+size > filterCacheBytes {
			c.reset(gen)
		}
		c.m[key] = b
		c.bytes += size
	}
	return b
}

func cacheKey(kind, field string, values []string) string {
	return kind + "\x00" + field + "\x00" + valuesKey(values)
}

// valuesKey identifies a list of values in a cache key: the values
// themselves when short, else their SHA-256, so a key stays small however
// long the filter values (a key per count tier of a query would otherwise
// copy all of them once per tier).
func valuesKey(values []string) string {
	joined := strings.Join(values, "\x01")
	if len(joined) <= 128 {
		return "=" + joined
	}
	sum := sha256.Sum256([]byte(joined))
	return "#" + hex.EncodeToString(sum[:])
}
