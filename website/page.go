// Package website reads a fetched HTML page (a company's homepage or
// careers page) and returns what the sources need from it: links, iframes
// and scripts (where job boards show up), meta tags, inline scripts and the
// HTML itself (for technology detection), RSS/Atom/JSON feeds and the links
// most likely to lead to the careers page. It fetches nothing: the caller
// decides which of the candidates to fetch next.
package website

// Page is what Analyze found in one HTML document. Every URL in it is
// absolute (http or https), resolved against BaseURL, without fragment,
// and listed once in document order.
type Page struct {
	// URL is the page's own URL, as given to Analyze.
	URL string
	// BaseURL is the URL relative references were resolved against: the
	// first <base href> when the page has one, URL otherwise.
	BaseURL string
	// Charset is the name of the encoding the body was decoded from.
	Charset string
	// Truncated is true when the body was longer than Limits.MaxBytes and
	// only its first MaxBytes were analysed.
	Truncated bool

	Title string
	// Links are the <a href> targets with their text.
	Links []Link
	// IFrames and ScriptSrcs are the src of <iframe> and <script> elements.
	IFrames    []string
	ScriptSrcs []string
	// Scripts are the bodies of inline <script> elements, each cut to
	// Limits.MaxScriptBytes and all of them to Limits.MaxScriptsBytes.
	Scripts []Script
	// Meta holds every <meta> with a name, property or http-equiv and a
	// content attribute.
	Meta  []Meta
	Feeds []Feed
	// Careers are the same-site links most likely to be the careers page,
	// best first, at most Limits.MaxCareers.
	Careers []Candidate
	// HTML is the decoded document (UTF-8), cut like the body.
	HTML string
}

// Link is one anchor: its resolved URL and its visible text (whitespace
// collapsed; an image's alt text, or the anchor's aria-label or title when
// it has no text).
type Link struct {
	URL  string `json:"url"`
	Text string `json:"text,omitempty"`
}

// Script is one inline script body. Type is its type attribute, lower-cased
// ("" for classic JavaScript, "application/ld+json" for structured data).
type Script struct {
	Type      string `json:"type,omitempty"`
	Body      string `json:"body"`
	Truncated bool   `json:"truncated,omitempty"`
}

// Meta is one <meta> element. Attr says which attribute named it ("name",
// "property" or "http-equiv"); Name is that attribute's value lower-cased.
type Meta struct {
	Attr    string `json:"attr"`
	Name    string `json:"name"`
	Content string `json:"content"`
}

// Feed is a <link rel="alternate"> to an RSS, Atom or JSON feed.
type Feed struct {
	URL   string `json:"url"`
	Type  string `json:"type"`
	Title string `json:"title,omitempty"`
}

// Candidate is a link that may lead to the company's careers page, with
// the score that ranked it (higher is more likely) and why.
type Candidate struct {
	URL     string   `json:"url"`
	Text    string   `json:"text,omitempty"`
	Score   int      `json:"score"`
	Reasons []string `json:"reasons"`
}

// MetaContent returns the contents of the meta elements named name
// (compared case-insensitively), in document order; nil when none.
func (p *Page) MetaContent(name string) []string {
	var out []string
	for _, m := range p.Meta {
		if equalFoldASCII(m.Name, name) {
			out = append(out, m.Content)
		}
	}
	return out
}

// Limits bound the work and memory Analyze spends on one page. A zero
// field takes its default.
type Limits struct {
	// MaxBytes of the body are analysed (default 2 MiB); the rest is
	// ignored and Page.Truncated set.
	MaxBytes int
	// MaxLinks, MaxIFrames, MaxScriptSrcs, MaxMeta and MaxFeeds bound each
	// list (defaults 2000, 100, 200, 200, 20).
	MaxLinks, MaxIFrames, MaxScriptSrcs, MaxMeta, MaxFeeds int
	// MaxScriptBytes is kept of each inline script (default 64 KiB) and
	// MaxScriptsBytes of all of them together (default 512 KiB).
	MaxScriptBytes, MaxScriptsBytes int
	// MaxCareers candidates are returned (default 5).
	MaxCareers int
}

func (l Limits) withDefaults() Limits {
	def := func(v *int, d int) {
		if *v <= 0 {
			*v = d
		}
	}
	def(&l.MaxBytes, 2<<20)
	def(&l.MaxLinks, 2000)
	def(&l.MaxIFrames, 100)
	def(&l.MaxScriptSrcs, 200)
	def(&l.MaxMeta, 200)
	def(&l.MaxFeeds, 20)
	def(&l.MaxScriptBytes, 64<<10)
	def(&l.MaxScriptsBytes, 512<<10)
	def(&l.MaxCareers, 5)
	return l
}

// maxTextRunes bounds a link's text or a title: enough for a label,
// not a paragraph.
const maxTextRunes = 200

// maxURLBytes drops absurd hrefs (data blobs, tracking payloads).
const maxURLBytes = 4096

func equalFoldASCII(a, b string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := 0; i < len(a); i++ {
		x, y := a[i], b[i]
		if 'A' <= x && x <= 'Z' {
			x += 'a' - 'A'
		}
		if 'A' <= y && y <= 'Z' {
			y += 'a' - 'A'
		}
		if x != y {
			return false
		}
	}
	return true
}
