package sec

import (
	"regexp"
	"strings"
	"time"

	"github.com/prospectorhq/prospector"
)

// ExecutiveChange is one person's arrival or departure read from an
// Item 5.02 sentence.
type ExecutiveChange struct {
	Name string
	// Title is the role as written ("Chief Financial Officer"); board
	// seats read "Director". "" when the sentence names none.
	Title string
	// Action is appointed, elected, promoted, departed or retired.
	Action string
	// EffectiveDate is YYYY-MM-DD when the text gives it: "effective
	// June 30, 2026", or the sentence's opening "On May 1, 2026," for a
	// change that happened then (not for an announced intention).
	EffectiveDate string
	// Sentence is the sentence it was read from (bounded).
	Sentence string
}

var (
	monthDay = `(?:January|February|March|April|May|June|July|August|September|October|November|December|` +
		`Jan\.?|Feb\.?|Mar\.?|Apr\.?|Jun\.?|Jul\.?|Aug\.?|Sept?\.?|Oct\.?|Nov\.?|Dec\.?)\s+\d{1,2}(?:st|nd|rd|th)?,?\s+\d{4}`
	dateExpr  = `(` + monthDay + `|\d{1,2}/\d{1,2}/\d{4})`
	effRe     = regexp.MustCompile(`(?i)\b(?:effective|with\s+effect\s+from|as\s+of)\b[^;]{0,60}?` + dateExpr)
	immedRe   = regexp.MustCompile(`(?i)\beffective\s+immediately\b|\bwith\s+immediate\s+effect\b`)
	leadRe    = regexp.MustCompile(`(?i)^(?:(?:also|further|additionally|separately),?\s+)?(?:on|effective|as\s+of)\s+(?:or\s+about\s+)?` + dateExpr)
	futureRe  = regexp.MustCompile(`(?i)\b(?:will|intends?|plans?|decided|decision|agreed|expects?|intention)\b`)
	enumRe    = regexp.MustCompile(`^\s*\(?[a-h]\)\s*`)
	triggerRe = regexp.MustCompile(`(?i)\b(?:appoint|elect(?:ed|ion)|resign|retire|step(?:ped|s)?\s+down|depart|promot|terminat|separation|succe(?:ed|ssor)|ceased?\s+to)`)
	boilerRe  = regexp.MustCompile(`(?i)arrangements?\s+or\s+understandings?|family\s+relationships?|item\s+404\(a\)|regulation\s+s-k|` +
		`press\s+release|exhibit\s+\d|incorporated\s+(?:herein\s+)?by\s+reference|disagreements?\s+with\s+the\s+company|` +
		`any\s+disagreement|no\s+disagreement|indemnification\s+agreement|not\s+(?:yet\s+)?been\s+determined|has\s+not\s+been\s+named`)
	followRe = regexp.MustCompile(`(?i)^(?:(?:his|her|their|such|the|this)\s+|(?:mr|ms|mrs|dr)\.?\s+\S+['’]s\s+)` +
		`(?P<noun>retirement|resignation|departure|appointment|election|promotion)\b`)
	chainCut = regexp.MustCompile(`\s,?\s*(?i:and)\s+` + oneName + `\s+(?i:as)\s+`)
)

// extractChanges reads a section's changes; rest are the sentences that
// name a change the rules could not read.
func extractChanges(section string) (changes []ExecutiveChange, rest []string) {
	for _, s := range sentences(section) {
		s = strings.TrimSpace(enumRe.ReplaceAllString(s, ""))
		found, orphan := matchSentence(s)
		added := 0
		for _, f := range found {
			if merge(changes, f) {
				added++
				continue
			}
			changes = append(changes, f)
			added++
		}
		for _, o := range orphan {
			// "Mr. Doe will retire" is Doe of an earlier sentence or
			// nobody the text names in full: never guessed.
			if i := bySurname(changes, o.Name); i >= 0 {
				fill(&changes[i], o)
				added++
			}
		}
		if added > 0 {
			continue
		}
		if m := followRe.FindStringSubmatch(s); m != nil {
			if d := effectiveIn(s); d != "" && fillDate(changes, arriving(actionOf(m[1])), d) {
				continue
			}
		}
		if triggerRe.MatchString(s) && !boilerRe.MatchString(s) && !mentions(s, changes) && !heading(s) {
			rest = append(rest, s)
		}
	}
	if len(changes) == 0 && len(rest) == 0 && triggerRe.MatchString(section) && !boilerRe.MatchString(section) {
		rest = append(rest, section)
	}
	return changes, rest
}

// matchSentence applies every rule to one sentence. orphan holds
// changes named by surname only ("Mr. Doe").
func matchSentence(s string) (found, orphan []ExecutiveChange) {
	seen := map[string]bool{}
	add := func(raw, title, verb string, start int, intent bool, appos string) {
		for _, n := range splitNames(raw) {
			name, surname, ok := personName(n)
			t := title
			if !ok && appos != "" {
				// "the Company's CFO, John Doe, resigned": the title came
				// first and the name in the aside.
				if name, surname, ok = personName(appos); ok && capitalised(appos) {
					t = n
				}
			} else if t == "" && appos != "" {
				t = appos
			}
			if !ok || seen[strings.ToLower(name)] {
				continue
			}
			seen[strings.ToLower(name)] = true
			c := ExecutiveChange{Name: name, Title: cleanTitle(t), Action: actionOf(verb), Sentence: truncate(s, maxUnparsedChars)}
			c.EffectiveDate = effectiveDate(s, start, intent || futureRe.MatchString(verb))
			if surname {
				orphan = append(orphan, c)
			} else {
				found = append(found, c)
			}
		}
	}
	low := strings.ToLower(s)
	for _, r := range rules {
		if !containsAny(low, r.keys) {
			continue
		}
		for _, m := range r.re.FindAllStringSubmatchIndex(s, -1) {
			g := func(name string) string {
				i := r.re.SubexpIndex(name)
				if i < 0 || m[2*i] < 0 {
					return ""
				}
				return s[m[2*i]:m[2*i+1]]
			}
			title, verb := g("title"), g("verb")
			var chained string
			if loc := chainCut.FindStringIndex(title); loc != nil {
				title, chained = title[:loc[0]], title[loc[0]:]
			}
			intent := r.noLeadDate || futureRe.MatchString(s[m[0]:m[1]])
			add(g("name"), title, verb, m[0], intent, g("appos"))
			for chained != "" {
				cm := chainRe.FindStringSubmatch(chained)
				if cm == nil {
					break
				}
				t := cm[chainRe.SubexpIndex("title")]
				chained = ""
				if loc := chainCut.FindStringIndex(t); loc != nil {
					t, chained = t[:loc[0]], t[loc[0]:]
				}
				add(cm[chainRe.SubexpIndex("name")], t, verb, m[0], intent, "")
			}
		}
	}
	return found, orphan
}

// effectiveDate is the date an "effective ..." phrase gives after the
// match (else anywhere in the sentence); else, for a change that is not
// an announced intention or that is effective immediately, the
// sentence's opening date.
func effectiveDate(s string, from int, intent bool) string {
	if d := effectiveIn(s[from:]); d != "" {
		return d
	}
	if d := effectiveIn(s); d != "" {
		return d
	}
	if intent && !immedRe.MatchString(s[from:]) {
		return ""
	}
	if m := leadRe.FindStringSubmatch(s); m != nil {
		return parseTextDate(m[1])
	}
	return ""
}

func effectiveIn(s string) string {
	if m := effRe.FindStringSubmatch(s); m != nil {
		return parseTextDate(m[1])
	}
	return ""
}

var ordinalRe = regexp.MustCompile(`(\d)(?:st|nd|rd|th)\b`)

var textDateLayouts = []string{"January 2 2006", "Jan 2 2006", "1/2/2006"}

// parseTextDate reads "May 1, 2026", "Sept. 3, 2026" or "5/1/2026" as
// YYYY-MM-DD; "" when it is no date.
func parseTextDate(s string) string {
	s = ordinalRe.ReplaceAllString(strings.NewReplacer(",", " ", ".", "", "Sept", "Sep").Replace(s), "$1")
	s = strings.Join(strings.Fields(s), " ")
	for _, l := range textDateLayouts {
		if t, err := time.Parse(l, s); err == nil {
			return t.Format(time.DateOnly)
		}
	}
	return ""
}

func containsAny(s string, words []string) bool {
	for _, w := range words {
		if strings.Contains(s, w) {
			return true
		}
	}
	return false
}

func capitalised(s string) bool {
	for _, t := range strings.Fields(s) {
		if !particleRe.MatchString(t) && (t[0] < 'A' || t[0] > 'Z') {
			return false
		}
	}
	return true
}

// merge folds f into the change of the same person and direction, if
// there is one, filling what it lacked.
func merge(changes []ExecutiveChange, f ExecutiveChange) bool {
	for i := range changes {
		if strings.EqualFold(changes[i].Name, f.Name) && arriving(changes[i].Action) == arriving(f.Action) {
			fill(&changes[i], f)
			return true
		}
	}
	return false
}

func fill(c *ExecutiveChange, f ExecutiveChange) {
	if c.Title == "" {
		c.Title = f.Title
	}
	if c.EffectiveDate == "" {
		c.EffectiveDate = f.EffectiveDate
	}
}

// bySurname finds the change whose name ends with surname.
func bySurname(changes []ExecutiveChange, surname string) int {
	for i, c := range changes {
		if f := strings.Fields(c.Name); len(f) > 0 && strings.EqualFold(f[len(f)-1], surname) {
			return i
		}
	}
	return -1
}

// fillDate gives the latest undated change of that direction the date
// a follow-up sentence states ("Her appointment is effective ...").
func fillDate(changes []ExecutiveChange, arrive bool, d string) bool {
	for i := len(changes) - 1; i >= 0; i-- {
		if arriving(changes[i].Action) == arrive && changes[i].EffectiveDate == "" {
			changes[i].EffectiveDate = d
			return true
		}
	}
	return false
}

// heading reports whether s is a caption ("Retirement of Chief Financial
// Officer"): short, with no closing punctuation.
func heading(s string) bool {
	return len(s) < 100 && !strings.HasSuffix(s, ".") && !strings.HasSuffix(s, ";") && !strings.HasSuffix(s, ":")
}

// mentions reports whether s names (by surname) a person already read.
func mentions(s string, changes []ExecutiveChange) bool {
	for _, c := range changes {
		if f := strings.Fields(c.Name); len(f) > 0 && strings.Contains(s, f[len(f)-1]) {
			return true
		}
	}
	return false
}

// abbrevs end with a period without ending a sentence.
var abbrevs = map[string]bool{
	"mr": true, "ms": true, "mrs": true, "dr": true, "prof": true, "jr": true, "sr": true, "inc": true, "corp": true,
	"co": true, "ltd": true, "no": true, "st": true, "jan": true, "feb": true, "mar": true, "apr": true, "jun": true,
	"jul": true, "aug": true, "sep": true, "sept": true, "oct": true, "nov": true, "dec": true, "u.s": true, "e.g": true,
	"i.e": true, "vs": true, "l.l.c": true, "l.p": true, "n.a": true, "hon": true, "ph.d": true, "m.d": true, "esq": true,
	"mx": true,
}

// sentences splits a section, one paragraph a line, into sentences: at
// ".", "?" or "!" followed by a space and a capital, quote or bracket,
// unless the word before is an abbreviation or an initial.
func sentences(section string) []string {
	var out []string
	for _, para := range strings.Split(section, "\n") {
		start := 0
		for i := 0; i < len(para); i++ {
			c := para[i]
			if c != '.' && c != '?' && c != '!' {
				continue
			}
			if i+2 >= len(para) || para[i+1] != ' ' {
				continue
			}
			next := para[i+2]
			if !(next >= 'A' && next <= 'Z' || next == '"' || next == '(' || next >= 0x80) {
				continue
			}
			w := i
			for w > start && para[w-1] != ' ' && para[w-1] != '(' {
				w--
			}
			word := strings.ToLower(para[w:i])
			if c == '.' && (abbrevs[word] || len(word) == 1) {
				continue
			}
			if s := strings.TrimSpace(para[start : i+1]); s != "" {
				out = append(out, s)
			}
			start = i + 2
		}
		if s := strings.TrimSpace(para[start:]); s != "" {
			out = append(out, s)
		}
	}
	return out
}

// Key is the change's signal key for issuer cik: the same person, action
// and effective date (or, undated, the filing's year) give the same key,
// so an 8-K/A restating an 8-K adds nothing.
func (c ExecutiveChange) Key(cik, filed string) string {
	when := c.EffectiveDate
	if when == "" && len(filed) >= 4 {
		when = filed[:4]
	}
	return "sec-8k-" + NormalizeCIK(cik) + "-" + slug(c.Name) + "-" + c.Action + "-" + when
}

// Headline is "Jane Roe appointed Chief Financial Officer" or "John Doe
// retired as Chief Financial Officer".
func (c ExecutiveChange) Headline() string {
	switch {
	case c.Title == "":
		return c.Name + " " + c.Action
	case arriving(c.Action):
		return c.Name + " " + c.Action + " " + c.Title
	}
	return c.Name + " " + c.Action + " as " + c.Title
}

// Signals maps the report's changes to job_change signals of no company
// yet (the caller resolves the issuer): the filing is the source URL,
// the filing date the detection time.
func (r *ExecutiveReport) Signals() []*prospector.Signal {
	var out []*prospector.Signal
	filed, _ := parseDay(r.Filed)
	for _, c := range r.Changes {
		detail := "SEC " + r.FormType + " Item 5.02 of " + r.Company + ": " + c.Sentence
		out = append(out, &prospector.Signal{
			ExternalID: c.Key(r.CIK, r.Filed), Type: "job_change", Title: c.Headline(),
			Detail: truncate(detail, 2*maxUnparsedChars), SourceURL: r.FilingURL, DetectedAt: filed,
		})
	}
	return out
}

// slug is a lowercase ASCII token of a name: "José Núñez" is jose-nunez.
func slug(s string) string {
	var b strings.Builder
	dash := false
	for _, r := range foldAccents(strings.ToLower(s)) {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' {
			if dash && b.Len() > 0 {
				b.WriteByte('-')
			}
			dash = false
			b.WriteRune(r)
		} else {
			dash = true
		}
	}
	return b.String()
}
