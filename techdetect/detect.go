package techdetect

import (
	"net/http"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/prospectorhq/prospector/website"
)

// Input is one fetched page: its final URL, response headers (cookies are
// read from Set-Cookie), any further cookies, and the analysed HTML (nil
// for a response that was not HTML: headers and cookies still count).
type Input struct {
	URL     string
	Header  http.Header
	Cookies []*http.Cookie
	Page    *website.Page
}

// Detection is one technology found in a page.
type Detection struct {
	Name       string     `json:"name"`
	Categories []Category `json:"categories"`
	Website    string     `json:"website,omitempty"`
	// Version is the best version the patterns captured, if any.
	Version string `json:"version,omitempty"`
	// Confidence is the sum of the matched patterns' confidences, at most
	// 100; for an implied technology, the implying one's scaled by the
	// implies tag.
	Confidence int `json:"confidence"`
	// Implied is true when no pattern of its own matched: it is here
	// because ImpliedBy are.
	Implied   bool       `json:"implied,omitempty"`
	ImpliedBy []string   `json:"implied_by,omitempty"`
	Evidence  []Evidence `json:"evidence"`
}

// Evidence is one pattern that matched.
type Evidence struct {
	// Kind is the rule kind: url, headers, cookies, meta, scriptSrc,
	// scripts, html, or implies.
	Kind string `json:"kind"`
	// Key says where: the header, cookie or meta name, the script URL,
	// "inline script N", or the implying technology.
	Key string `json:"key,omitempty"`
	// Match is the text the pattern matched, cut to about 200 bytes
	// (empty for a presence check: a cookie's value is not repeated).
	Match      string `json:"match,omitempty"`
	Pattern    string `json:"pattern,omitempty"`
	Confidence int    `json:"confidence"`
	Version    string `json:"version,omitempty"`
}

// maxMatch bounds Evidence.Match.
const maxMatch = 200

// maxEvidence bounds the evidence kept per technology.
const maxEvidence = 8

// window is how far around an occurrence of a pattern's literal its
// expression is run, in bytes each side, on texts longer than twice that.
const window = 2048

type finding struct {
	evidence   []Evidence
	confidence int
	version    string
	impliedBy  []string
	implied    bool
}

type run struct {
	d     *Detector
	found map[int]*finding
	seen  map[*Pattern]bool
	buf   []byte
	hits  map[*kindIndex]*hits
}

// Detect returns the technologies in, sorted by name, each with its
// evidence. The same input always gives the same output.
func (d *Detector) Detect(in Input) []Detection {
	r := &run{d: d, found: make(map[int]*finding), seen: make(map[*Pattern]bool), hits: make(map[*kindIndex]*hits, 4)}
	if in.URL != "" {
		r.scan(d.url, in.URL, "url", "", false)
	}
	for _, name := range sortedKeys(in.Header) {
		refs := d.headers[strings.ToLower(name)]
		for _, v := range in.Header[name] {
			r.matchKeyed(refs, v, "headers", name, false)
		}
	}
	r.cookies(in)
	if p := in.Page; p != nil {
		for _, m := range p.Meta {
			r.matchKeyed(d.meta[m.Name], m.Content, "meta", m.Name, false)
		}
		for _, s := range p.ScriptSrcs {
			r.scan(d.scriptSrc, s, "scriptSrc", s, false)
		}
		for i, s := range p.Scripts {
			r.scan(d.scripts, s.Body, "scripts", "inline script "+strconv.Itoa(i+1), true)
		}
		if p.HTML != "" {
			r.scan(d.html, p.HTML, "html", "", true)
		}
	}
	// Excluded technologies go before implication, so they imply
	// nothing (Wappalyzer resolves in this order too).
	r.requires()
	r.excludes()
	r.implies()
	return r.results()
}

func (r *run) cookies(in Input) {
	jar := make(map[string]string)
	var names []string
	add := func(c *http.Cookie) {
		n := strings.ToLower(c.Name)
		if _, dup := jar[n]; !dup {
			names = append(names, n)
		}
		jar[n] = c.Value
	}
	for _, line := range in.Header.Values("Set-Cookie") {
		if c, err := http.ParseSetCookie(line); err == nil {
			add(c)
		}
	}
	for _, c := range in.Cookies {
		add(c)
	}
	sort.Strings(names)
	for _, n := range names {
		r.matchKeyed(r.d.cookies[n], jar[n], "cookies", n, true)
	}
}

// matchKeyed matches a short value (a header, cookie or meta content)
// against the patterns for its name.
func (r *run) matchKeyed(refs []patRef, value, kind, key string, secret bool) {
	for _, ref := range refs {
		if r.seen[ref.pat] {
			continue
		}
		if ref.pat.re == nil {
			m := value
			if secret {
				m = ""
			}
			r.record(ref, kind, key, m, nil)
			continue
		}
		if loc := ref.pat.re.FindStringSubmatchIndex(value); loc != nil {
			r.record(ref, kind, key, value[loc[0]:loc[1]], groups(value, loc))
		}
	}
}

// scan matches text against a kind's patterns: the scanner finds which
// required literals occur, and only their patterns run, on the whole
// text or (long texts) on windows around the literals.
func (r *run) scan(k *kindIndex, text, kind, key string, windows bool) {
	r.buf = lowerASCII(r.buf, text)
	h := r.hits[k]
	if h == nil {
		h = newHits(len(k.byLit))
		r.hits[k] = h
	}
	k.sc.scan(r.buf, h)
	cand := append([]int(nil), k.always...)
	for _, id := range h.found {
		cand = append(cand, k.byLit[id]...)
	}
	sort.Ints(cand)
	prev := -1
	for _, i := range cand {
		if i == prev {
			continue
		}
		prev = i
		ref := k.refs[i]
		if r.seen[ref.pat] {
			continue
		}
		if ref.pat.re == nil {
			r.record(ref, kind, key, "", nil)
			continue
		}
		if loc := match(ref, text, h, windows); loc != nil {
			r.record(ref, kind, key, text[loc[0]:loc[1]], groups(text, loc))
		}
	}
}

// match runs ref's expression and returns the submatch offsets in text.
func match(ref patRef, text string, h *hits, windows bool) []int {
	re := ref.pat.re
	if !windows || ref.pat.anchored || len(ref.lits) == 0 || len(text) <= 4*window {
		return re.FindStringSubmatchIndex(text)
	}
	var spans [][2]int
	for _, id := range ref.lits {
		ends, overflow := h.endsOf(id)
		if overflow {
			return re.FindStringSubmatchIndex(text)
		}
		for _, end := range ends {
			spans = append(spans, [2]int{max(0, int(end)-window), min(len(text), int(end)+window)})
		}
	}
	sort.Slice(spans, func(i, j int) bool { return spans[i][0] < spans[j][0] })
	for i := 0; i < len(spans); i++ {
		a, b := spans[i][0], spans[i][1]
		for i+1 < len(spans) && spans[i+1][0] <= b {
			i++
			b = max(b, spans[i][1])
		}
		if loc := re.FindStringSubmatchIndex(text[a:b]); loc != nil {
			for j := range loc {
				if loc[j] >= 0 {
					loc[j] += a
				}
			}
			return loc
		}
	}
	return nil
}

func groups(text string, loc []int) []string {
	g := make([]string, len(loc)/2)
	for i := range g {
		if loc[2*i] >= 0 {
			g[i] = text[loc[2*i]:loc[2*i+1]]
		}
	}
	return g
}

func (r *run) record(ref patRef, kind, key, m string, groups []string) {
	r.seen[ref.pat] = true
	f := r.found[ref.tech]
	if f == nil {
		f = &finding{}
		r.found[ref.tech] = f
	}
	ev := Evidence{Kind: kind, Key: bound(key), Match: bound(m), Pattern: ref.pat.Source, Confidence: ref.pat.Confidence}
	if ref.pat.Version != "" && groups != nil {
		ev.Version = resolveVersion(ref.pat.Version, groups)
		// The most specific version wins: 3.7.1 over 3.
		if len(ev.Version) > len(f.version) {
			f.version = ev.Version
		}
	}
	f.confidence = min(100, f.confidence+ref.pat.Confidence)
	if len(f.evidence) < maxEvidence {
		f.evidence = append(f.evidence, ev)
	}
}

// bound cuts s to maxMatch bytes on a rune boundary.
func bound(s string) string {
	if len(s) <= maxMatch {
		return s
	}
	cut := maxMatch
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}
