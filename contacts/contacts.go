// Package contacts holds the contacts workflows: the people to contact
// at a company (find), its employees by filter (employee finder) and the
// first tier of an ideal-customer cascade that matches (waterfall), each
// contact scored by seniority and given an outreach angle from the
// company's recent events (docs/decisions.md, "Contacts").
package contacts

import (
	"context"
	"time"

	"github.com/prospectorhq/prospector"
	"github.com/prospectorhq/prospector/input"
	"github.com/prospectorhq/prospector/wire"
)

// Service runs the contacts workflows for every front end. Zero fields
// get the defaults documented on them.
type Service struct {
	Store Store
	// Index answers which people of a company match (the search index).
	Index prospector.Searcher
	// Catalog reads companies' recent signals, for outreach angles.
	Catalog prospector.Catalog
	Now     func() time.Time // default time.Now
}

// Store is what Service reads.
type Store interface {
	CompanyByDomain(ctx context.Context, domain string) (*prospector.Company, error)
	CompanyByNetworkURL(ctx context.Context, url string) (*prospector.Company, error)
	PeopleByID(ctx context.Context, ids []int64) ([]*prospector.Person, error)
	FinancingEvents(ctx context.Context, f prospector.EventFilter) ([]*prospector.FinancingEvent, error)
	NewsEvents(ctx context.Context, f prospector.EventFilter) ([]*prospector.NewsEvent, error)
}

func (s *Service) now() time.Time {
	if s.Now != nil {
		return s.Now()
	}
	return time.Now()
}

// maxContacts bounds contacts/find's max_contacts (the contract leaves
// the bound open; docs/decisions.md).
const maxContacts = 50

// FindRequest is POST /contacts/find's body: a company (by domain or
// profile URL) and the titles to put first.
type FindRequest struct {
	CompanyDomain *string  `json:"company_domain"`
	NetworkURL    *string  `json:"network_url"`
	TargetTitles  []string `json:"target_titles"`
	MaxContacts   *int     `json:"max_contacts"`
}

// Find returns up to max_contacts people of the company: those matching
// a target title first, then everyone else by seniority (the titles
// prioritise, they do not filter). A validation error names the field; a
// company the data does not hold is 404.
func (s *Service) Find(ctx context.Context, req *FindRequest) ([]wire.Contact, error) {
	titles, err := input.List("target_titles", req.TargetTitles)
	if err != nil {
		return nil, err
	}
	limit, err := input.Bounded("max_contacts", req.MaxContacts, 1, maxContacts, 10)
	if err != nil {
		return nil, err
	}
	co, err := s.company(ctx, "company_domain", req.CompanyDomain, []string{"network_url"}, req.NetworkURL)
	if err != nil {
		return nil, err
	}
	// People matching a target title first, then everyone else by
	// seniority: the titles prioritise, they do not filter.
	var first []int64
	if len(titles) > 0 {
		if first, err = s.Index.CompanyPeople(ctx, co.ID, prospector.PersonQuery{Titles: titles}); err != nil {
			return nil, err
		}
	}
	matched := make(map[int64]bool, len(first))
	ids := make([]int64, 0, limit)
	for _, id := range first {
		if len(ids) == limit {
			break
		}
		matched[id] = true
		ids = append(ids, id)
	}
	if len(ids) < limit {
		rest, err := s.Index.CompanyPeople(ctx, co.ID, prospector.PersonQuery{})
		if err != nil {
			return nil, err
		}
		for _, id := range rest {
			if len(ids) == limit {
				break
			}
			if !matched[id] {
				ids = append(ids, id)
			}
		}
	}
	return s.contacts(ctx, co, ids, matched)
}

// EmployeeFinderRequest is POST /contacts/employee-finder's body: a
// company and filters on its people, a page at a time.
type EmployeeFinderRequest struct {
	CompanyDomain     *string  `json:"company_domain"`
	CompanyNetworkURL *string  `json:"company_network_url"`
	NetworkURL        *string  `json:"network_url"`
	JobTitles         []string `json:"job_titles"`
	JobFunctions      []string `json:"job_functions"`
	JobLevels         []string `json:"job_levels"`
	Locations         []string `json:"locations"`
	MaxResults        *int     `json:"max_results"`
	Page              *int     `json:"page"`
}

// PagePagination is a numbered page's position.
type PagePagination = wire.Pagination

// EmployeePage is a page of the employee finder.
type EmployeePage struct {
	Items      []wire.Contact `json:"items"`
	Pagination PagePagination `json:"pagination"`
}

// EmployeeFinder returns a page of the company's people matching the
// filters, by seniority; errors as Find.
func (s *Service) EmployeeFinder(ctx context.Context, req *EmployeeFinderRequest) (*EmployeePage, error) {
	var q prospector.PersonQuery
	var err error
	if q.Titles, err = input.List("job_titles", req.JobTitles); err != nil {
		return nil, err
	}
	if q.Functions, err = input.Functions("job_functions", req.JobFunctions); err != nil {
		return nil, err
	}
	if q.Levels, err = input.Levels("job_levels", req.JobLevels); err != nil {
		return nil, err
	}
	if q.Locations, err = input.Places("locations", req.Locations); err != nil {
		return nil, err
	}
	perPage, err := input.Bounded("max_results", req.MaxResults, 1, 100, 25)
	if err != nil {
		return nil, err
	}
	page, err := input.Bounded("page", req.Page, 1, input.MaxPage, 1)
	if err != nil {
		return nil, err
	}
	co, err := s.company(ctx, "company_domain", req.CompanyDomain,
		[]string{"company_network_url", "network_url"}, req.CompanyNetworkURL, req.NetworkURL)
	if err != nil {
		return nil, err
	}
	all, err := s.Index.CompanyPeople(ctx, co.ID, q)
	if err != nil {
		return nil, err
	}
	from := min((page-1)*perPage, len(all))
	to := min(from+perPage, len(all))
	matched := map[int64]bool{}
	if len(q.Titles) > 0 {
		for _, id := range all[from:to] {
			matched[id] = true
		}
	}
	items, err := s.contacts(ctx, co, all[from:to], matched)
	if err != nil {
		return nil, err
	}
	return &EmployeePage{Items: items, Pagination: wire.NewPagination(page, perPage, len(all))}, nil
}

// company resolves the company a contacts request names: by domain
// when given, else by company profile URL. A company the data does not
// hold is 404 not_found: the contract's "company data unavailable".
func (s *Service) company(ctx context.Context, domainField string, domain *string, urlFields []string, urls ...*string) (*prospector.Company, error) {
	// Every identifier given is bounded, the ones not used included.
	if err := input.Len(domainField, input.Str(domain), input.MaxURLText); err != nil {
		return nil, err
	}
	for i, u := range urls {
		if err := input.Len(urlFields[i], input.Str(u), input.MaxURLText); err != nil {
			return nil, err
		}
	}
	if d := input.Str(domain); d != "" {
		norm := prospector.NormalizeDomain(d)
		if norm == "" {
			return nil, input.Errorf(domainField, "%q is not a domain", d)
		}
		c, err := s.Store.CompanyByDomain(ctx, norm)
		return input.KnownCompany(c, err, domainField, norm)
	}
	for i, u := range urls {
		if v := input.Str(u); v != "" {
			norm := prospector.NormalizeProfileURL(v)
			if norm == "" {
				return nil, input.Errorf(urlFields[i], "%q is not an http(s) profile URL", v)
			}
			c, err := s.Store.CompanyByNetworkURL(ctx, norm)
			return input.KnownCompany(c, err, urlFields[i], norm)
		}
	}
	names := domainField
	for _, f := range urlFields {
		names += " or " + f
	}
	return nil, input.Errorf(names, "required: give the company's domain or its profile URL")
}
