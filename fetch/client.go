// Package fetch is the one HTTP client every public source goes through
// (job boards, company websites, feeds, filings): a prospector.Fetcher
// that behaves like a good citizen of the web and never reaches an
// internal address. See docs/sources.md, "Fetching like a good citizen".
package fetch

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync/atomic"
	"time"

	"github.com/prospectorhq/prospector"
	"github.com/prospectorhq/prospector/netguard"
)

// Defaults of Config's zero fields.
const (
	DefaultConnectTimeout = 10 * time.Second
	DefaultTimeout        = 30 * time.Second
	DefaultMaxBodyBytes   = 10 << 20
	DefaultMaxRetries     = 2
	DefaultMaxRetryWait   = 30 * time.Second
	DefaultRobotsTTL      = 24 * time.Hour
)

// MaxRedirects is how many redirects a fetch follows; RFC 9309 asks for
// at least five for robots.txt, and no board or site needs more.
const MaxRedirects = 5

// Config tunes a Client. Zero fields get the defaults documented on them.
type Config struct {
	// Version and Contact make the User-Agent:
	// "Prospector/0.1.0 (+mailto:ops@example.com)". Contact is an email
	// address or an http(s) URL; empty points at the project's page.
	Version string
	Contact string
	// AllowPrivate lets fetches reach loopback, private, link-local and
	// other internal addresses (--allow-private-sources,
	// PROSPECTOR_ALLOW_PRIVATE_SOURCES=1): for tests and local fixtures.
	AllowPrivate bool
	// Resolver resolves host names; default net.DefaultResolver.
	Resolver netguard.Resolver
	// ConnectTimeout bounds each TCP connect and TLS handshake; default
	// 10 s. Timeout bounds one request from sending it to the last byte
	// of its body, pacing waits excluded; default 30 s.
	ConnectTimeout time.Duration
	Timeout        time.Duration
	// MaxBodyBytes is the largest body accepted, after decompression; a
	// larger one fails the fetch (ErrBodyTooLarge) rather than being
	// cut. Default 10 MiB.
	MaxBodyBytes int64
	// Proxy sends every fetch through this HTTP proxy. Nil means no
	// proxy, whatever HTTP_PROXY and friends say.
	Proxy *url.URL
	// Resolve sends every fetch of a host (key: host name, lower case),
	// http or https, to plain http at the value's "ADDR:PORT", with the
	// original Host header (--resolve HOST=ADDR:PORT; see ParseResolve).
	// Pacing and robots.txt stay keyed by the original host. The operator
	// named these addresses, so they are dialled even when internal and
	// AllowPrivate is off; redirects out of them are checked as usual.
	Resolve map[string]string
	// Hosts sets the policy of hosts ("host[:port]" or "*.domain", lower
	// case) over DefaultHostPolicies; any other host gets SitePolicy.
	Hosts map[string]HostPolicy
	// Limiter is a budget beyond each host's policy, spent before every
	// request; nil means NewBudget(DefaultBudgets()), in process.
	Limiter Limiter
	// MaxRetries is how many times a 429 or 503 is retried when the wait
	// it asks for is at most MaxRetryWait; default 2 and 30 s. A longer
	// wait fails at once with a *prospector.RetryLaterError.
	MaxRetries   int
	MaxRetryWait time.Duration
	// RobotsTTL is how long a robots.txt is trusted, unless the site's
	// own Cache-Control or Expires says less; default 24 h.
	RobotsTTL time.Duration
}

// Stats counts what a Client did since it was made.
type Stats struct {
	// Requests is HTTP requests sent: robots.txt, retries and each
	// redirect hop included.
	Requests int64
	// NotModified is 304 answers to conditional requests.
	NotModified int64
	// Bytes is body bytes received, after decompression.
	Bytes int64
	// PacingWait is the total time requests waited for their host's
	// slot, interval, pause or the Limiter's budget.
	PacingWait time.Duration
	// Retries is 429 and 503 answers retried; RobotsFetches is
	// robots.txt requests (included in Requests).
	Retries       int64
	RobotsFetches int64
}

// Client is the prospector.Fetcher. It is safe for concurrent use; make
// one per process and share it, since pacing and robots.txt caches are
// per Client.
type Client struct {
	cfg     Config
	ua      string
	guard   *netguard.Guard
	guarded *http.Client // everything not overridden by Resolve
	direct  *http.Client // Resolve's operator-named addresses
	resolve map[string]string
	pacer   *pacer
	limiter Limiter
	robots  *robotsCache
	clock   clock

	requests, notModified, bytes, waitNanos, retries, robotsFetches atomic.Int64
}

var _ prospector.Fetcher = (*Client)(nil)

// New returns a Client with cfg's settings. An error names the setting
// that is invalid: a contact with control characters, a Resolve entry or
// host policy that does not parse.
func New(cfg Config) (*Client, error) {
	if cfg.ConnectTimeout <= 0 {
		cfg.ConnectTimeout = DefaultConnectTimeout
	}
	if cfg.Timeout <= 0 {
		cfg.Timeout = DefaultTimeout
	}
	if cfg.MaxBodyBytes <= 0 {
		cfg.MaxBodyBytes = DefaultMaxBodyBytes
	}
	if cfg.MaxRetries <= 0 {
		cfg.MaxRetries = DefaultMaxRetries
	}
	if cfg.MaxRetryWait <= 0 {
		cfg.MaxRetryWait = DefaultMaxRetryWait
	}
	if cfg.RobotsTTL <= 0 {
		cfg.RobotsTTL = DefaultRobotsTTL
	}
	ua, err := userAgent(cfg.Version, cfg.Contact)
	if err != nil {
		return nil, err
	}
	resolve := make(map[string]string, len(cfg.Resolve))
	for host, addr := range cfg.Resolve {
		h, a, err := parseResolveEntry(host + "=" + addr)
		if err != nil {
			return nil, err
		}
		resolve[h] = a
	}
	policies := DefaultHostPolicies()
	if err := checkPolicies(cfg.Hosts); err != nil {
		return nil, err
	}
	for k, p := range cfg.Hosts {
		policies[k] = p
	}
	limiter := cfg.Limiter
	if limiter == nil {
		limiter, _ = NewBudget(DefaultBudgets()) // the defaults are valid
	}
	c := &Client{cfg: cfg, ua: ua, resolve: resolve, limiter: limiter, clock: wallClock{}}
	c.pacer = newPacer(c.clock, policies, SitePolicy(), cfg.MaxRetryWait)
	c.robots = newRobotsCache()
	c.guard = &netguard.Guard{Label: "source URL", AllowPrivate: cfg.AllowPrivate, Resolver: cfg.Resolver}
	plain := &net.Dialer{Timeout: cfg.ConnectTimeout}
	guarded := &net.Dialer{Timeout: cfg.ConnectTimeout, Control: c.guard.Control}
	c.guard.Dial = guarded.DialContext
	dial := c.guard.DialContext
	var proxy func(*http.Request) (*url.URL, error) // nil: never from the environment
	if cfg.Proxy != nil {
		// The operator's proxy is dialled as named; the targets' names are
		// checked before each request is handed to it (see roundTrip).
		proxy = http.ProxyURL(cfg.Proxy)
		dial = plain.DialContext
	}
	c.guarded = &http.Client{Transport: newTransport(cfg, dial, proxy), CheckRedirect: noRedirects}
	c.direct = &http.Client{Transport: newTransport(cfg, plain.DialContext, nil), CheckRedirect: noRedirects}
	return c, nil
}

func newTransport(cfg Config, dial func(ctx context.Context, network, addr string) (net.Conn, error),
	proxy func(*http.Request) (*url.URL, error)) *http.Transport {
	return &http.Transport{
		Proxy:                 proxy,
		DialContext:           dial,
		TLSHandshakeTimeout:   cfg.ConnectTimeout,
		ResponseHeaderTimeout: cfg.Timeout,
		// Enough idle connections for an API host's parallel requests.
		MaxIdleConns:        256,
		MaxIdleConnsPerHost: 2 * APIConcurrency,
		IdleConnTimeout:     90 * time.Second,
		ForceAttemptHTTP2:   true,
	}
}

// Redirects are followed by Fetch itself, one checked hop at a time.
func noRedirects(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }

// userAgent builds "Prospector/VERSION (+CONTACT)".
func userAgent(version, contact string) (string, error) {
	if version == "" {
		version = "dev"
	}
	contact = strings.TrimSpace(contact)
	if strings.ContainsFunc(version+contact, func(r rune) bool { return r < ' ' || r == 0x7f || r == '(' || r == ')' }) {
		return "", fmt.Errorf("fetch: contact %q: must not hold control characters or parentheses", contact)
	}
	switch {
	case contact == "":
		contact = "https://github.com/prospectorhq/prospector"
	case strings.HasPrefix(contact, "http://") || strings.HasPrefix(contact, "https://") ||
		strings.HasPrefix(contact, "mailto:"):
	case strings.Contains(contact, "@") && !strings.ContainsAny(contact, " /"):
		contact = "mailto:" + contact
	default:
		return "", fmt.Errorf("fetch: contact %q: want an email address or an http(s) URL", contact)
	}
	return ProductToken + "/" + version + " (+" + contact + ")", nil
}

// UserAgent returns the User-Agent the client sends.
func (c *Client) UserAgent() string { return c.ua }

// Stats returns a snapshot of the client's counters.
func (c *Client) Stats() Stats {
	return Stats{
		Requests:      c.requests.Load(),
		NotModified:   c.notModified.Load(),
		Bytes:         c.bytes.Load(),
		PacingWait:    time.Duration(c.waitNanos.Load()),
		Retries:       c.retries.Load(),
		RobotsFetches: c.robotsFetches.Load(),
	}
}
