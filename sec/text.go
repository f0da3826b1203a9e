package sec

import (
	"bytes"
	"strings"

	"golang.org/x/net/html"
)

// maxDocumentSize bounds the filing documents read as text; 8-K main
// documents are tens of kilobytes, their largest a few megabytes.
const maxDocumentSize = 16 << 20

// blockTags end a line of text: paragraphs, divisions, rows, breaks.
var blockTags = map[string]bool{
	"p": true, "div": true, "br": true, "tr": true, "li": true, "table": true, "ul": true, "ol": true,
	"h1": true, "h2": true, "h3": true, "h4": true, "h5": true, "h6": true, "center": true, "blockquote": true,
	"pre": true, "hr": true, "body": true, "section": true, "dd": true, "dt": true,
}

// skipTags hold no readable text: scripts, styles, the head, and the
// inline XBRL header whose hidden facts would read as stray words.
var skipTags = map[string]bool{"script": true, "style": true, "head": true, "title": true, "ix:header": true}

// DocumentText returns the readable text of a filing document, one
// paragraph a line: HTML (or inline XBRL) is stripped of tags, scripts,
// styles and hidden XBRL facts, table cells are joined by spaces; a
// plain-text document loses its SGML wrapper lines (<DOCUMENT>, <TYPE>,
// ...). Non-breaking spaces become spaces; runs of white space collapse.
func DocumentText(doc []byte) string {
	if len(doc) > maxDocumentSize {
		doc = doc[:maxDocumentSize]
	}
	if looksHTML(doc) {
		return htmlText(doc)
	}
	var b strings.Builder
	for _, line := range strings.Split(string(doc), "\n") {
		t := strings.TrimSpace(line)
		if strings.HasPrefix(t, "<") && strings.HasSuffix(t, ">") && !strings.Contains(t, " ") {
			continue // an SGML wrapper tag such as <TEXT> or </DOCUMENT>
		}
		if t = collapse(t); t != "" {
			b.WriteString(t)
			b.WriteByte('\n')
		}
	}
	return b.String()
}

func looksHTML(doc []byte) bool {
	head := doc
	if len(head) > 16384 {
		head = head[:16384]
	}
	head = bytes.ToLower(head)
	for _, m := range []string{"<html", "<body", "<p>", "<p ", "<div", "<!doctype html", "<table", "<font"} {
		if bytes.Contains(head, []byte(m)) {
			return true
		}
	}
	return false
}

func htmlText(doc []byte) string {
	z := html.NewTokenizer(bytes.NewReader(doc))
	var out strings.Builder
	var line strings.Builder
	skip := 0
	flush := func() {
		if t := collapse(line.String()); t != "" {
			out.WriteString(t)
			out.WriteByte('\n')
		}
		line.Reset()
	}
	for {
		switch z.Next() {
		case html.ErrorToken:
			flush()
			return out.String()
		case html.TextToken:
			if skip == 0 {
				line.Write(z.Text())
			}
		case html.StartTagToken:
			name, _ := z.TagName()
			n := string(name)
			if skipTags[n] {
				skip++
			} else if blockTags[n] {
				flush()
			} else if n == "td" || n == "th" {
				line.WriteByte(' ')
			}
		case html.EndTagToken:
			name, _ := z.TagName()
			n := string(name)
			if skipTags[n] {
				if skip > 0 {
					skip--
				}
			} else if blockTags[n] {
				flush()
			} else if n == "td" || n == "th" {
				line.WriteByte(' ')
			}
		case html.SelfClosingTagToken:
			name, _ := z.TagName()
			if blockTags[string(name)] {
				flush()
			}
		}
	}
}

// collapse turns every run of white space (non-breaking and zero-width
// spaces included) into one space and trims the ends.
func collapse(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	space := false
	for _, r := range s {
		switch r {
		case ' ', '\t', '\n', '\r', '\f', '\v', '\u00a0', '\u2002', '\u2003', '\u2009', '\u200b', '\u202f', '\ufeff':
			space = true
			continue
		}
		if space && b.Len() > 0 {
			b.WriteByte(' ')
		}
		space = false
		b.WriteRune(r)
	}
	return b.String()
}
