package search

import (
	"fmt"

	"github.com/prospectorhq/prospector/taxonomy"
)

// The bitmaps do not hold row ids but rank keys: the row's static rank
// tier in the top bits and its id below. Iterating a result bitmap in key
// order is then already "best tier first, then ascending id", so a page
// is the first few set bits of one intersection, with no per-tier work.
const (
	personTierShift  = 29 // 8 seniority tiers; ids below 2^29
	companyTierShift = 28 // 9 size tiers; ids below 2^28
)

// personTier orders seniority: Founder first, unknown last.
func personTier(level string) uint32 {
	for i, l := range taxonomy.JobLevels() {
		if l == level {
			return uint32(i)
		}
	}
	return uint32(len(taxonomy.JobLevels()))
}

// companyTier orders size bands: largest first, unknown last.
func companyTier(size string) uint32 {
	ranges := taxonomy.EmployeeRanges()
	for i := range ranges {
		if ranges[len(ranges)-1-i] == size {
			return uint32(i)
		}
	}
	return uint32(len(ranges))
}

func rankKey(tier uint32, id int64, shift uint) (uint32, error) {
	if id <= 0 || id >= 1<<shift {
		return 0, fmt.Errorf("search: row id %d outside the index's range (1..%d)", id, 1<<shift-1)
	}
	return tier<<shift | uint32(id), nil
}

func rowID(key uint32, shift uint) int64 { return int64(key & (1<<shift - 1)) }
