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
	"github.com/prospectorhq/prospector/webhook"
)

// Config is what a Server needs; main builds it.
type Config struct {
	Store  prospector.Store
	Logger *slog.Logger
	// Limiter counts requests per key; nil switches rate limiting off.
	Limiter prospector.RateLimiter
	// LimiterMode names the limiter for health: local, redis or
	// redis_degraded (see Degraded).
	LimiterMode string
	// Degraded reports whether a shared limiter has fallen back to local.
	Degraded  func() bool
	TierRates prospector.TierRates
	// KeyCacheTTL is how long a resolved key is trusted before it is read
	// again; revocations reach every node within it. Zero reads every time.
	KeyCacheTTL time.Duration
	Version     string
	// Registry receives the HTTP metrics; nil makes a private one.
	Registry *prometheus.Registry
	// Now is the clock; nil means time.Now.
	Now func() time.Time
	// Searcher answers discovery and search (required).
	Searcher prospector.Searcher
	// CursorKey signs search cursors; every node of a deployment must
	// share it (main keeps it in the store's settings).
	CursorKey []byte
	// Emails finds and verifies addresses for enrich/email (required).
	Emails prospector.EmailFinder
	// Webhooks sends POST /leads/push deliveries and reaches outreach
	// tools, refusing private destinations unless built to allow them
	// (serve --allow-private-webhooks). Nil: a default client.
	Webhooks *webhook.Client
}

// Server serves the API. It keeps no state between requests but the key
// cache and the rate limiter's windows.
type Server struct {
	store     prospector.Store
	logger    *slog.Logger
	limiter   prospector.RateLimiter
	limMode   string
	degraded  func() bool
	tierRates prospector.TierRates
	keys      *keyCache
	version   string
	now       func() time.Time
	metrics   *metrics
	registry  *prometheus.Registry
	handler   http.Handler
	// rateTiers and endpoints are what key-info reports; fixed at start.
	rateTiers map[string]string
	endpoints []string
	// defaultRateHeaders go on responses that reach no key's budget.
	defaultRateHeaders http.Header
	requestIDs         *requestIDs
	searcher           prospector.Searcher
	cursorKey          []byte
	emails             prospector.EmailFinder
	subjects           *subjectCache // enrich/email's people by profile URL
	webhooks           *webhook.Client
}

// NewServer builds the server and its routes.
func NewServer(cfg Config) *Server {
	s := &Server{
		store: cfg.Store, logger: cfg.Logger, limiter: cfg.Limiter, limMode: cfg.LimiterMode,
		degraded: cfg.Degraded, tierRates: cfg.TierRates, version: cfg.Version, now: cfg.Now, registry: cfg.Registry,
		searcher: cfg.Searcher, cursorKey: cfg.CursorKey, emails: cfg.Emails, webhooks: cfg.Webhooks,
		subjects: newSubjectCache(),
	}
	if s.webhooks == nil {
		s.webhooks = webhook.NewClient(webhook.Config{})
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
	s.endpoints = prospector.Endpoints()
	def := s.tierRates[prospector.PlanDefault]
	s.defaultRateHeaders = http.Header{}
	setRateHeaders(s.defaultRateHeaders, prospector.RateResult{Limit: def.Requests, Remaining: def.Requests, Reset: def.Window})
	s.requestIDs = newRequestIDs()
	s.keys = newKeyCache(cfg.Store, cfg.KeyCacheTTL, s.now)
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
	route     string
	principal *prospector.Principal
	key       *keyEntry
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
