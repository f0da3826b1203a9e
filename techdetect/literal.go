package techdetect

import (
	"regexp/syntax"
	"strings"
)

// maxAlternatives bounds the literals kept for one expression: an
// alternation of many short words is better matched than prefiltered.
const maxAlternatives = 8

// requiredLiterals returns lower-case ASCII strings such that every match
// of re contains at least one of them, or nil when it cannot tell (or the
// strings would be too short to save work). Matching text is lower-cased
// (ASCII only) before it is searched for them.
func requiredLiterals(re *syntax.Regexp) []string {
	set := required(re)
	if len(set) == 0 {
		return nil
	}
	for _, s := range set {
		if len(s) < minLiteral {
			return nil
		}
	}
	return set
}

func required(re *syntax.Regexp) []string {
	switch re.Op {
	case syntax.OpLiteral:
		return asciiPiece(string(re.Rune))
	case syntax.OpCapture, syntax.OpPlus:
		return required(re.Sub[0])
	case syntax.OpRepeat:
		if re.Min >= 1 {
			return required(re.Sub[0])
		}
		return nil
	case syntax.OpConcat:
		return requiredConcat(re.Sub)
	case syntax.OpAlternate:
		var out []string
		for _, sub := range re.Sub {
			s := required(sub)
			if s == nil {
				return nil
			}
			out = append(out, s...)
		}
		if len(out) > maxAlternatives {
			return nil
		}
		return dedupe(out)
	}
	return nil
}

// requiredConcat joins runs of adjacent literals (the parser splits
// "foo.js" around the escaped dot only when flags differ) and keeps the
// child whose literals are the most selective: the longest shortest one.
func requiredConcat(subs []*syntax.Regexp) []string {
	var best []string
	consider := func(set []string) {
		if set != nil && (best == nil || minLen(set) > minLen(best)) {
			best = set
		}
	}
	var run strings.Builder
	flush := func() {
		if run.Len() > 0 {
			consider(asciiPiece(run.String()))
			run.Reset()
		}
	}
	for _, sub := range subs {
		if sub.Op == syntax.OpLiteral {
			run.WriteString(string(sub.Rune))
			continue
		}
		flush()
		consider(required(sub))
	}
	flush()
	return best
}

// asciiPiece returns the longest ASCII run of s, lower-cased and cut to
// maxLiteral bytes, as a one-element set: text is lower-cased as ASCII
// only, so non-ASCII letters could differ in case.
func asciiPiece(s string) []string {
	best, start := "", -1
	for i := 0; i <= len(s); i++ {
		if i < len(s) && s[i] < 0x80 {
			if start < 0 {
				start = i
			}
			continue
		}
		if start >= 0 && i-start > len(best) {
			best = s[start:i]
		}
		start = -1
	}
	if best == "" {
		return nil
	}
	best = strings.ToLower(best)
	if len(best) > maxLiteral {
		best = best[:maxLiteral]
	}
	return []string{best}
}

func minLen(set []string) int {
	m := -1
	for _, s := range set {
		if m < 0 || len(s) < m {
			m = len(s)
		}
	}
	return m
}

func dedupe(set []string) []string {
	seen := make(map[string]bool, len(set))
	out := set[:0]
	for _, s := range set {
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	return out
}

// hasAnchor reports whether re uses a position assertion tied to the
// start or end of the text.
func hasAnchor(re *syntax.Regexp) bool {
	switch re.Op {
	case syntax.OpBeginLine, syntax.OpEndLine, syntax.OpBeginText, syntax.OpEndText:
		return true
	}
	for _, sub := range re.Sub {
		if hasAnchor(sub) {
			return true
		}
	}
	return false
}
