package news

import (
	"math"
	"regexp"
	"sort"
	"strings"
	"unicode"
)

// Classifier reads headlines with rules: no model, no network. It is
// safe for concurrent use; build one with NewClassifier and share it.
type Classifier struct {
	lex   *lexicon
	index map[string][]phrase
	vocab wordSet // words read as lower-case in Title Case headlines
}

// NewClassifier compiles the rules.
func NewClassifier() *Classifier {
	c := &Classifier{lex: newLexicon(), index: map[string][]phrase{}}
	var rules []*rule
	for _, rs := range [][]*rule{c.dealRules(), c.peopleRules(), c.placeRules(), c.productRules(), c.standingRules()} {
		rules = append(rules, rs...)
	}
	c.compileRules(rules)
	c.buildVocab(rules, businessNouns, physicalAssets, investAssetNouns, officeNouns, storeNouns,
		peopleNouns, financingNouns, clientNouns, awardNouns, acquirable, stakeWords, vehicles,
		roundWords, facilityWords, launchVeto, filler, determiners, notAward, otherDeals, transitiveRetire)
	return c
}

// Input is one news item to classify for one company.
type Input struct {
	Company  Company
	Headline string
	Summary  string
	// Own marks an item from the company's own feed: "we" is the company,
	// and a headline naming nobody ("Introducing Flow 2.0") is about it.
	Own bool
}

// Result is what a headline says about the company.
type Result struct {
	// Category is one of Categories, or "" when the item says none of
	// them about the company.
	Category string
	// ObjectOf is set when the company is what an event happened to
	// rather than its subject: "Acme acquired by Beta" gives Category ""
	// and ObjectOf "acquires" for Acme.
	ObjectOf string
	// Object is the other company the event names (Beta in "Acme acquires
	// Beta"), or "".
	Object string
	// Sentence is the sentence the category was read from.
	Sentence    string
	FromSummary bool
	// Confidence is between 0 and 1: how sure the rule that fired is.
	Confidence float64
	Planning   bool // the event is announced or planned, not done
	Attributes Attributes
}

// Classify reads in for in.Company. It never fails: text it cannot read
// gives a Result with no category.
func (c *Classifier) Classify(in Input) Result {
	headline := wirePrefix.ReplaceAllString(in.Headline, "")
	if genre(headline) {
		return Result{}
	}
	n := c.compileName(in.Company, in.Own)
	s := c.analyse(headline, n, false, in.Own)
	if r, ok := c.classifySentence(s); ok {
		if r.Category != "" {
			c.completeFromSummary(&r, in.Summary)
		}
		return r
	}
	for i, text := range sentences(in.Summary) {
		if i == 3 {
			break
		}
		s := c.analyse(text, n, true, in.Own)
		if r, ok := c.classifySentence(s); ok {
			r.FromSummary = true
			r.Confidence = round2(r.Confidence * 0.85)
			return r
		}
	}
	return Result{}
}

// wirePrefix matches the labels wire services put before a headline:
// "UPDATE 2-", "BRIEF-", "EXCLUSIVE:".
var wirePrefix = regexp.MustCompile(`^\s*(?:UPDATE\s*\d*|BRIEF|EXCLUSIVE|CORRECTED|REFILE|WRAPUP\s*\d*|BREAKING|PRESS RELEASE)\s*[-:–—]\s*`)

// genreWords open headlines that discuss rather than report: "How Acme
// built...", "Opinion: ...", "Should you buy Acme?".
var genreWords = words(`how why what should opinion analysis explainer recipe review podcast video watch quiz
	webinar commentary column editorial factbox explainer`)

func genre(headline string) bool {
	first := strings.TrimLeftFunc(headline, func(r rune) bool { return !unicode.IsLetter(r) })
	if i := strings.IndexFunc(first, func(r rune) bool { return !unicode.IsLetter(r) }); i >= 0 {
		first = first[:i]
	}
	if len(first) <= 12 && genreWords.has(strings.ToLower(first)) {
		return true
	}
	return containsFold(headline, "things to know")
}

// containsFold reports whether s holds the lower-case ASCII word w in any
// case.
func containsFold(s, w string) bool {
	for i := 0; i+len(w) <= len(s); i++ {
		if strings.EqualFold(s[i:i+len(w)], w) {
			return true
		}
	}
	return false
}

// candidate is a match with the company's part in it.
type candidate struct {
	m       match
	role    role
	cat     string
	counter int
}

// classifySentence returns the sentence's reading for the company. ok is
// false when the sentence says nothing decisive about it.
func (c *Classifier) classifySentence(s *sentence) (Result, bool) {
	if !s.hasCompany() && !s.own {
		return Result{}, false
	}
	var cands []candidate
	for i := range s.toks {
		t := &s.toks[i]
		if s.entAt[i] >= 0 || t.punct {
			continue
		}
		for _, p := range c.index[t.w] {
			if t.poss && !p.r.noun {
				continue
			}
			end := matchPhrase(s, i, p.words)
			if end < 0 {
				continue
			}
			m := match{r: p.r, ws: p.words, s: s, ts: i, te: end}
			m.passive = (p.r.passive && c.isPassive(s, i, end)) ||
				(p.r.noun && end < len(s.toks) && s.toks[end].w == "by")
			if p.r.check != nil && !p.r.check(c, &m) {
				continue
			}
			rl, counter := c.resolve(&m)
			if rl == roleNone {
				continue
			}
			cands = append(cands, candidate{m: m, role: rl, cat: p.r.cats[rl], counter: counter})
		}
	}
	sort.SliceStable(cands, func(i, j int) bool { return cands[i].m.r.prio > cands[j].m.r.prio })
	for i, cd := range cands {
		if cd.cat != "" {
			return c.result(s, &cd), true
		}
		of := cd.m.r.of
		if of == "" {
			of = cd.m.r.cat
		}
		// Only a company bought as a whole is decided by being the object:
		// "Beta selects Acme" leaves Acme's own categories open.
		patient := cd.role == roleObj || (cd.m.r.cat == "" && cd.role == roleSubj)
		if of != Acquires || !patient {
			continue
		}
		// The company is what the event happened to; a rule of the same
		// priority may still give it a category of its own.
		for _, other := range cands[i+1:] {
			if other.m.r.prio < cd.m.r.prio {
				break
			}
			if other.cat != "" {
				return c.result(s, &other), true
			}
		}
		r := Result{ObjectOf: of, Sentence: s.text}
		if cd.counter >= 0 {
			r.Object = s.textOf(s.ents[cd.counter].start, s.ents[cd.counter].end)
		}
		return r, true
	}
	return Result{}, false
}

// result builds the Result of the winning candidate.
func (c *Classifier) result(s *sentence, cd *candidate) Result {
	r := Result{Category: cd.cat, Sentence: s.text}
	if cd.counter >= 0 && cd.m.r.counter {
		r.Object = s.textOf(s.ents[cd.counter].start, s.ents[cd.counter].end)
	}
	conf := cd.m.r.conf
	if !s.hasCompany() {
		conf *= 0.85 // the company is only implied by its own feed
	}
	if s.title {
		conf *= 0.95
	}
	r.Confidence = round2(conf)
	r.Planning = c.planned(&cd.m)
	r.Attributes = c.attributes(&cd.m, cd.cat)
	return r
}

func round2(f float64) float64 { return math.Round(f*100) / 100 }
