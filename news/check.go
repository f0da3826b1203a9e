package news

// check is a condition a rule puts on the words around its trigger.
type check = func(c *Classifier, m *match) bool

// Noun classes the checks look for.
var (
	businessNouns = words(`unit units division divisions business businesses arm arms brand brands operations
		operation portfolio portfolios stations station subsidiary subsidiaries assets asset segment segments
		line lines network networks titles chain assets`)
	physicalAssets = words(`site sites building buildings mill mills plant plants factory factories warehouse
		warehouses facility facilities land property properties campus aircraft jets planes fleet equipment
		machinery patent patents scanners machines vessels ships trucks vehicles farm farms mine mines hangar
		acres acre headquarters turbines robots infrastructure servers`)
	investAssetNouns = words(`plant plants facility facilities factory factories equipment line lines farm farms
		site sites infrastructure machinery fleet aircraft capacity warehouse warehouses scanners shop shops
		building buildings campus hub lab labs center centre centers centres mill upgrade upgrades
		technology automation robots turbines servers network`)
	officeNouns = words(`office offices headquarters hq hub hubs presence space centre center operations`)
	storeNouns  = words(`store stores shop shops branch branches clinic clinics restaurant restaurants café
		cafe cafés cafes showroom showrooms taproom taprooms boutique boutiques location locations outlet outlets
		dealership dealerships hotel hotels gym gyms salon salons pharmacy pharmacies kiosk kiosks`)
	peopleNouns = words(`jobs job employees employee staff workers worker positions roles people engineers
		reps representatives technicians crew staffers hires workforce headcount members nurses drivers
		developers consultants agents associates`)
	financingNouns = words(`funding financing round seed pre-seed series investment grant loan capital backing
		credit debt note notes facility equity`)
	clientNouns = words(`contract contracts deal deals agreement agreements order orders customer customers
		client clients tender`)
	awardNouns = words(`award awards prize prizes medal medals trophy honor honour honors honours best year`)
)

// objEnd returns where the object phrase after token i ends: at a clause
// mark or at a preposition.
func objEnd(s *sentence, i int) int {
	k := i
	for ; k < len(s.toks); k++ {
		t := &s.toks[k]
		if t.isBreak() || t.w == "," || (!t.punct && stops.has(t.w) && s.entAt[k] < 0) {
			break
		}
	}
	return k
}

// clauseEnd returns the end of the clause holding token i.
func clauseEnd(s *sentence, i int) int {
	for k := i; k < len(s.toks); k++ {
		if s.toks[k].isBreak() || s.toks[k].w == "," {
			return k
		}
	}
	return len(s.toks)
}

// objHas accepts when the object phrase holds a word of set.
func objHas(set wordSet) check {
	return func(c *Classifier, m *match) bool {
		return rangeHas(m.s, m.te, objEnd(m.s, m.te), set)
	}
}

// nextHas accepts when one of the n words after the trigger, within the
// clause, is in set.
func nextHas(n int, set wordSet) check {
	return func(c *Classifier, m *match) bool {
		return rangeHas(m.s, m.te, min(m.te+n, clauseEnd(m.s, m.te)), set)
	}
}

// clauseHas accepts when the trigger's clause holds a word of set.
func clauseHas(set wordSet) check {
	return func(c *Classifier, m *match) bool {
		from := m.ts
		for from > 0 && !m.s.toks[from-1].isBreak() && m.s.toks[from-1].w != "," {
			from--
		}
		return rangeHas(m.s, from, clauseEnd(m.s, m.te), set)
	}
}

// sentenceHas accepts when the sentence holds a word of set.
func sentenceHas(set wordSet) check {
	return func(c *Classifier, m *match) bool { return rangeHas(m.s, 0, len(m.s.toks), set) }
}

// rangeHas reports whether a word of set stands in tokens [from, to)
// outside any name: "Labs" in "Fernlight Labs" is no lab.
func rangeHas(s *sentence, from, to int, set wordSet) bool {
	for k := from; k < to && k < len(s.toks); k++ {
		if !s.toks[k].punct && s.entAt[k] < 0 && set.has(s.toks[k].w) {
			return true
		}
	}
	return false
}

// wordsNext accepts when one of the n words after the trigger, names
// included, is in set ("wins Best in Show").
func wordsNext(n int, set wordSet) check {
	return func(c *Classifier, m *match) bool {
		end := min(m.te+n, clauseEnd(m.s, m.te))
		for k := m.te; k < end; k++ {
			if !m.s.toks[k].punct && set.has(m.s.toks[k].w) {
				return true
			}
		}
		return false
	}
}

// prevNot accepts when the word before the trigger is not in set.
func prevNot(set wordSet) check {
	return func(c *Classifier, m *match) bool {
		return m.ts == 0 || !set.has(m.s.toks[m.ts-1].w)
	}
}

// objName accepts when a name follows the trigger as its object, or sits
// inside the trigger's gap ("takes Beta to court").
func objName(c *Classifier, m *match) bool {
	return len(c.objectsOf(m)) > 0
}

// moneyNext accepts when an amount follows within n words.
func moneyNext(n int) check {
	return func(c *Classifier, m *match) bool {
		_, ok := firstMoney(m.s.toks, m.te, min(m.te+n, clauseEnd(m.s, m.te)))
		return ok
	}
}

// allOf accepts when every check does.
func allOf(cs ...check) check {
	return func(c *Classifier, m *match) bool {
		for _, ch := range cs {
			if !ch(c, m) {
				return false
			}
		}
		return true
	}
}

// anyOf accepts when one of the checks does.
func anyOf(cs ...check) check {
	return func(c *Classifier, m *match) bool {
		for _, ch := range cs {
			if ch(c, m) {
				return true
			}
		}
		return false
	}
}

// not inverts a check.
func not(ch check) check {
	return func(c *Classifier, m *match) bool { return !ch(c, m) }
}

// personOrTitle accepts when the sentence names a job title or a person.
func personOrTitle(c *Classifier, m *match) bool {
	for k := range m.s.titleAt {
		if m.s.titleAt[k] {
			return true
		}
	}
	for i := range m.s.ents {
		if c.personLike(m.s, &m.s.ents[i]) {
			return true
		}
	}
	return false
}

// headcountNext accepts when a number of people follows the trigger
// ("lays off 120 employees", "to cut 8% of its workforce").
func headcountNext(n int) check {
	return func(c *Classifier, m *match) bool {
		end := min(m.te+n, clauseEnd(m.s, m.te))
		return rangeHas(m.s, m.te, end, peopleNouns)
	}
}
