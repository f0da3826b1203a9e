package sec

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/url"
	"regexp"
	"strings"

	"golang.org/x/net/html"
)

// FilingIndex is what a filing's index page (ACCESSION-index.htm) says:
// its dates, the 8-K items it reports, and its documents.
type FilingIndex struct {
	FilingDate string
	Period     string
	// Items are the 8-K item numbers listed ("5.02", "9.01"); nil when
	// the page lists none.
	Items     []string
	Documents []FilingDocument
}

// FilingDocument is one row of the index page's document table.
type FilingDocument struct {
	Seq         string
	Description string
	// URL is absolute: inline XBRL viewer links (/ix?doc=/Archives/...)
	// are turned into the document's own address.
	URL  string
	Name string
	Type string // 8-K, EX-99.1, D, GRAPHIC ...
}

var itemRe = regexp.MustCompile(`(?i)\bitem\s*(\d{1,2}\.\d{2})`)

// ErrNotFilingIndex is returned for a page without a document table.
var ErrNotFilingIndex = errors.New("sec: not an EDGAR filing index page")

// ParseFilingIndex reads a filing index page fetched from pageURL (which
// relative document links are resolved against).
func ParseFilingIndex(page []byte, pageURL string) (*FilingIndex, error) {
	if len(page) > maxDocumentSize {
		return nil, fmt.Errorf("%w: %d bytes", ErrNotFilingIndex, len(page))
	}
	root, err := html.Parse(bytes.NewReader(page))
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrNotFilingIndex, err)
	}
	base, err := url.Parse(pageURL)
	if err != nil {
		return nil, fmt.Errorf("sec: filing index URL %q: %w", pageURL, err)
	}
	fi := &FilingIndex{}
	var head string // the last infoHead seen, waiting for its info
	tables := 0
	for n := range root.Descendants() {
		if n.Type != html.ElementNode {
			continue
		}
		switch {
		case n.Data == "div" && hasClass(n, "infoHead"):
			head = collapse(nodeText(n))
		case n.Data == "div" && hasClass(n, "info") && head != "":
			switch head {
			case "Filing Date":
				fi.FilingDate = collapse(nodeText(n))
			case "Period of Report":
				fi.Period = collapse(nodeText(n))
			case "Items":
				for _, m := range itemRe.FindAllStringSubmatch(nodeText(n), -1) {
					fi.Items = append(fi.Items, m[1])
				}
			}
			if head != "Items" {
				head = ""
			}
		case n.Data == "table" && hasClass(n, "tableFile"):
			tables++
			fi.Documents = append(fi.Documents, documentRows(n, base)...)
		}
	}
	if tables == 0 {
		return nil, ErrNotFilingIndex
	}
	return fi, nil
}

func documentRows(table *html.Node, base *url.URL) []FilingDocument {
	var out []FilingDocument
	for tr := range table.Descendants() {
		if tr.Type != html.ElementNode || tr.Data != "tr" {
			continue
		}
		var cells []*html.Node
		for c := tr.FirstChild; c != nil; c = c.NextSibling {
			if c.Type == html.ElementNode && c.Data == "td" {
				cells = append(cells, c)
			}
		}
		if len(cells) < 4 {
			continue // the header row has th cells
		}
		d := FilingDocument{
			Seq: collapse(nodeText(cells[0])), Description: collapse(nodeText(cells[1])),
			Type: collapse(nodeText(cells[3])),
		}
		for a := range cells[2].Descendants() {
			if a.Type == html.ElementNode && a.Data == "a" {
				d.URL = documentURL(attr(a, "href"), base)
				break
			}
		}
		if d.URL == "" {
			continue
		}
		if u, err := url.Parse(d.URL); err == nil {
			d.Name = u.Path[strings.LastIndexByte(u.Path, '/')+1:]
		}
		out = append(out, d)
	}
	return out
}

// documentURL resolves a document link; the inline XBRL viewer's
// /ix?doc=/Archives/... becomes /Archives/.... A link to another host is
// dropped: filings are fetched from the host that lists them.
func documentURL(href string, base *url.URL) string {
	href = strings.TrimSpace(href)
	if href == "" {
		return ""
	}
	if rest, ok := strings.CutPrefix(href, "/ix?doc="); ok {
		href = rest
	}
	u, err := base.Parse(href)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || !strings.EqualFold(u.Host, base.Host) {
		return ""
	}
	return u.String()
}

func hasClass(n *html.Node, class string) bool {
	for _, c := range strings.Fields(attr(n, "class")) {
		if c == class {
			return true
		}
	}
	return false
}

func attr(n *html.Node, key string) string {
	for _, a := range n.Attr {
		if a.Key == key {
			return a.Val
		}
	}
	return ""
}

// nodeText is the text under n with a space for each element boundary,
// so "Item 5.02<br>Item 9.01" keeps its items apart.
func nodeText(n *html.Node) string {
	var b strings.Builder
	for d := range n.Descendants() {
		switch d.Type {
		case html.TextNode:
			b.WriteString(d.Data)
		case html.ElementNode:
			b.WriteByte(' ')
		}
	}
	return b.String()
}

// HasItem reports whether the index lists item (such as "5.02").
func (fi *FilingIndex) HasItem(item string) bool {
	for _, it := range fi.Items {
		if it == item {
			return true
		}
	}
	return false
}

// Main returns the filing's main document: the first whose type is the
// form type (8-K for an 8-K), preferring HTML or text over XML renderings.
func (fi *FilingIndex) Main(formType string) (FilingDocument, bool) {
	var xmlDoc *FilingDocument
	for i, d := range fi.Documents {
		if !strings.EqualFold(d.Type, formType) {
			continue
		}
		if strings.HasSuffix(strings.ToLower(d.Name), ".xml") {
			if xmlDoc == nil {
				xmlDoc = &fi.Documents[i]
			}
			continue
		}
		return d, true
	}
	if xmlDoc != nil {
		return *xmlDoc, true
	}
	return FilingDocument{}, false
}

// FilingIndex fetches and parses a filing's index page.
func (c *Client) FilingIndex(ctx context.Context, cik, accession string) (*FilingIndex, error) {
	u := FilingIndexURL(c.base, cik, accession)
	b, err := c.fetchBody(ctx, u, "text/html")
	if err != nil {
		return nil, err
	}
	fi, err := ParseFilingIndex(b, u)
	if err != nil {
		return nil, fmt.Errorf("sec: %s: %w", u, err)
	}
	return fi, nil
}

// formDXML returns the raw primary_doc.xml of a Form D filing, not its
// rendering under xslFormDX01/.
func (fi *FilingIndex) formDXML() (FilingDocument, bool) {
	for _, d := range fi.Documents {
		if (d.Type == FormD || d.Type == FormDA) && strings.HasSuffix(strings.ToLower(d.Name), ".xml") &&
			!strings.Contains(strings.ToLower(d.URL), "/xsl") {
			return d, true
		}
	}
	return FilingDocument{}, false
}
