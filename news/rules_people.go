package news

// hireVerbs are the verbs of giving someone a job.
var hireVerbs = join(forms("hire"), forms("appoint"), forms("welcome"), forms("recruit"),
	[]string{"names", "name", "naming", "to name", "taps", "tap", "tapped", "tapping", "brings on", "brings in",
		"brought on", "adds", "add", "added", "adding", "announces appointment of", "appointment of",
		"bolsters ~ with", "strengthens ~ with", "picks"})

// insider marks a hire from inside: a promotion.
var insider = []string{"longtime", "long-time", "insider", "internal", "veteran", "current", "existing"}

var (
	transitiveRetire = words(`as from after at in on this next by effective and later early end year-end
		following once when in`)
	hireWords = join(forms("hire"), forms("recruit"), forms("add"), forms("create"),
		[]string{"to hire", "seeking", "seeks", "seek", "hiring"})
	cutWords = join([]string{"cuts", "cut", "cutting", "to cut", "slashes", "slash", "slashed", "slashing",
		"sheds", "shed", "shedding", "to shed", "trims", "trim", "trimmed", "trimming", "lets go of", "let go of",
		"letting go of", "axes", "axe", "axed", "axing", "downsizes", "downsize", "downsized"},
		forms("eliminate"), forms("reduce"))
)

func (c *Classifier) peopleRules() []*rule {
	return []*rule{
		// Acme hires Jane Doe as CFO; names Jane Doe CEO; welcomes a new CTO.
		{cat: Hires, phrases: hireVerbs, prio: 50, conf: .85, as: map[role]string{rolePoss: Hires},
			check: personOrTitleNext(8)},
		// Jane Doe joins Acme as CFO.
		{cat: "", phrases: join(forms("join"), []string{"to join"}), prio: 50, conf: .85,
			as: map[role]string{roleObj: Hires}, check: personBefore},
		// Acme promotes Jane Doe to COO; names longtime CFO as CEO.
		{cat: Promotes, phrases: join(forms("promote"), forms("elevate"), with(hireVerbs, insider...),
			[]string{"promotion of", "promotion", "moves up to", "move up to", "moved up to", "takes over as",
				"take over as", "took over as", "steps up as", "steps up to"}),
			prio: 55, conf: .8, people: true, check: personOrTitle},
		// Acme CEO steps down; Jane Doe leaves Acme; Acme parts ways with its CFO.
		{cat: Leaves, phrases: []string{"steps down", "step down", "stepped down", "stepping down", "to step down",
			"resigns", "resign", "resigned", "resigning", "resignation", "resignation of", "departs", "depart",
			"departed", "departing", "departure", "departure of", "leaves", "leave", "left", "to leave", "exits",
			"exited", "parts ways with", "part ways with", "parted ways with", "ousts", "oust", "ousted", "fires",
			"fired", "quits", "quit", "steps aside", "stepping aside"},
			prio: 50, conf: .85, people: true, as: map[role]string{roleObj: Leaves, roleWith: Leaves},
			check: personOrTitle},
		// Acme CEO to retire.
		{cat: RetiresFrom, phrases: join(forms("retire"), []string{"retirement", "retirement of", "to retire"}),
			prio: 52, conf: .85, people: true, check: allOf(personOrTitle, notTransitiveRetire)},
		// Acme to hire 300 engineers; on a hiring spree.
		{cat: IncreasesHeadcountBy, phrases: hireWords, prio: 55, conf: .85, check: numberOfPeople(4)},
		{cat: IncreasesHeadcountBy, phrases: []string{"hiring spree", "is hiring", "hiring push", "expands team by",
			"expand team by", "grows team by", "grows headcount", "grows workforce", "doubles workforce",
			"doubles headcount", "triples workforce", "triples headcount", "doubles staff", "increases headcount",
			"boosts headcount", "boosts workforce", "open roles", "open positions"},
			prio: 55, conf: .8},
		// Acme lays off 200; cuts 8% of its workforce.
		{cat: DecreasesHeadcountBy, phrases: []string{"lays off", "laid off", "lay off", "laying off", "layoffs",
			"layoff", "job cuts", "redundancies", "roles affected", "jobs affected", "positions affected"},
			prio: 55, conf: .85, as: map[role]string{roleObj: DecreasesHeadcountBy}},
		{cat: DecreasesHeadcountBy, phrases: cutWords, prio: 55, conf: .85, check: headcountNext(6)},
		{cat: DecreasesHeadcountBy, phrases: []string{"restructuring"}, prio: 55, conf: .7,
			check: sentenceHas(words(`roles jobs positions employees staff`))},
	}
}

// personOrTitleNext accepts a job title or a person within n words after
// the trigger ("hires Jane Doe", "names a new CFO").
func personOrTitleNext(n int) check {
	return func(c *Classifier, m *match) bool {
		end := min(m.te+n, len(m.s.toks))
		for k := m.te; k < end; k++ {
			if m.s.toks[k].isBreak() {
				return false
			}
			if m.s.titleAt[k] {
				return true
			}
			if e := m.s.entityAt(k); e != nil && c.personLike(m.s, e) {
				return true
			}
		}
		return false
	}
}

// personBefore accepts a person or a title before the trigger in its
// clause ("Jane Doe joins Acme").
func personBefore(c *Classifier, m *match) bool {
	for k := m.ts - 1; k >= 0 && !m.s.toks[k].isBreak(); k-- {
		if m.s.titleAt[k] {
			return true
		}
		if e := m.s.entityAt(k); e != nil && c.personLike(m.s, e) {
			return true
		}
	}
	return false
}

// notTransitiveRetire refuses "retires its diesel models".
func notTransitiveRetire(c *Classifier, m *match) bool {
	if m.te >= len(m.s.toks) || m.s.toks[m.ts].w == "retirement" {
		return true
	}
	t := &m.s.toks[m.te]
	return t.punct || t.cap || t.num || transitiveRetire.has(t.w)
}

// numberOfPeople accepts a count of people after the trigger: a number
// (not a percentage) followed within three words by "jobs", "engineers"...
func numberOfPeople(n int) check {
	return func(c *Classifier, m *match) bool {
		_, ok := headcountAfter(m.s, m.te, min(m.te+n, clauseEnd(m.s, m.te)))
		return ok
	}
}

// headcountAfter returns the first count of people starting in [from, to).
func headcountAfter(s *sentence, from, to int) (int64, bool) {
	for k := from; k < to; k++ {
		t := &s.toks[k]
		if !t.num || t.punct || (k+1 < len(s.toks) && s.toks[k+1].w == "%") {
			continue
		}
		v, end, ok := numberAt(s.toks, k)
		if !ok || v < 1 || v != float64(int64(v)) {
			continue
		}
		if rangeHas(s, end, min(end+3, len(s.toks)), peopleNouns) {
			return int64(v), true
		}
	}
	return 0, false
}
