package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"sync"
	"time"

	"github.com/prospectorhq/prospector"
	"github.com/prospectorhq/prospector/api"
	"github.com/prospectorhq/prospector/demo"
	"github.com/prospectorhq/prospector/email"
	"github.com/prospectorhq/prospector/jobs"
	"github.com/prospectorhq/prospector/radar"
	"github.com/prospectorhq/prospector/ratelimit"
	"github.com/prospectorhq/prospector/search"
	"github.com/prospectorhq/prospector/webhook"
	"github.com/spf13/cobra"
)

type serveOptions struct {
	addr            string
	noDemo          bool
	redisURL        string
	tierRates       string
	rateLimit       bool
	keyCacheTTL     time.Duration
	shutdownTimeout time.Duration
	logLevel        string
	demoPeople      int
	indexPoll       time.Duration
	smtp            email.SMTPConfig
	// allowPrivateWebhooks lets deliveries reach private and loopback
	// addresses (local development only).
	allowPrivateWebhooks bool
}

func newServeCommand(e *env, so *storeOptions) *cobra.Command {
	var o serveOptions
	cmd := &cobra.Command{
		Use:   "serve",
		Short: "Run the HTTP API",
		Long: `Run the HTTP API under /api/v1, migrating the store first.

On an empty store (unless --no-demo) it creates the workspace "demo" with a
growth-tier key and prints that key once. With PROSPECTOR_REDIS_URL (or
--redis-url) rate limits are shared by every node; if Redis stops answering,
each node falls back to its own in-process limits until Redis is back.
SIGINT or SIGTERM stops accepting connections, drains in-flight requests
(up to --shutdown-timeout) and exits 0.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return serve(cmd.Context(), e, so, o)
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.addr, "addr", "127.0.0.1:8080", "address to listen on")
	f.BoolVar(&o.noDemo, "no-demo", false, "do not create the demo workspace on an empty store")
	f.StringVar(&o.redisURL, "redis-url", "", "Redis URL for rate limits shared across nodes (default $PROSPECTOR_REDIS_URL)")
	f.StringVar(&o.tierRates, "tier-rates", "", "per-tier rates over the defaults, e.g. growth=100000/m,starter=500/m (default $PROSPECTOR_TIER_RATES)")
	f.BoolVar(&o.rateLimit, "rate-limit", true, "enforce per-key rate limits")
	f.DurationVar(&o.keyCacheTTL, "key-cache-ttl", 5*time.Second, "how long a node trusts a resolved API key; revocations take effect within it")
	f.DurationVar(&o.shutdownTimeout, "shutdown-timeout", 30*time.Second, "how long to drain in-flight requests on SIGINT/SIGTERM")
	f.StringVar(&o.logLevel, "log-level", "info", "log level: debug, info, warn, error")
	f.DurationVar(&o.indexPoll, "index-poll", time.Second, "how often the search index reads writes made by other processes and nodes")
	f.IntVar(&o.demoPeople, "demo-people", demoPeople, "people in the demo dataset loaded on an empty store (companies: a tenth, at most 2,000)")
	_ = f.MarkHidden("demo-people") // for tests and small machines
	f.BoolVar(&o.smtp.Enabled, "smtp-probe", false, "verify addresses over SMTP (RCPT TO, never DATA); most networks block outbound port 25, so it is off by default and answers rest on address patterns (or $PROSPECTOR_SMTP_PROBE=1)")
	f.StringVar(&o.smtp.HeloName, "smtp-helo", "localhost", "EHLO name for SMTP probes: use a name that resolves to this host")
	f.StringVar(&o.smtp.MailFrom, "smtp-from", "", "MAIL FROM address for SMTP probes (default verify@<smtp-helo>)")
	f.IntVar(&o.smtp.Port, "smtp-port", 25, "SMTP port of mail exchangers")
	f.DurationVar(&o.smtp.CommandTimeout, "smtp-timeout", 10*time.Second, "timeout of each SMTP command; a timeout means unknown, never invalid")
	f.IntVar(&o.smtp.PerDomain, "smtp-per-domain", 2, "concurrent SMTP sessions per domain")
	f.BoolVar(&o.allowPrivateWebhooks, "allow-private-webhooks", false, "let webhook and outreach deliveries reach loopback, private and link-local addresses: local development only (or $PROSPECTOR_ALLOW_PRIVATE_WEBHOOKS=1)")
	return cmd
}

func serve(ctx context.Context, e *env, so *storeOptions, o serveOptions) error {
	var level slog.Level
	if err := level.UnmarshalText([]byte(o.logLevel)); err != nil {
		return fmt.Errorf("--log-level: %w", err)
	}
	logger := slog.New(slog.NewJSONHandler(e.stderr, &slog.HandlerOptions{Level: level}))
	if o.tierRates == "" {
		o.tierRates = e.getenv("PROSPECTOR_TIER_RATES")
	}
	rates, err := prospector.ParseTierRates(o.tierRates)
	if err != nil {
		return fmt.Errorf("--tier-rates: %w", err)
	}
	st, err := so.open(ctx, e)
	if err != nil {
		return err
	}
	defer st.Close()
	if !o.noDemo {
		if err := seedDemo(ctx, e, st, o.demoPeople); err != nil {
			return err
		}
	}
	ix, key, err := startIndex(ctx, st, o.indexPoll, logger)
	if err != nil {
		return err
	}
	cfg := api.Config{Store: st, Logger: logger, TierRates: rates, KeyCacheTTL: o.keyCacheTTL, Version: version,
		Searcher: ix, CursorKey: key}
	if e.getenv("PROSPECTOR_SMTP_PROBE") == "1" {
		o.smtp.Enabled = true
	}
	cfg.Emails = email.New(email.Config{Resolver: net.DefaultResolver, People: st, Outcomes: st, SMTP: o.smtp})
	cfg.Webhooks = webhook.NewClient(webhook.Config{AllowPrivate: allowPrivate(e, o.allowPrivateWebhooks)})
	if cfg.Webhooks.AllowPrivate() {
		logger.Warn("webhook deliveries may reach private and loopback addresses (--allow-private-webhooks)")
	}
	if o.rateLimit {
		if o.redisURL == "" {
			o.redisURL = e.getenv("PROSPECTOR_REDIS_URL")
		}
		if o.redisURL != "" {
			client, err := ratelimit.NewRedisClient(o.redisURL)
			if err != nil {
				return fmt.Errorf("--redis-url: %w", err)
			}
			defer client.Close()
			fb := ratelimit.NewFallback(ratelimit.NewRedis(client, "prospector:rl:"), ratelimit.NewMemory(), logger)
			cfg.Limiter, cfg.LimiterMode, cfg.Degraded = fb, "redis", fb.Degraded
		} else {
			cfg.Limiter, cfg.LimiterMode = ratelimit.NewMemory(), "local"
		}
	}
	ln, err := net.Listen("tcp", o.addr)
	if err != nil {
		return fmt.Errorf("listen: %w", err)
	}
	// Deferred after st.Close, so it runs first: the jobs stop before the
	// store closes.
	defer startJobs(ctx, st, ix, cfg.Webhooks, logger)()
	logger.Info("listening", "addr", ln.Addr().String(), "store", so.describe(e), "rate_limiter", cfg.LimiterMode)
	fmt.Fprintf(e.stderr, "prospector %s listening on http://%s\n", version, ln.Addr())
	if e.ready != nil {
		e.ready(ln.Addr().String())
	}
	return serveHTTP(ctx, ln, api.NewServer(cfg), o.shutdownTimeout, logger)
}

// jobsGrace is how long radar jobs in flight may finish on shutdown
// before they are interrupted (and queued again for the next start).
const jobsGrace = 5 * time.Second

// startJobs runs the durable background jobs of this node (the radar
// backfills and scans, and the webhook deliveries of auto-sync) and the
// radar scheduler until ctx ends. It returns a function that waits for
// them to stop; interrupted jobs go back to the queue, for this node's
// next start or another node.
func startJobs(ctx context.Context, st prospector.Store, ix *search.Index, hooks *webhook.Client, logger *slog.Logger) (wait func()) {
	// New radar leads go to the workspace's webhook when auto-sync is on:
	// the engine hands them over once the batch that made them commits.
	autoSync, waitDeliveries := startDeliveries(ctx, st, hooks, logger)
	eng := &radar.Engine{Store: st, Searcher: ix, Logger: logger, OnLeads: autoSync.OnLeads}
	runner := &jobs.Runner{Store: st, Logger: logger, Grace: jobsGrace, Poll: 250 * time.Millisecond,
		Handlers: map[string]jobs.Handler{prospector.JobRadarBackfill: eng.Backfill, prospector.JobRadarScan: eng.Scan}}
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		if err := runner.Run(ctx); err != nil {
			logger.Error("jobs runner", "err", err)
		}
	}()
	go func() {
		defer wg.Done()
		eng.Schedule(ctx, runner, 2*time.Second)
	}()
	return func() {
		wg.Wait()
		waitDeliveries()
		logger.Info("background jobs stopped")
	}
}

// serveHTTP serves h on ln until ctx is cancelled, then stops accepting,
// waits for in-flight requests up to timeout and returns nil.
func serveHTTP(ctx context.Context, ln net.Listener, h http.Handler, timeout time.Duration, logger *slog.Logger) error {
	srv := &http.Server{
		Handler:           h,
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       30 * time.Second,
		WriteTimeout:      60 * time.Second,
		IdleTimeout:       120 * time.Second,
		ErrorLog:          slog.NewLogLogger(logger.Handler(), slog.LevelWarn),
	}
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		return fmt.Errorf("serve: %w", err)
	case <-ctx.Done():
	}
	logger.Info("shutting down: draining in-flight requests", "timeout", timeout.String())
	sctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	if err := srv.Shutdown(sctx); err != nil {
		return fmt.Errorf("shutdown: %w", err)
	}
	if err := <-errc; err != nil && !errors.Is(err, http.ErrServerClosed) {
		return fmt.Errorf("serve: %w", err)
	}
	logger.Info("stopped")
	return nil
}

// seedDemo creates the demo workspace and its key on an empty store,
// prints the key once, and loads the demo dataset.
func seedDemo(ctx context.Context, e *env, st prospector.Store, people int) error {
	n, err := st.CountWorkspaces(ctx)
	if err != nil || n > 0 {
		return err
	}
	companies := demoCompanies
	if people < demoPeople {
		companies = max(1, people/10)
	}
	cfg := demo.Config{Companies: companies, People: people, Seed: demoSeed, Now: time.Now()}
	if err := seedData(ctx, st, cfg, e.stderr, e.stderr); err != nil {
		return err
	}
	w := prospector.NewWorkspace("demo", prospector.PlanGrowth)
	w.Email = "demo@example.com"
	if err := st.CreateWorkspace(ctx, w); err != nil {
		return fmt.Errorf("demo workspace: %w", err)
	}
	k, secret := prospector.NewAPIKey(w.ID, prospector.PlanGrowth, nil)
	if err := st.CreateAPIKey(ctx, k); err != nil {
		return fmt.Errorf("demo key: %w", err)
	}
	fmt.Fprintf(e.stdout, "Created workspace \"demo\" with a growth-tier API key (shown once):\n%s\n", secret)
	return nil
}

// startIndex builds the search index from the store, then keeps it in
// step in the background until ctx ends. It also returns the cursor key
// every node shares.
func startIndex(ctx context.Context, st prospector.Store, poll time.Duration, logger *slog.Logger) (*search.Index, []byte, error) {
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		return nil, nil, err
	}
	key, err := st.Setting(ctx, "search_cursor_key", hex.EncodeToString(b))
	if err != nil {
		return nil, nil, err
	}
	ix := search.New(st)
	start := time.Now()
	n, err := ix.Sync(ctx)
	if err != nil {
		return nil, nil, err
	}
	stats := ix.Stats()
	logger.Info("search index built", "rows", n, "companies", stats.Companies, "people", stats.People,
		"bitmap_bytes", stats.Bytes, "duration_ms", time.Since(start).Milliseconds())
	go ix.Follow(ctx, poll, logger)
	return ix, []byte(key), nil
}
