package api

import (
	"bytes"
	"context"
	_ "embed"
	"fmt"
	"net/http"
	"sync"
	"time"

	"github.com/prospectorhq/prospector/wire"
)

type healthJSON struct {
	Status      string `json:"status"`
	Version     string `json:"version"`
	Database    string `json:"database"`
	RateLimiter string `json:"rate_limiter"`
	Time        string `json:"time"`
}

// Health checks its dependencies itself, each within a short timeout and
// both at once; a result serves every probe for a second, so a load
// balancer polling many times a second (or a flood of health calls)
// costs the database and Redis one round trip a second each.
const (
	healthCacheTTL       = time.Second
	healthDBTimeout      = 2 * time.Second
	healthLimiterTimeout = 500 * time.Millisecond
)

// healthState is the last check of the dependencies.
type healthState struct {
	mu          sync.Mutex
	at          time.Time // when checked; zero before the first
	dbErr       error
	limiterDown bool
}

// checkDependencies pings the database and the shared limiter, or
// returns the result of a check made less than healthCacheTTL ago.
// Concurrent callers wait for one check.
func (s *Server) checkDependencies(ctx context.Context) (dbErr error, limiterDown bool) {
	h := &s.healthState
	h.mu.Lock()
	defer h.mu.Unlock()
	now := s.now()
	if !h.at.IsZero() && !now.Before(h.at) && now.Sub(h.at) < healthCacheTTL {
		return h.dbErr, h.limiterDown
	}
	// The result serves other callers too: the first leaving must not
	// cut the check short.
	ctx = context.WithoutCancel(ctx)
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		dctx, cancel := context.WithTimeout(ctx, healthDBTimeout)
		defer cancel()
		dbErr = s.store.Ping(dctx)
	}()
	switch {
	case s.limiterCheck != nil:
		lctx, cancel := context.WithTimeout(ctx, healthLimiterTimeout)
		limiterDown = s.limiterCheck(lctx) != nil
		cancel()
	case s.degraded != nil:
		limiterDown = s.degraded()
	}
	wg.Wait()
	h.at, h.dbErr, h.limiterDown = now, dbErr, limiterDown
	return dbErr, limiterDown
}

// health: GET /api/v1/health, open so load balancers need no key. It
// answers 500 service_error when the database does not answer, and
// status "degraded" while a shared limiter runs on local fallback.
func (s *Server) health(w http.ResponseWriter, r *http.Request) error {
	dbErr, limiterDown := s.checkDependencies(r.Context())
	if dbErr != nil {
		return fmt.Errorf("health: database: %w", dbErr)
	}
	out := healthJSON{Status: "ok", Version: s.version, Database: "ok", RateLimiter: s.limMode, Time: wire.Timestamp(s.now())}
	if limiterDown {
		out.Status, out.RateLimiter = "degraded", "redis_degraded"
	}
	writeData(w, out)
	return nil
}

//go:embed openapi.json
var openAPIDocument []byte

// OpenAPIDocument returns the API's OpenAPI 3.1 document, as GET
// /api/v1/openapi.json serves it: the MCP server describes its tools with
// it.
func OpenAPIDocument() []byte { return bytes.Clone(openAPIDocument) }

// openAPI: GET /api/v1/openapi.json, the contract as OpenAPI 3.1.
func (s *Server) openAPI(w http.ResponseWriter, r *http.Request) error {
	w.Header().Set("Content-Type", "application/json")
	_, err := w.Write(openAPIDocument)
	return err
}
