package prospector

import (
	"strings"
)

// legalSuffixes are the words of legal form a company name ends with;
// NormalizeLegalName drops them from the end, repeatedly ("Acme Holdings,
// Inc." is acme). Multi-word forms are listed as they read.
var legalSuffixes = [][]string{
	{"limited", "liability", "company"}, {"limited", "liability", "partnership"}, {"limited", "partnership"},
	{"public", "limited", "company"}, {"inc"}, {"incorporated"}, {"llc"}, {"lc"}, {"corp"}, {"corporation"},
	{"co"}, {"company"}, {"ltd"}, {"limited"}, {"lp"}, {"llp"}, {"lllp"}, {"plc"}, {"pllc"}, {"pc"},
	{"holdings"}, {"holding"}, {"sa"}, {"ag"}, {"gmbh"}, {"nv"}, {"bv"}, {"and"},
}

// NormalizeLegalName reduces a company's legal name to the words that
// tell it apart: accents folded, lowercase, "&" read as "and", periods
// and apostrophes dropped (L.L.C. is llc), other punctuation a space, a
// leading "The" and trailing legal forms (Inc, Incorporated, LLC, Corp,
// Corporation, Co, Company, Ltd, Limited, LP, LLP, PLC, Holding(s), ...)
// removed. "The Acme Robotics Co., Inc." and "ACME ROBOTICS" are both
// "acme robotics". A name made only of such words keeps its last one; a
// name with no letter or digit is "".
//
// It lives in the root, not in package sec which matches SEC issuers
// with it, because the stores index every company under it
// (SECStore.IssuerCandidates) and must compute the same key.
func NormalizeLegalName(s string) string {
	s = FoldAccents(strings.ToLower(s))
	var b strings.Builder
	for _, r := range s {
		switch {
		case r == '&':
			b.WriteString(" and ")
		case r == '.' || r == '\'' || r == '’':
		case r >= 'a' && r <= 'z' || r >= '0' && r <= '9':
			b.WriteRune(r)
		default:
			b.WriteByte(' ')
		}
	}
	toks := strings.Fields(b.String())
	if len(toks) > 1 && toks[0] == "the" {
		toks = toks[1:]
	}
	for {
		cut := 0
		for _, suf := range legalSuffixes {
			if len(suf) < len(toks) && equalTail(toks, suf) {
				cut = len(suf)
				break
			}
		}
		if cut == 0 {
			break
		}
		toks = toks[:len(toks)-cut]
	}
	return strings.Join(toks, " ")
}

func equalTail(toks, suf []string) bool {
	off := len(toks) - len(suf)
	for i, w := range suf {
		if toks[off+i] != w {
			return false
		}
	}
	return true
}

// accentFold maps the accented Latin letters of names to their base
// letters.
var accentFold = func() map[rune]string {
	m := map[rune]string{}
	for base, accented := range map[string]string{
		"a": "àáâãäåāăą", "c": "çćĉċč", "d": "ďđ", "e": "èéêëēĕėęě", "g": "ĝğġģ", "h": "ĥħ",
		"i": "ìíîïĩīĭįı", "j": "ĵ", "k": "ķ", "l": "ĺļľŀł", "n": "ñńņňŉ", "o": "òóôõöøōŏő",
		"r": "ŕŗř", "s": "śŝşš", "t": "ţťŧ", "u": "ùúûüũūŭůűų", "w": "ŵ", "y": "ýÿŷ", "z": "źżž",
		"ae": "æ", "oe": "œ", "ss": "ß", "th": "þ",
	} {
		for _, r := range accented {
			m[r] = base
		}
	}
	return m
}()

// FoldAccents replaces accented lowercase Latin letters with their base
// letters ("josé" is "jose"); callers lowercase first.
func FoldAccents(s string) string {
	ascii := true
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			ascii = false
			break
		}
	}
	if ascii {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		if f, ok := accentFold[r]; ok {
			b.WriteString(f)
		} else {
			b.WriteRune(r)
		}
	}
	return b.String()
}
