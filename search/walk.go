package search

import (
	"context"

	"github.com/RoaringBitmap/roaring/v2"
	"github.com/prospectorhq/prospector"
)

// walk pages through a plan. Tiers are numbered count-major: for each
// match count from the most values matched down to one, each static
// tier in order and then the rows in no static tier. Tier numbers depend
// only on the query, so a position stays meaningful between pages, and
// inside a tier rows come by ascending id: rows inserted between two
// pages never shift what was already seen (keyset paging).
func walk(ctx context.Context, pl plan, from prospector.SearchPosition, limit int) (prospector.SearchPage, error) {
	var page prospector.SearchPage
	counts := max(1, len(pl.counted))
	perCount := len(pl.static) + 1
	var layers []*roaring.Bitmap
	if len(pl.counted) > 1 {
		layers = bitSlice(pl.counted)
	}
	var staticUnion *roaring.Bitmap
	var base *roaring.Bitmap
	baseFor := -1
	lastTier, lastID := 0, uint32(0)
	for t := max(from.Tier, 0); t < counts*perCount; t++ {
		if err := ctx.Err(); err != nil {
			return page, err
		}
		ci, si := t/perCount, t%perCount
		if baseFor != ci {
			base, baseFor = pl.match, ci
			if layers != nil {
				base = exactCount(pl.match, layers, len(pl.counted)-ci)
			}
		}
		var tier *roaring.Bitmap
		if si < len(pl.static) {
			tier = roaring.And(base, pl.static[si])
		} else {
			if staticUnion == nil {
				staticUnion = roaring.FastOr(pl.static...)
			}
			tier = roaring.AndNot(base, staticUnion)
		}
		it := tier.Iterator()
		if t == from.Tier && from.After > 0 {
			it.AdvanceIfNeeded(uint32(from.After) + 1)
		}
		for it.HasNext() {
			id := it.Next()
			if len(page.IDs) == limit {
				page.Next = &prospector.SearchPosition{Tier: lastTier, After: int64(lastID)}
				return page, nil
			}
			page.IDs = append(page.IDs, int64(id))
			lastTier, lastID = t, id
		}
	}
	return page, nil
}

// bitSlice adds the bitmaps as binary counters: bit i of a row's count of
// bitmaps containing it is set in layers[i].
func bitSlice(bs []*roaring.Bitmap) []*roaring.Bitmap {
	var layers []*roaring.Bitmap
	for _, b := range bs {
		carry := b
		for i := 0; !carry.IsEmpty(); i++ {
			if i == len(layers) {
				layers = append(layers, carry.Clone())
				break
			}
			next := roaring.And(layers[i], carry)
			layers[i] = roaring.Xor(layers[i], carry)
			carry = next
		}
	}
	return layers
}

// exactCount returns the rows of match whose count is exactly c.
func exactCount(match *roaring.Bitmap, layers []*roaring.Bitmap, c int) *roaring.Bitmap {
	if c >= 1<<len(layers) {
		return roaring.New()
	}
	cur := match
	for i, l := range layers {
		if c&(1<<i) != 0 {
			cur = roaring.And(cur, l)
		} else {
			cur = roaring.AndNot(cur, l)
		}
	}
	return cur
}
