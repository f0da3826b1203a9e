package website

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// textBuilder gathers an anchor's text. It keeps a bounded amount of raw
// text so a page of one giant link costs no more than a normal one.
type textBuilder struct {
	buf      strings.Builder
	alt      string // first image alt inside the anchor
	fallback string // aria-label or title of the anchor itself
}

const maxRawText = 4 * maxTextRunes

func (t *textBuilder) Write(b []byte) {
	if room := maxRawText - t.buf.Len(); room > 0 {
		if len(b) > room {
			b = b[:room]
		}
		t.buf.Write(b)
		t.buf.WriteByte(' ')
	}
}

func (t *textBuilder) WriteAlt(alt string) {
	if t.alt == "" {
		t.alt = collapse(alt, maxTextRunes)
	}
}

// String returns the visible text, else the image alt, else the label.
func (t *textBuilder) String() string {
	if s := collapse(t.buf.String(), maxTextRunes); s != "" {
		return s
	}
	if t.alt != "" {
		return t.alt
	}
	return t.fallback
}

func (t *textBuilder) Reset() {
	t.buf.Reset()
	t.alt, t.fallback = "", ""
}

// collapse trims s, folds runs of white space into one space and cuts it
// to at most n runes.
func collapse(s string, n int) string {
	var b strings.Builder
	space, runes := false, 0
	for _, r := range s {
		if unicode.IsSpace(r) {
			space = b.Len() > 0
			continue
		}
		if runes >= n {
			break
		}
		if space {
			b.WriteByte(' ')
			space = false
			runes++
		}
		if r == utf8.RuneError {
			r = unicode.ReplacementChar
		}
		b.WriteRune(r)
		runes++
	}
	return b.String()
}
