package news

import "strings"

// entKind tells what a capitalised run names, as far as the words say.
type entKind uint8

const (
	entName    entKind = iota // a company, a person or a place: the words cannot tell
	entCompany                // the company the item is about
	entEvent                  // a conference, expo, summit
	entAward                  // an award or prize
)

// span is a run of tokens [start, end) that names something.
type span struct {
	start, end int
	kind       entKind
	poss       bool // the run ends with a possessive
}

// sentence is one tokenised sentence with the company's mentions, the
// other names and the job titles marked.
type sentence struct {
	text    string
	toks    []token
	ents    []span
	entAt   []int // index into ents per token, -1 when none
	titleAt []bool
	title   bool // Title Case: capitals say nothing about names
	summary bool // from the item's summary, not its headline
	own     bool // from the company's own feed: "we" and "our" are the company
}

// analyse tokenises text and marks the mentions of the company.
func (c *Classifier) analyse(text string, n *name, summary, own bool) *sentence {
	s := &sentence{text: text, summary: summary, own: own}
	s.toks = tokenize(text, make([]token, 0, 24))
	s.entAt = make([]int, len(s.toks))
	s.titleAt = make([]bool, len(s.toks))
	for i := range s.entAt {
		s.entAt[i] = -1
	}
	s.title = c.titleCase(s.toks)
	if s.title {
		c.lowerCommon(s)
	}
	c.markTitles(s)
	c.markEntities(s, n)
	return s
}

// titleCase reports whether every longer word of the sentence is
// capitalised, as in "Acme Robotics Acquires Beltline Automation".
func (c *Classifier) titleCase(toks []token) bool {
	words := 0
	for i := range toks {
		t := &toks[i]
		if t.punct || t.num {
			continue
		}
		words++
		if !t.cap && len(t.w) >= 4 && !c.lex.function.has(t.w) {
			return false
		}
	}
	return words >= 3
}

// markTitles marks runs of job-title words that hold a core title word
// ("Chief Technology Officer", "VP of Sales", "head of marketing").
func (c *Classifier) markTitles(s *sentence) {
	toks := s.toks
	for i := 0; i < len(toks); {
		if toks[i].punct || !c.lex.titleWord.has(toks[i].w) || c.lex.function.has(toks[i].w) {
			i++
			continue
		}
		j, core := i, false
		for j < len(toks) && !toks[j].punct && c.lex.titleWord.has(toks[j].w) {
			if c.lex.titleCore.has(toks[j].w) {
				core = true
			}
			j++
			if toks[j-1].poss {
				break
			}
		}
		for j > i && c.lex.function.has(toks[j-1].w) {
			j--
		}
		if core {
			for k := i; k < j; k++ {
				s.titleAt[k] = true
			}
		}
		i = max(j, i+1)
	}
}

// markEntities marks the company's mentions first, then every other
// capitalised run.
func (c *Classifier) markEntities(s *sentence, n *name) {
	toks := s.toks
	for i := 0; i < len(toks); {
		if end := n.matchAt(s, i); end > i {
			// "our" is the company's own: "our new CFO".
			poss := toks[end-1].poss || toks[end-1].w == "our"
			s.addEnt(span{start: i, end: end, kind: entCompany, poss: poss})
			for k := i; k < end; k++ {
				s.titleAt[k] = false // "AI" of "Pellucid AI" is no title word
			}
			i = end
			continue
		}
		if !c.startsName(s, i) {
			i++
			continue
		}
		j := i + 1
		for j < len(toks) && !toks[j-1].poss && c.continuesName(s, j) && n.matchAt(s, j) == j {
			j++
		}
		for j > i+1 && (c.lex.function.has(toks[j-1].w) || toks[j-1].w == "&") {
			j--
		}
		sp := span{start: i, end: j, poss: toks[j-1].poss}
		for k := i; k < j; k++ {
			switch {
			case c.lex.eventWord.has(toks[k].w):
				sp.kind = entEvent
			case c.lex.awardWord.has(toks[k].w) && sp.kind != entEvent:
				sp.kind = entAward
			}
		}
		s.addEnt(sp)
		i = j
	}
}

func (s *sentence) addEnt(sp span) {
	for k := sp.start; k < sp.end; k++ {
		s.entAt[k] = len(s.ents)
	}
	s.ents = append(s.ents, sp)
}

// startsName reports whether token i can open a name.
func (c *Classifier) startsName(s *sentence, i int) bool {
	t := &s.toks[i]
	if !t.cap || t.punct || t.num || s.titleAt[i] || c.calendarAt(s, i) || c.lex.neverName.has(t.w) ||
		(i > 0 && s.toks[i-1].w == "series") {
		return false
	}
	if c.lex.notName.has(t.w) && (i == 0 || s.title || s.toks[i-1].isBreak()) {
		return false
	}
	if s.title || i == 0 || s.toks[i-1].isBreak() {
		return !c.isTrigger(t.w) && !c.lex.function.has(t.w)
	}
	return true
}

// continuesName reports whether token j extends the name before it:
// another capitalised word, a number ("Sentinel 5", "Expo 2026"), or
// "&", "of", "de" between capitalised words ("Marlow & Finch").
func (c *Classifier) continuesName(s *sentence, j int) bool {
	t := &s.toks[j]
	if s.titleAt[j] {
		return false
	}
	if t.num && !t.punct {
		return j+1 >= len(s.toks) || s.toks[j+1].w != "%"
	}
	if (t.w == "&" || t.w == "of" || t.w == "de" || t.w == "von") && j+1 < len(s.toks) &&
		s.toks[j+1].cap && !s.titleAt[j+1] {
		return true
	}
	if !t.cap || t.punct || c.calendarAt(s, j) {
		return false
	}
	return true
}

// calendarAt reports whether token i is a day or a month: weekdays
// always, months beside a number or after "in", "on", "by"... ("Jun" in
// "Jun Takeda" is a name).
func (c *Classifier) calendarAt(s *sentence, i int) bool {
	w := s.toks[i].w
	if !c.lex.calendar.has(w) {
		return false
	}
	if strings.HasSuffix(w, "day") {
		return true
	}
	if i+1 < len(s.toks) && s.toks[i+1].num {
		return true
	}
	if i > 0 {
		switch s.toks[i-1].w {
		case "in", "on", "by", "since", "until", "from", "this", "next", "last", "early", "late", "mid", "of":
			return true
		}
	}
	return i+1 >= len(s.toks) || s.toks[i+1].punct
}

// entityAt returns the entity holding token i, or nil.
func (s *sentence) entityAt(i int) *span {
	if i < 0 || i >= len(s.toks) || s.entAt[i] < 0 {
		return nil
	}
	return &s.ents[s.entAt[i]]
}

// textOf returns the original text of tokens [i, j).
func (s *sentence) textOf(i, j int) string {
	if i >= j || i < 0 || j > len(s.toks) {
		return ""
	}
	return s.text[s.toks[i].start:s.toks[j-1].end]
}

// hasCompany reports whether the company is mentioned in the sentence.
func (s *sentence) hasCompany() bool {
	for i := range s.ents {
		if s.ents[i].kind == entCompany {
			return true
		}
	}
	return false
}
