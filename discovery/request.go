package discovery

import (
	"github.com/prospectorhq/prospector"
	"github.com/prospectorhq/prospector/input"
)

// IncludeExclude is a nested filter with values to include and exclude.
type IncludeExclude struct {
	Include []string `json:"include"`
	Exclude []string `json:"exclude"`
}

// Include is a nested filter with values to include.
type Include struct {
	Include []string `json:"include"`
}

// CompaniesRequest is POST /search/companies's body: filters (flat
// compatibility fields and nested ones), a page size and a cursor.
type CompaniesRequest struct {
	Industry     *string  `json:"industry"`
	EmployeeSize *string  `json:"employee_size"`
	Location     *string  `json:"location"`
	Keywords     []string `json:"keywords"`
	Company      *struct {
		Industry      *IncludeExclude `json:"industry"`
		EmployeeRange []string        `json:"employee_range"`
		HQ            *struct {
			CountryCode []string `json:"country_code"`
		} `json:"hq"`
		Keywords *Include `json:"keywords"`
	} `json:"company"`
	MaxResults *int    `json:"max_results"`
	Cursor     *string `json:"cursor"`
}

// companyQuery builds the query of a search/companies body: each flat
// compatibility field joins its nested twin as one field group.
func (req *CompaniesRequest) query() (prospector.CompanyQuery, error) {
	var q prospector.CompanyQuery
	var err error
	if q.Industries, err = input.Industry("industry", input.Str(req.Industry)); err != nil {
		return q, err
	}
	if q.Sizes, err = input.Size("employee_size", input.Str(req.EmployeeSize)); err != nil {
		return q, err
	}
	countries, places, locSet, err := input.Location("location", input.Str(req.Location))
	if err != nil {
		return q, err
	}
	q.Places = places
	if q.Keywords, err = input.List("keywords", req.Keywords); err != nil {
		return q, err
	}
	// WORLD (any country) in the flat field or the nested one makes their
	// one OR group any country.
	world := locSet && len(countries) == 0 && len(places) == 0
	if c := req.Company; c != nil {
		if c.Industry != nil {
			inc, err := input.Industries("company.industry.include", c.Industry.Include)
			if err != nil {
				return q, err
			}
			q.Industries = input.Merge(q.Industries, inc)
			if q.ExcludeIndustries, err = input.Industries("company.industry.exclude", c.Industry.Exclude); err != nil {
				return q, err
			}
		}
		rng, err := input.Sizes("company.employee_range", c.EmployeeRange)
		if err != nil {
			return q, err
		}
		q.Sizes = input.Merge(q.Sizes, rng)
		if c.HQ != nil {
			codes, anyCountry, err := input.CountryCodes("company.hq.country_code", c.HQ.CountryCode)
			if err != nil {
				return q, err
			}
			world = world || anyCountry
			countries = input.Merge(countries, codes)
		}
		if c.Keywords != nil {
			kws, err := input.List("company.keywords.include", c.Keywords.Include)
			if err != nil {
				return q, err
			}
			q.Keywords = input.Merge(q.Keywords, kws)
		}
	}
	if !world {
		q.Countries = countries
	}
	return q, nil
}

// PeopleRequest is POST /search/people's body, as CompaniesRequest.
type PeopleRequest struct {
	Titles      []string `json:"titles"`
	Industry    *string  `json:"industry"`
	Location    *string  `json:"location"`
	CompanySize *string  `json:"company_size"`
	People      *struct {
		JobTitle    *Include `json:"job_title"`
		JobFunction []string `json:"job_function"`
		JobLevel    []string `json:"job_level"`
		Location    *struct {
			CountryCode []string `json:"country_code"`
		} `json:"location"`
	} `json:"people"`
	Company *struct {
		Industry *Include `json:"industry"`
	} `json:"company"`
	MaxResults *int    `json:"max_results"`
	Cursor     *string `json:"cursor"`
}

// query builds the query of a search/people body: each flat
// compatibility field joins its nested twin as one field group.
func (req *PeopleRequest) query() (prospector.PersonQuery, error) {
	var q prospector.PersonQuery
	var err error
	if q.Titles, err = input.List("titles", req.Titles); err != nil {
		return q, err
	}
	if q.CompanyIndustries, err = input.Industry("industry", input.Str(req.Industry)); err != nil {
		return q, err
	}
	countries, places, locSet, err := input.Location("location", input.Str(req.Location))
	if err != nil {
		return q, err
	}
	q.Places = places
	if q.CompanySizes, err = input.Size("company_size", input.Str(req.CompanySize)); err != nil {
		return q, err
	}
	// WORLD (any country) in the flat field or the nested one makes their
	// one OR group any country.
	world := locSet && len(countries) == 0 && len(places) == 0
	if p := req.People; p != nil {
		if p.JobTitle != nil {
			titles, err := input.List("people.job_title.include", p.JobTitle.Include)
			if err != nil {
				return q, err
			}
			q.Titles = input.Merge(q.Titles, titles)
		}
		if q.Functions, err = input.Functions("people.job_function", p.JobFunction); err != nil {
			return q, err
		}
		if q.Levels, err = input.Levels("people.job_level", p.JobLevel); err != nil {
			return q, err
		}
		if p.Location != nil {
			codes, anyCountry, err := input.CountryCodes("people.location.country_code", p.Location.CountryCode)
			if err != nil {
				return q, err
			}
			world = world || anyCountry
			countries = input.Merge(countries, codes)
		}
	}
	if c := req.Company; c != nil && c.Industry != nil {
		inc, err := input.Industries("company.industry.include", c.Industry.Include)
		if err != nil {
			return q, err
		}
		q.CompanyIndustries = input.Merge(q.CompanyIndustries, inc)
	}
	if !world {
		q.Countries = countries
	}
	return q, nil
}

// DiscoverCompaniesRequest is POST /discover/companies's body: at least
// one filter and a number of results.
type DiscoverCompaniesRequest struct {
	Industry     *string  `json:"industry"`
	EmployeeSize *string  `json:"employee_size"`
	Location     *string  `json:"location"`
	Revenue      *string  `json:"revenue"`
	Keywords     []string `json:"keywords"`
	MaxResults   *int     `json:"max_results"`
}

// DiscoverPeopleRequest is POST /discover/people's body, as
// DiscoverCompaniesRequest.
type DiscoverPeopleRequest struct {
	Titles      []string `json:"titles"`
	Industry    *string  `json:"industry"`
	Location    *string  `json:"location"`
	CompanySize *string  `json:"company_size"`
	MaxResults  *int     `json:"max_results"`
}
