// Package techdetect tells which technologies a web page uses, from
// fingerprints in the Wappalyzer JSON format: response headers, cookies,
// meta tags, script URLs, inline scripts, the HTML and the page URL, with
// implies, excludes and requires between technologies. Each detection
// carries the evidence that matched. Rules come from a built-in set
// (Builtin) and from files the operator supplies (LoadFile), merged with
// Ruleset.Merge and compiled once by New.
package techdetect

import "sort"

// Technology is one fingerprint: what identifies a product in a page.
type Technology struct {
	Name        string
	Description string
	Website     string
	Cats        []int
	// Source names where the rule came from: "built-in" or a file path.
	Source string

	// Headers, Cookies and Meta map a lower-cased name to the patterns
	// its value must match (an empty pattern: the name is present).
	Headers map[string][]*Pattern
	Cookies map[string][]*Pattern
	Meta    map[string][]*Pattern
	// ScriptSrc is matched against each script URL, Scripts against each
	// inline script, HTML against the document and URL against the page
	// URL.
	ScriptSrc []*Pattern
	Scripts   []*Pattern
	HTML      []*Pattern
	URL       []*Pattern

	Implies          []Ref
	Excludes         []Ref
	Requires         []Ref
	RequiresCategory []int
}

// Ref names another technology, with the confidence tag of an implies.
type Ref struct {
	Name       string
	Confidence int
}

// Category is a technology category: an ID from the rules and its name
// ("" when no loaded file names it).
type Category struct {
	ID   int    `json:"id"`
	Name string `json:"name,omitempty"`
}

// Ruleset is a parsed set of fingerprints, before compilation.
type Ruleset struct {
	Technologies map[string]*Technology
	Categories   map[int]string
	Stats        Stats
}

// Stats reports what loading kept, skipped and ignored, so an operator
// can see how much of a file Prospector can use.
type Stats struct {
	// Files are the sources loaded, in order ("built-in" first).
	Files []string `json:"files"`
	// Technologies and Patterns count what is usable after merging.
	Technologies int `json:"technologies"`
	Patterns     int `json:"patterns"`
	// Skipped lists patterns RE2 cannot run (lookarounds,
	// backreferences) or that are invalid.
	Skipped []Skipped `json:"skipped,omitempty"`
	// Unsupported counts, per key, the technologies that use a key this
	// detector ignores (js, dom, dns, css, robots, certIssuer, ...).
	Unsupported map[string]int `json:"unsupported,omitempty"`
	// Overridden names the technologies a later file replaced.
	Overridden []string `json:"overridden,omitempty"`
}

// Skipped is one pattern that could not be used.
type Skipped struct {
	File       string     `json:"file"`
	Technology string     `json:"technology"`
	Kind       string     `json:"kind"`
	Pattern    string     `json:"pattern"`
	Reason     SkipReason `json:"reason"`
	Detail     string     `json:"detail"`
}

// SkippedBy counts the skipped patterns per reason.
func (s Stats) SkippedBy() map[SkipReason]int {
	out := make(map[SkipReason]int)
	for _, k := range s.Skipped {
		out[k.Reason]++
	}
	return out
}

// Merge adds other's technologies and categories to r; a technology or
// category of the same name (or ID) in other replaces r's whole entry,
// which is how an operator's file overrides a built-in rule.
func (r *Ruleset) Merge(other *Ruleset) {
	if r.Technologies == nil {
		r.Technologies = make(map[string]*Technology)
	}
	if r.Categories == nil {
		r.Categories = make(map[int]string)
	}
	for name, t := range other.Technologies {
		if old, ok := r.Technologies[name]; ok {
			r.Stats.Overridden = append(r.Stats.Overridden, name+" ("+old.Source+" -> "+t.Source+")")
		}
		r.Technologies[name] = t
	}
	for id, name := range other.Categories {
		r.Categories[id] = name
	}
	r.Stats.Files = append(r.Stats.Files, other.Stats.Files...)
	r.Stats.Skipped = append(r.Stats.Skipped, other.Stats.Skipped...)
	if len(other.Stats.Unsupported) > 0 && r.Stats.Unsupported == nil {
		r.Stats.Unsupported = make(map[string]int)
	}
	for k, n := range other.Stats.Unsupported {
		r.Stats.Unsupported[k] += n
	}
	sort.Strings(r.Stats.Overridden)
	r.recount()
}

func (r *Ruleset) recount() {
	r.Stats.Technologies, r.Stats.Patterns = len(r.Technologies), 0
	for _, t := range r.Technologies {
		r.Stats.Patterns += t.patternCount()
	}
}

func (t *Technology) patternCount() int {
	n := len(t.ScriptSrc) + len(t.Scripts) + len(t.HTML) + len(t.URL)
	for _, m := range []map[string][]*Pattern{t.Headers, t.Cookies, t.Meta} {
		for _, ps := range m {
			n += len(ps)
		}
	}
	return n
}
