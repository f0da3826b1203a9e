package website

import (
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// Analyze reads one fetched HTML page: pageURL is its final URL (after
// redirects), header the response headers (for the Content-Type charset)
// and body the raw bytes. It never fails on what the page contains:
// broken markup, unknown charsets and unresolvable links are read as a
// browser would or skipped. It returns an error only when pageURL is not
// an absolute http or https URL.
func Analyze(pageURL string, header http.Header, body []byte, lim Limits) (*Page, error) {
	lim = lim.withDefaults()
	page, err := url.Parse(pageURL)
	if err != nil {
		return nil, fmt.Errorf("website: page URL: %w", err)
	}
	if (page.Scheme != "http" && page.Scheme != "https") || page.Host == "" {
		return nil, fmt.Errorf("website: page URL %q: %w", pageURL, errNotHTTP)
	}
	p := &Page{URL: pageURL}
	if len(body) > lim.MaxBytes {
		body, p.Truncated = body[:lim.MaxBytes], true
	}
	p.HTML, p.Charset = decode(body, header)

	var raw rawPage
	raw.tokenize(p.HTML, lim)
	p.Title = raw.title
	p.Scripts = raw.scripts

	base := page
	if raw.base != "" {
		if b, ok := resolve(page, raw.base); ok {
			base = b
		}
	}
	p.BaseURL = base.String()
	seen := make(map[string]int)
	for _, l := range raw.links {
		u, ok := resolveString(base, l.href)
		if !ok {
			continue
		}
		if i, dup := seen[u]; dup {
			if p.Links[i].Text == "" {
				p.Links[i].Text = l.text
			}
			continue
		}
		if len(p.Links) >= lim.MaxLinks {
			continue
		}
		seen[u] = len(p.Links)
		p.Links = append(p.Links, Link{URL: u, Text: l.text})
	}
	p.IFrames = resolveAll(base, raw.iframes, lim.MaxIFrames)
	p.ScriptSrcs = resolveAll(base, raw.scriptSrcs, lim.MaxScriptSrcs)
	for _, m := range raw.meta {
		if len(p.Meta) >= lim.MaxMeta {
			break
		}
		p.Meta = append(p.Meta, m)
	}
	feedSeen := make(map[string]bool)
	for _, f := range raw.feeds {
		u, ok := resolveString(base, f.URL)
		if !ok || feedSeen[u] || len(p.Feeds) >= lim.MaxFeeds {
			continue
		}
		feedSeen[u] = true
		p.Feeds = append(p.Feeds, Feed{URL: u, Type: f.Type, Title: f.Title})
	}
	p.Careers = careerCandidates(page, p.Links, lim.MaxCareers)
	return p, nil
}

var errNotHTTP = errors.New("not an absolute http(s) URL")

// rawPage is what the tokenizer collects before URLs are resolved: the
// document's base URL is the first <base href> wherever it appears, so
// resolution waits for the whole document.
type rawPage struct {
	title       string
	base        string
	links       []rawLink
	iframes     []string
	scriptSrcs  []string
	scripts     []Script
	scriptBytes int
	meta        []Meta
	feeds       []Feed
}

// rawFactor bounds the lists gathered before resolution and de-duplication
// to a multiple of what is kept, so a page of repeated links costs no more
// memory than a page at the limit.
const rawFactor = 4

type rawLink struct{ href, text string }

// attrs holds the attributes of one tag that the analysis reads.
type attrs struct {
	href, src, rel, typ, name, property, httpEquiv, content, alt, label, title string
	hasContent                                                                 bool
}

func readsAttrs(at atom.Atom) bool {
	switch at {
	case atom.A, atom.Img, atom.Base, atom.Iframe, atom.Script, atom.Meta, atom.Link:
		return true
	}
	return false
}

func readAttrs(z *html.Tokenizer) attrs {
	var a attrs
	for {
		k, v, more := z.TagAttr()
		switch string(k) {
		case "href":
			a.href = string(v)
		case "src":
			a.src = string(v)
		case "rel":
			a.rel = string(v)
		case "type":
			a.typ = string(v)
		case "name":
			a.name = string(v)
		case "property":
			a.property = string(v)
		case "http-equiv":
			a.httpEquiv = string(v)
		case "content":
			a.content, a.hasContent = string(v), true
		case "alt":
			a.alt = string(v)
		case "aria-label":
			a.label = string(v)
		case "title":
			a.title = string(v)
		}
		if !more {
			return a
		}
	}
}

// tokenize walks the document once. Work is linear in its length: every
// list is bounded, and text is only kept for the title, open anchors and
// inline scripts.
func (r *rawPage) tokenize(doc string, lim Limits) {
	z := html.NewTokenizer(strings.NewReader(doc))
	var (
		rawText    atom.Atom // raw-text element whose content is the next text token
		inScript   bool      // that element is an inline script to keep
		scriptType string
		anchor     = -1 // index in r.links of the open <a>
		text       textBuilder
		svg        int
	)
	closeAnchor := func() {
		if anchor >= 0 && r.links[anchor].text == "" {
			r.links[anchor].text = text.String()
		}
		anchor = -1
		text.Reset()
	}
	for {
		tt := z.Next()
		switch tt {
		case html.ErrorToken:
			closeAnchor()
			return
		case html.TextToken:
			switch rawText {
			case atom.Title:
				if r.title == "" && svg == 0 {
					r.title = collapse(string(z.Text()), maxTextRunes)
				}
			case atom.Script:
				if inScript {
					r.addScript(scriptType, z.Text(), lim)
				}
			case 0:
				if anchor >= 0 {
					text.Write(z.Text())
				}
			}
			rawText, inScript = 0, false
		case html.StartTagToken, html.SelfClosingTagToken:
			name, hasAttr := z.TagName()
			at := atom.Lookup(name)
			var a attrs
			if hasAttr && (at == atom.Img && anchor >= 0 || at != atom.Img && readsAttrs(at)) {
				// The tokenizer copies every attribute it returns; most
				// tags have nothing the analysis needs.
				a = readAttrs(z)
			}
			rawText, inScript = 0, false
			switch at {
			case atom.Script, atom.Style, atom.Title, atom.Textarea, atom.Iframe,
				atom.Noembed, atom.Noframes, atom.Xmp, atom.Plaintext:
				rawText = at
			case atom.Noscript:
				// A crawler runs no scripts, so it sees what a browser with
				// scripting disabled sees: the markup inside <noscript>.
				z.NextIsNotRawText()
			}
			switch at {
			case atom.A:
				closeAnchor()
				if a.href != "" && len(r.links) < rawFactor*lim.MaxLinks {
					anchor = len(r.links)
					r.links = append(r.links, rawLink{href: a.href})
					if tt == html.SelfClosingTagToken {
						r.links[anchor].text = collapse(a.label+" "+a.title, maxTextRunes)
						anchor = -1
					} else if lbl := collapse(a.label, maxTextRunes); lbl != "" {
						text.fallback = lbl
					} else {
						text.fallback = collapse(a.title, maxTextRunes)
					}
				}
			case atom.Img:
				if anchor >= 0 && a.alt != "" {
					text.WriteAlt(a.alt)
				}
			case atom.Base:
				if r.base == "" && a.href != "" {
					r.base = a.href
				}
			case atom.Iframe:
				if a.src != "" && len(r.iframes) < rawFactor*lim.MaxIFrames {
					r.iframes = append(r.iframes, a.src)
				}
			case atom.Script:
				if a.src != "" {
					if len(r.scriptSrcs) < rawFactor*lim.MaxScriptSrcs {
						r.scriptSrcs = append(r.scriptSrcs, a.src)
					}
				} else {
					inScript, scriptType = true, strings.ToLower(strings.TrimSpace(a.typ))
				}
			case atom.Meta:
				if len(r.meta) < lim.MaxMeta {
					r.addMeta(a)
				}
			case atom.Link:
				if f, ok := feedOf(a); ok && len(r.feeds) < rawFactor*lim.MaxFeeds {
					r.feeds = append(r.feeds, f)
				}
			case atom.Svg:
				if tt == html.StartTagToken {
					svg++
				}
			}
		case html.EndTagToken:
			name, _ := z.TagName()
			rawText, inScript = 0, false
			switch atom.Lookup(name) {
			case atom.A:
				closeAnchor()
			case atom.Svg:
				if svg > 0 {
					svg--
				}
			}
		}
	}
}

func (r *rawPage) addScript(typ string, body []byte, lim Limits) {
	room := lim.MaxScriptsBytes - r.scriptBytes
	if room <= 0 || len(strings.TrimSpace(string(body))) == 0 {
		return
	}
	keep := min(len(body), lim.MaxScriptBytes, room)
	s := Script{Type: typ, Body: string(body[:keep]), Truncated: keep < len(body)}
	r.scriptBytes += keep
	r.scripts = append(r.scripts, s)
}

func (r *rawPage) addMeta(a attrs) {
	if !a.hasContent {
		return
	}
	m := Meta{Content: strings.TrimSpace(a.content)}
	switch {
	case a.name != "":
		m.Attr, m.Name = "name", a.name
	case a.property != "":
		m.Attr, m.Name = "property", a.property
	case a.httpEquiv != "":
		m.Attr, m.Name = "http-equiv", a.httpEquiv
	default:
		return
	}
	m.Name = strings.ToLower(strings.TrimSpace(m.Name))
	r.meta = append(r.meta, m)
}

// isFeedType reports whether a <link rel="alternate"> media type names a
// feed rather than a translation or a print version.
func isFeedType(typ string) bool {
	switch typ {
	case "application/rss+xml", "application/atom+xml", "application/feed+json":
		return true
	}
	return false
}

func feedOf(a attrs) (Feed, bool) {
	typ := strings.ToLower(strings.TrimSpace(a.typ))
	if i := strings.IndexByte(typ, ';'); i >= 0 {
		typ = strings.TrimSpace(typ[:i])
	}
	if a.href == "" || !isFeedType(typ) {
		return Feed{}, false
	}
	for _, tok := range strings.Fields(strings.ToLower(a.rel)) {
		if tok == "alternate" {
			return Feed{URL: a.href, Type: typ, Title: collapse(a.title, maxTextRunes)}, true
		}
	}
	return Feed{}, false
}
