package search

import (
	"context"
	"github.com/prospectorhq/prospector/taxonomy"
	"math"
	"sort"

	"github.com/RoaringBitmap/roaring/v2"
	"github.com/prospectorhq/prospector"
)

// A company's people are few next to the whole index, so CompanyPeople
// tests each of them against the term bitmaps (a few Contains each)
// rather than intersecting posting lists of millions of rows.

// clause matches a row in every one of its bitmaps; a clause with a
// term nobody has is never true.
type clause struct {
	all   []*roaring.Bitmap
	never bool
}

func (c clause) match(key uint32) bool {
	if c.never {
		return false
	}
	for _, b := range c.all {
		if !b.Contains(key) {
			return false
		}
	}
	return true
}

// anyClause matches a row in any of its clauses.
type anyClause []clause

func (a anyClause) match(key uint32) bool {
	for _, c := range a {
		if c.match(key) {
			return true
		}
	}
	return false
}

func (a anyClause) count(key uint32) int {
	n := 0
	for _, c := range a {
		if c.match(key) {
			n++
		}
	}
	return n
}

// termClause is the clause of rows having every term.
func termClause(p *postings, terms []string) clause {
	c := clause{never: len(terms) == 0}
	for _, t := range terms {
		b := p.get(t)
		if b == nil {
			return clause{never: true}
		}
		c.all = append(c.all, b)
	}
	return c
}

func valueClauses(p *postings, field string, values []string) anyClause {
	out := make(anyClause, 0, len(values))
	for _, v := range values {
		out = append(out, termClause(p, []string{term(field, v)}))
	}
	return out
}

func phraseClauses(p *postings, field string, values []string, tokenize func(string) []string) anyClause {
	out := make(anyClause, 0, len(values))
	for _, v := range values {
		var terms []string
		for _, t := range tokenize(v) {
			terms = append(terms, term(field, t))
		}
		out = append(out, termClause(p, terms))
	}
	return out
}

// placeClauses matches any of the places: each is its country and all
// words of its name.
func placeClauses(p *postings, places []prospector.Place) anyClause {
	out := make(anyClause, 0, len(places))
	for _, pl := range places {
		var terms []string
		if pl.Country != "" {
			terms = append(terms, term(fCountry, pl.Country))
		}
		for _, t := range taxonomy.TextTokens(pl.Name) {
			terms = append(terms, term(fPlace, t))
		}
		out = append(out, termClause(p, terms))
	}
	return out
}

// CompanyPeople returns the people at the company matching q: people
// whose title matches more of q.Titles first, then by seniority, then by
// ascending id, as SearchPeople orders them.
func (ix *Index) CompanyPeople(ctx context.Context, companyID int64, q prospector.PersonQuery) ([]int64, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	if companyID <= 0 || companyID > math.MaxUint32 {
		return nil, nil
	}
	p := ix.people
	var filters []anyClause
	for _, f := range []struct {
		field  string
		values []string
	}{{fFunction, q.Functions}, {fLevel, q.Levels}, {fCountry, q.Countries}} {
		if len(f.values) > 0 {
			filters = append(filters, valueClauses(p, f.field, f.values))
		}
	}
	if len(q.Places) > 0 {
		filters = append(filters, phraseClauses(p, fPlace, q.Places, taxonomy.TextTokens))
	}
	if len(q.Locations) > 0 {
		filters = append(filters, placeClauses(p, q.Locations))
	}
	titles := phraseClauses(p, fTitle, distinctPhrases(q.Titles, taxonomy.TitleTokens), taxonomy.TitleTokens)
	exclude := phraseClauses(p, fTitle, q.ExcludeTitles, taxonomy.TitleTokens)

	type hit struct {
		key    uint32
		titles int
	}
	var hits []hit
	ix.members.each(uint32(companyID), func(id uint32) bool {
		if int(id) >= len(p.keys) || p.keys[id] == 0 {
			return true
		}
		key := p.keys[id]
		for _, f := range filters {
			if !f.match(key) {
				return true
			}
		}
		if exclude.match(key) {
			return true
		}
		n := titles.count(key)
		if len(titles) > 0 && n == 0 {
			return true
		}
		hits = append(hits, hit{key, n})
		return true
	})
	sort.Slice(hits, func(i, j int) bool {
		if hits[i].titles != hits[j].titles {
			return hits[i].titles > hits[j].titles
		}
		return hits[i].key < hits[j].key
	})
	out := make([]int64, len(hits))
	for i, h := range hits {
		out[i] = rowID(h.key, personTierShift)
	}
	return out, nil
}
