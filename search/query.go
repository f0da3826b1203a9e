package search

import (
	"context"
	"sort"
	"strconv"
	"strings"

	"github.com/prospectorhq/prospector/taxonomy"

	"github.com/RoaringBitmap/roaring/v2"
	"github.com/prospectorhq/prospector"
)

// plan is an evaluated query: the matching rank keys, and the bitmaps of
// the counted field's values (for "matches more of what you asked for"
// ranking).
type plan struct {
	fields  []*roaring.Bitmap // the conjuncts: a row matches when it is in all
	not     *roaring.Bitmap   // rows excluded, or nil
	counted []*roaring.Bitmap
	shift   uint
	all     *roaring.Bitmap
	// exact returns the rows whose count of counted values is c.
	exact func(c int) *roaring.Bitmap
	// intersect returns, through the filter cache, the intersection
	// compute makes for tier t of this query (see walk).
	intersect func(t int, compute func() *roaring.Bitmap) *roaring.Bitmap
	// size returns a bitmap's cardinality, through the filter cache; nil
	// counts it each time.
	size func(*roaring.Bitmap) uint64
}

// sizes returns plan.size for the index as it is now (read lock held).
func (ix *Index) sizes() func(*roaring.Bitmap) uint64 {
	gen := ix.gen
	return func(b *roaring.Bitmap) uint64 { return ix.cache.size(gen, b) }
}

// intersections caches the whole intersections walk computes for a query
// too sparse to leapfrog, by the query as asked: the next page of the
// same query, or the same query from another client, skips the work,
// which grows with the rows indexed (a quarter of the CPU of the load mix
// at 10M people).
func (ix *Index) intersections(q any) func(int, func() *roaring.Bitmap) *roaring.Bitmap {
	var key string // made on first use: most queries leapfrog and never need it
	return func(t int, compute func() *roaring.Bitmap) *roaring.Bitmap {
		if key == "" {
			key = "and\x00" + valuesKey([]string{queryKey(q)}) + "\x00" // queryKey names the kind
		}
		return ix.cache.get(ix.gen, key+strconv.Itoa(t), compute)
	}
}

// SearchCompanies returns matching company ids, best first: companies
// matching more of the requested keywords first, then larger size bands
// first (unknown size last), then ascending id.
func (ix *Index) SearchCompanies(ctx context.Context, q prospector.CompanyQuery, from prospector.SearchPosition, limit int) (prospector.SearchPage, error) {
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	return walk(ctx, ix.companyPlan(q), from, limit)
}

// CountCompanies returns how many companies SearchCompanies would walk
// through for q.
func (ix *Index) CountCompanies(ctx context.Context, q prospector.CompanyQuery) (int, error) {
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	return count(ctx, ix.companyPlan(q))
}

// companyPlan evaluates a company query; the caller holds ix.mu.
func (ix *Index) companyPlan(q prospector.CompanyQuery) plan {
	intersect := ix.intersections(q)
	p := ix.companies
	var fields []*roaring.Bitmap
	add := func(b *roaring.Bitmap) { fields = append(fields, b) }
	if len(q.Industries) > 0 {
		add(ix.anyOf(p, fIndustry, lower(q.Industries)))
	}
	if len(q.Sizes) > 0 {
		add(ix.anyOf(p, fSize, q.Sizes))
	}
	if len(q.Countries) > 0 {
		add(ix.anyOf(p, fCountry, q.Countries))
	}
	if len(q.Revenues) > 0 {
		add(ix.anyOf(p, fRevenue, q.Revenues))
	}
	if len(q.Places) > 0 {
		add(union(ix.phrases(p, fPlace, q.Places, taxonomy.TextTokens)))
	}
	var counted []*roaring.Bitmap
	if len(q.Keywords) > 0 {
		q.Keywords = distinctPhrases(q.Keywords, taxonomy.TextTokens)
		counted = ix.phrases(p, fKeyword, q.Keywords, taxonomy.TextTokens)
		if len(counted) == 1 { // with more, each count tier is its own conjunct
			add(counted[0])
		}
	}
	pl := plan{fields: fields, all: ix.companyAll, counted: counted, shift: companyTierShift,
		exact: ix.exactCounts(p.name+fKeyword, q.Keywords, counted), intersect: intersect, size: ix.sizes()}
	if len(q.ExcludeIndustries) > 0 {
		pl.not = ix.anyOf(p, fIndustry, lower(q.ExcludeIndustries))
	}
	return pl
}

// SearchPeople returns matching person ids, best first: people whose
// title matches more of the requested titles first, then by seniority
// (Founder, CXO, VP, Director, Head, Manager, IC, unknown), then
// ascending id.
func (ix *Index) SearchPeople(ctx context.Context, q prospector.PersonQuery, from prospector.SearchPosition, limit int) (prospector.SearchPage, error) {
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	return walk(ctx, ix.personPlan(q), from, limit)
}

// CountPeople returns how many people SearchPeople would walk through
// for q.
func (ix *Index) CountPeople(ctx context.Context, q prospector.PersonQuery) (int, error) {
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	return count(ctx, ix.personPlan(q))
}

// personPlan evaluates a people query; the caller holds ix.mu.
func (ix *Index) personPlan(q prospector.PersonQuery) plan {
	intersect := ix.intersections(q)
	p, pc := ix.people, ix.peopleCo
	var fields []*roaring.Bitmap
	add := func(b *roaring.Bitmap) { fields = append(fields, b) }
	var counted []*roaring.Bitmap
	if len(q.Titles) > 0 {
		q.Titles = distinctPhrases(q.Titles, taxonomy.TitleTokens)
		counted = ix.phrases(p, fTitle, q.Titles, taxonomy.TitleTokens)
		if len(counted) == 1 { // with more, each count tier is its own conjunct
			add(counted[0])
		}
	}
	if len(q.Functions) > 0 {
		add(ix.anyOf(p, fFunction, q.Functions))
	}
	if len(q.Levels) > 0 {
		add(ix.anyOf(p, fLevel, q.Levels))
	}
	if len(q.Countries) > 0 {
		add(ix.anyOf(p, fCountry, q.Countries))
	}
	if len(q.Places) > 0 {
		add(union(ix.phrases(p, fPlace, q.Places, taxonomy.TextTokens)))
	}
	if len(q.CompanySizes) > 0 {
		add(ix.anyOf(pc, fCoSize, q.CompanySizes))
	}
	if len(q.CompanyIndustries) > 0 {
		add(ix.anyOf(pc, fCoIndustr, lower(q.CompanyIndustries)))
	}
	if len(q.Locations) > 0 {
		var bs []*roaring.Bitmap
		for _, c := range placeClauses(p, q.Locations) {
			if !c.never {
				bs = append(bs, and(nil, c.all))
			}
		}
		add(union(bs))
	}
	pl := plan{fields: fields, all: ix.peopleAll, counted: counted, shift: personTierShift,
		exact: ix.exactCounts(p.name+fTitle, q.Titles, counted), intersect: intersect, size: ix.sizes()}
	if len(q.ExcludeTitles) > 0 {
		pl.not = union(ix.phrases(p, fTitle, q.ExcludeTitles, taxonomy.TitleTokens))
	}
	return pl
}

// anyOf is the union of a field's values, from the filter cache when
// several values were asked for.
func (ix *Index) anyOf(p *postings, field string, values []string) *roaring.Bitmap {
	if len(values) < 2 {
		return anyOf(p, field, values)
	}
	return ix.cache.get(ix.gen, cacheKey("any", p.name+field, values), func() *roaring.Bitmap { return anyOf(p, field, values) })
}

// phrases is phrases through the filter cache, phrase by phrase.
func (ix *Index) phrases(p *postings, field string, values []string, tokenize func(string) []string) []*roaring.Bitmap {
	out := make([]*roaring.Bitmap, len(values))
	for i, v := range values {
		one := []string{v}
		out[i] = ix.cache.get(ix.gen, cacheKey("phrase", p.name+field, one), func() *roaring.Bitmap {
			return phrases(p, field, one, tokenize)[0]
		})
	}
	return out
}

// anyOf is the union of a field's values. A single value's bitmap is
// returned as it is (callers never modify results): copying a bitmap of a
// million rows per query would be most of the query's cost.
func anyOf(p *postings, field string, values []string) *roaring.Bitmap {
	bs := make([]*roaring.Bitmap, 0, len(values))
	for _, v := range values {
		if b := p.get(term(field, v)); b != nil {
			bs = append(bs, b)
		}
	}
	return union(bs)
}

func union(bs []*roaring.Bitmap) *roaring.Bitmap {
	switch len(bs) {
	case 0:
		return roaring.New()
	case 1:
		return bs[0]
	}
	return roaring.FastOr(bs...)
}

// phrases returns, per phrase, the rows having every word of it.
func phrases(p *postings, field string, values []string, tokenize func(string) []string) []*roaring.Bitmap {
	out := make([]*roaring.Bitmap, 0, len(values))
	for _, v := range values {
		toks := tokenize(v)
		bs := make([]*roaring.Bitmap, 0, len(toks))
		missing := len(toks) == 0
		for _, t := range toks {
			b := p.get(term(field, t))
			if b == nil {
				missing = true
				break
			}
			bs = append(bs, b)
		}
		if missing {
			out = append(out, roaring.New())
			continue
		}
		out = append(out, and(nil, bs))
	}
	return out
}

// and intersects all with the field bitmaps; with no fields it is all
// itself (never modified by callers).
func and(all *roaring.Bitmap, fields []*roaring.Bitmap) *roaring.Bitmap {
	switch len(fields) {
	case 0:
		return all
	case 1:
		return fields[0]
	}
	return roaring.FastAnd(fields...)
}

func lower(vs []string) []string {
	out := make([]string, len(vs))
	for i, v := range vs {
		out[i] = strings.ToLower(v)
	}
	return out
}

// exactCounts returns, through the filter cache, the rows matching
// exactly c of the counted values, for each c asked.
func (ix *Index) exactCounts(field string, values []string, counted []*roaring.Bitmap) func(int) *roaring.Bitmap {
	var layers []*roaring.Bitmap
	vk := valuesKey(values) // once: walk asks for up to one count per value
	return func(c int) *roaring.Bitmap {
		return ix.cache.get(ix.gen, "count"+strconv.Itoa(c)+"\x00"+field+"\x00"+vk, func() *roaring.Bitmap {
			if layers == nil {
				layers = bitSlice(counted)
			}
			return exactCount(union(counted), layers, c)
		})
	}
}

// distinctPhrases drops phrases with the same words as an earlier one
// ("VP Sales", "Vice President of Sales"): a row matching both would
// otherwise count twice in the ranking.
func distinctPhrases(values []string, tokenize func(string) []string) []string {
	seen := make(map[string]bool, len(values))
	out := make([]string, 0, len(values))
	for _, v := range values {
		toks := tokenize(v)
		sort.Strings(toks)
		key := strings.Join(toks, " ")
		if !seen[key] {
			seen[key] = true
			out = append(out, v)
		}
	}
	return out
}
