package search

// memberLists groups rows under owners (people under their company,
// signals under theirs) as linked lists threaded through three slices of
// ids. A map of small bitmaps or slices did the same with a few objects
// per company: at 200,000 companies those were a million pointers for the
// garbage collector to trace on every cycle, where these arrays have none.
// Ids are stored +1 so that 0 means none.
type memberLists struct {
	head  []uint32 // owner -> its first member +1
	next  []uint32 // member -> the next member of its owner +1
	owner []uint32 // member -> its owner (0: none)
}

// grow extends s with zero values until index n exists.
func grow[T any](s []T, n uint32) []T {
	var zero T
	for uint32(len(s)) <= n {
		s = append(s, zero)
	}
	return s
}

// ownerOf returns the member's owner, 0 for none.
func (l *memberLists) ownerOf(member uint32) uint32 {
	if int(member) < len(l.owner) {
		return l.owner[member]
	}
	return 0
}

// remove takes the member out of its owner's list, walking that list.
func (l *memberLists) remove(member uint32) {
	o := l.ownerOf(member)
	if o == 0 {
		return
	}
	at := &l.head[o]
	for *at != 0 && *at != member+1 {
		at = &l.next[*at-1]
	}
	if *at != 0 {
		*at = l.next[member]
	}
	l.next[member], l.owner[member] = 0, 0
}

// insert puts the member in owner's list (taking it out of any other)
// before the first member that before(member, other) says it precedes;
// with before nil it goes first.
func (l *memberLists) insert(member, owner uint32, before func(a, b uint32) bool) {
	l.remove(member)
	if owner == 0 {
		return
	}
	l.head, l.next, l.owner = grow(l.head, owner), grow(l.next, member), grow(l.owner, member)
	at := &l.head[owner]
	if before != nil {
		for *at != 0 && !before(member, *at-1) {
			at = &l.next[*at-1]
		}
	}
	l.next[member], *at = *at, member+1
	l.owner[member] = owner
}

// each calls fn for the owner's members in list order until fn returns
// false.
func (l *memberLists) each(owner uint32, fn func(member uint32) bool) {
	if int(owner) >= len(l.head) || owner == 0 {
		return
	}
	for m := l.head[owner]; m != 0; m = l.next[m-1] {
		if !fn(m - 1) {
			return
		}
	}
}
