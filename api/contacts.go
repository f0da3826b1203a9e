package api

import (
	"net/http"
	"strings"

	"github.com/prospectorhq/prospector"
	"github.com/prospectorhq/prospector/taxonomy"
)

// maxContacts bounds contacts/find's max_contacts (the contract leaves
// the bound open; docs/decisions.md).
const maxContacts = 50

type findContactsRequest struct {
	CompanyDomain *string  `json:"company_domain"`
	NetworkURL    *string  `json:"network_url"`
	TargetTitles  []string `json:"target_titles"`
	MaxContacts   *int     `json:"max_contacts"`
}

// findContacts: POST /api/v1/contacts/find
func (s *Server) findContacts(w http.ResponseWriter, r *http.Request) error {
	var req findContactsRequest
	if err := decodeBody(w, r, &req); err != nil {
		return err
	}
	titles, err := checkList("target_titles", req.TargetTitles)
	if err != nil {
		return err
	}
	limit, err := bounded("max_contacts", req.MaxContacts, 1, maxContacts, 10)
	if err != nil {
		return err
	}
	co, err := s.companyRef(r.Context(), "company_domain", req.CompanyDomain, []string{"network_url"}, req.NetworkURL)
	if err != nil {
		return err
	}
	// People matching a target title first, then everyone else by
	// seniority: the titles prioritise, they do not filter.
	var first []int64
	if len(titles) > 0 {
		if first, err = s.searcher.CompanyPeople(r.Context(), co.ID, prospector.PersonQuery{Titles: titles}); err != nil {
			return err
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
		rest, err := s.searcher.CompanyPeople(r.Context(), co.ID, prospector.PersonQuery{})
		if err != nil {
			return err
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
	items, err := s.contacts(r.Context(), co, ids, matched)
	if err != nil {
		return err
	}
	writeData(w, items)
	return nil
}

type employeeFinderRequest struct {
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

type pagePagination struct {
	Page     int  `json:"page"`
	PerPage  int  `json:"per_page"`
	Total    int  `json:"total"`
	HasMore  bool `json:"has_more"`
	NextPage *int `json:"next_page"`
}

type employeePage struct {
	Items      []contactItem  `json:"items"`
	Pagination pagePagination `json:"pagination"`
}

// maxPage bounds page so page*per_page stays a sane offset.
const maxPage = 10000

// employeeFinder: POST /api/v1/contacts/employee-finder
func (s *Server) employeeFinder(w http.ResponseWriter, r *http.Request) error {
	var req employeeFinderRequest
	if err := decodeBody(w, r, &req); err != nil {
		return err
	}
	var q prospector.PersonQuery
	var err error
	if q.Titles, err = checkList("job_titles", req.JobTitles); err != nil {
		return err
	}
	if q.Functions, err = functions("job_functions", req.JobFunctions); err != nil {
		return err
	}
	if q.Levels, err = levels("job_levels", req.JobLevels); err != nil {
		return err
	}
	if q.Locations, err = places("locations", req.Locations); err != nil {
		return err
	}
	perPage, err := bounded("max_results", req.MaxResults, 1, 100, 25)
	if err != nil {
		return err
	}
	page, err := bounded("page", req.Page, 1, maxPage, 1)
	if err != nil {
		return err
	}
	co, err := s.companyRef(r.Context(), "company_domain", req.CompanyDomain,
		[]string{"company_network_url", "network_url"}, req.CompanyNetworkURL, req.NetworkURL)
	if err != nil {
		return err
	}
	all, err := s.searcher.CompanyPeople(r.Context(), co.ID, q)
	if err != nil {
		return err
	}
	from := min((page-1)*perPage, len(all))
	to := min(from+perPage, len(all))
	matched := map[int64]bool{}
	if len(q.Titles) > 0 {
		for _, id := range all[from:to] {
			matched[id] = true
		}
	}
	items, err := s.contacts(r.Context(), co, all[from:to], matched)
	if err != nil {
		return err
	}
	pg := pagePagination{Page: page, PerPage: perPage, Total: len(all), HasMore: to < len(all)}
	if pg.HasMore {
		next := page + 1
		pg.NextPage = &next
	}
	writeData(w, employeePage{Items: items, Pagination: pg})
	return nil
}

// places reads a list of locations: ISO codes, country names, places
// ("Austin", "Berlin, Germany") or WORLD, which lifts the restriction
// (every value is still checked). Two letters are always an ISO code.
func places(field string, vs []string) ([]prospector.Place, error) {
	var out []prospector.Place
	world := false
	_, err := normList(field, vs, func(name, v string) (string, error) {
		if len(v) == 2 {
			code, ok := taxonomy.NormalizeCountry(strings.ToUpper(v))
			if !ok || code == taxonomy.WorldCode {
				return "", filterErr(name, "unknown country code %q: use an ISO 3166-1 alpha-2 code, a country or place name, or WORLD", v)
			}
			out = append(out, prospector.Place{Country: code})
			return v, nil
		}
		countries, ps, _, err := location(name, v)
		if err != nil {
			return "", err
		}
		if len(countries) == 0 && len(ps) == 0 {
			world = true // a spelling of WORLD
			return v, nil
		}
		p := prospector.Place{}
		if len(countries) > 0 {
			p.Country = countries[0]
		}
		if len(ps) > 0 {
			p.Name = ps[0]
		}
		out = append(out, p)
		return v, nil
	})
	if err != nil || world {
		return nil, err
	}
	return out, nil
}

// bounded reads an optional integer field with inclusive bounds.
func bounded(field string, v *int, lo, hi, def int) (int, error) {
	if v == nil {
		return def, nil
	}
	if *v < lo || *v > hi {
		return 0, filterErr(field, "must be between %d and %d", lo, hi)
	}
	return *v, nil
}
