package fetch

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/prospectorhq/prospector"
	"github.com/prospectorhq/prospector/netguard"
)

const (
	// minRobotsTTL keeps a site whose robots.txt says max-age=0 from
	// doubling every request.
	minRobotsTTL = 5 * time.Minute
	// robotsRetryTTL is how long an unreachable robots.txt (5xx, 429,
	// no answer) stands before it is asked for again.
	robotsRetryTTL = 10 * time.Minute
)

// robotsCache holds each origin's robots.txt; one fetch per origin at a
// time, the others wait for it.
type robotsCache struct {
	mu      sync.Mutex
	entries map[string]*robotsEntry
	sweepAt int
}

type robotsEntry struct {
	rules   *robots // nil until fetched once
	expires time.Time
	// unreachable says why rules is a stand-in (disallow all) or stale.
	unreachable        string
	etag, lastModified string
	// fetching is closed when the fetch under way ends; nil when none is.
	fetching chan struct{}
}

func newRobotsCache() *robotsCache {
	return &robotsCache{entries: map[string]*robotsEntry{}, sweepAt: minSweep}
}

// checkRobots returns nil when the origin's robots.txt lets Prospector
// fetch u, an error wrapping prospector.ErrRobotsDisallowed when it does
// not (or cannot be read for now), or the error that kept the robots.txt
// request from being made at all (refused, ctx ended).
func (c *Client) checkRobots(ctx context.Context, u *url.URL) error {
	host := hostKey(u)
	origin := u.Scheme + "://" + host
	rc := c.robots
	for {
		rc.mu.Lock()
		e := rc.entries[origin]
		if e != nil && e.fetching != nil {
			wait := e.fetching
			rc.mu.Unlock()
			select {
			case <-wait:
				continue
			case <-ctx.Done():
				return ctx.Err()
			}
		}
		if e != nil && e.rules != nil && c.clock.Now().Before(e.expires) {
			rules, why := e.rules, e.unreachable
			rc.mu.Unlock()
			return c.decide(u, host, origin, rules, why)
		}
		if e == nil {
			if len(rc.entries) >= rc.sweepAt {
				rc.sweep(c.clock.Now())
			}
			e = &robotsEntry{}
			rc.entries[origin] = e
		}
		done := make(chan struct{})
		e.fetching = done
		prev := *e
		rc.mu.Unlock()

		next, err := c.fetchRobots(ctx, u, &prev)
		rc.mu.Lock()
		e.fetching = nil
		if err == nil {
			e.rules, e.expires, e.unreachable = next.rules, next.expires, next.unreachable
			e.etag, e.lastModified = next.etag, next.lastModified
		}
		close(done)
		rc.mu.Unlock()
		if err != nil {
			return err
		}
	}
}

func (c *Client) decide(u *url.URL, host, origin string, r *robots, unreachable string) error {
	if r.crawlDelay > 0 {
		c.pacer.setCrawlDelay(host, r.crawlDelay)
	}
	path := u.EscapedPath()
	if path == "" {
		path = "/"
	}
	if u.RawQuery != "" {
		path += "?" + u.RawQuery
	}
	if r.allowed(path) {
		return nil
	}
	if r.disallowAll {
		return fmt.Errorf("fetch %s: robots.txt of %s unavailable (%s): %w", u.Redacted(), origin, unreachable,
			prospector.ErrRobotsDisallowed)
	}
	return fmt.Errorf("fetch %s: %w", u.Redacted(), prospector.ErrRobotsDisallowed)
}

// fetchRobots gets the origin's robots.txt, conditionally when prev has
// validators, and returns the entry to keep. RFC 9309: a 4xx means no
// rules; a 5xx or no answer means nothing may be fetched for now, unless
// an earlier copy exists, which then stands a while longer. The error is
// only for a request that could not be made (refused, ctx ended).
func (c *Client) fetchRobots(ctx context.Context, u *url.URL, prev *robotsEntry) (*robotsEntry, error) {
	ru := &url.URL{Scheme: u.Scheme, Host: u.Host, Path: "/robots.txt"}
	req := prospector.FetchRequest{URL: ru.String(), Accept: "text/plain, */*;q=0.5"}
	if prev.rules != nil && prev.unreachable == "" {
		req.ETag, req.LastModified = prev.etag, prev.lastModified
	}
	res, err := c.follow(ctx, ru, &req, hop{limit: maxRobotsBytes, truncate: true, robots: true})
	now := c.clock.Now()
	unreachable := func(why string) (*robotsEntry, error) {
		next := &robotsEntry{rules: &robots{disallowAll: true}, expires: now.Add(robotsRetryTTL), unreachable: why}
		if prev.rules != nil && !prev.rules.disallowAll {
			next.rules = prev.rules // RFC 9309 2.4: a cached copy may stand in
			next.etag, next.lastModified = prev.etag, prev.lastModified
		}
		return next, nil
	}
	switch {
	case err != nil && (ctx.Err() != nil || netguard.IsRefused(err)):
		return nil, err
	case errors.Is(err, ErrTooManyRedirects):
		// RFC 9309 2.3.1.2: past five redirects the file is unavailable,
		// which counts as no rules.
		return &robotsEntry{rules: &robots{}, expires: now.Add(c.robotsTTL(nil, now))}, nil
	case err != nil:
		var rl *prospector.RetryLaterError
		if errors.As(err, &rl) {
			return unreachable("status " + strconv.Itoa(rl.Status))
		}
		return unreachable("no answer")
	case res.NotModified && prev.rules != nil:
		return &robotsEntry{rules: prev.rules, expires: now.Add(c.robotsTTL(res.Header, now)),
			etag: res.ETag, lastModified: res.LastModified}, nil
	case res.Status >= 200 && res.Status < 300:
		return &robotsEntry{rules: parseRobots(res.Body, ProductToken), expires: now.Add(c.robotsTTL(res.Header, now)),
			etag: res.ETag, lastModified: res.LastModified}, nil
	case res.Status >= 400 && res.Status < 500 && res.Status != http.StatusTooManyRequests:
		return &robotsEntry{rules: &robots{}, expires: now.Add(c.robotsTTL(res.Header, now))}, nil
	default:
		return unreachable("status " + strconv.Itoa(res.Status))
	}
}

// robotsTTL is how long a robots.txt answer stands: Config.RobotsTTL,
// or less when its Cache-Control max-age or Expires says so, never under
// minRobotsTTL.
func (c *Client) robotsTTL(h http.Header, now time.Time) time.Duration {
	ttl := c.cfg.RobotsTTL
	if h == nil {
		return ttl
	}
	if cc := h.Get("Cache-Control"); cc != "" {
		for _, d := range strings.Split(cc, ",") {
			d = strings.ToLower(strings.TrimSpace(d))
			if v, ok := strings.CutPrefix(d, "max-age="); ok {
				if n, err := strconv.ParseInt(strings.Trim(v, `"`), 10, 64); err == nil && n >= 0 {
					ttl = min(ttl, time.Duration(min(n, 1<<32))*time.Second)
				}
			} else if d == "no-cache" || d == "no-store" {
				ttl = 0
			}
		}
	} else if v := h.Get("Expires"); v != "" {
		exp, err := http.ParseTime(v)
		if err != nil {
			ttl = 0 // RFC 9111: an invalid Expires is already expired
		} else {
			base := now
			if d, err := http.ParseTime(h.Get("Date")); err == nil {
				base = d
			}
			ttl = min(ttl, exp.Sub(base))
		}
	}
	return max(ttl, minRobotsTTL)
}

// sweep drops expired entries nobody is fetching; called with rc.mu held.
func (rc *robotsCache) sweep(now time.Time) {
	for k, e := range rc.entries {
		if e.fetching == nil && !now.Before(e.expires) {
			delete(rc.entries, k)
		}
	}
	rc.sweepAt = max(minSweep, 2*len(rc.entries))
}
