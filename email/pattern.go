package email

import (
	"sort"

	"github.com/prospectorhq/prospector"
)

// Pattern is a way a company builds local parts from folded names. The
// constants are in prior order: how common each pattern is across
// companies, which ranks patterns a domain gives no evidence about. The
// demo generator builds its addresses with them too.
type Pattern int

const (
	FirstDotLast   Pattern = iota // first.last
	FLast                         // flast
	First                         // first
	FirstL                        // firstl
	FDotLast                      // f.last
	FirstUnderLast                // first_last
	FirstLast                     // firstlast
	LastF                         // lastf
	LastDotFirst                  // last.first
	Last                          // last
	NumPatterns
)

var patternNames = [NumPatterns]string{
	"first.last", "flast", "first", "firstl", "f.last",
	"first_last", "firstlast", "lastf", "last.first", "last",
}

// String is the pattern's stable name, as the docs use it.
func (p Pattern) String() string { return patternNames[p] }

// Local builds the local part for folded names first and last. It
// returns "" when the pattern needs a name that is missing: without a
// last name only First is possible.
func (p Pattern) Local(first, last string) string {
	if first == "" || last == "" && p != First {
		return ""
	}
	switch p {
	case FirstDotLast:
		return first + "." + last
	case FLast:
		return first[:1] + last
	case First:
		return first
	case FirstL:
		return first + last[:1]
	case FDotLast:
		return first[:1] + "." + last
	case FirstUnderLast:
		return first + "_" + last
	case FirstLast:
		return first + last
	case LastF:
		return last + first[:1]
	case LastDotFirst:
		return last + "." + first
	case Last:
		return last
	}
	return ""
}

// patternStats is what a domain's known addresses say about its pattern.
type patternStats struct {
	explained [NumPatterns]int // known addresses each pattern produces
	known     int              // personal addresses known at the domain
	bounced   [NumPatterns]int // addresses following each pattern that bounced (outcome.go)
}

// share is the fraction of known addresses p explains, 0 with none known.
func (s patternStats) share(p Pattern) float64 {
	if s.known == 0 {
		return 0
	}
	return float64(s.explained[p]) / float64(s.known)
}

// evidence is share weighted by how many addresses back it, saturating
// at ten, and by the share of the addresses following p that did not
// bounce: in 0..1, and 0 exactly when nothing supports p.
func (s patternStats) evidence(p Pattern) float64 {
	e := s.share(p) * float64(min(s.known, 10)) / 10
	if b := s.bounced[p]; b > 0 {
		e *= float64(s.explained[p]) / float64(s.explained[p]+b)
	}
	return e
}

// inferPatterns counts, over the people's addresses at domain, which
// patterns produce each local part from the person's names. Role
// addresses and people without a usable first name tell nothing about
// the personal pattern and are left out; each address counts once.
func inferPatterns(people []*prospector.Person, domain string) patternStats {
	var s patternStats
	seen := make(map[string]bool)
	for _, p := range people {
		local, d, ok := parseAddress(p.Email)
		if !ok || d != domain || isRole(local) || seen[local] {
			continue
		}
		first, last := foldName(p.FirstName), foldName(p.LastName)
		if first == "" {
			continue
		}
		seen[local] = true
		s.known++
		for pat := range NumPatterns {
			if l := pat.Local(first, last); l != "" && l == local {
				s.explained[pat]++
			}
		}
	}
	return s
}

// rank orders the patterns by evidence, most first, then by prior order.
// Without bounces that is the share of known addresses they explain.
func (s patternStats) rank() []Pattern {
	ps := make([]Pattern, NumPatterns)
	for i := range ps {
		ps[i] = Pattern(i)
	}
	sort.SliceStable(ps, func(i, j int) bool { return s.evidence(ps[i]) > s.evidence(ps[j]) })
	return ps
}
