package search

import "github.com/RoaringBitmap/roaring/v2"

// postings maps terms ("field\x00value") to the bitmap of row ids that
// have them, and remembers each row's terms so an update can take the
// old ones away.
type postings struct {
	ids   map[string]uint32
	lists []*roaring.Bitmap
	docs  [][]uint32 // row id -> term ids; ids are dense, so a slice beats a map
}

func newPostings() *postings {
	return &postings{ids: map[string]uint32{}}
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

// set replaces a row's terms.
func (p *postings) set(doc uint32, terms []string) {
	p.remove(doc)
	ids := make([]uint32, 0, len(terms))
	for _, t := range terms {
		id := p.termID(t)
		p.lists[id].Add(doc)
		ids = append(ids, id)
	}
	for int(doc) >= len(p.docs) {
		p.docs = append(p.docs, nil)
	}
	p.docs[doc] = ids
}

// remove takes a row out of every list it is in.
func (p *postings) remove(doc uint32) {
	if int(doc) >= len(p.docs) {
		return
	}
	for _, id := range p.docs[doc] {
		p.lists[id].Remove(doc)
	}
	p.docs[doc] = nil
}

// optimize compresses runs after a bulk build.
func (p *postings) optimize() {
	for _, l := range p.lists {
		l.RunOptimize()
	}
}
