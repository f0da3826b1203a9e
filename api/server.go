// Package api is the HTTP surface of Prospector: the /api/v1 routes of the
// contract, authentication, rate limits and the error envelope.
package api

import (
	"context"
	"log/slog"
	"net/http"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prospectorhq/prospector"
	"github.com/prospectorhq/prospector/workflows"
)

// Config is what a Server needs; main builds it.
type Config struct {
	// Store is read by the server itself only to authenticate keys and to
	// answer health; every endpoint goes through Workflows.
	Store  Store
	Logger *slog.Logger
	// Limiter counts requests per key; nil switches rate limiting off.
	Limiter prospector.RateLimiter
	// LimiterMode names the limiter for health: local, redis or
	// redis_degraded (see Degraded).
	LimiterMode string
	// Degraded reports whether a shared limiter has fallen back to local.
	Degraded func() bool
	// LimiterCheck asks a shared limiter's service (Redis) whether it
	// answers, for health; nil falls back to Degraded.
	LimiterCheck func(ctx context.Context) error
	TierRates    prospector.TierRates
	// KeyCacheTTL is how long a resolved key is trusted before it is read
	// again; revocations reach every node within it. Zero reads every time.
	KeyCacheTTL time.Duration
	// KeyCacheGrace is how long past its TTL a cached key keeps working
	// while the store cannot be read; zero means DefaultKeyCacheGrace.
	KeyCacheGrace time.Duration
	// RequestTimeout is every request's deadline, which its context (and
	// so every store call) carries; zero means DefaultRequestTimeout.
	RequestTimeout time.Duration
	Version        string
	// Registry receives the HTTP metrics; nil makes a private one.
	Registry *prometheus.Registry
	// Now is the clock; nil means time.Now.
	Now func() time.Time
	// Workflows are the services the handlers call (required): serve
	// builds one set and hands the same one to every front end. Give
	// their Logger through WorkflowLogger, so their lines carry the id of
	// the request they serve.
	Workflows *workflows.Services
	// MCP serves the Model Context Protocol at POST /mcp to callers
	// authenticated, rate limited and checked as on any endpoint
	// (mcpserver.Handler); nil answers 404 there.
	MCP MCPHandler
	// Console serves every path outside /api/ and /mcp: the web console
	// (package console). Nil answers those paths with the JSON 404.
	Console http.Handler
}

// Store is what the server reads without a workflow: the principal
// behind a key, and whether the database answers. The whole
// prospector.Store satisfies it.
type Store interface {
	PrincipalByKeyHash(ctx context.Context, hash string) (*prospector.Principal, error)
	Ping(ctx context.Context) error
}

// MCPHandler serves one MCP message of an authenticated caller.
type MCPHandler interface {
	ServeMCP(w http.ResponseWriter, r *http.Request, p *prospector.Principal)
}

// Server serves the API. It keeps no state between requests but the key
// cache and the rate limiter's windows.
type Server struct {
	store    Store
	logger   *slog.Logger
	limiter  prospector.RateLimiter
	limMode  string
	degraded func() bool
	// limiterCheck and healthState: see Config.LimiterCheck and health.
	limiterCheck func(ctx context.Context) error
	healthState  healthState
	tierRates    prospector.TierRates
	keys         *keyCache
	version      string
	// requestTimeout is each request's deadline; inflight the requests
	// being served.
	requestTimeout time.Duration
	inflight       inFlight
	now            func() time.Time
	metrics        *metrics
	registry       *prometheus.Registry
	handler        http.Handler
	// rateTiers and endpoints are what key-info reports; fixed at start.
	rateTiers map[string]string
	endpoints []string
	// defaultRateHeaders go on responses that reach no key's budget.
	defaultRateHeaders http.Header
	requestIDs         *requestIDs
	flows              *workflows.Services // what the handlers call, one method a request
	mcp                MCPHandler
	console            http.Handler
}

// NewServer builds the server and its routes.
func NewServer(cfg Config) *Server {
	s := &Server{
		store: cfg.Store, logger: cfg.Logger, limiter: cfg.Limiter, limMode: cfg.LimiterMode,
		degraded: cfg.Degraded, tierRates: cfg.TierRates, version: cfg.Version, now: cfg.Now, registry: cfg.Registry,
		requestTimeout: cfg.RequestTimeout, limiterCheck: cfg.LimiterCheck,
	}
	if s.requestTimeout <= 0 {
		s.requestTimeout = DefaultRequestTimeout
	}
	if s.logger == nil {
		s.logger = slog.New(slog.DiscardHandler)
	}
	if s.now == nil {
		s.now = time.Now
	}
	if s.tierRates == nil {
		s.tierRates = prospector.DefaultTierRates()
	}
	if s.registry == nil {
		s.registry = prometheus.NewRegistry()
	}
	if s.version == "" {
		s.version = "dev"
	}
	if s.limMode == "" {
		s.limMode = "local"
		if s.limiter == nil {
			s.limMode = "disabled"
		}
	}
	s.rateTiers = map[string]string{}
	for _, t := range prospector.Plans() {
		s.rateTiers[t] = s.tierRates[t].String()
	}
	s.endpoints = Endpoints()
	def := s.tierRates[prospector.PlanDefault]
	s.defaultRateHeaders = http.Header{}
	setRateHeaders(s.defaultRateHeaders, prospector.RateResult{Limit: def.Requests, Remaining: def.Requests, Reset: def.Window})
	s.requestIDs = newRequestIDs()
	grace := cfg.KeyCacheGrace
	if grace <= 0 {
		grace = DefaultKeyCacheGrace
	}
	s.flows, s.mcp, s.console = cfg.Workflows, cfg.MCP, cfg.Console
	s.keys = newKeyCache(cfg.Store, cfg.KeyCacheTTL, grace, s.now, s.logger)
	s.metrics = newMetrics(s.registry)
	s.handler = s.routes()
	return s
}

// ServeHTTP implements http.Handler.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) { s.handler.ServeHTTP(w, r) }

// handlerFunc is an endpoint: it writes its answer or returns the error
// that renderError turns into the envelope.
type handlerFunc func(w http.ResponseWriter, r *http.Request) error

type ctxKey int

const (
	requestInfoKey ctxKey = iota
)

// requestInfo travels in the context so the outermost middleware can log
// what inner layers learned: the route and the workspace.
type requestInfo struct {
	id        string
	started   time.Time
	ended     error // why the handler's context ended before it returned
	route     string
	principal *prospector.Principal
	key       *keyEntry
	actor     string // the key's prefix once authenticated (prospector.ActorFrom)

	// Set by wrap: the handler's context and the request's place in
	// Server.inflight.
	ctx          deadlineContext
	method, path string
	cancel       context.CancelCauseFunc
	prev, next   *requestInfo
}

// requestContext is the request's context below the outermost middleware:
// it answers the requestInfo and the actor itself, where a context.WithValue
// per value and a copy of the request per layer cost allocations on every
// call. It lives in the statusWriter's allocation.
type requestContext struct {
	context.Context
	ri *requestInfo
}

func (c *requestContext) Value(key any) any {
	switch {
	case key == any(requestInfoKey):
		return c.ri
	case c.ri.actor != "" && key == prospector.ActorKey():
		return c.ri.actor
	}
	return c.Context.Value(key)
}

func info(ctx context.Context) *requestInfo {
	ri, _ := ctx.Value(requestInfoKey).(*requestInfo)
	if ri == nil {
		return &requestInfo{}
	}
	return ri
}

func requestID(ctx context.Context) string { return info(ctx).id }

// principal returns the caller resolved by authentication, or nil.
func principal(ctx context.Context) *prospector.Principal { return info(ctx).principal }
