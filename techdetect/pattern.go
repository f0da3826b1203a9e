package techdetect

import (
	"fmt"
	"regexp"
	"regexp/syntax"
	"strconv"
	"strings"
)

// Pattern is one compiled fingerprint pattern: a regular expression with
// the format's tags (\;version:\1, \;confidence:50).
type Pattern struct {
	// Source is the expression as the file wrote it, tags removed.
	Source string
	// Confidence is what a match adds to the technology's confidence
	// (default 100).
	Confidence int
	// Version is the version template, e.g. `\1` or `\1?next:`.
	Version string

	re *regexp.Regexp // nil for an empty expression, which matches anything
	// lits are literals (lower case) of which every match contains at
	// least one; nil when the expression has none long enough to help.
	lits []string
	// anchored is true when the expression uses ^, $, \A or \z: such a
	// pattern is only matched against the whole text, never a window.
	anchored bool
}

// minLiteral is the shortest literal worth prefiltering on: shorter ones
// occur everywhere and save nothing.
const minLiteral = 3

// maxLiteral cuts prefilter literals: any piece of a required literal is
// required too, and short ones keep the automaton small for big rule sets.
const maxLiteral = 16

// SkipReason says why a pattern could not be used.
type SkipReason string

const (
	SkipLookaround   SkipReason = "lookaround"    // (?=, (?!, (?<=, (?<! : not in RE2
	SkipBackref      SkipReason = "backreference" // \1 or \k<name> inside the expression
	SkipUnsupported  SkipReason = "unsupported"   // another JavaScript-only construct
	SkipInvalid      SkipReason = "invalid"       // not a valid expression at all
	SkipBadTag       SkipReason = "bad tag"       // confidence not a number 0-100
	SkipTooExpensive SkipReason = "too large"     // compiles to more than RE2 allows
)

// parsePattern splits a pattern string into expression and tags and
// compiles it. It returns the reason the pattern cannot be used, or "".
func parsePattern(s string) (*Pattern, SkipReason, error) {
	parts := strings.Split(s, `\;`)
	p := &Pattern{Source: parts[0], Confidence: 100}
	for _, tag := range parts[1:] {
		key, val, _ := strings.Cut(tag, ":")
		switch key {
		case "version":
			p.Version = val
		case "confidence":
			n, err := strconv.Atoi(strings.TrimSpace(val))
			if err != nil || n < 0 || n > 100 {
				return nil, SkipBadTag, fmt.Errorf("confidence %q is not a number from 0 to 100", val)
			}
			p.Confidence = n
		}
		// Other tags are ignored, as Wappalyzer ignores them.
	}
	if p.Source == "" {
		return p, "", nil
	}
	expr, reason, err := translate(p.Source)
	if err != nil {
		return nil, reason, err
	}
	re, err := regexp.Compile("(?i)" + expr)
	if err != nil {
		if strings.Contains(err.Error(), "expression too large") || strings.Contains(err.Error(), "nesting depth") {
			return nil, SkipTooExpensive, err
		}
		return nil, SkipInvalid, err
	}
	p.re = re
	if tree, err := syntax.Parse(expr, syntax.Perl|syntax.FoldCase); err == nil {
		p.lits = requiredLiterals(tree.Simplify())
		p.anchored = hasAnchor(tree)
	}
	return p, "", nil
}

// translate rewrites a JavaScript regular expression (as Wappalyzer files
// hold them: no flags, no unicode mode) into Go's RE2 syntax. Constructs
// RE2 cannot express fail with the reason.
func translate(js string) (string, SkipReason, error) {
	var b strings.Builder
	inClass := false
	for i := 0; i < len(js); i++ {
		c := js[i]
		switch {
		case c == '\\':
			if i+1 >= len(js) {
				return "", SkipInvalid, fmt.Errorf("trailing backslash")
			}
			i++
			n, reason, err := translateEscape(js, i, inClass, &b)
			if err != nil {
				return "", reason, err
			}
			i += n
		case inClass:
			if c == ']' {
				inClass = false
			} else if c == '[' {
				// A literal [ inside a class: fine in JS, an error-prone
				// spelling in RE2 ([[:alpha:]]), so escape it.
				b.WriteString(`\[`)
				continue
			}
			b.WriteByte(c)
		case c == '[':
			rest := js[i+1:]
			switch {
			case strings.HasPrefix(rest, "]"):
				return "", SkipUnsupported, fmt.Errorf("empty class [] matches nothing")
			case strings.HasPrefix(rest, "^]"):
				b.WriteString(`[\x00-\x{10FFFF}]`)
				i += 2
				continue
			}
			inClass = true
			b.WriteByte('[')
			if strings.HasPrefix(rest, "^") {
				b.WriteByte('^')
				i++
			}
		case c == '(' && strings.HasPrefix(js[i:], "(?"):
			rest := js[i+2:]
			if strings.HasPrefix(rest, "=") || strings.HasPrefix(rest, "!") ||
				strings.HasPrefix(rest, "<=") || strings.HasPrefix(rest, "<!") {
				return "", SkipLookaround, fmt.Errorf("lookaround at byte %d", i)
			}
			b.WriteByte(c)
		default:
			b.WriteByte(c)
		}
	}
	return b.String(), "", nil
}

// translateEscape writes the RE2 form of the escape whose letter is at
// js[i] and returns how many further bytes it consumed.
func translateEscape(js string, i int, inClass bool, b *strings.Builder) (int, SkipReason, error) {
	c := js[i]
	switch {
	case c >= '1' && c <= '9' && !inClass:
		return 0, SkipBackref, fmt.Errorf(`backreference \%c`, c)
	case c == 'k' && strings.HasPrefix(js[i+1:], "<"):
		return 0, SkipBackref, fmt.Errorf(`named backreference \k<...>`)
	case c == '0' || c >= '1' && c <= '9':
		// \0 is NUL; in a class, \1-\9 are octal-ish escapes we read as
		// the digit, as browsers do outside unicode mode.
		if c == '0' {
			b.WriteString(`\x00`)
		} else {
			b.WriteByte(c)
		}
		return 0, "", nil
	case c == 'u':
		if h := hexRun(js[i+1:], 4); h == 4 {
			fmt.Fprintf(b, `\x{%s}`, js[i+1:i+5])
			return 4, "", nil
		}
		b.WriteByte('u')
		return 0, "", nil
	case c == 'x':
		if h := hexRun(js[i+1:], 2); h == 2 {
			b.WriteString(`\x` + js[i+1:i+3])
			return 2, "", nil
		}
		b.WriteByte('x')
		return 0, "", nil
	case c == 'c':
		return 0, SkipUnsupported, fmt.Errorf(`control escape \c`)
	case c == 'b' && inClass:
		b.WriteString(`\x08`) // backspace inside a class
		return 0, "", nil
	case strings.IndexByte("dDsSwWbBtnrfv", c) >= 0:
		b.WriteByte('\\')
		b.WriteByte(c)
		return 0, "", nil
	case c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_':
		// JavaScript reads an unknown letter escape as the letter itself;
		// RE2 would reject it or (\A, \z, \p) give it another meaning.
		b.WriteByte(c)
		return 0, "", nil
	case c < 0x80:
		b.WriteByte('\\')
		b.WriteByte(c)
		return 0, "", nil
	default:
		// An escaped non-ASCII character is that character.
		r := []rune(js[i:])[0]
		b.WriteString(regexp.QuoteMeta(string(r)))
		return len(string(r)) - 1, "", nil
	}
}

func hexRun(s string, n int) int {
	k := 0
	for k < n && k < len(s) && strings.IndexByte("0123456789abcdefABCDEF", s[k]) >= 0 {
		k++
	}
	return k
}

// resolveVersion fills a version template from a match's groups:
// \N is group N, and \N?a:b is a when group N matched something, b
// otherwise (the format's ternary).
func resolveVersion(tmpl string, groups []string) string {
	out := tmpl
	for n := len(groups) - 1; n >= 1; n-- {
		ref := `\` + strconv.Itoa(n)
		if i := strings.Index(out, ref+"?"); i >= 0 {
			rest := out[i+len(ref)+1:]
			if a, b, ok := strings.Cut(rest, ":"); ok {
				if groups[n] != "" {
					out = out[:i] + a
				} else {
					out = out[:i] + b
				}
			}
		}
		out = strings.ReplaceAll(out, ref, groups[n])
	}
	out = strings.TrimSpace(out)
	if len(out) > maxVersion || strings.ContainsAny(out, " \t\n") {
		return ""
	}
	return out
}

// maxVersion drops "versions" that are really a captured blob.
const maxVersion = 32
