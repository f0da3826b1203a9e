package search

import (
	"reflect"
	"testing"
)

func membersOf(l *memberLists, owner uint32) []uint32 {
	out := []uint32{}
	l.each(owner, func(m uint32) bool { out = append(out, m); return true })
	return out
}

func TestMemberLists(t *testing.T) {
	var l memberLists
	desc := func(a, b uint32) bool { return a > b }
	for _, m := range []uint32{5, 1, 9, 3, 7} {
		l.insert(m, 2, desc)
	}
	if got := membersOf(&l, 2); !reflect.DeepEqual(got, []uint32{9, 7, 5, 3, 1}) {
		t.Fatalf("ordered inserts: %v", got)
	}
	// Moving a member takes it out of its old list; removing the head,
	// a middle and the tail keeps the rest linked.
	l.insert(7, 4, desc)
	l.remove(9)
	l.remove(1)
	l.remove(1) // twice is harmless
	if got := membersOf(&l, 2); !reflect.DeepEqual(got, []uint32{5, 3}) {
		t.Fatalf("after removals: %v", got)
	}
	if got := membersOf(&l, 4); !reflect.DeepEqual(got, []uint32{7}) || l.ownerOf(7) != 4 || l.ownerOf(9) != 0 {
		t.Fatalf("moved member: %v, owner %d", got, l.ownerOf(7))
	}
	// Re-inserting under the same owner does not duplicate; nil order
	// puts members first; owner 0 means none.
	l.insert(5, 2, desc)
	l.insert(0, 2, nil)
	l.insert(3, 0, nil)
	if got := membersOf(&l, 2); !reflect.DeepEqual(got, []uint32{0, 5}) {
		t.Fatalf("re-insert and head insert: %v", got)
	}
	if got := membersOf(&l, 99); len(got) != 0 {
		t.Fatalf("unknown owner: %v", got)
	}
	n := 0
	l.insert(8, 2, nil)
	l.each(2, func(uint32) bool { n++; return n < 2 })
	if n != 2 {
		t.Fatalf("each did not stop when asked: %d calls", n)
	}
}
