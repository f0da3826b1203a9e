package prospector_test

import (
	"strings"
	"testing"

	"github.com/prospectorhq/prospector"
)

func TestValidText(t *testing.T) {
	for _, tc := range []struct {
		s     string
		valid bool
	}{
		{"", true},
		{"VP Sales – Zoë ✓", true},
		{"tab\tnewline\n", true},
		{"VP\x00Sales", false},
		{`VP\u0000Sales`, false},   // the JSON escape, which jsonb refuses
		{`VP\\u0000Sales`, true},   // an escaped backslash, then text
		{`VP\\\u0000Sales`, false}, // an escaped backslash, then the escape
		{`\u00001`, false},
		{`\u0001`, true},
		{"caf\xe9", false},
		{"\xed\xa0\x80", false}, // a surrogate half
	} {
		if got := prospector.ValidText(tc.s); got != tc.valid {
			t.Errorf("ValidText(%q) = %v, want %v", tc.s, got, tc.valid)
		}
		err := prospector.CheckText("name", tc.s)
		if (err == nil) != tc.valid || (err != nil && (prospector.ErrorCode(err) != prospector.EINVALID ||
			!strings.HasPrefix(prospector.ErrorMessage(err), "name: "))) {
			t.Errorf("CheckText(%q) = %v", tc.s, err)
		}
		if clean := prospector.CleanText(tc.s); !prospector.ValidText(clean) || (tc.valid && clean != tc.s) {
			t.Errorf("CleanText(%q) = %q", tc.s, clean)
		}
	}
	if got := prospector.CleanText("a\x00b\xffc\\u0000d\\\\u0000"); got != "a\uFFFDb\uFFFDc\uFFFDd\\\\u0000" {
		t.Errorf("CleanText = %q", got)
	}
}
