package techdetect

import (
	"fmt"
	"sort"
)

// Detector runs a compiled rule set. It is safe for concurrent use: build
// it once (New) and share it.
type Detector struct {
	techs  []*Technology // sorted by name: detections come out in this order
	byName map[string]int
	cats   map[int]string
	stats  Stats

	url, scriptSrc, scripts, html *kindIndex
	// headers, cookies and meta are keyed by lower-cased name.
	headers, cookies, meta map[string][]patRef
}

// patRef is one pattern of one technology, as indexed for matching.
type patRef struct {
	tech int
	pat  *Pattern
	lits []int32 // ids of its literals in the kind's scanner
}

// kindIndex holds the patterns matched against one kind of text, with
// the scanner that finds which of them can match.
type kindIndex struct {
	sc     *scanner
	refs   []patRef
	byLit  [][]int // literal id -> refs that need it
	always []int   // refs without a usable literal
}

func newKindIndex(refs []patRef) *kindIndex {
	k := &kindIndex{refs: refs}
	ids := make(map[string]int32)
	var lits []string
	for i := range refs {
		if refs[i].pat.lits == nil {
			k.always = append(k.always, i)
			continue
		}
		for _, l := range refs[i].pat.lits {
			id, ok := ids[l]
			if !ok {
				id = int32(len(lits))
				ids[l] = id
				lits = append(lits, l)
				k.byLit = append(k.byLit, nil)
			}
			refs[i].lits = append(refs[i].lits, id)
			k.byLit[id] = append(k.byLit[id], i)
		}
	}
	k.sc = newScanner(lits)
	return k
}

// New compiles rs into a Detector. Implies, excludes and requires naming
// technologies absent from rs are ignored (a file may refer to rules in
// another file the operator did not load). It fails only when rs holds
// no technology.
func New(rs *Ruleset) (*Detector, error) {
	if rs == nil || len(rs.Technologies) == 0 {
		return nil, fmt.Errorf("techdetect: no technologies loaded")
	}
	d := &Detector{
		byName:  make(map[string]int, len(rs.Technologies)),
		cats:    rs.Categories,
		stats:   rs.Stats,
		headers: make(map[string][]patRef),
		cookies: make(map[string][]patRef),
		meta:    make(map[string][]patRef),
	}
	for _, t := range rs.Technologies {
		d.techs = append(d.techs, t)
	}
	sort.Slice(d.techs, func(i, j int) bool { return d.techs[i].Name < d.techs[j].Name })
	var url, src, scripts, html []patRef
	for i, t := range d.techs {
		d.byName[t.Name] = i
		add := func(list []patRef, ps []*Pattern) []patRef {
			for _, p := range ps {
				list = append(list, patRef{tech: i, pat: p})
			}
			return list
		}
		url, src, scripts, html = add(url, t.URL), add(src, t.ScriptSrc), add(scripts, t.Scripts), add(html, t.HTML)
		for _, m := range []struct {
			into map[string][]patRef
			from map[string][]*Pattern
		}{{d.headers, t.Headers}, {d.cookies, t.Cookies}, {d.meta, t.Meta}} {
			for _, name := range sortedKeys(m.from) {
				m.into[name] = add(m.into[name], m.from[name])
			}
		}
	}
	d.url, d.scriptSrc, d.scripts, d.html = newKindIndex(url), newKindIndex(src), newKindIndex(scripts), newKindIndex(html)
	return d, nil
}

// Stats reports what the rule set holds and what loading skipped.
func (d *Detector) Stats() Stats { return d.stats }

// Info describes one technology of the rule set.
type Info struct {
	Name        string     `json:"name"`
	Categories  []Category `json:"categories"`
	Website     string     `json:"website,omitempty"`
	Description string     `json:"description,omitempty"`
	Source      string     `json:"source"`
}

// Technologies lists the rule set's technologies by name.
func (d *Detector) Technologies() []Info {
	out := make([]Info, len(d.techs))
	for i, t := range d.techs {
		out[i] = Info{Name: t.Name, Categories: d.categories(t), Website: t.Website, Description: t.Description, Source: t.Source}
	}
	return out
}

func (d *Detector) categories(t *Technology) []Category {
	out := make([]Category, 0, len(t.Cats))
	for _, id := range t.Cats {
		out = append(out, Category{ID: id, Name: d.cats[id]})
	}
	return out
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
