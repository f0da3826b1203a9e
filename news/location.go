package news

import "github.com/prospectorhq/prospector/taxonomy"

// placeNouns are the words a location is written beside: "its London
// office", "a plant in Ohio".
var placeNouns = union(facilityWords, officeNouns, storeNouns, words(`team`))

// placePreps introduce a place: "in Lisbon", "to Singapore".
var placePreps = words(`in at on across to into`)

// location returns the place m's event happens in: the name after or
// before a place word ("plant in Ohio", "its London office"), else the
// name after "in" or "to", else the name the trigger acts on ("enters
// India"), else the first name in the sentence that is not the company.
func (c *Classifier) location(m *match) string {
	s := m.s
	isPlace := func(e int) bool { return e >= 0 && s.ents[e].kind == entName }
	end := clauseEnd(s, m.te)
	for k := m.te; k < end; k++ {
		if s.entAt[k] >= 0 || !placeNouns.has(s.toks[k].w) {
			continue
		}
		if k+2 < len(s.toks) && placePreps.has(s.toks[k+1].w) && isPlace(s.entAt[k+2]) {
			return c.entText(s, s.entAt[k+2])
		}
		if e := premodOf(s, k); isPlace(e) {
			return c.entText(s, e)
		}
	}
	for k := m.ts; k < len(s.toks); k++ {
		if t := &s.toks[k]; !t.punct && placePreps.has(t.w) && s.entAt[k] < 0 {
			if g := c.objectRight(s, k+1); len(g) > 0 && isPlace(g[0]) {
				return c.entText(s, g[0])
			}
		}
	}
	if g := c.objectsOf(m); len(g) > 0 && isPlace(g[0]) {
		return c.entText(s, g[0])
	}
	for i := range s.ents {
		if s.ents[i].kind == entName && !c.personLike(s, &s.ents[i]) {
			return c.entText(s, i)
		}
	}
	return ""
}

// premodOf returns the name standing before the place word at k, with at
// most two lower-case words between ("its Manchester operations centre").
func premodOf(s *sentence, k int) int {
	for j := k - 1; j >= 0 && j >= k-3; j-- {
		if e := s.entAt[j]; e >= 0 {
			return e
		}
		if t := &s.toks[j]; t.punct || t.cap || stops.has(t.w) {
			return -1
		}
	}
	return -1
}

func (c *Classifier) entText(s *sentence, e int) string {
	return s.textOf(s.ents[e].start, s.ents[e].end)
}

// locationData returns the structured form of a location when it names a
// country; cities and regions are not resolved (no gazetteer).
func locationData(loc string) (country, code string, ok bool) {
	code, ok = taxonomy.NormalizeCountry(loc)
	if !ok || code == taxonomy.WorldCode {
		return "", "", false
	}
	return taxonomy.CountryName(code), code, true
}
