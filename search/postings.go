package search

import "github.com/RoaringBitmap/roaring/v2"

// postings maps terms ("field\x00value") to the bitmap of row ids that
// have them. With rowTerms it remembers each row's terms so an update
// can take the old ones away (set); the per-row term lists live in one
// pointer-free arena: at millions of rows, millions of small slices
// would cost both memory and garbage-collector scanning time. Without,
// the caller says what a row's old terms were (move): people's are
// computed again from their cards, which saved a quarter of the index's
// memory per person.
type postings struct {
	name     string // tells the index's postings apart in cache keys
	rowTerms bool
	ids      map[string]uint32
	lists    []*roaring.Bitmap

	arena  []uint32 // term ids of every row, back to back
	start  []uint32 // row id -> offset in arena
	length []uint16 // row id -> number of terms
	keys   []uint32 // row id -> the key its bitmaps hold (see rankKey)
	dead   int      // arena entries no row points at any more
}

func newPostings(name string, rowTerms bool) *postings {
	return &postings{name: name, rowTerms: rowTerms, ids: map[string]uint32{}}
}

func term(field, value string) string { return field + "\x00" + value }

// get returns the bitmap of a term, or nil when no row has it.
func (p *postings) get(t string) *roaring.Bitmap {
	if id, ok := p.ids[t]; ok {
		return p.lists[id]
	}
	return nil
}

func (p *postings) termID(t string) uint32 {
	id, ok := p.ids[t]
	if !ok {
		id = uint32(len(p.lists))
		p.ids[t] = id
		p.lists = append(p.lists, roaring.New())
	}
	return id
}

// terms returns the term ids of a row (aliasing the arena).
func (p *postings) terms(doc uint32) []uint32 {
	if int(doc) >= len(p.start) {
		return nil
	}
	s := p.start[doc]
	return p.arena[s : s+uint32(p.length[doc])]
}

// set replaces a row's terms; the bitmaps get key for it.
// The keys go in the lists when a is flushed: the caller flushes before
// it lets go of the index's lock.
func (p *postings) set(doc, key uint32, terms []string, a *adds) {
	p.remove(doc)
	for int(doc) >= len(p.start) {
		p.start = append(p.start, 0)
		p.length = append(p.length, 0)
		p.keys = append(p.keys, 0)
	}
	p.start[doc], p.length[doc], p.keys[doc] = uint32(len(p.arena)), uint16(len(terms)), key
	from := len(p.arena)
	for _, t := range terms {
		p.arena = append(p.arena, p.termID(t))
	}
	a.add(key, p.arena[from:])
	if p.dead > len(p.arena)/2 && p.dead > 1<<16 {
		p.compact()
	}
}

// move takes a row out of the lists of old, its terms until now, and
// puts key in those of terms; key 0 leaves it in none. Taking it out of
// a list it is not in does nothing, so old may say too much, never too
// little.
func (p *postings) move(doc, key uint32, old, terms []string) {
	p.keys = grow(p.keys, doc)
	if k := p.keys[doc]; k != 0 {
		for _, t := range old {
			if b := p.get(t); b != nil {
				b.Remove(k)
			}
		}
	}
	p.keys[doc] = key
	if key == 0 {
		return
	}
	for _, t := range terms {
		p.lists[p.termID(t)].Add(key)
	}
}

// adds are keys to put in lists, gathered over a batch and put term by
// term (flush): one AddMany per term finds each container once per run
// of keys and keeps it in the CPU's cache, where adding row by row
// jumped between thousands of lists (9% of a cold build at 10M people).
type adds struct{ term, key []uint32 }

func (a *adds) add(key uint32, ids []uint32) {
	for _, id := range ids {
		a.term, a.key = append(a.term, id), append(a.key, key)
	}
}

// flush puts the gathered keys in p's lists and empties a.
func (a *adds) flush(p *postings) {
	start := make([]int, len(p.lists)+1) // term -> where its keys begin in byTerm
	for _, t := range a.term {
		start[t+1]++
	}
	for t := 1; t < len(start); t++ {
		start[t] += start[t-1]
	}
	at := append([]int(nil), start[:len(p.lists)]...)
	byTerm := make([]uint32, len(a.key))
	for i, t := range a.term {
		byTerm[at[t]] = a.key[i]
		at[t]++
	}
	for t, l := range p.lists {
		if keys := byTerm[start[t]:start[t+1]]; len(keys) > 0 {
			l.AddMany(keys)
		}
	}
	a.term, a.key = a.term[:0], a.key[:0]
}

// remove takes a row out of every list it is in; only postings with
// rowTerms know which (the others use move).
func (p *postings) remove(doc uint32) {
	if !p.rowTerms {
		panic("search: remove on postings " + p.name + ", which keep no row terms: use move")
	}
	ts := p.terms(doc)
	for _, id := range ts {
		p.lists[id].Remove(p.keys[doc])
	}
	if len(ts) > 0 {
		p.dead += len(ts)
		p.length[doc] = 0
	}
}

// compact rewrites the arena without the entries updates left behind.
func (p *postings) compact() {
	arena := make([]uint32, 0, len(p.arena)-p.dead)
	for doc := range p.start {
		ts := p.terms(uint32(doc))
		p.start[doc] = uint32(len(arena))
		arena = append(arena, ts...)
	}
	p.arena, p.dead = arena, 0
}

// optimize compresses runs after a bulk build.
func (p *postings) optimize() {
	for _, l := range p.lists {
		l.RunOptimize()
	}
}
