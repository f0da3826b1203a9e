package techdetect

// scanner finds, in one pass over a text, which of a fixed set of
// literals occur and where (Aho-Corasick, compiled to a DFA over byte
// classes). Detection uses it to run only the expressions whose required
// literals are present, and to match them near where they occur.
type scanner struct {
	classes  [256]byte // byte -> class; class 0 is "no literal has it"
	nclasses int
	delta    []int32 // state*nclasses + class -> next state
	out      [][]int32
	lens     []int // literal id -> length
}

// maxHits bounds the positions kept per literal; past it the literal is
// marked as everywhere and its expressions run on the whole text.
const maxHits = 16

// hits is what one scan found: the literal ids found, in order of first
// occurrence, and for each up to maxHits end offsets and whether there
// were more. It is reused from scan to scan: slot maps a literal id to
// its index in found (-1 when absent), so resetting costs what was found,
// not the size of the rule set.
type hits struct {
	slot     []int32
	found    []int32
	ends     [][]int32
	overflow []bool
}

func newHits(n int) *hits {
	h := &hits{slot: make([]int32, n)}
	for i := range h.slot {
		h.slot[i] = -1
	}
	return h
}

// endsOf returns the end offsets of literal id and whether it occurred
// more often than they show.
func (h *hits) endsOf(id int32) ([]int32, bool) {
	i := h.slot[id]
	if i < 0 {
		return nil, false
	}
	return h.ends[i], h.overflow[i]
}

func (h *hits) reset() {
	for _, id := range h.found {
		h.slot[id] = -1
	}
	h.found = h.found[:0]
	h.ends = h.ends[:0]
	h.overflow = h.overflow[:0]
}

// newScanner builds the automaton for lits (all lower-case).
func newScanner(lits []string) *scanner {
	s := &scanner{lens: make([]int, len(lits))}
	for _, l := range lits {
		for i := 0; i < len(l); i++ {
			if s.classes[l[i]] == 0 {
				s.nclasses++
				s.classes[l[i]] = byte(s.nclasses)
			}
		}
	}
	s.nclasses++ // class 0
	// Trie with sparse children first, then the dense DFA by BFS.
	type node struct {
		next map[byte]int32
		out  []int32
	}
	nodes := []node{{next: map[byte]int32{}}}
	for id, l := range lits {
		s.lens[id] = len(l)
		cur := int32(0)
		for i := 0; i < len(l); i++ {
			c := s.classes[l[i]]
			nx, ok := nodes[cur].next[c]
			if !ok {
				nx = int32(len(nodes))
				nodes = append(nodes, node{next: map[byte]int32{}})
				nodes[cur].next[c] = nx
			}
			cur = nx
		}
		nodes[cur].out = append(nodes[cur].out, int32(id))
	}
	n := len(nodes)
	s.delta = make([]int32, n*s.nclasses)
	s.out = make([][]int32, n)
	fail := make([]int32, n)
	queue := make([]int32, 0, n)
	for c := 0; c < s.nclasses; c++ {
		if nx, ok := nodes[0].next[byte(c)]; ok {
			s.delta[c] = nx
			queue = append(queue, nx)
		}
	}
	s.out[0] = nodes[0].out
	for len(queue) > 0 {
		st := queue[0]
		queue = queue[1:]
		s.out[st] = append(append([]int32(nil), nodes[st].out...), s.out[fail[st]]...)
		for c := 0; c < s.nclasses; c++ {
			if nx, ok := nodes[st].next[byte(c)]; ok {
				fail[nx] = s.delta[int(fail[st])*s.nclasses+c]
				s.delta[int(st)*s.nclasses+c] = nx
				queue = append(queue, nx)
			} else {
				s.delta[int(st)*s.nclasses+c] = s.delta[int(fail[st])*s.nclasses+c]
			}
		}
	}
	return s
}

// scan runs over text, which must already be lower-cased (ASCII), and
// records into h (reset first).
func (s *scanner) scan(text []byte, h *hits) {
	h.reset()
	if len(s.lens) == 0 {
		return
	}
	st := int32(0)
	for i, c := range text {
		st = s.delta[int(st)*s.nclasses+int(s.classes[c])]
		if len(s.out[st]) == 0 {
			continue
		}
		for _, id := range s.out[st] {
			k := h.slot[id]
			switch {
			case k < 0:
				h.slot[id] = int32(len(h.found))
				h.found = append(h.found, id)
				h.ends = append(h.ends, []int32{int32(i + 1)})
				h.overflow = append(h.overflow, false)
			case len(h.ends[k]) < maxHits:
				h.ends[k] = append(h.ends[k], int32(i+1))
			default:
				h.overflow[k] = true
			}
		}
	}
}

// lowerASCII returns s with A-Z lower-cased; other bytes, and so every
// offset, are unchanged.
func lowerASCII(dst []byte, s string) []byte {
	dst = append(dst[:0], s...)
	for i, c := range dst {
		if 'A' <= c && c <= 'Z' {
			dst[i] = c + 'a' - 'A'
		}
	}
	return dst
}
