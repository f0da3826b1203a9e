package search

import "slices"

// clip returns s with its spare capacity let go when that is more than a
// sixteenth of it: the per-row arrays grow by append, a quarter at a time
// once large, and after a cold build of 10M people the slack was 74 MiB
// of live heap that a start from a snapshot (decoded to size) does not
// have.
func clip[T any](s []T) []T {
	if cap(s)-len(s) > len(s)/16+64 {
		return slices.Clone(s)
	}
	return s
}

// trim clips the per-row arrays after bulk loads (see optimize).
func (ix *Index) trim() {
	for _, p := range []*postings{ix.companies, ix.people, ix.peopleCo} {
		p.arena, p.start, p.length, p.keys = clip(p.arena), clip(p.start), clip(p.length), clip(p.keys)
	}
	for _, a := range []*recordArena{&ix.cards, &ix.personCards, &ix.signals.recs} {
		a.off = clip(a.off)
	}
	for _, l := range []*memberLists{&ix.members, &ix.signals.byCo} {
		l.head, l.next, l.owner = clip(l.head), clip(l.next), clip(l.owner)
	}
	ix.facts.of, ix.personFacts.of = clip(ix.facts.of), clip(ix.personFacts.of)
	ix.signals.at = clip(ix.signals.at)
}
