package search

import (
	"context"

	"github.com/RoaringBitmap/roaring/v2"
	"github.com/prospectorhq/prospector"
)

// walk pages through a plan. Tiers are the match counts, from the most
// values matched down to one (a single tier without a counted field);
// inside a tier the bitmaps hold rank keys, whose order is already
// seniority or size first and then id. Tier numbers depend only on the
// query, so a position stays meaningful between pages, and rows inserted
// between two pages never shift what was already seen (keyset paging).
func walk(ctx context.Context, pl plan, from prospector.SearchPosition, limit int) (prospector.SearchPage, error) {
	if len(pl.counted) <= 1 && from.Tier == 0 {
		if page, ok := leapfrog(pl, uint32(max(from.After, 0)), limit); ok {
			return page, nil
		}
	}
	var page prospector.SearchPage
	match := pl.match()
	counts := max(1, len(pl.counted))
	var layers []*roaring.Bitmap
	if len(pl.counted) > 1 {
		layers = bitSlice(pl.counted)
	}
	lastTier, lastKey := 0, uint32(0)
	for t := max(from.Tier, 0); t < counts; t++ {
		if err := ctx.Err(); err != nil {
			return page, err
		}
		base := match
		if layers != nil {
			base = exactCount(match, layers, len(pl.counted)-t)
		}
		it := base.Iterator()
		if t == from.Tier && from.After > 0 {
			it.AdvanceIfNeeded(uint32(from.After) + 1)
		}
		for it.HasNext() {
			key := it.Next()
			if len(page.IDs) == limit {
				page.Next = &prospector.SearchPosition{Tier: lastTier, After: int64(lastKey)}
				return page, nil
			}
			page.IDs = append(page.IDs, rowID(key, pl.shift))
			lastTier, lastKey = t, key
		}
	}
	return page, nil
}

// leapfrogBudget bounds how many iterator moves leapfrog spends before
// giving up: dense intersections fill a page in a few moves, sparse ones
// are cheaper to compute whole.
const leapfrogBudget = 20000

// leapfrog finds the first limit+1 keys after `after` in every field's
// bitmap (and not in pl.not) by advancing the fields' iterators past each
// other, without building the intersection: a page of a broad query needs
// a few dozen keys out of hundreds of thousands. ok is false when the
// budget ran out first.
func leapfrog(pl plan, after uint32, limit int) (prospector.SearchPage, bool) {
	var page prospector.SearchPage
	fields := pl.fields
	if len(fields) == 0 {
		fields = []*roaring.Bitmap{pl.all}
	}
	its := make([]roaring.IntPeekable, len(fields))
	for i, f := range fields {
		its[i] = f.Iterator()
		if after > 0 {
			its[i].AdvanceIfNeeded(after + 1)
		}
	}
	budget := leapfrogBudget
	var last uint32
	for {
		if !its[0].HasNext() {
			return page, true
		}
		x := its[0].PeekNext()
		agreed := true
		for _, it := range its[1:] {
			it.AdvanceIfNeeded(x)
			budget--
			if !it.HasNext() {
				return page, true
			}
			if y := it.PeekNext(); y != x {
				its[0].AdvanceIfNeeded(y)
				agreed = false
				break
			}
		}
		if budget <= 0 {
			return page, false
		}
		if !agreed {
			continue
		}
		its[0].Next()
		if pl.not != nil && pl.not.Contains(x) {
			continue
		}
		if len(page.IDs) == limit {
			page.Next = &prospector.SearchPosition{After: int64(last)}
			return page, true
		}
		page.IDs = append(page.IDs, rowID(x, pl.shift))
		last = x
	}
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
