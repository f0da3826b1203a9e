package prospector

import (
	"net/url"
	"strings"
	"unicode/utf8"
)

// Text from the public web goes into the store through these checks.
// PostgreSQL's text type refuses NUL bytes, so both engines refuse them
// up front and the error names the field instead of failing a statement.

// checkText returns an EINVALID naming field when s holds a NUL byte or
// is not valid UTF-8.
func checkText(field, s string) error {
	if strings.IndexByte(s, 0) >= 0 {
		return Errorf(EINVALID, "%s: contains a NUL byte", field)
	}
	if !utf8.ValidString(s) {
		return Errorf(EINVALID, "%s: not valid UTF-8", field)
	}
	return nil
}

// cleanText returns s with NUL bytes and invalid UTF-8 removed, spaces
// trimmed, and at most maxBytes bytes (cut at a character boundary):
// what a source adapter makes of text it did not write itself.
func cleanText(s string, maxBytes int) string {
	s = strings.ToValidUTF8(s, "")
	s = strings.ReplaceAll(s, "\x00", "")
	return truncateText(strings.TrimSpace(s), maxBytes)
}

// truncateText cuts s to at most n bytes without splitting a character.
func truncateText(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

// maxURLBytes bounds every URL a source stores.
const maxURLBytes = 2048

// checkWebURL returns an EINVALID naming field unless s is an absolute
// http(s) URL with a host and no user info, at most maxURLBytes long.
func checkWebURL(field, s string) error {
	if err := checkText(field, s); err != nil {
		return err
	}
	if len(s) > maxURLBytes {
		return Errorf(EINVALID, "%s: longer than %d bytes", field, maxURLBytes)
	}
	u, err := url.Parse(s)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.User != nil {
		return Errorf(EINVALID, "%s: %q is not an http(s) URL", field, s)
	}
	return nil
}
