package main

import (
	"context"
	"errors"
	"fmt"
	"io"
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
	"github.com/prospectorhq/prospector/mcpserver"
	"github.com/prospectorhq/prospector/radar"
	"github.com/prospectorhq/prospector/ratelimit"
	"github.com/prospectorhq/prospector/search"
	"github.com/prospectorhq/prospector/webhook"
	"github.com/prospectorhq/prospector/workflows"
	"github.com/spf13/cobra"
)

type serveOptions struct {
	addr            string
	noDemo          bool
	redisURL        string
	tierRates       string
	rateLimit       bool
	secureCookies   bool
	keyCacheTTL     time.Duration
	keyCacheGrace   time.Duration
	requestTimeout  time.Duration
	metricsAddr     string
	shutdownTimeout time.Duration
	logLevel        string
	demoPeople      int
	index           indexOptions
	smtp            email.SMTPConfig
	// allowPrivateWebhooks, when set (allowPrivateSet), becomes the
	// deployment's private-webhooks setting.
	allowPrivateWebhooks, allowPrivateSet bool

	jobs    jobsOptions   // the job queue's settings (jobs.go)
	sources sourceOptions // how sources fetch (source_flags.go)
	polling pollOptions   // how often they are polled (source_serve.go)
}

func newServeCommand(e *env, so *storeOptions) *cobra.Command {
	var o serveOptions
	cmd := &cobra.Command{
		Use:   "serve",
		Short: "Run the HTTP API",
		Long: `Run the HTTP API under /api/v1, migrating the store first.

On an empty store (unless --no-demo) it creates the workspace "demo" with a
growth-tier key and prints that key once; on a store that has workspaces it
prints the command that creates another key. With PROSPECTOR_REDIS_URL (or
--redis-url) rate limits are shared by every node; if Redis stops answering,
each node falls back to its own in-process limits until Redis is back.
Every request has a deadline (--request-timeout) that its database calls
share; a request out of time answers 500 service_error with Retry-After.
Prometheus metrics are served on a listener of their own (--metrics-addr,
loopback by default), never on the API's. Every line on stderr is a JSON
log record.

SIGINT or SIGTERM stops accepting connections, drains in-flight requests
(up to --shutdown-timeout) and exits 0. Requests still running at the
deadline are cancelled and answer 500 service_error with Retry-After where
they can; the log names them.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			o.allowPrivateSet = cmd.Flags().Changed("allow-private-webhooks")
			if v := e.getenv("PROSPECTOR_METRICS_ADDR"); v != "" && !cmd.Flags().Changed("metrics-addr") {
				o.metricsAddr = v
			}
			return serve(cmd.Context(), e, so, o)
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.addr, "addr", "127.0.0.1:8080", "address to listen on")
	f.BoolVar(&o.noDemo, "no-demo", false, "do not create the demo workspace on an empty store")
	f.StringVar(&o.redisURL, "redis-url", "", "Redis URL for rate limits shared across nodes (default $PROSPECTOR_REDIS_URL)")
	f.StringVar(&o.tierRates, "tier-rates", "", "per-tier rates over the defaults, e.g. growth=100000/m,starter=500/m (default $PROSPECTOR_TIER_RATES)")
	f.BoolVar(&o.rateLimit, "rate-limit", true, "enforce per-key rate limits")
	f.BoolVar(&o.secureCookies, "secure-cookies", false, "mark the web console's cookies Secure on every request, for a deployment behind a proxy that terminates TLS")
	f.DurationVar(&o.keyCacheTTL, "key-cache-ttl", 5*time.Second, "how long a node trusts a resolved API key; revocations take effect within it")
	f.DurationVar(&o.keyCacheGrace, "key-cache-grace", api.DefaultKeyCacheGrace, "how long past --key-cache-ttl a known key keeps working while the database cannot be read")
	f.DurationVar(&o.requestTimeout, "request-timeout", api.DefaultRequestTimeout, "deadline of every request and its database calls (leads/push keeps at least 50s); also PostgreSQL's statement_timeout")
	f.StringVar(&o.metricsAddr, "metrics-addr", defaultMetricsAddr, "address of the Prometheus /metrics listener, or $PROSPECTOR_METRICS_ADDR; empty disables it")
	f.DurationVar(&o.shutdownTimeout, "shutdown-timeout", 30*time.Second, "how long to drain in-flight requests on SIGINT/SIGTERM")
	f.StringVar(&o.logLevel, "log-level", "info", "log level: debug, info, warn, error")
	o.index.addFlags(cmd)
	f.IntVar(&o.demoPeople, "demo-people", demoPeople, "people in the demo dataset loaded on an empty store (companies: a tenth, at most 2,000)")
	_ = f.MarkHidden("demo-people") // for tests and small machines
	f.BoolVar(&o.smtp.Enabled, "smtp-probe", false, "verify addresses over SMTP (RCPT TO, never DATA); most networks block outbound port 25, so it is off by default and answers rest on address patterns (or $PROSPECTOR_SMTP_PROBE=1)")
	f.StringVar(&o.smtp.HeloName, "smtp-helo", "localhost", "EHLO name for SMTP probes: use a name that resolves to this host")
	f.StringVar(&o.smtp.MailFrom, "smtp-from", "", "MAIL FROM address for SMTP probes (default verify@<smtp-helo>)")
	f.IntVar(&o.smtp.Port, "smtp-port", 25, "SMTP port of mail exchangers")
	f.DurationVar(&o.smtp.CommandTimeout, "smtp-timeout", 10*time.Second, "timeout of each SMTP command; a timeout means unknown, never invalid")
	f.IntVar(&o.smtp.PerDomain, "smtp-per-domain", 2, "concurrent SMTP sessions per domain")
	f.BoolVar(&o.allowPrivateWebhooks, "allow-private-webhooks", false, "let webhook and outreach deliveries reach loopback, private and link-local addresses, on every node of the deployment (a setting kept in the store; =false turns it off; or $PROSPECTOR_ALLOW_PRIVATE_WEBHOOKS=1/0). Without it the stored setting applies, denied by default")
	o.jobs.addFlags(cmd)
	o.sources.addFlags(cmd)
	o.polling.addFlags(cmd)
	return cmd
}

func serve(ctx context.Context, e *env, so *storeOptions, o serveOptions) (err error) {
	var level slog.Level
	if err := level.UnmarshalText([]byte(o.logLevel)); err != nil {
		return fmt.Errorf("--log-level: %w", err)
	}
	logger := slog.New(slog.NewJSONHandler(e.stderr, &slog.HandlerOptions{Level: level}))
	if e.process {
		routeProcessLogs(logger)
	}
	// From here every line on stderr is JSON, the fatal error included.
	defer func() { err = logFailure(logger, err) }()
	if o.requestTimeout <= 0 {
		return fmt.Errorf("--request-timeout must be positive")
	}
	if o.tierRates == "" {
		o.tierRates = e.getenv("PROSPECTOR_TIER_RATES")
	}
	rates, err := prospector.ParseTierRates(o.tierRates)
	if err != nil {
		return fmt.Errorf("--tier-rates: %w", err)
	}
	if err := o.polling.check(); err != nil {
		return err
	}
	kit, err := o.sources.build(e)
	if err != nil {
		return err
	}
	logFingerprintStats(logger, kit.detector)
	if o.polling.sec {
		if err := kit.checkSEC(); err != nil {
			return fmt.Errorf("--sec: %w", err)
		}
	}
	// A statement never outlives the request that sent it.
	so.statementTimeout = o.requestTimeout
	st, err := so.open(ctx, e)
	if err != nil {
		return err
	}
	defer st.Close()
	if err := printKeyHint(ctx, e, so, st, o.noDemo); err != nil {
		return err
	}
	if !o.noDemo {
		if err := seedDemo(ctx, e, st, o.demoPeople, logLines(logger)); err != nil {
			return err
		}
	}
	ix, key, saveIndex, err := startIndex(ctx, st, o.index.resolve(e, so), logger)
	if err != nil {
		return err
	}
	// Deferred before the jobs' and sources' waits, so it runs after them
	// and after the HTTP drain: the snapshot is the index as it stops.
	defer saveIndex()
	cfg := api.Config{Store: st, Logger: logger, TierRates: rates, KeyCacheTTL: o.keyCacheTTL, Version: version,
		KeyCacheGrace: o.keyCacheGrace, RequestTimeout: o.requestTimeout}
	if e.getenv("PROSPECTOR_SMTP_PROBE") == "1" {
		o.smtp.Enabled = true
	}
	if err := servePrivateWebhooks(ctx, e, st, o.allowPrivateWebhooks, o.allowPrivateSet, logger); err != nil {
		return err
	}
	hooks := webhook.NewClient(webhook.Config{Policy: webhook.SettingPolicy(st)})
	// One set of workflows for every front end: their caches are shared.
	cfg.Workflows = workflows.New(workflows.Parts{Store: st, Index: ix, CursorKey: key, Webhooks: hooks,
		Logger: api.WorkflowLogger(logger),
		Emails: email.New(email.Config{Resolver: net.DefaultResolver, People: st, Outcomes: st, SMTP: o.smtp,
			Synthetic: demo.IsCompanyDomain})})
	// The MCP server at /mcp calls the same workflows.
	tools, err := mcpserver.New(mcpserver.Config{Workflows: cfg.Workflows, Document: api.OpenAPIDocument(),
		Version: version, Logger: logger})
	if err != nil {
		return err
	}
	cfg.MCP = mcpserver.NewHandler(tools, logger)
	// The web console at / calls the same workflows too.
	if cfg.Console, err = newConsole(ctx, st, cfg, o.secureCookies, logger); err != nil {
		return err
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
			cfg.Limiter, cfg.LimiterMode, cfg.Degraded, cfg.LimiterCheck = fb, "redis", fb.Degraded, fb.Check
		} else {
			cfg.Limiter, cfg.LimiterMode = ratelimit.NewMemory(), "local"
		}
	}
	ln, err := net.Listen("tcp", o.addr)
	if err != nil {
		return fmt.Errorf("listen: %w", err)
	}
	srv := api.NewServer(cfg)
	stopMetrics, err := serveMetrics(o.metricsAddr, srv.MetricsHandler(), logger)
	if err != nil {
		ln.Close()
		return err
	}
	defer stopMetrics()
	// Deferred after st.Close, so it runs first: the jobs stop before the
	// store closes.
	defer startJobs(ctx, st, ix, hooks, o.jobs, logger)()
	defer startSources(ctx, st, kit, o.polling, logger)()
	logger.Info("listening", "version", version, "url", "http://"+ln.Addr().String(), "addr", ln.Addr().String(),
		"store", so.describe(e), "rate_limiter", cfg.LimiterMode)
	if e.ready != nil {
		e.ready(ln.Addr().String())
	}
	// srv.Listener: net/http's own plain-text answers follow the envelope.
	return serveHTTP(ctx, srv.Listener(ln), srv, o.shutdownTimeout, logger)
}

// jobsGrace is how long radar jobs in flight may finish on shutdown
// before they are interrupted (and queued again for the next start).
const jobsGrace = 5 * time.Second

// startJobs runs the durable background jobs of this node (the radar
// backfills and scans, and the webhook deliveries of auto-sync), the
// radar scheduler and the pruning of finished jobs until ctx ends. It
// returns a function that waits for them to stop; interrupted jobs go
// back to the queue, for this node's next start or another node.
func startJobs(ctx context.Context, st prospector.Store, ix *search.Index, hooks *webhook.Client, jo jobsOptions,
	logger *slog.Logger) (wait func()) {
	// New radar leads go to the workspace's webhook when auto-sync is on:
	// the batch that creates them queues their deliveries as it commits.
	autoSync, waitDeliveries := startDeliveries(ctx, st, hooks, logger)
	eng := &radar.Engine{Store: st, Searcher: ix, Logger: logger, AutoSync: autoSync.Deliveries}
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
	waitPruner := jo.startPruner(ctx, st, logger)
	return func() {
		wg.Wait()
		waitDeliveries()
		waitPruner()
		logger.Info("background jobs stopped")
	}
}

// serveHTTP serves h on ln until ctx is cancelled, then stops accepting,
// drains in-flight requests for up to timeout, cuts off the rest (see
// drain) and returns nil.
func serveHTTP(ctx context.Context, ln net.Listener, h http.Handler, timeout time.Duration, logger *slog.Logger) error {
	// Requests' contexts descend from base, so the shutdown can cancel
	// those still running at its deadline.
	base, stop := context.WithCancelCause(context.Background())
	defer stop(nil)
	srv := &http.Server{
		Handler:           h,
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       30 * time.Second,
		WriteTimeout:      writeTimeout(h),
		IdleTimeout:       120 * time.Second,
		ErrorLog:          slog.NewLogLogger(logger.Handler(), slog.LevelWarn),
		BaseContext:       func(net.Listener) context.Context { return base },
	}
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		return fmt.Errorf("serve: %w", err)
	case <-ctx.Done():
	}
	drain(srv, stop, h, timeout, logger)
	if err := <-errc; err != nil && !errors.Is(err, http.ErrServerClosed) {
		return fmt.Errorf("serve: %w", err)
	}
	logger.Info("stopped")
	return nil
}

// seedDemo creates the demo workspace and its key on an empty store,
// prints the key once (on stdout, the command's output), and loads the
// demo dataset, reporting progress to progress.
func seedDemo(ctx context.Context, e *env, st prospector.Store, people int, progress io.Writer) error {
	n, err := st.CountWorkspaces(ctx)
	if err != nil || n > 0 {
		return err
	}
	companies := demoCompanies
	if people < demoPeople {
		companies = max(1, people/10)
	}
	cfg := demo.Config{Companies: companies, People: people, Seed: demoSeed, Now: time.Now()}
	if err := seedData(ctx, st, cfg, progress, progress); err != nil {
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
