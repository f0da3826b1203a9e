package search

import (
	"context"

	"github.com/RoaringBitmap/roaring/v2"
)

// countTier is the filter cache's tier number for a query's whole match
// set (walk's tiers are 0 and up).
const countTier = -1

// count is the number of rows walk emits for pl over all its tiers: the
// rows in every field bitmap and in at least one counted value (the
// tiers together cover match counts 1 to n), less the excluded ones. It
// is cardinalities of the bitmaps walk already intersects, no row is
// read; an intersection that has to be built goes through the filter
// cache, so paging the same query builds it once.
func count(ctx context.Context, pl plan) (int, error) {
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	ranked := len(pl.counted) > 1
	if !ranked {
		switch {
		case len(pl.fields) == 0:
			return cardinalityLess(pl.all, pl.not), nil
		case len(pl.fields) == 1:
			return cardinalityLess(pl.fields[0], pl.not), nil
		case len(pl.fields) == 2 && pl.not == nil:
			return int(pl.fields[0].AndCardinality(pl.fields[1])), nil
		}
	}
	// The union of the ranked values is built inside the cached function:
	// on a cache hit it costs nothing.
	intersect := func() *roaring.Bitmap {
		conj := pl.fields
		if ranked {
			conj = append(append([]*roaring.Bitmap(nil), pl.fields...), union(pl.counted))
		}
		bs := bySize(conj, pl.size)
		m := bs[0]
		for _, b := range bs[1:] {
			if m.IsEmpty() {
				break
			}
			m = roaring.And(m, b)
		}
		return m
	}
	var m *roaring.Bitmap
	if pl.intersect != nil {
		m = pl.intersect(countTier, intersect)
	} else {
		m = intersect()
	}
	return cardinalityLess(m, pl.not), nil
}

// cardinalityLess is |m| less the rows of m in not (nil: none).
func cardinalityLess(m, not *roaring.Bitmap) int {
	n := m.GetCardinality()
	if not != nil {
		n -= m.AndCardinality(not)
	}
	return int(n)
}
