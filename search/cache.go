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
}

func (c *filterCache) get(gen uint64, key string, compute func() *roaring.Bitmap) *roaring.Bitmap {
	c.mu.Lock()
	if c.gen != gen || c.m == nil {
		c.m, c.gen, c.bytes = map[string]*roaring.Bitmap{}, gen, 0
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
			c.m, c.bytes = map[string]*roaring.Bitmap{}, 0
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
