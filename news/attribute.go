package news

import (
	"regexp"
	"strings"
)

// Attributes are the details a headline gives beside its category; the
// zero value of a field means the text does not give it.
type Attributes struct {
	Amount                  string  // as written: "$25M", "€1.2 billion"
	AmountNormalized        float64 // in units of the amount's currency; 0 when no amount
	FinancingType           string  // as written: "Series B", "seed round"
	FinancingTypeNormalized string  // seed, series_a, debt, grant... (financingTags' keys)
	JobTitle                string
	Contact                 string // the person named
	Headcount               int64
	Location                string
	Product                 string
	ProductVersion          string
	Award                   string
	Recognition             string
	Event                   string
	Vulnerability           string
}

// attributes reads the details of m's sentence that cat cares about.
func (c *Classifier) attributes(m *match, cat string) Attributes {
	s := m.s
	var a Attributes
	if mo, ok := firstMoney(s.toks, 0, len(s.toks)); ok {
		a.Amount, a.AmountNormalized = s.textOf(mo.start, mo.end), mo.value
	}
	switch cat {
	case ReceivesFinancing, InvestsInto:
		if f, ok := firstFinancing(s.toks, 0, len(s.toks)); ok {
			a.FinancingType, a.FinancingTypeNormalized = s.textOf(f.start, f.end), f.normalized
		}
	case Hires, Leaves, Promotes, RetiresFrom:
		a.JobTitle, a.Contact = c.jobTitle(s), c.contact(s)
	case IncreasesHeadcountBy, DecreasesHeadcountBy:
		a.Headcount = headcountOf(s, m)
	case Launches, IsDeveloping:
		a.Product, a.ProductVersion = c.product(m)
	case ReceivesAward:
		a.Award = c.award(m)
	case RecognizedAs:
		a.Recognition = trimDeterminers(s, m.te, clauseEnd(s, m.te), false)
	case AttendsEvent:
		a.Event = c.eventOf(m)
	case HasIssuesWith:
		a.Vulnerability = vulnerability(s, m)
	}
	switch cat {
	case ClosesOfficesIn, ExpandsFacilities, ExpandsOfficesIn, ExpandsOfficesTo, OpensNewLocation,
		IncreasesHeadcountBy, DecreasesHeadcountBy, InvestsIntoAssets:
		a.Location = c.location(m)
	}
	return a
}

// moneyCategories are the categories an amount belongs to.
var moneyCategories = words(`acquires merges_with sells_assets_to signs_new_client invests_into
	invests_into_assets receives_financing goes_public expands_facilities has_issues_with files_suit_against`)

// completeFromSummary fills the amount, financing type and headcount a
// headline leaves out from the item's summary ("Acme wins contract" /
// "The state awarded Acme a $7.5 million contract").
func (c *Classifier) completeFromSummary(r *Result, summary string) {
	a := &r.Attributes
	needMoney := a.Amount == "" && moneyCategories.has(r.Category)
	needType := a.FinancingTypeNormalized == "" && (r.Category == ReceivesFinancing || r.Category == InvestsInto)
	needCount := a.Headcount == 0 && (r.Category == IncreasesHeadcountBy || r.Category == DecreasesHeadcountBy)
	if summary == "" || !(needMoney || needType || needCount) {
		return
	}
	for i, text := range sentences(summary) {
		if i == 3 {
			break
		}
		s := &sentence{text: text, toks: tokenize(text, nil)}
		s.entAt = make([]int, len(s.toks))
		for k := range s.entAt {
			s.entAt[k] = -1
		}
		if mo, ok := firstMoney(s.toks, 0, len(s.toks)); ok && needMoney {
			a.Amount, a.AmountNormalized, needMoney = s.textOf(mo.start, mo.end), mo.value, false
		}
		if f, ok := firstFinancing(s.toks, 0, len(s.toks)); ok && needType {
			a.FinancingType, a.FinancingTypeNormalized, needType = s.textOf(f.start, f.end), f.normalized, false
		}
		if n, ok := headcountAfter(s, 0, len(s.toks)); ok && needCount {
			a.Headcount, needCount = n, false
		}
	}
}

// jobTitle returns the title the sentence names: the one after "as" or
// "to" (the new role), else the first.
func (c *Classifier) jobTitle(s *sentence) string {
	first := ""
	for i := 0; i < len(s.toks); {
		if !s.titleAt[i] {
			i++
			continue
		}
		j := i
		for j < len(s.toks) && s.titleAt[j] {
			j++
		}
		t := s.textOf(i, j)
		if i > 0 && (s.toks[i-1].w == "as" || s.toks[i-1].w == "to") {
			return t
		}
		if first == "" {
			first = t
		}
		i = j
	}
	return first
}

// contact returns the first person the sentence names.
func (c *Classifier) contact(s *sentence) string {
	for i := range s.ents {
		if c.personLike(s, &s.ents[i]) {
			return s.textOf(s.ents[i].start, s.ents[i].end)
		}
	}
	return ""
}

// headcountOf returns the number of people m's sentence says were hired or
// let go: "300 engineers", "45 roles affected", "headcount by 200".
func headcountOf(s *sentence, m *match) int64 {
	if n, ok := headcountAfter(s, m.te, clauseEnd(s, m.te)); ok {
		return n
	}
	if n, ok := headcountAfter(s, 0, len(s.toks)); ok {
		return n
	}
	for k := m.ts; k+1 < len(s.toks); k++ {
		if s.toks[k].w == "by" && s.toks[k+1].num && (k+2 >= len(s.toks) || s.toks[k+2].w != "%") {
			if v, _, ok := numberAt(s.toks, k+1); ok && v >= 1 {
				return int64(v)
			}
		}
	}
	return 0
}

var versionRE = regexp.MustCompile(`^v?\d+(\.\d+)*$`)

// product returns what m launches or develops, and its version.
func (c *Classifier) product(m *match) (string, string) {
	s := m.s
	from := m.te
	if gs, ge := m.gap(); ge > gs {
		from = gs
		return trimDeterminers(s, gs, ge, true), version(s, gs, ge)
	}
	if from < len(s.toks) && (s.toks[from].w == "of" || s.toks[from].w == "for") {
		from++
	}
	end := objEnd(s, from)
	if end < len(s.toks) && s.toks[end].w == "of" && rangeHas(s, from, end, words(`version release update`)) {
		from = end + 1
		end = objEnd(s, from)
	}
	return trimDeterminers(s, from, end, true), version(s, from, end)
}

func version(s *sentence, from, to int) string {
	if to > from && versionRE.MatchString(s.toks[to-1].w) && to-1 > from {
		return s.textOf(to-1, to)
	}
	return ""
}

// awardStops end an award's name; "in" and "of" do not ("Best in Show",
// "Entrepreneur of the Year").
var awardStops = words(`at for from by after amid during with`)

// award returns the award m's company received.
func (c *Classifier) award(m *match) string {
	s := m.s
	end := m.te
	for end < len(s.toks) && !s.toks[end].isBreak() && s.toks[end].w != "," && !awardStops.has(s.toks[end].w) {
		end++
	}
	return trimDeterminers(s, m.te, end, false)
}

// eventOf returns the event m names: a name holding an event word, else
// the name after "at", else the name right after the trigger.
func (c *Classifier) eventOf(m *match) string {
	s := m.s
	for i := range s.ents {
		if s.ents[i].kind == entEvent {
			return s.textOf(s.ents[i].start, s.ents[i].end)
		}
	}
	for k := m.ts; k < len(s.toks); k++ {
		if s.toks[k].w == "at" && !s.toks[k].punct {
			if g := c.objectRight(s, k+1); len(g) > 0 && s.ents[g[0]].kind == entName {
				return s.textOf(s.ents[g[0]].start, s.ents[g[0]].end)
			}
		}
	}
	if g := c.objectsOf(m); len(g) > 0 && s.ents[g[0]].kind == entName {
		return s.textOf(s.ents[g[0]].start, s.ents[g[0]].end)
	}
	return ""
}

// vulnerability returns a CVE id, or the words naming the flaw.
func vulnerability(s *sentence, m *match) string {
	for k := range s.toks {
		if strings.HasPrefix(s.toks[k].w, "cve-") {
			return s.textOf(k, k+1)
		}
	}
	if w := s.toks[m.ts].w; strings.HasPrefix(w, "vulnerabilit") {
		from := m.ts
		if from > 0 && !s.toks[from-1].punct && s.entAt[from-1] < 0 {
			from--
		}
		return s.textOf(from, m.te)
	}
	return ""
}

// trimDeterminers returns the text of [from, to) without leading articles
// and possessives ("its new app" is "app").
func trimDeterminers(s *sentence, from, to int, fillers bool) string {
	for from < to && !s.toks[from].cap && determiners.has(s.toks[from].w) {
		from++
	}
	for to > from && (s.toks[to-1].punct || (fillers && filler.has(s.toks[to-1].w) && !s.toks[to-1].cap)) {
		to--
	}
	return s.textOf(from, to)
}

var determiners = words(`a an the its their our his her new first latest`)
