package news

import "strings"

// role is the part a name plays around a trigger.
type role uint8

const (
	roleNone    role = iota
	roleSubj         // the subject: who acts ("Acme" in "Acme acquires Beta")
	roleObj          // the direct object ("Beta"), or the subject of a passive
	rolePoss         // the owner of the object ("Beta" in "buys Beta's unit")
	rolePremod       // the name just before a noun trigger ("Quince acquisition")
	roleTo           // the name after "to"
	roleFrom         // after "from"
	roleBy           // after "by": the agent of a passive
	roleIn           // after "in" or "into"
	roleWith         // after "with"
	roleOf           // after "of"
	roleAgainst      // after "against"
	numRoles
)

// prepRoles are the prepositions whose names play a role, in the order
// they are tried.
var prepRoles = [...]struct {
	w string
	r role
}{{"to", roleTo}, {"from", roleFrom}, {"by", roleBy}, {"in", roleIn}, {"into", roleIn},
	{"with", roleWith}, {"of", roleOf}, {"against", roleAgainst}}

// rule is one way a headline says a category: trigger phrases, the
// category the company gets in each role, and conditions on the words
// around.
type rule struct {
	cat string // the category of the subject
	// as gives the category of the other roles; a role missing gets none.
	as      map[role]string
	cats    [numRoles]string
	phrases []string // trigger phrases: words split by spaces, "~" skips up to four words
	prio    int      // the highest priority match of a sentence wins
	conf    float64  // confidence of a headline match with a named subject
	passive bool     // may be read in the passive ("acquired by", "to be bought")
	noun    bool     // a noun: the name just before it is rolePremod
	people  bool     // the subject may be a person of the company ("Acme CEO Jane Doe")
	counter bool     // the other company named is worth reporting
	// counterAny looks for the other company after "by" or "from"
	// anywhere in the sentence ("led by", "backed by", "grant from").
	counterAny bool
	// prefer is the preposition whose name is the other company before
	// any other ("to" for a sale: "sells its unit to Beta").
	prefer string
	// of is the category of the event as its subject sees it, for a rule
	// whose subject gets none ("Beta sold to Acme"); "" means cat.
	of string
	// plan are words that make the event planned, beyond the usual ones.
	plan wordSet
	// check, when set, must accept the match.
	check func(c *Classifier, m *match) bool
}

// phrase is one compiled trigger phrase of a rule.
type phrase struct {
	words []string
	r     *rule
}

// compileRules indexes the rules' phrases by their first word.
func (c *Classifier) compileRules(rules []*rule) {
	c.index = map[string][]phrase{}
	for _, r := range rules {
		r.cats[roleSubj] = r.cat
		for k, v := range r.as {
			r.cats[k] = v
		}
		for _, p := range r.phrases {
			ws := strings.Fields(p)
			c.index[ws[0]] = append(c.index[ws[0]], phrase{words: ws, r: r})
		}
	}
}

// isTrigger reports whether w opens some trigger phrase.
func (c *Classifier) isTrigger(w string) bool {
	_, ok := c.index[w]
	return ok
}

// match is a trigger phrase found at tokens [ts, te).
type match struct {
	r       *rule
	ws      []string // the phrase matched
	s       *sentence
	ts, te  int
	passive bool
}

// gap returns the tokens a "~" of the phrase stepped over, or (0, 0).
func (m *match) gap() (int, int) {
	for g, w := range m.ws {
		if w == "~" {
			return m.ts + g, m.te - (len(m.ws) - g - 1)
		}
	}
	return 0, 0
}

// matchPhrase returns the end of phrase ws matched at token i, or -1.
func matchPhrase(s *sentence, i int, ws []string) int {
	j := i
	for k := 0; k < len(ws); k++ {
		if ws[k] == "~" {
			rest := ws[k+1:]
			for gap := 0; gap <= 4 && j+gap <= len(s.toks); gap++ {
				if gap > 0 {
					if t := &s.toks[j+gap-1]; t.isBreak() || t.w == "," {
						break
					}
				}
				if end := matchPhrase(s, j+gap, rest); end >= 0 {
					return end
				}
			}
			return -1
		}
		if j >= len(s.toks) || s.toks[j].w != ws[k] || s.toks[j].punct != isMark(ws[k]) {
			return -1
		}
		j++
	}
	return j
}

func isMark(w string) bool {
	return len(w) == 1 && !(w[0] >= 'a' && w[0] <= 'z' || w[0] >= '0' && w[0] <= '9')
}

// forms returns a regular verb's forms: base, -s, -ed, -ing ("acquire",
// "acquires", "acquired", "acquiring"). Irregular verbs are written out.
func forms(base string) []string {
	s, ed, ing := base+"s", base+"ed", base+"ing"
	switch {
	case strings.HasSuffix(base, "e"):
		ed, ing = base+"d", base[:len(base)-1]+"ing"
	case strings.HasSuffix(base, "y") && len(base) > 1 && !strings.ContainsRune("aeiou", rune(base[len(base)-2])):
		s, ed = base[:len(base)-1]+"ies", base[:len(base)-1]+"ied"
	case strings.HasSuffix(base, "s") || strings.HasSuffix(base, "sh") || strings.HasSuffix(base, "ch") ||
		strings.HasSuffix(base, "x"):
		s = base + "es"
	}
	return []string{base, s, ed, ing}
}

// with appends suffix to each of the phrases: with(forms("partner"),
// "with") is "partner with", "partners with", ...
func with(heads []string, suffixes ...string) []string {
	var out []string
	for _, h := range heads {
		for _, s := range suffixes {
			out = append(out, strings.TrimSpace(h+" "+s))
		}
	}
	return out
}

// join concatenates phrase lists.
func join(lists ...[]string) []string {
	var out []string
	for _, l := range lists {
		out = append(out, l...)
	}
	return out
}
