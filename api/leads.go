package api

import (
	"net/http"

	"github.com/prospectorhq/prospector/leads"
)

// exportLeads: POST /api/v1/leads/export
func (s *Server) exportLeads(w http.ResponseWriter, r *http.Request) error {
	var req leads.ExportRequest
	if err := decodeBody(w, r, &req); err != nil {
		return err
	}
	res, err := s.flows.Leads.Export(r.Context(), &principal(r.Context()).Workspace, &req)
	if err != nil {
		return err
	}
	writeData(w, res)
	return nil
}

// pushLeads: POST /api/v1/leads/push
func (s *Server) pushLeads(w http.ResponseWriter, r *http.Request) error {
	var req leads.PushRequest
	if err := decodeBody(w, r, &req); err != nil {
		return err
	}
	res, err := s.flows.Leads.Push(r.Context(), &principal(r.Context()).Workspace, &req)
	if err != nil {
		return err
	}
	writeData(w, res)
	return nil
}
