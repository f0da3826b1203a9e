// Package discovery holds the search and discovery workflows: companies
// and people matching filters, the best matches at once (discover) or a
// page at a time behind signed cursors (search); docs/search.md gives the
// semantics.
package discovery

import (
	"context"

	"github.com/prospectorhq/prospector"
	"github.com/prospectorhq/prospector/input"
	"github.com/prospectorhq/prospector/wire"
)

// Service runs the search and discovery workflows for every front end.
type Service struct {
	Index prospector.Searcher
	// Catalog reads the cards of the matches: the index, then the store.
	Catalog prospector.Catalog
	// CursorKey signs cursors; every node of a deployment must share it.
	CursorKey []byte
}

// Pagination is a search page's position: the cursor it was asked with
// and the one that continues it.
type Pagination struct {
	Cursor     *string `json:"cursor"`
	NextCursor *string `json:"next_cursor"`
	HasMore    bool    `json:"has_more"`
}

// Page is a page of search results, best first.
type Page[T any] struct {
	Items      []T        `json:"items"`
	Pagination Pagination `json:"pagination"`
}

var errNoDiscoveryFilter = prospector.Errorf(prospector.EINVALID, "Provide at least one discovery filter")

// Companies returns a page of the companies matching req. A validation
// error names the field; a cursor made for another query is 400.
func (s *Service) Companies(ctx context.Context, req *CompaniesRequest) (*Page[wire.Company], error) {
	q, err := req.query()
	if err != nil {
		return nil, err
	}
	return searchPage(ctx, s, "search/companies", q, req.Cursor, req.MaxResults, s.Index.SearchCompanies, s.companies)
}

// People returns a page of the people matching req; errors as Companies.
func (s *Service) People(ctx context.Context, req *PeopleRequest) (*Page[wire.Person], error) {
	q, err := req.query()
	if err != nil {
		return nil, err
	}
	return searchPage(ctx, s, "search/people", q, req.Cursor, req.MaxResults, s.Index.SearchPeople, s.people)
}

// searchPage runs one page of a search: the page size, the cursor checked
// against the query's fingerprint, the index's ids, then their records.
func searchPage[Q, T any](ctx context.Context, s *Service, route string, q Q, cursor *string, maxResults *int,
	search func(context.Context, Q, prospector.SearchPosition, int) (prospector.SearchPage, error),
	load func(context.Context, []int64) ([]T, error)) (*Page[T], error) {
	limit, err := input.MaxResults(maxResults)
	if err != nil {
		return nil, err
	}
	fp := queryFingerprint(route, q)
	from, err := s.position(cursor, fp)
	if err != nil {
		return nil, err
	}
	page, err := search(ctx, q, from, limit)
	if err != nil {
		return nil, err
	}
	items, err := load(ctx, page.IDs)
	if err != nil {
		return nil, err
	}
	return &Page[T]{Items: items, Pagination: s.pagination(cursor, fp, page)}, nil
}

// DiscoverCompanies returns the best max_results companies matching at
// least one filter; a validation error names the field.
func (s *Service) DiscoverCompanies(ctx context.Context, req *DiscoverCompaniesRequest) ([]wire.Company, error) {
	var q prospector.CompanyQuery
	var err error
	if q.Industries, err = input.Industry("industry", input.Str(req.Industry)); err != nil {
		return nil, err
	}
	if q.Sizes, err = input.Size("employee_size", input.Str(req.EmployeeSize)); err != nil {
		return nil, err
	}
	countries, places, locSet, err := input.Location("location", input.Str(req.Location))
	if err != nil {
		return nil, err
	}
	q.Countries, q.Places = countries, places
	if q.Revenues, err = input.Revenue("revenue", input.Str(req.Revenue)); err != nil {
		return nil, err
	}
	if q.Keywords, err = input.List("keywords", req.Keywords); err != nil {
		return nil, err
	}
	limit, err := input.MaxResults(req.MaxResults)
	if err != nil {
		return nil, err
	}
	if len(q.Industries)+len(q.Sizes)+len(q.Revenues)+len(q.Keywords) == 0 && !locSet {
		return nil, errNoDiscoveryFilter
	}
	page, err := s.Index.SearchCompanies(ctx, q, prospector.SearchPosition{}, limit)
	if err != nil {
		return nil, err
	}
	return s.companies(ctx, page.IDs)
}

// DiscoverPeople returns the best max_results people matching at least
// one filter; a validation error names the field.
func (s *Service) DiscoverPeople(ctx context.Context, req *DiscoverPeopleRequest) ([]wire.Person, error) {
	var q prospector.PersonQuery
	var err error
	if q.Titles, err = input.List("titles", req.Titles); err != nil {
		return nil, err
	}
	if q.CompanyIndustries, err = input.Industry("industry", input.Str(req.Industry)); err != nil {
		return nil, err
	}
	countries, places, locSet, err := input.Location("location", input.Str(req.Location))
	if err != nil {
		return nil, err
	}
	q.Countries, q.Places = countries, places
	if q.CompanySizes, err = input.Size("company_size", input.Str(req.CompanySize)); err != nil {
		return nil, err
	}
	limit, err := input.MaxResults(req.MaxResults)
	if err != nil {
		return nil, err
	}
	if len(q.Titles)+len(q.CompanyIndustries)+len(q.CompanySizes) == 0 && !locSet {
		return nil, errNoDiscoveryFilter
	}
	page, err := s.Index.SearchPeople(ctx, q, prospector.SearchPosition{}, limit)
	if err != nil {
		return nil, err
	}
	return s.people(ctx, page.IDs)
}

// companies returns the items of ids in their order.
func (s *Service) companies(ctx context.Context, ids []int64) ([]wire.Company, error) {
	cards, err := s.Catalog.CompanyCards(ctx, ids)
	if err != nil {
		return nil, err
	}
	out := make([]wire.Company, len(cards))
	for i, c := range cards {
		out[i] = wire.NewCompany(c)
	}
	return out, nil
}

// people returns the items of ids in their order.
func (s *Service) people(ctx context.Context, ids []int64) ([]wire.Person, error) {
	cards, err := s.Catalog.PersonCards(ctx, ids)
	if err != nil {
		return nil, err
	}
	out := make([]wire.Person, len(cards))
	for i, p := range cards {
		out[i] = wire.NewPerson(p)
	}
	return out, nil
}

// position reads the request's cursor; none (or null, or "") starts at
// the beginning.
func (s *Service) position(cursor *string, fp string) (prospector.SearchPosition, error) {
	if input.Str(cursor) == "" {
		return prospector.SearchPosition{}, nil
	}
	if err := input.Len("cursor", input.Str(cursor), maxCursor); err != nil {
		return prospector.SearchPosition{}, err
	}
	return s.readCursor(input.Str(cursor), fp)
}

func (s *Service) pagination(cursor *string, fp string, page prospector.SearchPage) Pagination {
	p := Pagination{Cursor: wire.OrNull(input.Str(cursor))}
	if page.Next != nil {
		next := s.signCursor(fp, *page.Next)
		p.NextCursor, p.HasMore = &next, true
	}
	return p
}

// CountCompanies returns how many companies match req over all its
// pages (its cursor and page size do not matter): the size of the
// index's match set, no row read. A validation error names the field, as
// Companies'. It is for front ends that show a total (the console); the
// API's search answers do not carry one.
func (s *Service) CountCompanies(ctx context.Context, req *CompaniesRequest) (int, error) {
	q, err := req.query()
	if err != nil {
		return 0, err
	}
	return s.Index.CountCompanies(ctx, q)
}

// CountPeople returns how many people match req; as CountCompanies.
func (s *Service) CountPeople(ctx context.Context, req *PeopleRequest) (int, error) {
	q, err := req.query()
	if err != nil {
		return 0, err
	}
	return s.Index.CountPeople(ctx, q)
}
