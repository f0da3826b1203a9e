package sec

import (
	"regexp"
	"strings"
)

// The rules that read Item 5.02 sentences. Names are matched case
// sensitively (capitalised words, initials, particles, a suffix); verbs
// and connecting words are not. Every rule captures the person (one or a
// list), the verb that decides the action and, where the phrasing gives
// one, the title.
const (
	nameWord = `\p{Lu}[\p{L}'’\-]*\p{Ll}[\p{L}'’\-]*`
	initial  = `\p{Lu}\.`
	particle = `(?:de|van|von|der|den|da|di|del|della|la|le|du|dos|bin|al)`
	honorif  = `(?:Mr|Ms|Mrs|Dr|Mx)\.?\s+`
	fullName = `(?:` + initial + `\s+)?` + nameWord + `(?:\s+(?:` + initial + `|` + nameWord + `|` + particle + `)){1,4}` +
		`(?:,?\s+(?:Jr\.|Sr\.|II|III|IV))?`
	oneName  = `(?:(?:` + honorif + `)?` + fullName + `|` + honorif + nameWord + `)`
	nameList = `(?P<name>` + oneName + `(?:(?:\s*,\s*|\s*,?\s+and\s+)` + oneName + `)*)`
	// appos is an aside after a name: an age, or a title between commas.
	appos    = `(?:\s*,\s*(?:age\s+)?\d{1,3}\s*,|\s*,\s+(?P<appos>(?:the\s+|our\s+)?(?:Company's\s+|Registrant's\s+|Bank's\s+)?(?:a\s+)?[\p{Lu}\p{Ll}][^,;]{1,100}?)\s*,)?`
	title    = `(?P<title>[^;]{2,240})`
	asRole   = `(?i:as|to\s+serve\s+as|to\s+the\s+(?:positions?|roles?|offices?)\s+of|to\s+be|to\s+become|to)\s+`
	fromRole = `(?i:from\s+(?:his|her|their)\s+(?:positions?|roles?|service|seat)\s+(?:as|with|on)\s+(?:a\s+member\s+of\s+)?|from\s+(?:service\s+on\s+|the\s+positions?\s+of\s+)?|as\s+(?:a\s+member\s+of\s+)?)`
)

// rule is one phrasing. For noLeadDate rules the sentence's opening date
// is not the change's: they report a decision announced for later ("of
// his decision to retire") or name the change in passing ("the vacancy
// created by the resignation of ...").
//
// keys are lowercase words one of which the sentence must hold for the
// rule to be tried: the regular expressions are large, and most
// sentences of a section (biographies, boilerplate) name no change.
type rule struct {
	re         *regexp.Regexp
	noLeadDate bool
	keys       []string
}

var (
	keysAppoint = []string{"appointed", "named", "designated", "hired", "elected", "promoted", "selected"}
	keysDepart  = []string{"resignation", "retirement", "departure", "termination", "removal", "separation"}
)

var rules = []rule{
	// The Board appointed Jane Roe as Chief Financial Officer.
	{keys: keysAppoint, re: regexp.MustCompile(`(?P<verb>(?i:appointed|named|designated|hired|elected|promoted|selected))\s+` + nameList +
		`(?:\s*,\s*(?:age\s+)?\d{1,3}\s*,)?\s+` + asRole + title)},
	// Jane Roe was appointed Chief Financial Officer.
	{keys: keysAppoint, re: regexp.MustCompile(nameList + appos + `\s+(?i:was|were|has\s+been|have\s+been|had\s+been|will\s+be|is|are|shall\s+be)\s+` +
		`(?:(?i:formally|unanimously|also)\s+)?(?P<verb>(?i:appointed|named|elected|promoted|designated|hired|selected))` +
		`(?:\s+(?i:by\s+the\s+(?:Board(?:\s+of\s+Directors)?|Company|stockholders|shareholders)))?` +
		`(?:\s*,\s*(?i:effective)[^,]*,)?(?:\s+` + asRole + title + `)?`)},
	// the appointment of Jane Roe as Chief Financial Officer
	{keys: []string{"appointment", "election", "promotion", "hiring"}, noLeadDate: true, re: regexp.MustCompile(`(?P<verb>(?i:appointment|election|promotion|hiring))\s+(?i:of)\s+` + nameList + appos +
		`(?:\s+` + asRole + title + `)?`)},
	// Jane Roe will join the Company as Chief Financial Officer.
	{keys: []string{"join"}, re: regexp.MustCompile(nameList + appos + `\s+(?P<verb>(?i:will\s+join|has\s+joined|joined))\s+(?i:the\s+(?:Company|Registrant|Bank))\s+(?i:as)\s+` + title)},
	// John Doe notified the Company of his decision to retire as ...
	{keys: []string{"notified", "informed", "advised", "told"}, noLeadDate: true, re: regexp.MustCompile(nameList + appos + `\s+(?i:notified|informed|advised|told)\s+[^;]{0,120}?` +
		`(?i:of\s+(?:his|her|their)\s+(?:decision|intention|intent|plan|determination|desire)\s+to|` +
		`that\s+(?:he|she|they)\s+(?:will|would|intends\s+to|intended\s+to|plans\s+to|has\s+decided\s+to|had\s+decided\s+to|decided\s+to))\s+` +
		`(?P<verb>(?i:resign|retire|step\s+down|depart|leave|not\s+stand\s+for\s+re-?election|not\s+seek\s+re-?election))` +
		`(?:\s+` + fromRole + title + `)?`)},
	// John Doe resigned from the Board of Directors.
	{keys: []string{"resign", "retire", "step", "depart"}, re: regexp.MustCompile(nameList + appos + `(?:\s*,\s+who\s+|\s+)(?:(?i:has|had|will|would|shall|intends\s+to|plans\s+to|has\s+decided\s+to|decided\s+to|agreed\s+to)\s+)?` +
		`(?P<verb>(?i:resigned|resigns|resign|retired|retires|retire|stepped\s+down|steps\s+down|step\s+down|departed|departs|depart))` +
		`(?:\s+` + fromRole + title + `)?`)},
	// John Doe tendered his resignation as ...
	{keys: []string{"resignation", "retirement"}, re: regexp.MustCompile(nameList + appos + `\s+(?i:tendered|submitted|delivered|provided|gave)\s+(?:(?i:his|her|their)\s+)?` +
		`(?:(?i:written)\s+)?(?:(?i:notice|letter)\s+(?i:of)\s+)?(?P<verb>(?i:resignation|retirement))` +
		`(?:\s+` + fromRole + title + `)?`)},
	// the resignation of John Doe as ...
	{keys: keysDepart, noLeadDate: true, re: regexp.MustCompile(`(?P<verb>(?i:resignation|retirement|departure|termination|removal|separation))\s+(?i:of)\s+` + nameList + appos +
		`(?:\s+` + fromRole + title + `)?`)},
	// the Board terminated the employment of John Doe as ...
	{keys: []string{"terminated", "removed"}, re: regexp.MustCompile(`(?P<verb>(?i:terminated|removed))\s+(?:(?i:the\s+employment\s+of)\s+)?` + nameList +
		`(?:\s+` + fromRole + title + `)?`)},
	// John Doe will not stand for re-election as ...
	{keys: []string{"not stand", "not seek", "ceas"}, noLeadDate: true, re: regexp.MustCompile(nameList + appos + `\s+(?:(?i:will|did|has|had|would)\s+)?` +
		`(?P<verb>(?i:not\s+stand\s+for\s+re-?election|not\s+seek\s+re-?election|ceased\s+to\s+serve|cease\s+to\s+serve|ceased\s+to\s+be))` +
		`(?:\s+(?i:as|on)\s+` + title + `)?`)},
}

// chainRe continues an appointment: "... as CFO and John Smith as COO".
var chainRe = regexp.MustCompile(`^\s*,?\s*(?i:and)\s+` + `(?P<name>` + oneName + `)\s+(?i:as)\s+` + title)

// Action names.
const (
	ActionAppointed = "appointed"
	ActionElected   = "elected"
	ActionPromoted  = "promoted"
	ActionDeparted  = "departed"
	ActionRetired   = "retired"
)

// actionOf maps a rule's verb to an action.
func actionOf(verb string) string {
	v := strings.ToLower(verb)
	switch {
	case strings.HasPrefix(v, "elect"):
		return ActionElected
	case strings.HasPrefix(v, "promot"):
		return ActionPromoted
	case strings.HasPrefix(v, "retir"):
		return ActionRetired
	case strings.HasPrefix(v, "appoint"), strings.HasPrefix(v, "name"), strings.HasPrefix(v, "designat"),
		strings.HasPrefix(v, "hir"), strings.HasPrefix(v, "select"), strings.Contains(v, "join"):
		return ActionAppointed
	}
	return ActionDeparted
}

// arriving reports whether an action brings the person in (as opposed
// to out).
func arriving(action string) bool {
	return action == ActionAppointed || action == ActionElected || action == ActionPromoted
}

// notName are words that are never part of a person's name; a name
// candidate starting with them loses them ("Chief Financial Officer John
// Doe" is John Doe), one containing them elsewhere is no name.
var notName = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`the on in at as of and or to for by with board directors director company committee
		corporation inc llc ltd officer officers chief president vice executive financial operating accounting technology
		information marketing revenue people legal item form registrant bank trust holdings group chairman chair chairperson
		chairwoman secretary treasurer general counsel annual meeting stockholders shareholders effective following pursuant
		compensation nominating governance audit principal senior interim founder co-founder also company's board's
		january february march april may june july august september october november december monday tuesday wednesday
		thursday friday saturday sunday he she they his her their its our we it this that such each`) {
		m[w] = true
	}
	return m
}()

var (
	honorifRe  = regexp.MustCompile(`^` + honorif)
	particleRe = regexp.MustCompile(`^` + particle + `$`)
	suffixRe   = regexp.MustCompile(`,\s+(Jr\.|Sr\.|II|III|IV)\b`)
)

// personName cleans a matched name: the honorific goes, leading title
// words go. surnameOnly is true for "Mr. Doe". ok is false when what is
// left is no name.
func personName(raw string) (name string, surnameOnly, ok bool) {
	raw = strings.TrimSpace(raw)
	hon := honorifRe.MatchString(raw)
	raw = honorifRe.ReplaceAllString(raw, "")
	toks := strings.Fields(raw)
	for len(toks) > 0 && notName[strings.ToLower(strings.Trim(toks[0], ",."))] {
		toks = toks[1:]
	}
	words := 0
	for _, t := range toks {
		lt := strings.ToLower(strings.Trim(t, ","))
		if notName[lt] {
			return "", false, false
		}
		if !particleRe.MatchString(t) && len(strings.Trim(t, ".,")) > 1 {
			words++
		}
	}
	name = strings.TrimRight(strings.Join(toks, " "), ",")
	switch {
	case words >= 2:
		return name, false, true
	case words == 1 && hon && len(toks) == 1:
		return name, true, true
	}
	return "", false, false
}

// splitNames splits "A, B and C" into its names.
var listSep = regexp.MustCompile(`\s*,\s*and\s+|\s*,\s*|\s+and\s+`)

func splitNames(list string) []string {
	// A suffix after a comma ("John Doe, Jr.") is not a list member.
	list = suffixRe.ReplaceAllString(list, " $1")
	return listSep.Split(list, -1)
}

// titleCuts end a title: what follows them is about when, why or where.
var titleCuts = []string{
	", effective", " effective", ", with effect", " with effect", " of the company", " of the registrant",
	" of the bank", " of the corporation", ", a position", ", positions", ", which", ", who", " who ", " until ",
	", succeeding", " succeeding", ", replacing", " replacing", " to succeed", ", following", " following",
	", due to", " due to", " for personal", " to pursue", " in order to", " in connection", " upon ", ", subject to",
	" subject to", " (", ", and ", ", in ", " on ", " at the ", " with the company", " as of ", ", as ", " and as ",
	", for ", " for a term", " to serve ", ", to serve", ", to hold", " to hold", " and to ", " and will ",
	" and has ", ", and", " by the board", " at which time", " to fill", ", filling", " filling", ", each",
	" among", " commencing", ", commencing", " beginning", ", beginning", " after ", " at its ", " at a ",
	" pending ", ", where", " where ", ", after", " to focus", " and the company", ", a role", ", the ",
	"previously", ", her ", ", his ", ", their ", ", its ", ", to ", ", while", ", but", ", although",
}

var (
	titleLead  = regexp.MustCompile(`(?i)^(?:(?:the\s+)?(?:company's|registrant's|bank's|corporation's)\s+|its\s+|our\s+|the\s+|an?\s+|(?:positions?|roles?|offices?)\s+of\s+|service\s+on\s+)+`)
	boardTitle = regexp.MustCompile(`(?i)^(?:(?:an?\s+)?(?:independent\s+|non-employee\s+|class\s+\w+\s+)?(?:member\s+of\s+(?:the\s+)?(?:company's\s+)?)?board(?:\s+of\s+directors)?|(?:an?\s+)?(?:independent\s+|non-employee\s+|class\s+\w+\s+)?directors?)$`)
	hasLetter  = regexp.MustCompile(`\p{L}`)
	// boardSeat is a board seat however the sentence goes on ("a member
	// of the Company's Board of Directors, effective ..."), but not a
	// "Director of Sales".
	boardSeat = regexp.MustCompile(`(?i)^(?:an?\s+)?(?:independent\s+|non-employee\s+|class\s+\w+\s+)?` +
		`(?:member\s+of\s+(?:the\s+)?(?:company's\s+|registrant's\s+|bank's\s+)?board(?:\s+of\s+directors)?|board(?:\s+of\s+directors)?|directors?)` +
		`(?:\s*$|\s*[,(]|\s+(?:of\s+the\s+(?:company|registrant|bank|corporation)|effective|and|at|until|to|for|on|with|upon|following|as|of\s+\p{Lu}[\p{L}.,&\s]*(?:inc|corp|company|corporation|ltd|llc)\b)\b)`)
)

// cleanTitle trims a captured title to the role itself; "" when nothing
// reads as one. Board seats become "Director".
func cleanTitle(t string) string {
	if boardSeat.MatchString(titleLead.ReplaceAllString(strings.TrimSpace(t), "")) {
		return "Director"
	}
	low := strings.ToLower(t)
	cut := len(t)
	for _, c := range titleCuts {
		if i := strings.Index(low, c); i >= 0 && i < cut {
			cut = i
		}
	}
	t = strings.TrimSpace(t[:cut])
	t = titleLead.ReplaceAllString(t, "")
	t = strings.TrimRight(t, " ,.:")
	if boardTitle.MatchString(t) {
		return "Director"
	}
	if len(t) < 2 || len(t) > 120 || !hasLetter.MatchString(t) {
		return ""
	}
	return t
}
