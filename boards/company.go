package boards

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Confirmation is what Confirm decided.
type Confirmation int

const (
	// ConfirmUnknown: the board names no company (Lever, Ashby, Personio),
	// or nothing is known of the watched company to compare with.
	ConfirmUnknown Confirmation = iota
	// ConfirmMatch: the board's company is the watched one.
	ConfirmMatch
	// ConfirmMismatch: the board belongs to another company that happens
	// to own the slug.
	ConfirmMismatch
)

func (c Confirmation) String() string {
	switch c {
	case ConfirmMatch:
		return "match"
	case ConfirmMismatch:
		return "mismatch"
	}
	return "unknown"
}

// Confirm decides whether boardCompany, the name a board publishes, is the
// watched company, known by its name and/or its domain. Names are compared
// after CompanyKey: case, accents, punctuation, "&"/"and", a leading
// "The", legal suffixes (Inc, LLC, Ltd, GmbH, AG, SAS, BV, Pty Ltd, ...)
// and board words ("Careers", "Jobs at") do not count. They match when the
// keys are equal, or equal once spaces are dropped ("Data Dog" and
// "Datadog"); the board's name matches the domain when its spaceless key
// is the domain's registrable label ("acme-robotics.example" is
// "acmerobotics"), with a leading get/try/use/join/hello or a trailing
// hq/app/inc taken off that label as well ("getacme.example" is "acme").
// A longer or shorter name is a mismatch: "Acme" is not "Acme Health".
func Confirm(boardCompany, name, domain string) Confirmation {
	board := CompanyKey(boardCompany)
	if board == "" {
		return ConfirmUnknown
	}
	known := false
	if n := CompanyKey(name); n != "" {
		known = true
		if n == board || spaceless(n) == spaceless(board) {
			return ConfirmMatch
		}
	}
	if labels := domainLabels(domain); len(labels) > 0 {
		known = true
		b := spaceless(board)
		for _, l := range labels {
			if l == b {
				return ConfirmMatch
			}
		}
	}
	if !known {
		return ConfirmUnknown
	}
	return ConfirmMismatch
}

// CompanyKey is a company name reduced for comparison: lower case, accents
// folded, "&" read as "and", punctuation turned to spaces, a leading "the",
// board words ("careers", "jobs", "jobs at", "hiring") and trailing legal
// forms removed. "ACME, Inc." and "Acmé GmbH" both give "acme".
func CompanyKey(s string) string {
	words := companyWords(s)
	// Board words: "Careers at Acme", "Acme Careers", "Jobs at Acme".
	for len(words) > 1 && (words[0] == "careers" || words[0] == "jobs" || words[0] == "work") &&
		(words[1] == "at" || words[1] == "with") {
		words = words[2:]
	}
	for len(words) > 1 && boardWord(words[len(words)-1]) {
		words = words[:len(words)-1]
	}
	if len(words) > 1 && words[0] == "the" {
		words = words[1:]
	}
	// Legal forms, possibly several ("Acme Holdings Pty Ltd", "Acme GmbH & Co KG").
	for len(words) > 1 {
		n := legalSuffix(words)
		if n == 0 {
			break
		}
		words = words[:len(words)-n]
		for len(words) > 1 && (words[len(words)-1] == "and") {
			words = words[:len(words)-1]
		}
	}
	return strings.Join(words, " ")
}

func boardWord(w string) bool {
	switch w {
	case "careers", "career", "jobs", "hiring", "recruiting", "talent":
		return true
	}
	return false
}

// legalSuffix returns how many trailing words form a legal form.
func legalSuffix(words []string) int {
	n := len(words)
	last := words[n-1]
	if n >= 3 {
		switch words[n-3] + " " + words[n-2] + " " + last {
		case "gmbh and co", "l l c", "s r l", "s p a", "s a s":
			return 3
		}
	}
	if n >= 2 {
		switch words[n-2] + " " + last {
		case "pty ltd", "pte ltd", "pvt ltd", "co ltd", "sdn bhd", "and co", "co kg", "private limited",
			"s a", "b v", "n v", "s l", "a s", "l p":
			return 2
		}
	}
	switch last {
	case "inc", "incorporated", "llc", "ltd", "limited", "corp", "corporation", "co", "company", "plc",
		"gmbh", "ag", "kg", "ug", "se", "sa", "sas", "sarl", "srl", "spa", "bv", "nv", "oy", "oyj", "ab",
		"as", "asa", "aps", "pty", "pte", "pvt", "kk", "lp", "llp", "lda", "sl", "slu", "sro", "kft",
		"zrt", "doo", "ooo", "bhd", "holding", "holdings":
		return 1
	}
	return 0
}

// companyWords splits s into lower-case words with accents folded and
// "&" as "and"; apostrophes and dots inside words are dropped ("O'Neil",
// "S.A.").
func companyWords(s string) []string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r == '\'', r == '\u2019', r == '.':
		case r == '&' || r == '+':
			b.WriteString(" and ")
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			b.WriteString(foldLetter(unicode.ToLower(r)))
		default:
			b.WriteByte(' ')
		}
	}
	return strings.Fields(b.String())
}

// foldLetter maps an accented Latin letter to its base letters ("é" is
// "e", "ß" is "ss"); other letters stay as they are.
func foldLetter(r rune) string {
	switch r {
	case 'à', 'á', 'â', 'ã', 'ä', 'å', 'ā', 'ă', 'ą':
		return "a"
	case 'æ':
		return "ae"
	case 'ç', 'ć', 'č':
		return "c"
	case 'ď', 'đ':
		return "d"
	case 'è', 'é', 'ê', 'ë', 'ē', 'ė', 'ę', 'ě':
		return "e"
	case 'ğ':
		return "g"
	case 'ì', 'í', 'î', 'ï', 'ī', 'į', 'ı':
		return "i"
	case 'ł', 'ľ':
		return "l"
	case 'ñ', 'ń', 'ň':
		return "n"
	case 'ò', 'ó', 'ô', 'õ', 'ö', 'ø', 'ő', 'ō':
		return "o"
	case 'œ':
		return "oe"
	case 'ř':
		return "r"
	case 'ś', 'š', 'ş', 'ș':
		return "s"
	case 'ß':
		return "ss"
	case 'ť', 'ț', 'ţ':
		return "t"
	case 'ù', 'ú', 'û', 'ü', 'ū', 'ů', 'ű', 'ų':
		return "u"
	case 'ý', 'ÿ':
		return "y"
	case 'ź', 'ż', 'ž':
		return "z"
	}
	return string(r)
}

func spaceless(s string) string { return strings.ReplaceAll(s, " ", "") }

// domainLabels returns the spaceless keys a domain's registrable label
// stands for: the label before the public suffix (a two-letter country
// TLD after a generic second level like co, com, org is taken as one
// suffix), without hyphens, and again without a common prefix or suffix.
func domainLabels(domain string) []string {
	d := strings.ToLower(strings.TrimSpace(domain))
	if i := strings.Index(d, "://"); i >= 0 {
		d = d[i+3:]
	}
	d, _, _ = strings.Cut(d, "/")
	d = strings.TrimSuffix(d, ".")
	labels := strings.Split(d, ".")
	if len(labels) < 2 {
		return nil
	}
	labels = labels[:len(labels)-1]
	if len(labels) >= 2 && len(d)-strings.LastIndexByte(d, '.') == 3 {
		switch labels[len(labels)-1] {
		case "co", "com", "org", "net", "ac", "gov", "edu", "ltd", "plc", "or", "ne":
			labels = labels[:len(labels)-1]
		}
	}
	label := strings.ReplaceAll(labels[len(labels)-1], "-", "")
	if label == "" || !utf8.ValidString(label) {
		return nil
	}
	out := []string{label}
	for _, p := range []string{"get", "try", "use", "join", "hello", "with", "go"} {
		if rest, ok := strings.CutPrefix(label, p); ok && len(rest) >= 3 {
			out = append(out, rest)
		}
	}
	for _, s := range []string{"hq", "app", "inc"} {
		if rest, ok := strings.CutSuffix(label, s); ok && len(rest) >= 3 {
			out = append(out, rest)
		}
	}
	return out
}
