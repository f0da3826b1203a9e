package radar

import (
	"github.com/prospectorhq/prospector/taxonomy"
	"strings"

	"github.com/prospectorhq/prospector"
)

// Word matching. Titles and places are matched as the search index
// matches them, with the same tokenizer (taxonomy.TitleTokens and
// TextTokens): every word of a requested phrase must be among the words of
// the value, in any order, stopwords ignored and title abbreviations
// expanded. Keywords matched against a signal's text also accept a
// plural of each word ("engineer" matches "engineers").

func contains(l []string, s string) bool {
	for _, x := range l {
		if x == s {
			return true
		}
	}
	return false
}

// phrase is the words a value must contain. An empty phrase (a value of
// stopwords only) never matches, as in the index.
type phrase []string

// in reports whether every word of p is among ws.
func (p phrase) in(ws []string) bool {
	if len(p) == 0 {
		return false
	}
	for _, w := range p {
		if !contains(ws, w) {
			return false
		}
	}
	return true
}

// inText is in with plurals: a word also matches the word plus "s" or
// "es".
func (p phrase) inText(ws []string) bool {
	if len(p) == 0 {
		return false
	}
	for _, w := range p {
		found := false
		for _, x := range ws {
			if x == w || (len(x) > len(w) && strings.HasPrefix(x, w) && (x[len(w):] == "s" || x[len(w):] == "es")) {
				found = true
				break
			}
		}
		if !found {
			return false
		}
	}
	return true
}

func phrases(vs []string, tokenize func(string) []string) []phrase {
	out := make([]phrase, 0, len(vs))
	for _, v := range vs {
		out = append(out, tokenize(v))
	}
	return out
}

func anyIn(ps []phrase, ws []string) bool {
	for _, p := range ps {
		if p.in(ws) {
			return true
		}
	}
	return false
}

func anyInText(ps []phrase, ws []string) bool {
	for _, p := range ps {
		if p.inText(ws) {
			return true
		}
	}
	return false
}

// place is one geo: its country (or any) and the words of its city or
// region name (or none: the whole country).
type place struct {
	country string
	name    phrase
}

func places(ps []prospector.Place) []place {
	out := make([]place, 0, len(ps))
	for _, p := range ps {
		out = append(out, place{country: p.Country, name: taxonomy.TextTokens(p.Name)})
	}
	return out
}

// match reports whether a person in country, with the words of their
// city and region, is in the place.
func (p place) match(country string, where []string) bool {
	if p.country != "" && p.country != country {
		return false
	}
	return len(p.name) == 0 || p.name.in(where)
}

// ref is a competitor, influencer or followed company: a signal
// references it when its source URL is under the ref's URL, or when its
// title or detail names it.
type ref struct {
	host, path string // the URL, to prefix-match source URLs
	name       phrase // the name's words, to find in the text
	compact    string // the name without spaces: "pipewell crm" is also "pipewellcrm"
}

// newRef reads a URL (or bare domain). The name is the last path segment
// of a profile URL (network.example/company/acme-labs: "acme labs"),
// without a trailing id-like part ("ada-quill-1a2b3c4d": "ada quill"),
// or else the domain's first label (enrichbase.example: "enrichbase").
// A known name (the company's, when the data holds it) replaces it.
func newRef(raw, knownName string) ref {
	host, path := splitURL(raw)
	r := ref{host: host, path: path}
	name := knownName
	if name == "" {
		if segs := strings.Split(strings.Trim(path, "/"), "/"); path != "" && len(segs) > 0 {
			parts := strings.FieldsFunc(segs[len(segs)-1], func(r rune) bool { return r == '-' || r == '_' || r == '.' })
			if len(parts) > 1 && idLike(parts[len(parts)-1]) {
				parts = parts[:len(parts)-1]
			}
			name = strings.Join(parts, " ")
		} else if label, _, _ := strings.Cut(host, "."); label != "" {
			name = strings.ReplaceAll(label, "-", " ")
		}
	}
	r.name = taxonomy.TextTokens(name)
	r.compact = strings.Join(r.name, "")
	return r
}

// idLike reports whether a URL slug part looks like a generated id: at
// least five characters mixing digits with letters or all digits.
func idLike(s string) bool {
	digits := 0
	for _, c := range s {
		if c >= '0' && c <= '9' {
			digits++
		}
	}
	return len(s) >= 5 && digits > 0
}

// splitURL returns a URL's lowercase host without "www." and its path
// without a trailing slash; a bare domain has an empty path.
func splitURL(raw string) (host, path string) {
	s := strings.ToLower(strings.TrimSpace(raw))
	if i := strings.Index(s, "://"); i >= 0 {
		s = s[i+3:]
	}
	if i := strings.IndexAny(s, "?#"); i >= 0 {
		s = s[:i]
	}
	host, path, _ = strings.Cut(s, "/")
	host = strings.TrimPrefix(host, "www.")
	if path != "" {
		path = "/" + strings.TrimRight(path, "/")
	}
	return host, path
}

// match reports whether a signal with sourceURL and text words ws
// references r.
func (r ref) match(sourceURL string, ws []string) bool {
	if sourceURL != "" && r.host != "" {
		host, path := splitURL(sourceURL)
		if host == r.host && (r.path == "" || path == r.path || strings.HasPrefix(path, r.path+"/")) {
			return true
		}
	}
	if len(r.name) == 0 {
		return false
	}
	if r.name.in(ws) {
		return true
	}
	// "Pipewell CRM" in the text, pipewellcrm.example as the URL.
	for i := range ws {
		joined := ""
		for j := i; j < len(ws) && j < i+4 && len(joined) < len(r.compact); j++ {
			joined += ws[j]
			if joined == r.compact {
				return true
			}
		}
	}
	return false
}
