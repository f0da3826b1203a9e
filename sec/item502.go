package sec

import (
	"context"
	"fmt"
	"regexp"
	"strings"
)

// Bounds of what is kept from a filing's text.
const (
	maxSectionChars  = 40000 // read of one Item 5.02 section
	maxUnparsedChars = 1000  // kept of one unparsed sentence or section
	maxUnparsed      = 10    // unparsed entries kept per filing
)

// ExecutiveReport is what an 8-K's Item 5.02 (departure or appointment
// of directors and officers) says, read by rules: the changes that could
// be told for sure, and what could not, kept as text with the filing
// link rather than guessed.
type ExecutiveReport struct {
	Accession   string
	CIK         string
	Company     string
	FormType    string // 8-K or 8-K/A
	Filed       string // YYYY-MM-DD
	FilingURL   string // the filing's index page
	DocumentURL string // the document the text was read from
	// HasItem is false when the filing reports no Item 5.02 (nothing
	// else is then set).
	HasItem  bool
	Changes  []ExecutiveChange
	Unparsed []Unparsed
}

// Unparsed is text of an Item 5.02 section that names a change the rules
// could not read, at most maxUnparsedChars long.
type Unparsed struct {
	Text      string
	FilingURL string
}

var (
	// Item numbers are not followed by \b: "Item 5.02Departure" is
	// what adjacent spans become.
	itemHeadRe = regexp.MustCompile(`(?i)^\s*item\s*(\d{1,2})\s*\.\s*(\d{2})(?:\D|$)`)
	item502Re  = regexp.MustCompile(`(?i)\bitem\s*5\s*\.\s*02(?:\D|$)`)
	nextItemRe = regexp.MustCompile(`(?i)\bitem\s*\d{1,2}\s*\.\s*\d{2}(?:\D|$)`)
	signRe     = regexp.MustCompile(`(?i)^\s*signatures?\s*$`)
	// item502Title is the item's caption, in full or cut short.
	item502Title = regexp.MustCompile(`(?i)^[\s.:\-–—]*(departure of directors or[^.]*?officers(?:[;:,]\s*[^.]*certain officers)?|departure[^.]{0,200}?compensatory arrangements of certain officers)[\s.:;]*`)
)

// Item502Section returns the text of a document's Item 5.02 section, one
// paragraph a line, without its caption; "" when there is none. The
// section runs from a line starting "Item 5.02" to the next item
// heading, the signatures or the end; when several lines start so (a
// summary, then the item), the longest section wins.
func Item502Section(text string) string {
	lines := strings.Split(text, "\n")
	best := ""
	for i, l := range lines {
		m := itemHeadRe.FindStringSubmatch(l)
		if m == nil || m[1] != "5" || m[2] != "02" {
			continue
		}
		var b strings.Builder
		b.WriteString(stripCaption(l))
		for _, next := range lines[i+1:] {
			if itemHeadRe.MatchString(next) || signRe.MatchString(next) || b.Len() > maxSectionChars {
				break
			}
			b.WriteByte('\n')
			b.WriteString(next)
		}
		if s := strings.TrimSpace(b.String()); len(s) > len(best) {
			best = s
		}
	}
	if best == "" {
		// No heading line: the caption may run inside a paragraph.
		if loc := item502Re.FindStringIndex(text); loc != nil {
			rest := text[loc[0]:]
			if end := nextItemRe.FindStringIndex(rest[loc[1]-loc[0]:]); end != nil {
				rest = rest[:loc[1]-loc[0]+end[0]]
			}
			best = strings.TrimSpace(stripCaption(rest))
		}
	}
	if len(best) > maxSectionChars {
		best = truncate(best, maxSectionChars)
	}
	return best
}

// stripCaption removes "Item 5.02" and the item's caption from the start
// of a line.
func stripCaption(l string) string {
	loc := item502Re.FindStringIndex(l)
	if loc == nil {
		return l
	}
	rest := l[loc[1]:]
	if loc[1] > loc[0] && !strings.HasSuffix(l[loc[0]:loc[1]], "2") {
		rest = l[loc[1]-1:] // the regexp took the character after the number
	}
	if m := item502Title.FindStringIndex(rest); m != nil {
		rest = rest[m[1]:]
	}
	return strings.TrimLeft(rest, " .:-–—")
}

// ParseItem502 reads the changes of an 8-K document's text (see
// DocumentText); filingURL is kept with unparsed text. It returns the
// section found ("" when none) with the changes and the unparsed text.
func ParseItem502(text, filingURL string) (section string, changes []ExecutiveChange, unparsed []Unparsed) {
	section = Item502Section(text)
	if section == "" {
		return "", nil, nil
	}
	changes, rest := extractChanges(section)
	for _, s := range rest {
		if len(unparsed) == maxUnparsed {
			break
		}
		unparsed = append(unparsed, Unparsed{Text: truncate(s, maxUnparsedChars), FilingURL: filingURL})
	}
	return section, changes, unparsed
}

// ExecutiveChanges reads the Item 5.02 of an 8-K or 8-K/A listed in a
// daily index: the filing's index page tells whether it reports the item
// (no further request when not) and which document is the main one.
func (c *Client) ExecutiveChanges(ctx context.Context, e IndexEntry) (*ExecutiveReport, error) {
	r := &ExecutiveReport{
		Accession: e.Accession, CIK: e.CIK, Company: e.CompanyName, FormType: e.FormType, Filed: e.DateFiled,
		FilingURL: FilingIndexURL(c.base, e.CIK, e.Accession),
	}
	fi, err := c.FilingIndex(ctx, e.CIK, e.Accession)
	if err != nil {
		return nil, err
	}
	if len(fi.Items) > 0 && !fi.HasItem("5.02") {
		return r, nil
	}
	doc, ok := fi.Main(e.FormType)
	if !ok {
		doc, ok = fi.Main(strings.TrimSuffix(e.FormType, "/A"))
	}
	if !ok {
		return nil, fmt.Errorf("%w: no %s document in filing %s", ErrMissing, e.FormType, e.Accession)
	}
	b, err := c.fetchBody(ctx, doc.URL, "text/html")
	if err != nil {
		return nil, err
	}
	r.DocumentURL = doc.URL
	section, changes, unparsed := ParseItem502(DocumentText(b), r.FilingURL)
	r.HasItem = section != "" || fi.HasItem("5.02")
	if section == "" && r.HasItem {
		unparsed = []Unparsed{{Text: "Item 5.02 is listed but its section was not found in " + doc.URL, FilingURL: r.FilingURL}}
	}
	r.Changes, r.Unparsed = changes, unparsed
	return r, nil
}
