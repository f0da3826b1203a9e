package api

import (
	"net/http"

	"github.com/prospectorhq/prospector/feedback"
)

// feedbackEvent: POST /api/v1/feedback/events
func (s *Server) feedbackEvent(w http.ResponseWriter, r *http.Request) error {
	key, err := idempotencyKey(r)
	if err != nil {
		return err
	}
	var req feedback.EventRequest
	if err := decodeBody(w, r, &req); err != nil {
		return err
	}
	res, replayed, err := s.flows.Feedback.Record(r.Context(), &principal(r.Context()).Workspace, key, &req)
	if err != nil {
		return err
	}
	if replayed {
		w.Header().Set("Idempotent-Replayed", "true")
	}
	writeData(w, res)
	return nil
}

// feedbackInsights: GET /api/v1/feedback/insights
func (s *Server) feedbackInsights(w http.ResponseWriter, r *http.Request) error {
	// A malformed query string is read as far as it goes (url.Values).
	days, err := queryValues(r.URL.Query()).get("days")
	if err != nil {
		return err
	}
	res, err := s.flows.Feedback.Insights(r.Context(), &principal(r.Context()).Workspace, feedback.InsightsRequest{Days: days})
	if err != nil {
		return err
	}
	writeData(w, res)
	return nil
}
