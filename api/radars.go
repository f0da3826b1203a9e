package api

import (
	"net/http"

	"github.com/prospectorhq/prospector"
	"github.com/prospectorhq/prospector/radar"
)

type createRadarResult struct {
	RadarID string `json:"radar_id"`
}

// createRadar: POST /api/v1/radar/create
func (s *Server) createRadar(w http.ResponseWriter, r *http.Request) error {
	var req radar.CreateRequest
	if err := decodeBody(w, r, &req); err != nil {
		return err
	}
	rd, err := s.flows.Radars.Create(r.Context(), &principal(r.Context()).Workspace, &req)
	if err != nil {
		return err
	}
	writeData(w, createRadarResult{RadarID: rd.ID})
	return nil
}

// radarLeads: GET /api/v1/radar/{id}/leads
func (s *Server) radarLeads(w http.ResponseWriter, r *http.Request) error {
	var req radar.LeadsRequest
	if err := readParams(r, param{"min_score", &req.MinScore}, param{"date_range", &req.DateRange}); err != nil {
		return err
	}
	leads, err := s.flows.Radars.Leads(r.Context(), &principal(r.Context()).Workspace, r.PathValue("id"), req)
	if err != nil {
		return err
	}
	writeData(w, leads)
	return nil
}

// radarSignals: GET /api/v1/radar/{id}/signals
func (s *Server) radarSignals(w http.ResponseWriter, r *http.Request) error {
	var req radar.SignalsRequest
	if err := readParams(r, param{"date_range", &req.DateRange}); err != nil {
		return err
	}
	sigs, err := s.flows.Radars.Signals(r.Context(), &principal(r.Context()).Workspace, r.PathValue("id"), req)
	if err != nil {
		return err
	}
	writeData(w, sigs)
	return nil
}

// listRadars: GET /api/v1/radar
func (s *Server) listRadars(w http.ResponseWriter, r *http.Request) error {
	var req radar.ListRequest
	if err := readParams(r, param{"page", &req.Page}, param{"limit", &req.Limit}); err != nil {
		return err
	}
	page, err := s.flows.Radars.List(r.Context(), &principal(r.Context()).Workspace, req)
	if err != nil {
		return err
	}
	writeData(w, page)
	return nil
}

// getRadar: GET /api/v1/radar/{id}
func (s *Server) getRadar(w http.ResponseWriter, r *http.Request) error {
	if err := readParams(r); err != nil {
		return err
	}
	id, err := radarID(w, r)
	if err != nil {
		return err
	}
	rd, err := s.flows.Radars.Get(r.Context(), &principal(r.Context()).Workspace, id)
	if err != nil {
		return err
	}
	writeData(w, rd)
	return nil
}

// updateRadar: PATCH /api/v1/radar/{id}
func (s *Server) updateRadar(w http.ResponseWriter, r *http.Request) error {
	id, err := radarID(w, r)
	if err != nil {
		return err
	}
	var req radar.UpdateRequest
	if err := decodeBody(w, r, &req); err != nil {
		return err
	}
	rd, err := s.flows.Radars.Update(r.Context(), &principal(r.Context()).Workspace, id, &req)
	if err != nil {
		return err
	}
	writeData(w, rd)
	return nil
}

// deleteRadar: DELETE /api/v1/radar/{id}
func (s *Server) deleteRadar(w http.ResponseWriter, r *http.Request) error {
	id, err := radarID(w, r)
	if err != nil {
		return err
	}
	res, err := s.flows.Radars.Delete(r.Context(), &principal(r.Context()).Workspace, id)
	if err != nil {
		return err
	}
	writeData(w, res)
	return nil
}

// radarID is the {id} of a radar path. The mux gives /radar/create to
// the {id} routes of other methods: that path answers as any path does
// for a method it does not support.
func radarID(w http.ResponseWriter, r *http.Request) (string, error) {
	id := r.PathValue("id")
	if id == "create" {
		w.Header().Set("Allow", http.MethodPost)
		return "", prospector.Errorf(prospector.ENOTFOUND, "%s is not supported on %s; use POST", r.Method, r.URL.Path)
	}
	return id, nil
}
