package prospector

import (
	"strings"
	"unicode/utf8"
)

// ErrInvalidText is what both store engines return, wrapped, for a text
// value they will not store: one that is not valid UTF-8 or holds the NUL
// character, raw or as the JSON escape \u0000. PostgreSQL refuses such
// text outright and SQLite would keep it, so the stores refuse it alike
// before it reaches either (docs/decisions.md, "Text").
var ErrInvalidText = &Error{Code: EINVALID, Message: "text must be valid UTF-8 without the NUL character (U+0000)"}

// escapedNUL is U+0000 as a JSON escape; jsonb refuses it.
const escapedNUL = `\u0000`

// ValidText reports whether s may be stored: valid UTF-8 with no NUL,
// raw or escaped. A literal backslash before the escape (`\\u0000`, as
// JSON writes the six characters \u0000) does not count. It takes time
// linear in len(s).
func ValidText(s string) bool {
	if strings.IndexByte(s, 0) >= 0 || !utf8.ValidString(s) {
		return false
	}
	return !hasEscapedNUL(s)
}

func hasEscapedNUL(s string) bool { return escapeAt(s) >= 0 }

// escapeAt returns the index of the first \u0000 preceded by an even
// number of backslashes (counting none), that is, an escape and not
// escaped text; -1 when there is none.
func escapeAt(s string) int {
	for from := 0; ; {
		i := strings.Index(s[from:], escapedNUL)
		if i < 0 {
			return -1
		}
		i += from
		slashes := 0
		for j := i - 1; j >= 0 && s[j] == '\\'; j-- {
			slashes++
		}
		if slashes%2 == 0 {
			return i
		}
		from = i + len(escapedNUL)
	}
}

// CheckText returns a validation error naming field when s is not
// ValidText, nil otherwise.
func CheckText(field, s string) error {
	if ValidText(s) {
		return nil
	}
	if !utf8.ValidString(s) {
		return Errorf(EINVALID, "%s: must be valid UTF-8", field)
	}
	return Errorf(EINVALID, "%s: must not contain the NUL character (U+0000), raw or as the escape \\u0000", field)
}

// CleanText returns s made ValidText, for text from outside that is kept
// as a record of what was seen (a webhook receiver's answer, a fetched
// page) rather than refused: invalid bytes, a NUL and the escape \u0000
// each become U+FFFD. Valid text is returned as it is.
func CleanText(s string) string {
	if ValidText(s) {
		return s
	}
	s = strings.ToValidUTF8(s, "\uFFFD")
	s = strings.ReplaceAll(s, "\x00", "\uFFFD")
	var b strings.Builder
	for {
		i := escapeAt(s)
		if i < 0 {
			b.WriteString(s)
			return b.String()
		}
		b.WriteString(s[:i])
		b.WriteString("\uFFFD")
		s = s[i+len(escapedNUL):]
	}
}
