package search

import (
	"cmp"
	"context"
	"slices"

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
	var page prospector.SearchPage
	counts := max(1, len(pl.counted))
	lastTier, lastKey := 0, uint32(0)
	for t := max(from.Tier, 0); t < counts; t++ {
		if err := ctx.Err(); err != nil {
			return page, err
		}
		conj := pl.fields
		if len(pl.counted) > 1 {
			conj = append(append([]*roaring.Bitmap(nil), pl.fields...), pl.exact(len(pl.counted)-t))
		}
		if len(conj) == 0 {
			conj = []*roaring.Bitmap{pl.all}
		}
		start := uint32(0)
		if t == from.Tier && from.After > 0 {
			start = uint32(from.After) + 1
		}
		emit := func(key uint32) bool {
			if len(page.IDs) == limit {
				page.Next = &prospector.SearchPosition{Tier: lastTier, After: int64(lastKey)}
				return false
			}
			page.IDs = append(page.IDs, rowID(key, pl.shift))
			lastTier, lastKey = t, key
			return true
		}
		stopped, ok := leapfrog(conj, pl.not, pl.size, start, emit)
		if !ok {
			// Too sparse to leapfrog: intersect whole, then resume after
			// what leapfrog already emitted.
			if len(page.IDs) > 0 && lastTier == t {
				start = lastKey + 1
			}
			// Smallest first: every later AND then works on a small result.
			intersect := func() *roaring.Bitmap {
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
			if pl.intersect != nil && len(conj) > 1 {
				m = pl.intersect(t, intersect)
			} else {
				m = intersect()
			}
			it := m.Iterator()
			it.AdvanceIfNeeded(start)
			stopped = false
			for it.HasNext() {
				key := it.Next()
				if pl.not != nil && pl.not.Contains(key) {
					continue
				}
				if !emit(key) {
					stopped = true
					break
				}
			}
		}
		if stopped {
			return page, nil
		}
	}
	return page, nil
}

// leapfrogBudget bounds how many iterator moves leapfrog spends before
// giving up: dense intersections fill a page in a few moves, sparse ones
// are cheaper to compute whole.
const leapfrogBudget = 1000

// leapfrog emits the keys from start upwards that are in every bitmap of
// conj and not in not, by advancing the bitmaps' iterators past each
// other without building the intersection: a page of a broad query needs
// a few dozen keys out of hundreds of thousands. stopped reports that
// emit asked to stop; ok is false when the budget ran out first.
func leapfrog(conj []*roaring.Bitmap, not *roaring.Bitmap, size func(*roaring.Bitmap) uint64, start uint32,
	emit func(uint32) bool) (stopped, ok bool) {
	// The sparsest bitmap drives: every other iterator only jumps to its
	// candidates.
	bs := bySize(conj, size)
	its := make([]roaring.IntPeekable, len(bs))
	for i, b := range bs {
		its[i] = b.Iterator()
		its[i].AdvanceIfNeeded(start)
	}
	budget := leapfrogBudget
	for {
		if !its[0].HasNext() {
			return false, true
		}
		x := its[0].PeekNext()
		agreed := true
		for _, it := range its[1:] {
			it.AdvanceIfNeeded(x)
			budget--
			if !it.HasNext() {
				return false, true
			}
			if y := it.PeekNext(); y != x {
				its[0].AdvanceIfNeeded(y)
				agreed = false
				break
			}
		}
		if !agreed {
			if budget <= 0 {
				return false, false
			}
			continue
		}
		its[0].Next()
		if not != nil && not.Contains(x) {
			continue
		}
		if !emit(x) {
			return true, true
		}
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

// bySize returns the bitmaps smallest first. Each cardinality is counted
// once: a run-compressed bitmap of millions of rows sums its runs on every
// call, and counting inside the sort's comparisons took a tenth of
// discover/people's CPU.
func bySize(conj []*roaring.Bitmap, size func(*roaring.Bitmap) uint64) []*roaring.Bitmap {
	type sized struct {
		b *roaring.Bitmap
		n uint64
	}
	ss := make([]sized, len(conj))
	for i, b := range conj {
		if size != nil {
			ss[i] = sized{b, size(b)}
		} else {
			ss[i] = sized{b, b.GetCardinality()}
		}
	}
	slices.SortStableFunc(ss, func(a, b sized) int { return cmp.Compare(a.n, b.n) })
	out := make([]*roaring.Bitmap, len(ss))
	for i, s := range ss {
		out[i] = s.b
	}
	return out
}
