package api

import (
	"net/http"

	"github.com/prospectorhq/prospector/enrich"
	"github.com/prospectorhq/prospector/input"
)

// IdempotencyHeader makes a retried enrich/email call return the first
// answer without charging again.
const IdempotencyHeader = "Idempotency-Key"

// enrichEmail: POST /api/v1/enrich/email
func (s *Server) enrichEmail(w http.ResponseWriter, r *http.Request) error {
	key, err := idempotencyKey(r)
	if err != nil {
		return err
	}
	var req enrich.EmailRequest
	if err := decodeBody(w, r, &req); err != nil {
		return err
	}
	ans, replayed, err := s.flows.Enrich.Email(r.Context(), &principal(r.Context()).Workspace, key, &req)
	if err != nil {
		return err
	}
	if replayed {
		w.Header().Set("Idempotent-Replayed", "true")
	}
	writeData(w, ans)
	return nil
}

// idempotencyKey reads the optional Idempotency-Key header: one value of
// 1 to 255 visible ASCII characters.
func idempotencyKey(r *http.Request) (string, error) {
	switch vs := r.Header.Values(IdempotencyHeader); len(vs) {
	case 0:
		return "", nil
	case 1:
		return input.IdempotencyKey(IdempotencyHeader, vs[0])
	}
	return "", input.Errorf(IdempotencyHeader, "must be one value of 1 to 255 visible ASCII characters")
}
