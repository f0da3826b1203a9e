package news

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// token is one word, number or punctuation mark of a sentence.
type token struct {
	w          string // lower-case word; the mark itself for punctuation
	start, end int    // byte offsets of the token in the sentence text
	cap        bool   // the word starts with an upper-case letter
	num        bool   // the word starts with a digit
	poss       bool   // the word carries a possessive ('s or a trailing ')
	punct      bool
}

// isBreak reports whether t ends a clause: headline separators, colons,
// semicolons, dashes, brackets and sentence marks.
func (t *token) isBreak() bool {
	if !t.punct {
		return false
	}
	switch t.w {
	case ":", ";", "|", "-", "?", "!", "(", ")", ".", "\"":
		return true
	}
	return false
}

// isCurrency reports whether t is a currency sign.
func (t *token) isCurrency() bool {
	return t.punct && (t.w == "$" || t.w == "€" || t.w == "£" || t.w == "¥")
}

// tokenize splits one sentence into tokens. It never fails: anything that
// is neither a word nor a known mark is skipped.
func tokenize(s string, dst []token) []token {
	i := 0
	for i < len(s) {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			j, poss := wordEnd(s, i)
			word := s[i:j]
			t := token{start: i, end: j, poss: poss, w: lowerWord(word)}
			t.cap = unicode.IsUpper(r)
			t.num = unicode.IsDigit(r)
			dst = append(dst, t)
			i = j
			if poss {
				i = skipPossessive(s, i)
			}
			continue
		case r == '$' || r == '€' || r == '£' || r == '¥' || r == '&' || r == '%' ||
			r == ',' || r == ':' || r == ';' || r == '|' || r == '?' || r == '!' ||
			r == '(' || r == ')' || r == '"' || r == '“' || r == '”':
			w := string(r)
			if r == '“' || r == '”' {
				w = "\""
			}
			dst = append(dst, token{w: w, start: i, end: i + size, punct: true})
		case r == '—' || r == '–' || r == '-':
			dst = append(dst, token{w: "-", start: i, end: i + size, punct: true})
		case r == '.':
			// The dot of "vs." or "Dr." ends no clause.
			if n := len(dst); n == 0 || dst[n-1].punct || dst[n-1].end != i || !isAbbreviation(dst[n-1].w) {
				dst = append(dst, token{w: ".", start: i, end: i + size, punct: true})
			}
		}
		i += size
	}
	return dst
}

// wordEnd returns where the word starting at i ends and whether a
// possessive follows it. Hyphens, dots and apostrophes stay inside a word
// when a letter or digit follows them ("pre-seed", "U.S", "we've");
// commas and dots inside a number too ("1,500", "2.1").
func wordEnd(s string, i int) (int, bool) {
	j := i
	for j < len(s) {
		r, size := utf8.DecodeRuneInString(s[j:])
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			j += size
			continue
		}
		next, nsize := utf8.DecodeRuneInString(s[j+size:])
		alnum := unicode.IsLetter(next) || unicode.IsDigit(next)
		switch r {
		case '-', '/':
			if alnum {
				j += size
				continue
			}
		case '.', ',':
			prev, _ := utf8.DecodeLastRuneInString(s[:j])
			if unicode.IsDigit(prev) && unicode.IsDigit(next) {
				j += size
				continue
			}
			if r == '.' && unicode.IsLetter(prev) && unicode.IsLetter(next) && j+size+nsize <= len(s) {
				// U.S, e.g: a single letter follows the dot.
				after, _ := utf8.DecodeRuneInString(s[j+size+nsize:])
				if after == '.' || !unicode.IsLetter(after) {
					j += size
					continue
				}
			}
		case '\'', '’':
			if next == 's' || next == 'S' {
				after, _ := utf8.DecodeRuneInString(s[j+size+nsize:])
				if j+size+nsize >= len(s) || !unicode.IsLetter(after) {
					return j, true
				}
			}
			if alnum {
				j += size
				continue
			}
			prev, _ := utf8.DecodeLastRuneInString(s[:j])
			if prev == 's' || prev == 'S' {
				return j, true
			}
		}
		break
	}
	return j, false
}

// skipPossessive steps over the 's or ' after a word.
func skipPossessive(s string, i int) int {
	r, size := utf8.DecodeRuneInString(s[i:])
	if r != '\'' && r != '’' {
		return i
	}
	i += size
	if i < len(s) && (s[i] == 's' || s[i] == 'S') {
		i++
	}
	return i
}

// lowerWord lower-cases a word; the dots of "U.S" stay, so it is not "us".
func lowerWord(w string) string {
	for i := 0; i < len(w); i++ {
		c := w[i]
		if c >= 0x80 || (c >= 'A' && c <= 'Z') || c == '\'' {
			return strings.Map(func(r rune) rune {
				if r == '’' {
					return '\''
				}
				return unicode.ToLower(r)
			}, w)
		}
	}
	return w
}

// sentences splits text into sentences at ., ! or ? followed by a space
// and an upper-case letter, a digit or a quote, except after the usual
// abbreviations. Each sentence is trimmed.
func sentences(text string) []string {
	var out []string
	start := 0
	for i := 0; i < len(text); i++ {
		c := text[i]
		if c != '.' && c != '!' && c != '?' {
			continue
		}
		j := i + 1
		if j < len(text) && text[j] != ' ' && text[j] != '\n' && text[j] != '\t' {
			continue
		}
		for j < len(text) && (text[j] == ' ' || text[j] == '\n' || text[j] == '\t') {
			j++
		}
		if j < len(text) {
			r, _ := utf8.DecodeRuneInString(text[j:])
			if !unicode.IsUpper(r) && !unicode.IsDigit(r) && r != '"' && r != '“' {
				continue
			}
		}
		if c == '.' && abbreviation(text[start:i]) {
			continue
		}
		if s := strings.TrimSpace(text[start : i+1]); s != "" {
			out = append(out, s)
		}
		start = j
	}
	if s := strings.TrimSpace(text[start:]); s != "" {
		out = append(out, s)
	}
	return out
}

// abbreviation reports whether s ends with a word that takes a dot
// without ending a sentence.
func abbreviation(s string) bool {
	k := strings.LastIndexAny(s, " (\n\t")
	return isAbbreviation(strings.ToLower(s[k+1:]))
}

// isAbbreviation reports whether the lower-case word w takes a dot.
func isAbbreviation(w string) bool {
	switch w {
	case "dr", "mr", "mrs", "ms", "st", "inc", "corp", "co", "ltd", "no", "vs", "jr", "sr", "u.s", "e.g", "i.e",
		"approx", "est", "prof", "gen", "sen", "rep", "gov", "jan", "feb", "mar", "apr", "aug", "sept", "sep",
		"oct", "nov", "dec", "u.k", "n.v", "s.a", "l.p":
		return true
	}
	return len(w) == 1
}
