package news

// objectsOf returns the names that are the object of a match: those inside
// its gap ("takes Beta to court"), else those after it ("acquires Beta",
// "acquisition of Beta").
func (c *Classifier) objectsOf(m *match) []int {
	s := m.s
	for k := m.ts + 1; k < m.te; k++ {
		if e := s.entAt[k]; e >= 0 {
			return []int{e}
		}
	}
	start := m.te
	if m.r.noun && start < len(s.toks) && s.toks[start].w == "of" {
		start++
	}
	if m.passive {
		return nil
	}
	return c.objectRight(s, start)
}

// resolve returns the company's role in m and the entity of the other
// company it names (-1 when none).
func (c *Classifier) resolve(m *match) (role, int) {
	s := m.s
	left, premod := m.ts, -1
	if m.r.noun && m.ts > 0 {
		if e := s.entAt[m.ts-1]; e >= 0 && !s.ents[e].poss && s.ents[e].kind <= entCompany {
			premod, left = e, s.ents[e].start
		}
	}
	subj := c.subjectLeft(s, left, m.r.people)
	subj = c.owner(s, subj)
	objs := c.objectsOf(m)
	isCo := func(e int) bool { return e >= 0 && s.ents[e].kind == entCompany }

	rl := roleNone
	switch {
	case contains(subj, isCo):
		rl = roleSubj
	case isCo(premod):
		rl = rolePremod
	case contains(objs, isCo):
		rl = roleObj
		for _, e := range objs {
			if isCo(e) && s.ents[e].poss {
				rl = rolePoss
			}
		}
	default:
		for _, p := range prepRoles {
			if e := c.prepEntity(s, m.te, p.w); isCo(e) {
				rl = p.r
				break
			}
		}
	}
	if rl == roleNone && len(subj) == 0 && c.implicitSubject(s, m) {
		rl = roleSubj
	}
	if m.passive {
		switch rl {
		case roleSubj:
			rl = roleObj
		case roleBy:
			rl = roleSubj
		}
	}
	return rl, c.counterpart(m, rl, subj, premod, objs)
}

// owner returns the owner of a product named as a subject: in "Acme's
// Pulse now supports dashboards" the subject is Acme.
func (c *Classifier) owner(s *sentence, subj []int) []int {
	if len(subj) != 1 {
		return subj
	}
	at := s.ents[subj[0]].start
	if at > 0 {
		if e := s.entAt[at-1]; e >= 0 && s.ents[e].poss && s.ents[e].kind == entCompany {
			return []int{e}
		}
	}
	return subj
}

// implicitSubject reports whether the company is the subject though no
// name stands before the trigger: a headline from its own feed naming
// nobody ("Introducing Flow 2.0"), or the company as the topic before a
// colon ("Gripwell funding: startup bags $1.5M").
func (c *Classifier) implicitSubject(s *sentence, m *match) bool {
	if s.own && !s.hasCompany() {
		return true
	}
	if len(s.ents) == 0 || s.ents[0].kind != entCompany || s.ents[0].end > m.ts {
		return false
	}
	for k := s.ents[0].end; k < m.ts; k++ {
		if t := &s.toks[k]; t.w == ":" || t.w == "-" || t.w == "|" {
			return true
		}
	}
	return false
}

// counterpart returns the entity of the other company in m: for the
// company as subject, the object or a name after a preposition; for the
// company as object, the subject or the agent after "by".
func (c *Classifier) counterpart(m *match, rl role, subj []int, premod int, objs []int) int {
	s := m.s
	var order []int
	add := func(es ...int) {
		for _, e := range es {
			if e >= 0 && s.ents[e].kind == entName && !(m.r.people && c.personLike(s, &s.ents[e])) {
				order = append(order, e)
			}
		}
	}
	preps := func(ws ...string) {
		for _, w := range ws {
			add(c.prepEntity(s, m.te, w))
		}
	}
	if m.r.counterAny {
		// Money comes from investors: "led by", "backed by", "from". The
		// object of "announces" or "secures" is no company.
		for k := range s.toks {
			if w := s.toks[k].w; (w == "by" || w == "from") && !s.toks[k].punct {
				if g := c.objectRight(s, k+1); len(g) > 0 {
					add(g[0])
				}
			}
		}
		if len(order) == 0 {
			return -1
		}
		return order[0]
	}
	if m.r.prefer != "" && rl == roleSubj && !m.passive {
		preps(m.r.prefer)
	}
	switch {
	case rl == roleSubj && m.passive:
		add(subj...)
	case rl == roleSubj:
		add(subj...)
		add(objs...)
		add(premod)
		preps("with", "in", "into", "to", "from", "of", "against", "by")
	default:
		add(objs...)
		add(subj...)
		add(premod)
		preps("by", "with", "to", "from", "in")
	}
	if len(order) == 0 && m.passive {
		// "Backed by Acme, Beta raises $6M": the patient follows the comma.
		for k := m.te; k < len(s.toks); k++ {
			if s.toks[k].w == "," {
				add(c.objectRight(s, k+1)...)
				break
			}
		}
	}
	if len(order) == 0 {
		return -1
	}
	return order[0]
}

func contains(es []int, f func(int) bool) bool {
	for _, e := range es {
		if f(e) {
			return true
		}
	}
	return false
}

// planned reports whether m's event is announced rather than done: a word
// of intent before the trigger ("to acquire", "plans to", "agrees to"),
// talks in the clause, or a future time after it ("next year").
func (c *Classifier) planned(m *match) bool {
	s := m.s
	for k := m.ts; k < m.te; k++ {
		if c.lex.future.has(s.toks[k].w) {
			return true
		}
	}
	for k := m.ts - 1; k >= 0 && k >= m.ts-4; k-- {
		t := &s.toks[k]
		if t.isBreak() || s.entAt[k] >= 0 {
			break
		}
		if c.lex.future.has(t.w) || (m.r.plan != nil && m.r.plan.has(t.w)) {
			return true
		}
	}
	end := clauseEnd(s, m.te)
	for k := m.te; k < end; k++ {
		w := s.toks[k].w
		if m.r.plan != nil && m.r.plan.has(w) {
			return true
		}
		if k+1 < end {
			next := s.toks[k+1].w
			if (w == "next" && (next == "year" || next == "month" || next == "week" || next == "spring" ||
				next == "summer" || next == "autumn" || next == "fall" || next == "winter" || next == "quarter")) ||
				(w == "this" && (next == "autumn" || next == "fall" || next == "spring" || next == "summer" ||
					next == "winter")) || (w == "later" && next == "this") {
				return true
			}
		}
		if w == "year-end" || (w == "in" && k+1 < end && c.lex.calendar.has(s.toks[k+1].w) && s.toks[k+1].cap) {
			return true
		}
	}
	return false
}
