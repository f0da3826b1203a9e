package api

import "net/http"

// fieldValues: GET /api/v1/meta/field-values
func (s *Server) fieldValues(w http.ResponseWriter, r *http.Request) error {
	writeData(w, s.flows.Account.FieldValues())
	return nil
}
