package api

import (
	"net/http"

	"github.com/prospectorhq/prospector/contacts"
)

// findContacts: POST /api/v1/contacts/find
func (s *Server) findContacts(w http.ResponseWriter, r *http.Request) error {
	var req contacts.FindRequest
	if err := decodeBody(w, r, &req); err != nil {
		return err
	}
	items, err := s.flows.Contacts.Find(r.Context(), &req)
	if err != nil {
		return err
	}
	writeData(w, items)
	return nil
}

// employeeFinder: POST /api/v1/contacts/employee-finder
func (s *Server) employeeFinder(w http.ResponseWriter, r *http.Request) error {
	var req contacts.EmployeeFinderRequest
	if err := decodeBody(w, r, &req); err != nil {
		return err
	}
	page, err := s.flows.Contacts.EmployeeFinder(r.Context(), &req)
	if err != nil {
		return err
	}
	writeData(w, page)
	return nil
}

// waterfallICP: POST /api/v1/contacts/waterfall-icp
func (s *Server) waterfallICP(w http.ResponseWriter, r *http.Request) error {
	var req contacts.WaterfallRequest
	if err := decodeBody(w, r, &req); err != nil {
		return err
	}
	res, err := s.flows.Contacts.Waterfall(r.Context(), &req)
	if err != nil {
		return err
	}
	writeData(w, res)
	return nil
}
