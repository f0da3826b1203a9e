package news

import "strings"

// stops end an object phrase: prepositions and clause marks.
var stops = words(`to from by in on at for with over after amid as into across against via through among
	that which who while than under before despite following`)

// subjectLeft returns the names acting as subject of the words at i: the
// nearest name to the left within the clause, with the names coordinated
// with it ("Acme and Beta merge"). People rules step over one person and
// titles to reach the company ("Acme CEO Jane Doe steps down").
func (c *Classifier) subjectLeft(s *sentence, i int, people bool) []int {
	skipped, person := 0, false
	for k := i - 1; k >= 0; k-- {
		t := &s.toks[k]
		if e := s.entAt[k]; e >= 0 {
			sp := &s.ents[e]
			if people && !person && sp.kind == entName && c.personLike(s, sp) {
				person = true
				k = sp.start
				continue
			}
			if sp.kind == entEvent || sp.kind == entAward {
				k = sp.start
				continue
			}
			return c.coordinated(s, e)
		}
		if t.isBreak() {
			return nil
		}
		if t.w == "," && k == i-1 && strings.HasSuffix(s.toks[i].w, "ing") {
			// "Acme exits Singapore, closing its office": the participle's
			// subject is the sentence's.
			if len(s.ents) > 0 && s.ents[0].start == 0 {
				return []int{0}
			}
			return nil
		}
		if skipped++; skipped > 10 {
			return nil
		}
	}
	return nil
}

// coordinated returns entity e with the names joined to it on its left by
// "and", or by commas at the start of the clause ("Harrowgate Insurance,
// Fenwick Mutual announce merger").
func (c *Classifier) coordinated(s *sentence, e int) []int {
	group := []int{e}
	for {
		at := s.ents[e].start
		if at < 2 {
			return group
		}
		sep := &s.toks[at-1]
		prev := s.entAt[at-2]
		if prev < 0 || s.ents[prev].poss {
			return group
		}
		switch {
		case sep.w == "and" && !sep.punct:
		case sep.w == ",":
			st := s.ents[prev].start
			if st > 0 && !s.toks[st-1].isBreak() {
				return group
			}
		default:
			return group
		}
		group = append(group, prev)
		e = prev
	}
}

// objectRight returns the names that are the object of the words ending
// at i: the first name to the right before a preposition or a clause
// mark, with the names joined to it by "and".
func (c *Classifier) objectRight(s *sentence, i int) []int {
	for k, skipped := i, 0; k < len(s.toks) && skipped <= 6; k++ {
		if e := s.entAt[k]; e >= 0 {
			e = c.appositive(s, e)
			group := []int{e}
			for end := s.ents[e].end; end+1 < len(s.toks) && s.toks[end].w == "and" && s.entAt[end+1] >= 0; {
				e = s.entAt[end+1]
				group = append(group, e)
				end = s.ents[e].end
			}
			return group
		}
		t := &s.toks[k]
		if t.isBreak() || t.w == "," || (stops.has(t.w) && !t.punct) {
			return nil
		}
		skipped++
	}
	return nil
}

// descriptors stand between a word and the name it describes:
// "Hydrogen startup Voltaire", "Battery maker Cellwick".
var descriptors = words(`startup startups firm firms maker makers provider providers developer developers company
	specialist specialists operator operators platform group rival competitor chain brand`)

// appositive returns the name a descriptor introduces after entity e
// ("Hydrogen Startup Voltaire" is Voltaire), else e.
func (c *Classifier) appositive(s *sentence, e int) int {
	end := s.ents[e].end
	if s.ents[e].kind == entCompany || s.ents[e].poss {
		return e
	}
	k := end
	for k < len(s.toks) && k < end+2 && !s.toks[k].cap && descriptors.has(s.toks[k].w) {
		k++
	}
	if k > end && k < len(s.toks) && s.entAt[k] >= 0 {
		return s.entAt[k]
	}
	return e
}

// prepEntity returns the name after the first preposition p after token i
// within the clause, or -1.
func (c *Classifier) prepEntity(s *sentence, i int, p string) int {
	for k := i; k < len(s.toks); k++ {
		t := &s.toks[k]
		if t.isBreak() || t.w == "," {
			return -1
		}
		if t.w == p && !t.punct && s.entAt[k] < 0 {
			if g := c.objectRight(s, k+1); len(g) > 0 {
				return g[0]
			}
			return -1
		}
	}
	return -1
}

// personLike reports whether a name looks like a person's: two or three
// capitalised words, none of them a company word.
func (c *Classifier) personLike(s *sentence, sp *span) bool {
	n := sp.end - sp.start
	if n < 2 || n > 3 || sp.kind != entName {
		return false
	}
	for k := sp.start; k < sp.end; k++ {
		t := &s.toks[k]
		if !t.cap || t.num || t.punct || c.lex.orgWord.has(t.w) || c.lex.eventWord.has(t.w) ||
			c.lex.awardWord.has(t.w) || c.lex.function.has(t.w) || strings.ToUpper(s.textOf(k, k+1)) == s.textOf(k, k+1) {
			return false
		}
	}
	return true
}

// participle reports whether w can be a past participle.
func participle(w string) bool {
	if strings.HasSuffix(w, "ed") || strings.HasSuffix(w, "en") {
		return true
	}
	switch w {
	case "bought", "sold", "led", "won", "hit", "made", "built", "shut", "cut", "laid", "set", "held", "sued", "struck":
		return true
	}
	return false
}

// isPassive reports whether the rule's trigger at [ts, te) reads in the
// passive: a participle after "be" or "get", or followed by "by" before
// any other name ("acquired for $5M by Beta").
func (c *Classifier) isPassive(s *sentence, ts, te int) bool {
	verb := ""
	for k := ts; k < te; k++ {
		if participle(s.toks[k].w) {
			verb = s.toks[k].w
			break
		}
	}
	if verb == "" {
		return false
	}
	if ts > 0 {
		switch s.toks[ts-1].w {
		case "be", "been", "being", "is", "was", "were", "are", "gets", "get", "got":
			return true
		}
	}
	for k := te; k < len(s.toks) && k < te+6; k++ {
		t := &s.toks[k]
		if t.w == "by" && !t.punct {
			return true
		}
		if s.entAt[k] >= 0 && s.ents[s.entAt[k]].kind != entAward || t.isBreak() || t.w == "," {
			return false
		}
	}
	return false
}
