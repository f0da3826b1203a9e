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
// read; the intersection goes through the filter cache, so paging the
// same query counts it once.
func count(ctx context.Context, pl plan) (int, error) {
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	conj := pl.fields
	if len(pl.counted) > 1 {
		conj = append(append([]*roaring.Bitmap(nil), pl.fields...), union(pl.counted))
	}
	if len(conj) == 0 {
		conj = []*roaring.Bitmap{pl.all}
	}
	if len(conj) == 2 && pl.not == nil {
		return int(conj[0].AndCardinality(conj[1])), nil
	}
	m := conj[0]
	if len(conj) > 1 {
		intersect := func() *roaring.Bitmap {
			bs := bySize(conj)
			m := bs[0]
			for _, b := range bs[1:] {
				if m.IsEmpty() {
					break
				}
				m = roaring.And(m, b)
			}
			return m
		}
		if pl.intersect != nil {
			m = pl.intersect(countTier, intersect)
		} else {
			m = intersect()
		}
	}
	n := m.GetCardinality()
	if pl.not != nil {
		n -= m.AndCardinality(pl.not)
	}
	return int(n), nil
}
