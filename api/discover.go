package api

import (
	"net/http"

	"github.com/prospectorhq/prospector"
)

type discoverCompaniesRequest struct {
	Industry     *string  `json:"industry"`
	EmployeeSize *string  `json:"employee_size"`
	Location     *string  `json:"location"`
	Revenue      *string  `json:"revenue"`
	Keywords     []string `json:"keywords"`
	MaxResults   *int     `json:"max_results"`
}

var errNoDiscoveryFilter = prospector.Errorf(prospector.EINVALID, "Provide at least one discovery filter")

// discoverCompanies: POST /api/v1/discover/companies
func (s *Server) discoverCompanies(w http.ResponseWriter, r *http.Request) error {
	var req discoverCompaniesRequest
	if err := decodeBody(w, r, &req); err != nil {
		return err
	}
	var q prospector.CompanyQuery
	var err error
	if q.Industries, err = industry("industry", str(req.Industry)); err != nil {
		return err
	}
	if q.Sizes, err = size("employee_size", str(req.EmployeeSize)); err != nil {
		return err
	}
	countries, places, locSet, err := location("location", str(req.Location))
	if err != nil {
		return err
	}
	q.Countries, q.Places = countries, places
	if q.Revenues, err = revenue("revenue", str(req.Revenue)); err != nil {
		return err
	}
	if q.Keywords, err = checkList("keywords", req.Keywords); err != nil {
		return err
	}
	limit, err := maxResults(req.MaxResults)
	if err != nil {
		return err
	}
	if len(q.Industries)+len(q.Sizes)+len(q.Revenues)+len(q.Keywords) == 0 && !locSet {
		return errNoDiscoveryFilter
	}
	page, err := s.searcher.SearchCompanies(r.Context(), q, prospector.SearchPosition{}, limit)
	if err != nil {
		return err
	}
	items, err := s.companyItems(r.Context(), page.IDs)
	if err != nil {
		return err
	}
	writeData(w, items)
	return nil
}

type discoverPeopleRequest struct {
	Titles      []string `json:"titles"`
	Industry    *string  `json:"industry"`
	Location    *string  `json:"location"`
	CompanySize *string  `json:"company_size"`
	MaxResults  *int     `json:"max_results"`
}

// discoverPeople: POST /api/v1/discover/people
func (s *Server) discoverPeople(w http.ResponseWriter, r *http.Request) error {
	var req discoverPeopleRequest
	if err := decodeBody(w, r, &req); err != nil {
		return err
	}
	var q prospector.PersonQuery
	var err error
	if q.Titles, err = checkList("titles", req.Titles); err != nil {
		return err
	}
	if q.CompanyIndustries, err = industry("industry", str(req.Industry)); err != nil {
		return err
	}
	countries, places, locSet, err := location("location", str(req.Location))
	if err != nil {
		return err
	}
	q.Countries, q.Places = countries, places
	if q.CompanySizes, err = size("company_size", str(req.CompanySize)); err != nil {
		return err
	}
	limit, err := maxResults(req.MaxResults)
	if err != nil {
		return err
	}
	if len(q.Titles)+len(q.CompanyIndustries)+len(q.CompanySizes) == 0 && !locSet {
		return errNoDiscoveryFilter
	}
	page, err := s.searcher.SearchPeople(r.Context(), q, prospector.SearchPosition{}, limit)
	if err != nil {
		return err
	}
	items, err := s.personItems(r.Context(), page.IDs)
	if err != nil {
		return err
	}
	writeData(w, items)
	return nil
}
