package search

import (
	"context"
	"strings"

	"github.com/RoaringBitmap/roaring/v2"
	"github.com/prospectorhq/prospector"
	"github.com/prospectorhq/prospector/taxonomy"
)

// plan is an evaluated query: the matching rows, the bitmaps of the
// counted field's values (for "matches more of what you asked for"
// ranking), and the static tiers that order rows of equal count.
type plan struct {
	match   *roaring.Bitmap
	counted []*roaring.Bitmap
	static  []*roaring.Bitmap // walked in order, then the rows in none of them
}

// SearchCompanies returns matching company ids, best first: companies
// matching more of the requested keywords first, then larger size bands
// first (unknown size last), then ascending id.
func (ix *Index) SearchCompanies(ctx context.Context, q prospector.CompanyQuery, from prospector.SearchPosition, limit int) (prospector.SearchPage, error) {
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	p := ix.companies
	var fields []*roaring.Bitmap
	add := func(b *roaring.Bitmap) { fields = append(fields, b) }
	if len(q.Industries) > 0 {
		add(anyOf(p, fIndustry, lower(q.Industries)))
	}
	if len(q.Sizes) > 0 {
		add(anyOf(p, fSize, q.Sizes))
	}
	if len(q.Countries) > 0 {
		add(anyOf(p, fCountry, q.Countries))
	}
	if len(q.Revenues) > 0 {
		add(anyOf(p, fRevenue, q.Revenues))
	}
	if len(q.Places) > 0 {
		add(roaring.FastOr(phrases(p, fPlace, q.Places, textTokens)...))
	}
	var counted []*roaring.Bitmap
	if len(q.Keywords) > 0 {
		counted = phrases(p, fKeyword, q.Keywords, textTokens)
		add(roaring.FastOr(counted...))
	}
	match := and(ix.companyAll, fields)
	if len(q.ExcludeIndustries) > 0 {
		match = roaring.AndNot(match, anyOf(p, fIndustry, lower(q.ExcludeIndustries)))
	}
	ranges := taxonomy.EmployeeRanges()
	var static []*roaring.Bitmap
	for i := len(ranges) - 1; i >= 0; i-- {
		static = append(static, p.get(term(fSize, ranges[i])))
	}
	return walk(ctx, plan{match: match, counted: counted, static: nonNil(static)}, from, limit)
}

// SearchPeople returns matching person ids, best first: people whose
// title matches more of the requested titles first, then by seniority
// (Founder, CXO, VP, Director, Head, Manager, IC, unknown), then
// ascending id.
func (ix *Index) SearchPeople(ctx context.Context, q prospector.PersonQuery, from prospector.SearchPosition, limit int) (prospector.SearchPage, error) {
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	p, pc := ix.people, ix.peopleCo
	var fields []*roaring.Bitmap
	add := func(b *roaring.Bitmap) { fields = append(fields, b) }
	var counted []*roaring.Bitmap
	if len(q.Titles) > 0 {
		counted = phrases(p, fTitle, q.Titles, titleTokens)
		add(roaring.FastOr(counted...))
	}
	if len(q.Functions) > 0 {
		add(anyOf(p, fFunction, q.Functions))
	}
	if len(q.Levels) > 0 {
		add(anyOf(p, fLevel, q.Levels))
	}
	if len(q.Countries) > 0 {
		add(anyOf(p, fCountry, q.Countries))
	}
	if len(q.Places) > 0 {
		add(roaring.FastOr(phrases(p, fPlace, q.Places, textTokens)...))
	}
	if len(q.CompanySizes) > 0 {
		add(anyOf(pc, fCoSize, q.CompanySizes))
	}
	if len(q.CompanyIndustries) > 0 {
		add(anyOf(pc, fCoIndustr, lower(q.CompanyIndustries)))
	}
	var static []*roaring.Bitmap
	for _, l := range taxonomy.JobLevels() {
		static = append(static, p.get(term(fLevel, l)))
	}
	return walk(ctx, plan{match: and(ix.peopleAll, fields), counted: counted, static: nonNil(static)}, from, limit)
}

// anyOf is the union of a field's values.
func anyOf(p *postings, field string, values []string) *roaring.Bitmap {
	bs := make([]*roaring.Bitmap, 0, len(values))
	for _, v := range values {
		if b := p.get(term(field, v)); b != nil {
			bs = append(bs, b)
		}
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
		out = append(out, roaring.FastAnd(bs...))
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

func nonNil(bs []*roaring.Bitmap) []*roaring.Bitmap {
	for i, b := range bs {
		if b == nil {
			bs[i] = roaring.New()
		}
	}
	return bs
}
