package api

import (
	"net/http"

	"github.com/prospectorhq/prospector"
)

type includeExclude struct {
	Include []string `json:"include"`
	Exclude []string `json:"exclude"`
}

type include struct {
	Include []string `json:"include"`
}

type searchCompaniesRequest struct {
	Industry     *string  `json:"industry"`
	EmployeeSize *string  `json:"employee_size"`
	Location     *string  `json:"location"`
	Keywords     []string `json:"keywords"`
	Company      *struct {
		Industry      *includeExclude `json:"industry"`
		EmployeeRange []string        `json:"employee_range"`
		HQ            *struct {
			CountryCode []string `json:"country_code"`
		} `json:"hq"`
		Keywords *include `json:"keywords"`
	} `json:"company"`
	MaxResults *int    `json:"max_results"`
	Cursor     *string `json:"cursor"`
}

type pagination struct {
	Cursor     *string `json:"cursor"`
	NextCursor *string `json:"next_cursor"`
	HasMore    bool    `json:"has_more"`
}

type searchPage[T any] struct {
	Items      []T        `json:"items"`
	Pagination pagination `json:"pagination"`
}

// companyQuery builds the query of a search/companies body: each flat
// compatibility field joins its nested twin as one field group.
func (req *searchCompaniesRequest) companyQuery() (prospector.CompanyQuery, error) {
	var q prospector.CompanyQuery
	var err error
	if q.Industries, err = industry("industry", str(req.Industry)); err != nil {
		return q, err
	}
	if q.Sizes, err = size("employee_size", str(req.EmployeeSize)); err != nil {
		return q, err
	}
	countries, places, locSet, err := location("location", str(req.Location))
	if err != nil {
		return q, err
	}
	q.Places = places
	if q.Keywords, err = checkList("keywords", req.Keywords); err != nil {
		return q, err
	}
	// WORLD (any country) in the flat field or the nested one makes their
	// one OR group any country.
	world := locSet && len(countries) == 0 && len(places) == 0
	if c := req.Company; c != nil {
		if c.Industry != nil {
			inc, err := industries("company.industry.include", c.Industry.Include)
			if err != nil {
				return q, err
			}
			q.Industries = merge(q.Industries, inc)
			if q.ExcludeIndustries, err = industries("company.industry.exclude", c.Industry.Exclude); err != nil {
				return q, err
			}
		}
		rng, err := sizes("company.employee_range", c.EmployeeRange)
		if err != nil {
			return q, err
		}
		q.Sizes = merge(q.Sizes, rng)
		if c.HQ != nil {
			codes, anyCountry, err := countryCodes("company.hq.country_code", c.HQ.CountryCode)
			if err != nil {
				return q, err
			}
			world = world || anyCountry
			countries = merge(countries, codes)
		}
		if c.Keywords != nil {
			kws, err := checkList("company.keywords.include", c.Keywords.Include)
			if err != nil {
				return q, err
			}
			q.Keywords = merge(q.Keywords, kws)
		}
	}
	if !world {
		q.Countries = countries
	}
	return q, nil
}

// searchCompanies: POST /api/v1/search/companies
func (s *Server) searchCompanies(w http.ResponseWriter, r *http.Request) error {
	var req searchCompaniesRequest
	if err := decodeBody(w, r, &req); err != nil {
		return err
	}
	q, err := req.companyQuery()
	if err != nil {
		return err
	}
	limit, err := maxResults(req.MaxResults)
	if err != nil {
		return err
	}
	fp := queryFingerprint("search/companies", q)
	from, err := s.position(req.Cursor, fp)
	if err != nil {
		return err
	}
	page, err := s.searcher.SearchCompanies(r.Context(), q, from, limit)
	if err != nil {
		return err
	}
	items, err := s.companyItems(r.Context(), page.IDs)
	if err != nil {
		return err
	}
	writeData(w, searchPage[companyItem]{Items: items, Pagination: s.pagination(req.Cursor, fp, page)})
	return nil
}

type searchPeopleRequest struct {
	Titles      []string `json:"titles"`
	Industry    *string  `json:"industry"`
	Location    *string  `json:"location"`
	CompanySize *string  `json:"company_size"`
	People      *struct {
		JobTitle    *include `json:"job_title"`
		JobFunction []string `json:"job_function"`
		JobLevel    []string `json:"job_level"`
		Location    *struct {
			CountryCode []string `json:"country_code"`
		} `json:"location"`
	} `json:"people"`
	Company *struct {
		Industry *include `json:"industry"`
	} `json:"company"`
	MaxResults *int    `json:"max_results"`
	Cursor     *string `json:"cursor"`
}

func (req *searchPeopleRequest) personQuery() (prospector.PersonQuery, error) {
	var q prospector.PersonQuery
	var err error
	if q.Titles, err = checkList("titles", req.Titles); err != nil {
		return q, err
	}
	if q.CompanyIndustries, err = industry("industry", str(req.Industry)); err != nil {
		return q, err
	}
	countries, places, locSet, err := location("location", str(req.Location))
	if err != nil {
		return q, err
	}
	q.Places = places
	if q.CompanySizes, err = size("company_size", str(req.CompanySize)); err != nil {
		return q, err
	}
	// WORLD (any country) in the flat field or the nested one makes their
	// one OR group any country.
	world := locSet && len(countries) == 0 && len(places) == 0
	if p := req.People; p != nil {
		if p.JobTitle != nil {
			titles, err := checkList("people.job_title.include", p.JobTitle.Include)
			if err != nil {
				return q, err
			}
			q.Titles = merge(q.Titles, titles)
		}
		if q.Functions, err = functions("people.job_function", p.JobFunction); err != nil {
			return q, err
		}
		if q.Levels, err = levels("people.job_level", p.JobLevel); err != nil {
			return q, err
		}
		if p.Location != nil {
			codes, anyCountry, err := countryCodes("people.location.country_code", p.Location.CountryCode)
			if err != nil {
				return q, err
			}
			world = world || anyCountry
			countries = merge(countries, codes)
		}
	}
	if c := req.Company; c != nil && c.Industry != nil {
		inc, err := industries("company.industry.include", c.Industry.Include)
		if err != nil {
			return q, err
		}
		q.CompanyIndustries = merge(q.CompanyIndustries, inc)
	}
	if !world {
		q.Countries = countries
	}
	return q, nil
}

// searchPeople: POST /api/v1/search/people
func (s *Server) searchPeople(w http.ResponseWriter, r *http.Request) error {
	var req searchPeopleRequest
	if err := decodeBody(w, r, &req); err != nil {
		return err
	}
	q, err := req.personQuery()
	if err != nil {
		return err
	}
	limit, err := maxResults(req.MaxResults)
	if err != nil {
		return err
	}
	fp := queryFingerprint("search/people", q)
	from, err := s.position(req.Cursor, fp)
	if err != nil {
		return err
	}
	page, err := s.searcher.SearchPeople(r.Context(), q, from, limit)
	if err != nil {
		return err
	}
	items, err := s.personItems(r.Context(), page.IDs)
	if err != nil {
		return err
	}
	writeData(w, searchPage[personItem]{Items: items, Pagination: s.pagination(req.Cursor, fp, page)})
	return nil
}

// position reads the request's cursor; none (or null, or "") starts at
// the beginning.
func (s *Server) position(cursor *string, fp string) (prospector.SearchPosition, error) {
	if str(cursor) == "" {
		return prospector.SearchPosition{}, nil
	}
	return s.readCursor(str(cursor), fp)
}

func (s *Server) pagination(cursor *string, fp string, page prospector.SearchPage) pagination {
	p := pagination{Cursor: orNull(str(cursor))}
	if page.Next != nil {
		next := s.signCursor(fp, *page.Next)
		p.NextCursor, p.HasMore = &next, true
	}
	return p
}
