// Package webhook sends leads out of Prospector: signed webhook
// deliveries shaped by each workspace's settings, the durable outbox of
// auto-sync, and the outreach tool adapters. Every request goes through
// Client, which refuses private, loopback and metadata destinations at
// dial time (see docs/webhooks.md).
package webhook

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strconv"
	"sync/atomic"
	"syscall"
	"time"
)

// Resolver looks host names up; *net.Resolver satisfies it.
type Resolver interface {
	LookupIPAddr(ctx context.Context, host string) ([]net.IPAddr, error)
}

// Config tunes a Client. Zero fields get the defaults documented on them.
type Config struct {
	// AllowPrivate lets deliveries reach loopback, private, link-local
	// and other internal addresses: for local development and tests only
	// (serve --allow-private-webhooks).
	AllowPrivate bool
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
// speaks http and https, and dials only addresses it has checked: a name
// is resolved once, every address it resolves to is checked, and the
// connection goes to one of those exact addresses, so a DNS answer that
// changes between check and connect (rebinding) cannot slip through.
type Client struct {
	cfg  Config
	http *http.Client
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
	d := &net.Dialer{Timeout: cfg.ConnectTimeout, Control: c.control}
	c.dial = d.DialContext
	transport := &http.Transport{
		Proxy:                 nil, // never from the environment
		DialContext:           c.dialContext,
		TLSHandshakeTimeout:   cfg.ConnectTimeout,
		ResponseHeaderTimeout: cfg.Timeout,
		MaxIdleConnsPerHost:   4,
		IdleConnTimeout:       30 * time.Second,
		ForceAttemptHTTP2:     true,
	}
	c.http = &http.Client{
		Transport: transport,
		Timeout:   cfg.Timeout,
		CheckRedirect: func(*http.Request, []*http.Request) error {
			return http.ErrUseLastResponse
		},
	}
	return c
}

// AllowPrivate reports whether the client may reach internal addresses.
func (c *Client) AllowPrivate() bool { return c.cfg.AllowPrivate }

// RefusedError is a destination the client will not contact. Its message
// is safe to show to the workspace (push answers it as provider_response).
type RefusedError struct {
	Label  string // "webhook target"
	Target string // the address, name or URL part refused
	Reason string // "a loopback address"
}

func (e *RefusedError) Error() string {
	if e.Reason == "" {
		return fmt.Sprintf("refused: %s %s", e.Label, e.Target)
	}
	return fmt.Sprintf("refused: %s %s is %s", e.Label, e.Target, e.Reason)
}

// IsRefused reports whether err is, or wraps, a *RefusedError.
func IsRefused(err error) bool {
	var r *RefusedError
	return errors.As(err, &r)
}

func (c *Client) refuse(target, reason string) *RefusedError {
	return &RefusedError{Label: c.cfg.Label, Target: target, Reason: reason}
}

// CheckURL checks what can be known of a destination without resolving
// it: the scheme, user info, and a host that is an address or a name the
// policy refuses. Dialling checks the resolved addresses again.
func (c *Client) CheckURL(raw string) (*url.URL, error) {
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
	if c.cfg.AllowPrivate {
		return u, nil
	}
	if addr, err := netip.ParseAddr(host); err == nil {
		if why := blocked(addr); why != "" {
			return nil, c.refuse(addr.String(), why)
		}
		return u, nil
	}
	if why := blockedName(host); why != "" {
		return nil, c.refuse(host, why)
	}
	return u, nil
}

// dialContext resolves addr's host, checks every address it resolves to,
// and connects to the first that answers. A name with any refused
// address is refused as a whole.
func (c *Client) dialContext(ctx context.Context, network, addr string) (net.Conn, error) {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, err
	}
	var ips []netip.Addr
	if ip, err := netip.ParseAddr(host); err == nil {
		ips = []netip.Addr{ip}
	} else {
		if !c.cfg.AllowPrivate {
			if why := blockedName(host); why != "" {
				return nil, c.refuse(host, why)
			}
		}
		answers, err := c.cfg.Resolver.LookupIPAddr(ctx, host)
		if err != nil {
			return nil, fmt.Errorf("resolve %s: %w", host, err)
		}
		for _, a := range answers {
			ip, ok := netip.AddrFromSlice(a.IP)
			if !ok {
				continue
			}
			ip = ip.Unmap() // net.IP keeps IPv4 in 16 bytes
			if a.Zone != "" {
				ip = ip.WithZone(a.Zone)
			}
			ips = append(ips, ip)
		}
		if len(ips) == 0 {
			return nil, fmt.Errorf("resolve %s: no addresses", host)
		}
	}
	if !c.cfg.AllowPrivate {
		for _, ip := range ips {
			if why := blocked(ip); why != "" {
				target := ip.String()
				if target != host {
					target = host + " (" + ip.String() + ")"
				}
				return nil, c.refuse(target, why)
			}
		}
	}
	var firstErr error
	for _, ip := range ips {
		c.dials.Add(1)
		conn, err := c.dial(ctx, network, net.JoinHostPort(ip.String(), port))
		if err == nil {
			return conn, nil
		}
		if firstErr == nil {
			firstErr = err
		}
		if ctx.Err() != nil {
			break
		}
	}
	return nil, firstErr
}

// control checks the address the socket is about to connect to, the last
// moment before the packet leaves: a second line behind dialContext.
func (c *Client) control(_, address string, _ syscall.RawConn) error {
	if c.cfg.AllowPrivate {
		return nil
	}
	ap, err := netip.ParseAddrPort(address)
	if err != nil {
		return c.refuse(address, "not an address")
	}
	if why := blocked(ap.Addr()); why != "" {
		return c.refuse(ap.Addr().String(), why)
	}
	return nil
}
