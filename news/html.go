package news

import (
	"strings"
	"unicode/utf8"

	"golang.org/x/net/html"
)

// maxTextRunes bounds the text kept of a summary.
const maxTextRunes = 1000

// plainText returns the text of an HTML fragment: tags dropped, scripts
// and styles skipped, entities decoded, whitespace collapsed, at most
// maxTextRunes runes (cut at a word). Plain text passes through unchanged
// but for whitespace and entities.
func plainText(s string) string {
	if strings.IndexByte(s, '<') < 0 && strings.IndexByte(s, '&') < 0 {
		return clip(collapse(s), maxTextRunes)
	}
	var b strings.Builder
	z := html.NewTokenizer(strings.NewReader(s))
	skip := 0
	for {
		switch z.Next() {
		case html.ErrorToken:
			return clip(collapse(b.String()), maxTextRunes)
		case html.TextToken:
			if skip == 0 {
				b.Write(z.Text())
			}
		case html.StartTagToken, html.SelfClosingTagToken:
			name, _ := z.TagName()
			switch string(name) {
			case "script", "style", "noscript", "iframe":
				if tt := z.Token(); tt.Type == html.StartTagToken {
					skip++
				}
			case "br", "p", "div", "li", "ul", "ol", "h1", "h2", "h3", "h4", "h5", "h6", "tr", "td", "blockquote":
				b.WriteByte(' ')
			}
		case html.EndTagToken:
			name, _ := z.TagName()
			switch string(name) {
			case "script", "style", "noscript", "iframe":
				if skip > 0 {
					skip--
				}
			case "p", "div", "li", "h1", "h2", "h3", "h4", "h5", "h6", "td", "blockquote":
				b.WriteByte(' ')
			}
		}
	}
}

// collapse turns every run of whitespace into one space and trims.
func collapse(s string) string {
	return strings.Join(strings.Fields(s), " ")
}

// clip cuts s to at most n runes, at a word boundary when one is near,
// and marks the cut with an ellipsis.
func clip(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	cut := 0
	for i := range s {
		if n == 0 {
			cut = i
			break
		}
		n--
	}
	if sp := strings.LastIndexByte(s[:cut], ' '); sp > cut*3/4 {
		cut = sp
	}
	return strings.TrimSpace(s[:cut]) + "…"
}
