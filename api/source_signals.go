package api

import (
	"net/http"

	"github.com/prospectorhq/prospector/sources"
)

// The signals of the live sources (beyond the contract): the checks,
// reads and shapes are sources.Reader's.

// jobOpenings: GET /api/v1/signals/job-openings
func (s *Server) jobOpenings(w http.ResponseWriter, r *http.Request) error {
	q, err := readQuery(r)
	if err != nil {
		return err
	}
	var req sources.OpeningsRequest
	for _, p := range []struct {
		name string
		dst  *string
	}{{"company_domain", &req.CompanyDomain}, {"active_only", &req.ActiveOnly}, {"since", &req.Since},
		{"page", &req.Page}, {"limit", &req.Limit}} {
		if *p.dst, err = q.get(p.name); err != nil {
			return err
		}
	}
	page, err := s.flows.Sources.JobOpenings(r.Context(), req)
	if err != nil {
		return err
	}
	writeData(w, page)
	return nil
}

// technologies: GET /api/v1/signals/technologies
func (s *Server) technologies(w http.ResponseWriter, r *http.Request) error {
	q, err := readQuery(r)
	if err != nil {
		return err
	}
	domain, err := q.get("company_domain")
	if err != nil {
		return err
	}
	page, err := s.flows.Sources.Technologies(r.Context(), domain)
	if err != nil {
		return err
	}
	writeData(w, page)
	return nil
}
