package prospector

import "context"

// CompanyQuery is a company search. Fields are ANDed; the values inside
// one field are ORed; Exclude fields are NOTed. Values are already
// validated and normalised (canonical industries, size buckets, ISO
// country codes).
type CompanyQuery struct {
	Industries        []string
	ExcludeIndustries []string
	Sizes             []string
	Countries         []string // empty means any (WORLD)
	Places            []string // free-text city or region names
	Keywords          []string // phrases matched against name, industry, description and keywords
	Revenues          []string // revenue bands (RevenueBands)
}

// PersonQuery is a people search, with the same combination rules.
type PersonQuery struct {
	Titles            []string // phrases matched word by word against the title
	Functions         []string
	Levels            []string
	Countries         []string
	Places            []string
	CompanySizes      []string
	CompanyIndustries []string
	// ExcludeTitles leaves out people whose title matches any phrase.
	ExcludeTitles []string
	// Locations matches people in any of the places (OR); empty means
	// anywhere. It is a separate field group from Countries and Places.
	Locations []Place
}

// Place is one location filter value: a country, a city or region name,
// or both ("Austin, US").
type Place struct {
	Country string // ISO code, or "" for any country
	Name    string // city or region words, or "" for the whole country
}

// SearchPosition is where a result walk stands: results come in rank
// tiers, and inside a tier by ascending id. The zero value is the start.
type SearchPosition struct {
	Tier  int
	After int64
}

// SearchPage is one page of matching row ids, best first. Next is nil on
// the last page.
type SearchPage struct {
	IDs  []int64
	Next *SearchPosition
}

// Searcher answers company and people searches from an index kept in
// step with the store. It holds queries only; the rows the index keeps
// in memory are IndexedRows, which Catalog completes from the store.
type Searcher interface {
	SearchCompanies(ctx context.Context, q CompanyQuery, from SearchPosition, limit int) (SearchPage, error)
	SearchPeople(ctx context.Context, q PersonQuery, from SearchPosition, limit int) (SearchPage, error)
	// CountCompanies and CountPeople return how many rows the searches
	// walk through for q, over every page: the size of the index's match
	// set, read without reading a row.
	CountCompanies(ctx context.Context, q CompanyQuery) (int, error)
	CountPeople(ctx context.Context, q PersonQuery) (int, error)
	// CompanyPeople returns every person at the company matching q, in
	// SearchPeople's order. q's company fields are ignored.
	CompanyPeople(ctx context.Context, companyID int64, q PersonQuery) ([]int64, error)
}

// Index is the search index whole: its queries and the rows it holds.
type Index interface {
	Searcher
	IndexedRows
}

// RevenueBands are the annual revenue bands (USD) a revenue filter takes.
func RevenueBands() []string {
	return []string{"0-1M", "1M-10M", "10M-50M", "50M-100M", "100M-500M", "500M-1B", "1B+"}
}

// RevenueBand returns the band of an annual revenue in USD.
func RevenueBand(usd int64) string {
	switch {
	case usd < 1_000_000:
		return "0-1M"
	case usd < 10_000_000:
		return "1M-10M"
	case usd < 50_000_000:
		return "10M-50M"
	case usd < 100_000_000:
		return "50M-100M"
	case usd < 500_000_000:
		return "100M-500M"
	case usd < 1_000_000_000:
		return "500M-1B"
	}
	return "1B+"
}
