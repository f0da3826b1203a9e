package api

import (
	"net/http"

	"github.com/prospectorhq/prospector/discovery"
)

// discoverCompanies: POST /api/v1/discover/companies
func (s *Server) discoverCompanies(w http.ResponseWriter, r *http.Request) error {
	var req discovery.DiscoverCompaniesRequest
	if err := decodeBody(w, r, &req); err != nil {
		return err
	}
	items, err := s.flows.Discovery.DiscoverCompanies(r.Context(), &req)
	if err != nil {
		return err
	}
	writeData(w, items)
	return nil
}

// discoverPeople: POST /api/v1/discover/people
func (s *Server) discoverPeople(w http.ResponseWriter, r *http.Request) error {
	var req discovery.DiscoverPeopleRequest
	if err := decodeBody(w, r, &req); err != nil {
		return err
	}
	items, err := s.flows.Discovery.DiscoverPeople(r.Context(), &req)
	if err != nil {
		return err
	}
	writeData(w, items)
	return nil
}

// searchCompanies: POST /api/v1/search/companies
func (s *Server) searchCompanies(w http.ResponseWriter, r *http.Request) error {
	var req discovery.CompaniesRequest
	if err := decodeBody(w, r, &req); err != nil {
		return err
	}
	page, err := s.flows.Discovery.Companies(r.Context(), &req)
	if err != nil {
		return err
	}
	writeData(w, page)
	return nil
}

// searchPeople: POST /api/v1/search/people
func (s *Server) searchPeople(w http.ResponseWriter, r *http.Request) error {
	var req discovery.PeopleRequest
	if err := decodeBody(w, r, &req); err != nil {
		return err
	}
	page, err := s.flows.Discovery.People(r.Context(), &req)
	if err != nil {
		return err
	}
	writeData(w, page)
	return nil
}
