package techdetect

import (
	"strings"
	"testing"
)

// FuzzPattern parses arbitrary pattern strings (never a panic) and checks
// the prefilter's promise: every match of a compiled pattern contains
// one of its required literals, so skipping texts without them loses
// nothing.
func FuzzPattern(f *testing.F) {
	for _, s := range []string{
		`js\.stripe\.com/(?:v(\d+)/?)?\;version:\1`, `(?:pi|cdn)\.pardot\.com/pd\.js`, `^nginx(?:/([\d.]+))?`,
		`<div[^>]+data-v-[0-9a-f]{8}`, `foo(?=bar)`, `(a)\1`, `[^]x`, `\u00e9t\u00e9`, `(?i)ÉTÉ|summer`,
	} {
		f.Add(s, "<script src=https://js.stripe.com/v3/> nginx/1.2 été SUMMER <div data-v-0a1b2c3d>")
	}
	f.Fuzz(func(t *testing.T, pattern, text string) {
		p, reason, err := parsePattern(pattern)
		if err != nil {
			if reason == "" {
				t.Fatalf("error without a reason: %v", err)
			}
			return
		}
		if p.re == nil || p.lits == nil {
			return
		}
		loc := p.re.FindStringIndex(text)
		if loc == nil {
			return
		}
		m := string(lowerASCII(nil, text[loc[0]:loc[1]]))
		if strings.ContainsAny(m, "\u212a\u017f") {
			// The Kelvin sign and long s fold to k and s under (?i) but
			// are not lower-cased as ASCII: a web page that spells a
			// vendor's name with them is not worth a slower prefilter.
			return
		}
		for _, l := range p.lits {
			if strings.Contains(m, l) {
				return
			}
		}
		t.Errorf("pattern %q matched %q, which holds none of its literals %q", pattern, text[loc[0]:loc[1]], p.lits)
	})
}
