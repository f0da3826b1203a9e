// Package webhook sends leads out of Prospector: signed webhook
// deliveries shaped by each workspace's settings, the durable outbox of
// auto-sync, and the outreach tool adapters. Every request goes through
// Client, which refuses private, loopback and metadata destinations at
// dial time (see docs/webhooks.md).
package webhook

import (
	"context"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/prospectorhq/prospector/netguard"
)

// Resolver looks host names up; *net.Resolver satisfies it.
type Resolver = netguard.Resolver

// Config tunes a Client. Zero fields get the defaults documented on them.
type Config struct {
	// AllowPrivate lets deliveries reach loopback, private, link-local
	// and other internal addresses: for local development and tests only.
	AllowPrivate bool
	// Policy, when set, is asked before each request whether it may reach
	// internal addresses (when AllowPrivate is false). serve reads the
	// deployment's prospector.SettingAllowPrivateWebhooks through it
	// (SettingPolicy), so every node decides alike. An error fails the
	// request without contacting the destination.
	Policy func(ctx context.Context) (bool, error)
	// Resolver resolves destination names; default net.DefaultResolver.
	Resolver Resolver
	// ConnectTimeout bounds each TCP connect; default 5s.
	ConnectTimeout time.Duration
	// Timeout bounds a whole request, the response body included;
	// default 10s.
	Timeout time.Duration
	// Label names destinations in refusals; default "webhook target".
	Label string
}

// Client sends requests to destinations chosen by workspaces. It never
// follows redirects, never uses a proxy (whatever HTTP_PROXY says), only
// speaks http and https, and dials only addresses its netguard.Guard has
// checked: a name is resolved once, every address it resolves to is
// checked, and the connection goes to one of those exact addresses, so a
// DNS answer that changes between check and connect (rebinding) cannot
// slip through.
type Client struct {
	cfg Config
	// strict refuses internal addresses; lax (used only while the policy
	// allows them) does not.
	strict, lax *netguard.Guard
	http        *http.Client // for destinations that must be public
	// open is for requests that may reach internal addresses: a transport
	// of its own, so that its connections are never reused for a request
	// that may not.
	open *http.Client
	// dials counts connection attempts that passed the checks (tests).
	dials atomic.Int64
	// dial connects to a checked address; tests replace it.
	dial func(ctx context.Context, network, address string) (net.Conn, error)
}

// NewClient returns a Client with cfg's settings.
func NewClient(cfg Config) *Client {
	if cfg.Resolver == nil {
		cfg.Resolver = net.DefaultResolver
	}
	if cfg.ConnectTimeout <= 0 {
		cfg.ConnectTimeout = 5 * time.Second
	}
	if cfg.Timeout <= 0 {
		cfg.Timeout = 10 * time.Second
	}
	if cfg.Label == "" {
		cfg.Label = "webhook target"
	}
	c := &Client{cfg: cfg}
	count := func(ctx context.Context, network, address string) (net.Conn, error) {
		c.dials.Add(1)
		return c.dial(ctx, network, address)
	}
	c.strict = &netguard.Guard{Label: cfg.Label, Resolver: cfg.Resolver, Dial: count}
	c.lax = &netguard.Guard{Label: cfg.Label, AllowPrivate: true, Resolver: cfg.Resolver, Dial: count}
	d := &net.Dialer{Timeout: cfg.ConnectTimeout, ControlContext: c.controlContext}
	c.dial = d.DialContext
	c.http, c.open = c.newHTTPClient(false), c.newHTTPClient(true)
	return c
}

func (c *Client) newHTTPClient(allowPrivate bool) *http.Client {
	transport := &http.Transport{
		Proxy: nil, // never from the environment
		DialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
			if allowPrivate {
				// controlContext lets this connection's socket through.
				return c.lax.DialContext(context.WithValue(ctx, allowPrivateKey{}, true), network, addr)
			}
			return c.strict.DialContext(ctx, network, addr)
		},
		TLSHandshakeTimeout:   c.cfg.ConnectTimeout,
		ResponseHeaderTimeout: c.cfg.Timeout,
		MaxIdleConnsPerHost:   4,
		IdleConnTimeout:       30 * time.Second,
		ForceAttemptHTTP2:     true,
	}
	return &http.Client{
		Transport: transport,
		Timeout:   c.cfg.Timeout,
		CheckRedirect: func(*http.Request, []*http.Request) error {
			return http.ErrUseLastResponse
		},
	}
}

// AllowPrivate reports whether a request made now may reach internal
// addresses: Config.AllowPrivate, else Config.Policy's answer. The error
// is a *PolicyError.
func (c *Client) AllowPrivate(ctx context.Context) (bool, error) {
	if c.cfg.AllowPrivate || c.cfg.Policy == nil {
		return c.cfg.AllowPrivate, nil
	}
	allow, err := c.cfg.Policy(ctx)
	if err != nil {
		return false, &PolicyError{Err: err}
	}
	return allow, nil
}

// client is the HTTP client of requests allowed, or not, to reach
// internal addresses.
func (c *Client) client(allowPrivate bool) *http.Client {
	if allowPrivate {
		return c.open
	}
	return c.http
}

// RefusedError is a destination the client will not contact. Its message
// is safe to show to the workspace (push answers it as provider_response).
type RefusedError = netguard.RefusedError

// IsRefused reports whether err is, or wraps, a *RefusedError.
func IsRefused(err error) bool { return netguard.IsRefused(err) }

func (c *Client) refuse(target, reason string) *RefusedError {
	return c.strict.Refuse(target, reason)
}

// CheckURL checks what can be known of a destination without resolving
// it: the scheme, user info, and a host that is an address or a name the
// policy refuses. Dialling checks the resolved addresses again. The
// policy is read as AllowPrivate reads it.
func (c *Client) CheckURL(ctx context.Context, raw string) (*url.URL, error) {
	allow, err := c.AllowPrivate(ctx)
	if err != nil {
		return nil, err
	}
	return c.checkURL(raw, allow)
}

// checkURL is CheckURL with the policy read.
func (c *Client) checkURL(raw string, allowPrivate bool) (*url.URL, error) {
	u, err := url.Parse(raw)
	if err != nil {
		return nil, c.refuse("URL", "not a valid URL")
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return nil, c.refuse("URL", "not http or https (scheme "+strconv.Quote(u.Scheme)+")")
	}
	if u.User != nil {
		return nil, c.refuse("URL", "carrying user info (put credentials in the auth header)")
	}
	host := u.Hostname()
	if host == "" {
		return nil, c.refuse("URL", "missing a host")
	}
	if port := u.Port(); port != "" {
		if n, err := strconv.Atoi(port); err != nil || n < 1 || n > 65535 {
			return nil, c.refuse("URL", "using an invalid port")
		}
	}
	if !allowPrivate {
		if err := c.strict.CheckHost(host); err != nil {
			return nil, err
		}
	}
	return u, nil
}

// allowPrivateKey marks the context of a connection allowed to reach
// internal addresses.
type allowPrivateKey struct{}

// controlContext is control, except for connections allowed to reach
// internal addresses.
func (c *Client) controlContext(ctx context.Context, network, address string, raw syscall.RawConn) error {
	if allow, _ := ctx.Value(allowPrivateKey{}).(bool); allow {
		return nil
	}
	return c.control(network, address, raw)
}

// control checks the address the socket is about to connect to, the last
// moment before the packet leaves: a second line behind the guard's dial.
func (c *Client) control(network, address string, rc syscall.RawConn) error {
	return c.strict.Control(network, address, rc)
}
