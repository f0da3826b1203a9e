package news

import "strings"

// Company is the company an item is read for.
type Company struct {
	// Name is the company's name as the news writes it ("Acme Robotics";
	// a legal form such as Inc or GmbH may be left on).
	Name string
	// Domain is its normalised domain: the key of the dedup key.
	Domain string
	// Aliases are other names it goes by (a brand, a short name).
	Aliases []string
}

// name is a company name compiled for matching against tokens.
type name struct {
	seqs  [][]string // the name and aliases as lower-case words, legal form dropped
	short string     // a distinctive first word that names the company alone, or ""
	own   bool       // "we" and "our" are the company
	c     *Classifier
}

// compileName prepares co for matching. Own marks items from the
// company's own feed.
func (c *Classifier) compileName(co Company, own bool) *name {
	n := &name{own: own, c: c}
	for _, s := range append([]string{co.Name}, co.Aliases...) {
		seq := c.nameWords(s)
		if len(seq) > 0 {
			n.seqs = append(n.seqs, seq)
		}
	}
	if len(n.seqs) > 0 && len(n.seqs[0]) > 1 {
		first := n.seqs[0][0]
		if len(first) >= 4 && !c.lex.notName.has(first) && !c.lex.function.has(first) &&
			!c.lex.orgWord.has(first) && !c.isTrigger(first) {
			n.short = first
		}
	}
	return n
}

// nameWords splits a company name into lower-case words without its
// legal form ("Acme Robotics, Inc." is [acme robotics]).
func (c *Classifier) nameWords(s string) []string {
	toks := tokenize(s, nil)
	var out []string
	for _, t := range toks {
		if t.punct && t.w != "&" {
			continue
		}
		out = append(out, t.w)
	}
	for len(out) > 1 && c.lex.legal.has(strings.TrimSuffix(out[len(out)-1], ".")) {
		out = out[:len(out)-1]
	}
	return out
}

// matchAt returns the end of a mention of the company starting at token
// i, or i when none starts there.
func (n *name) matchAt(s *sentence, i int) int {
	toks := s.toks
	best := i
	for _, seq := range n.seqs {
		if i+len(seq) > len(toks) || best >= i+len(seq) {
			continue
		}
		ok := true
		for k, w := range seq {
			t := &toks[i+k]
			if t.w != w || (t.poss && k < len(seq)-1) {
				ok = false
				break
			}
		}
		if ok {
			best = i + len(seq)
		}
	}
	if best > i {
		if best == i+1 && !n.shortAlone(s, i) && !toks[i].poss {
			// A one-word name starting another name: "Corvana Route".
			return i
		}
		return n.extendLegal(s, best)
	}
	t := &toks[i]
	if n.short != "" && t.w == n.short && (t.cap || !s.title) && n.shortAlone(s, i) {
		return i + 1
	}
	if n.own {
		switch t.w {
		case "we", "we've", "we're", "we'll", "our", "us":
			return i + 1
		}
	}
	if s.summary && t.w == "the" && i+1 < len(toks) {
		switch toks[i+1].w {
		case "company", "firm", "startup", "group", "business", "bank", "airline", "retailer", "insurer", "lender":
			return i + 2
		}
	}
	return i
}

// shortAlone reports whether the short name at i stands alone: the next
// word does not continue another name ("Carrow" in "Carrow Hospital"
// names another company than Carrow Care).
func (n *name) shortAlone(s *sentence, i int) bool {
	if s.toks[i].poss || i+1 >= len(s.toks) {
		return true
	}
	next := &s.toks[i+1]
	if next.punct || !next.cap || s.titleAt[i+1] || next.num {
		return !next.num
	}
	// In Title Case every word is capitalised: the name stands alone
	// before a verb or a small word ("Brightwave Launches", "Acme To Buy").
	return s.title && (n.c.isTrigger(next.w) || n.c.lex.function.has(next.w) || n.c.lex.aux.has(next.w) ||
		n.c.lex.legal.has(next.w))
}

// extendLegal steps over a legal form written after the name.
func (n *name) extendLegal(s *sentence, end int) int {
	for end < len(s.toks) && !s.toks[end-1].poss {
		w := strings.TrimSuffix(s.toks[end].w, ".")
		switch w {
		case "inc", "llc", "ltd", "corp", "plc", "gmbh", "ag", "sa", "nv", "bv", "co", "limited", "corporation":
			end++
			continue
		}
		break
	}
	return end
}
