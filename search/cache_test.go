package search

import (
	"testing"

	"github.com/RoaringBitmap/roaring/v2"
)

// TestFilterCacheSizes: a bitmap's cardinality is counted once per index
// generation, and counted afresh once the index changed.
func TestFilterCacheSizes(t *testing.T) {
	var c filterCache
	b := roaring.BitmapOf(1, 2, 3)
	if n := c.size(1, b); n != 3 {
		t.Fatalf("size = %d, want 3", n)
	}
	b.Add(4) // as an applied batch would, under a new generation
	if n := c.size(1, b); n != 3 {
		t.Errorf("same generation: size = %d, want the 3 counted", n)
	}
	if n := c.size(2, b); n != 4 {
		t.Errorf("next generation: size = %d, want 4", n)
	}
	for i := range maxSizes + 10 { // bounded: past maxSizes they are forgotten
		c.size(2, roaring.BitmapOf(uint32(i)))
	}
	if len(c.sizes) > maxSizes {
		t.Errorf("%d sizes kept, want at most %d", len(c.sizes), maxSizes)
	}
}
