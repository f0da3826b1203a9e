package techdetect

import (
	"reflect"
	"regexp/syntax"
	"testing"
)

func TestTranslate(t *testing.T) {
	cases := []struct {
		js, re2 string
		reason  SkipReason
	}{
		{`jquery-([0-9.]+)\.js`, `jquery-([0-9.]+)\.js`, ""},
		{`\/wp-content\/`, `\/wp-content\/`, ""},
		{`\u00e9t\u00E9`, `\x{00e9}t\x{00E9}`, ""},
		{`\x41b`, `\x41b`, ""},
		{`\_gat\-`, `_gat\-`, ""}, // identity escape of a non-letter
		{`\e\i\z`, `eiz`, ""},     // unknown letter escapes are the letter
		{`[\b]`, `[\x08]`, ""},    // backspace inside a class
		{`a[^]b`, `a[\x00-\x{10FFFF}]b`, ""},
		{`[a[b]`, `[a\[b]`, ""},
		{`function webpackJsonp\(data\) {`, `function webpackJsonp\(data\) {`, ""},
		{`(?<ver>\d+)`, `(?<ver>\d+)`, ""},
		{`foo(?=bar)`, "", SkipLookaround},
		{`(?<!x)foo`, "", SkipLookaround},
		{`(?!x)foo`, "", SkipLookaround},
		{`(a)\1`, "", SkipBackref},
		{`(?<q>a)\k<q>`, "", SkipBackref},
		{`a[]b`, "", SkipUnsupported},
		{`\cJ`, "", SkipUnsupported},
		{`abc\`, "", SkipInvalid},
	}
	for _, c := range cases {
		got, reason, err := translate(c.js)
		if reason != c.reason || (c.reason == "" && (err != nil || got != c.re2)) {
			t.Errorf("translate(%q) = %q, %q, %v; want %q, %q", c.js, got, reason, err, c.re2, c.reason)
		}
	}
}

func TestParsePatternTags(t *testing.T) {
	p, reason, err := parsePattern(`example-([0-9.]+)\.js\;confidence:50\;version:\1`)
	if err != nil || reason != "" {
		t.Fatal(reason, err)
	}
	if p.Source != `example-([0-9.]+)\.js` || p.Confidence != 50 || p.Version != `\1` {
		t.Errorf("pattern = %+v", p)
	}
	// Patterns are case-insensitive, as the format says.
	if !p.re.MatchString("/EXAMPLE-1.2.JS") {
		t.Error("pattern is case-sensitive")
	}
	empty, _, err := parsePattern(`\;confidence:25`)
	if err != nil || empty.re != nil || empty.Confidence != 25 {
		t.Errorf("empty pattern = %+v, %v", empty, err)
	}
	if _, reason, err := parsePattern(`x\;confidence:150`); err == nil || reason != SkipBadTag {
		t.Errorf("confidence 150: reason %q, err %v; want %q and an error", reason, err, SkipBadTag)
	}
}

func TestResolveVersion(t *testing.T) {
	cases := []struct {
		tmpl   string
		groups []string
		want   string
	}{
		{`\1`, []string{"x", "3.7.1"}, "3.7.1"},
		{`\1.\2`, []string{"x", "3", "7"}, "3.7"},
		{`\1?next:legacy`, []string{"x", "y"}, "next"},
		{`\1?next:legacy`, []string{"x", ""}, "legacy"},
		{`\1?:b`, []string{"x", "y"}, ""},
		{`v\1`, []string{"x", "2"}, "v2"},
		{`\10`, []string{"x", "a", "b", "c", "d", "e", "f", "g", "h", "i", "ten"}, "ten"},
		{`\1`, []string{"x", "this is not a version at all, it is a sentence"}, ""},
		{`\2`, []string{"x", "1"}, `\2`}, // a missing group is left as written, as the format does
	}
	for _, c := range cases {
		if got := resolveVersion(c.tmpl, c.groups); got != c.want {
			t.Errorf("resolveVersion(%q, %q) = %q, want %q", c.tmpl, c.groups, got, c.want)
		}
	}
}

func TestRequiredLiterals(t *testing.T) {
	cases := []struct {
		re   string
		want []string
	}{
		{`js\.stripe\.com/(?:v(\d+)/?)?`, []string{"js.stripe.com/"}},
		{`<script[^>]+id=['"]__NEXT_DATA__['"]`, []string{"__next_data__"}},
		{`(?:pi|cdn)\.pardot\.com/pd\.js`, []string{".pardot.com/pd.j"}},
		{`(?:googletagmanager|doubleclick)\.net`, []string{"googletagmanager", "doubleclick"}},
		{`^nginx(?:/(\d+))?`, []string{"nginx"}},
		{`\d+`, nil},
		{`ab|cd`, nil}, // too short to help
		{`x*`, nil},
	}
	for _, c := range cases {
		tree, err := syntax.Parse(c.re, syntax.Perl|syntax.FoldCase)
		if err != nil {
			t.Fatal(err)
		}
		if got := requiredLiterals(tree.Simplify()); !reflect.DeepEqual(got, c.want) {
			t.Errorf("requiredLiterals(%q) = %q, want %q", c.re, got, c.want)
		}
	}
}

func TestScannerFindsOverlappingLiterals(t *testing.T) {
	s := newScanner([]string{"stripe", "js.stripe.com", "tripe", "com/v3"})
	h := newHits(4)
	for round := 0; round < 2; round++ { // the second scan reuses h
		s.scan([]byte("<script src=https://js.stripe.com/v3/></script> stripe"), h)
		want := map[int32][]int32{0: {29, 54}, 1: {33}, 2: {29, 54}, 3: {36}}
		for id, ends := range want {
			if got, _ := h.endsOf(id); !reflect.DeepEqual(got, ends) {
				t.Errorf("round %d: literal %d ends = %v, want %v", round, id, got, ends)
			}
		}
		if !reflect.DeepEqual(h.found, []int32{0, 2, 1, 3}) {
			t.Errorf("found order = %v", h.found)
		}
	}
	s.scan([]byte("no literal here"), h)
	if got, _ := h.endsOf(0); len(h.found) != 0 || got != nil {
		t.Errorf("reset failed: %v", h.found)
	}
}
