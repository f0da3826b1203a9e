package api

import (
	"context"
	_ "embed"
	"fmt"
	"net/http"
	"time"
)

type healthJSON struct {
	Status      string `json:"status"`
	Version     string `json:"version"`
	Database    string `json:"database"`
	RateLimiter string `json:"rate_limiter"`
	Time        string `json:"time"`
}

// health: GET /api/v1/health, open so load balancers need no key. It
// answers 500 service_error when the database does not, and status
// "degraded" while a shared limiter runs on local fallback.
func (s *Server) health(w http.ResponseWriter, r *http.Request) error {
	ctx, cancel := context.WithTimeout(r.Context(), 2*time.Second)
	defer cancel()
	if err := s.store.Ping(ctx); err != nil {
		return fmt.Errorf("health: database: %w", err)
	}
	out := healthJSON{Status: "ok", Version: s.version, Database: "ok", RateLimiter: s.limMode, Time: timestamp(s.now())}
	if s.degraded != nil && s.degraded() {
		out.Status, out.RateLimiter = "degraded", "redis_degraded"
	}
	writeData(w, out)
	return nil
}

//go:embed openapi.json
var openAPIDocument []byte

// openAPI: GET /api/v1/openapi.json, the contract as OpenAPI 3.1.
func (s *Server) openAPI(w http.ResponseWriter, r *http.Request) error {
	w.Header().Set("Content-Type", "application/json")
	_, err := w.Write(openAPIDocument)
	return err
}
