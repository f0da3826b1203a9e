package fetch

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/prospectorhq/prospector"
	"github.com/prospectorhq/prospector/netguard"
)

var (
	// ErrBodyTooLarge is a body over Config.MaxBodyBytes.
	ErrBodyTooLarge = errors.New("body larger than the fetch limit")
	// ErrTooManyRedirects is a chain of more than MaxRedirects.
	ErrTooManyRedirects = errors.New("too many redirects")
)

// hop is how one URL of a fetch is requested.
type hop struct {
	limit    int64 // body cap
	truncate bool  // cut a longer body instead of failing (robots.txt)
	robots   bool  // a robots.txt request, for Stats
}

// Fetch gets req.URL: robots.txt first when req.Robots, then the URL
// with its host's pacing, following up to 5 redirects (each checked like
// the first URL) unless req.NoRedirects. Any HTTP answer is a response;
// the error is a *netguard.RefusedError for an address or scheme the
// client will not fetch, prospector.ErrRobotsDisallowed (wrapped),
// a *prospector.RetryLaterError when the host asked to wait longer than
// the client retries, ErrBodyTooLarge or ErrTooManyRedirects (wrapped),
// or the transport's error naming the URL.
func (c *Client) Fetch(ctx context.Context, req prospector.FetchRequest) (*prospector.FetchResponse, error) {
	u, err := url.Parse(req.URL)
	if err != nil {
		return nil, c.guard.Refuse(strconv.Quote(req.URL), "not a valid URL")
	}
	return c.follow(ctx, u, &req, hop{limit: c.cfg.MaxBodyBytes})
}

func (c *Client) follow(ctx context.Context, u *url.URL, req *prospector.FetchRequest, h hop) (*prospector.FetchResponse, error) {
	var elapsed time.Duration
	for hops := 0; ; hops++ {
		if err := c.checkURL(u); err != nil {
			return nil, err
		}
		if req.Robots {
			if err := c.checkRobots(ctx, u); err != nil {
				return nil, err
			}
		}
		res, err := c.get(ctx, u, req, h, &elapsed)
		if err != nil {
			return nil, err
		}
		loc := res.Header.Get("Location")
		if req.NoRedirects || !isRedirect(res.Status) || loc == "" {
			res.Elapsed = elapsed
			return res, nil
		}
		if hops == MaxRedirects {
			return nil, fmt.Errorf("fetch %s: stopped after %d redirects: %w", req.URL, hops, ErrTooManyRedirects)
		}
		next, err := u.Parse(loc)
		if err != nil {
			return nil, c.guard.Refuse(strconv.Quote(loc), "not a valid URL (a redirect from "+u.Redacted()+")")
		}
		u = next
	}
}

func isRedirect(status int) bool {
	switch status {
	case http.StatusMovedPermanently, http.StatusFound, http.StatusSeeOther,
		http.StatusTemporaryRedirect, http.StatusPermanentRedirect:
		return true
	}
	return false
}

// checkURL refuses what can be told from u alone: a scheme other than
// http and https, user info, a bad port, and (unless the host is one
// Config.Resolve names) an internal address literal or a local name.
// Resolved addresses are checked again when dialled.
func (c *Client) checkURL(u *url.URL) error {
	if u.Scheme != "http" && u.Scheme != "https" {
		return c.guard.Refuse(u.Redacted(), "not http or https (scheme "+strconv.Quote(u.Scheme)+")")
	}
	if u.User != nil {
		return c.guard.Refuse(u.Redacted(), "carrying user info")
	}
	host := u.Hostname()
	if host == "" {
		return c.guard.Refuse(u.String(), "missing a host")
	}
	if port := u.Port(); port != "" {
		if n, err := strconv.Atoi(port); err != nil || n < 1 || n > 65535 {
			return c.guard.Refuse(u.String(), "using an invalid port")
		}
	}
	u.Fragment, u.RawFragment = "", ""
	if _, ok := c.resolve[strings.ToLower(host)]; ok {
		return nil
	}
	return c.guard.CheckHost(host)
}

// hostKey names u's host for pacing: lower case, default port dropped.
func hostKey(u *url.URL) string {
	h := strings.ToLower(u.Host)
	switch {
	case u.Scheme == "http" && strings.HasSuffix(h, ":80"):
		h = h[:len(h)-3]
	case u.Scheme == "https" && strings.HasSuffix(h, ":443"):
		h = h[:len(h)-4]
	}
	return h
}

// get requests u once its host's pacing and the budget allow, retrying
// 429 and 503 answers that ask for a short wait; the host is paused for
// every caller meanwhile. elapsed grows by the time spent on the wire.
func (c *Client) get(ctx context.Context, u *url.URL, req *prospector.FetchRequest, h hop, elapsed *time.Duration) (*prospector.FetchResponse, error) {
	host := hostKey(u)
	for attempt := 0; ; attempt++ {
		st, waited, err := c.pacer.acquire(ctx, host)
		if err != nil {
			return nil, c.wrap(u, err)
		}
		t0 := c.clock.Now()
		if err := c.limiter.Wait(ctx, host); err != nil {
			c.pacer.release(st)
			return nil, c.wrap(u, err)
		}
		c.waitNanos.Add(int64(waited + c.clock.Now().Sub(t0)))
		start := time.Now()
		res, err := c.roundTrip(ctx, u, req, h)
		*elapsed += time.Since(start)
		if err != nil {
			c.pacer.release(st)
			return nil, err
		}
		if res.Status != http.StatusTooManyRequests && res.Status != http.StatusServiceUnavailable {
			c.pacer.release(st)
			return res, nil
		}
		now := c.clock.Now()
		wait, ok := retryAfter(res.Header.Get("Retry-After"), now)
		if !ok {
			wait = time.Second << attempt
		}
		until := now.Add(wait)
		c.pacer.pause(st, until, res.Status)
		c.pacer.release(st)
		if attempt >= c.cfg.MaxRetries || wait > c.cfg.MaxRetryWait {
			return nil, c.wrap(u, &prospector.RetryLaterError{Host: host, Status: res.Status, Until: until})
		}
		c.retries.Add(1)
	}
}

func (c *Client) wrap(u *url.URL, err error) error {
	return fmt.Errorf("fetch %s: %w", u.Redacted(), err)
}

// roundTrip sends one GET and reads its body.
func (c *Client) roundTrip(ctx context.Context, u *url.URL, req *prospector.FetchRequest, h hop) (*prospector.FetchResponse, error) {
	target, client := u, c.guarded
	if addr, ok := c.resolve[strings.ToLower(u.Hostname())]; ok {
		t := *u
		t.Scheme, t.Host = "http", addr
		target, client = &t, c.direct
	} else if c.cfg.Proxy != nil && !c.cfg.AllowPrivate {
		// The proxy resolves the name itself; check it here first.
		if _, err := c.guard.Lookup(ctx, u.Hostname()); err != nil {
			return nil, c.transportError(ctx, u, err)
		}
	}
	tctx, cancel := context.WithTimeout(ctx, c.cfg.Timeout)
	defer cancel()
	hreq, err := http.NewRequestWithContext(tctx, http.MethodGet, target.String(), nil)
	if err != nil {
		return nil, c.wrap(u, err)
	}
	hreq.Host = u.Host
	hreq.Header["User-Agent"] = []string{c.ua}
	accept := req.Accept
	if accept == "" {
		accept = "*/*"
	}
	hreq.Header["Accept"] = []string{accept}
	if req.ETag != "" {
		hreq.Header["If-None-Match"] = []string{req.ETag}
	}
	if req.LastModified != "" {
		hreq.Header["If-Modified-Since"] = []string{req.LastModified}
	}
	c.requests.Add(1)
	if h.robots {
		c.robotsFetches.Add(1)
	}
	resp, err := client.Do(hreq)
	if err != nil {
		return nil, c.transportError(ctx, u, err)
	}
	defer resp.Body.Close()
	body, err := readBody(resp.Body, resp.ContentLength, h.limit, h.truncate)
	if err != nil {
		if errors.Is(err, ErrBodyTooLarge) {
			return nil, fmt.Errorf("fetch %s: over %d bytes: %w", u.Redacted(), h.limit, err)
		}
		return nil, c.transportError(ctx, u, err)
	}
	c.bytes.Add(int64(len(body)))
	res := &prospector.FetchResponse{URL: u.String(), Status: resp.StatusCode, Header: resp.Header, Body: body,
		ETag: resp.Header.Get("ETag"), LastModified: resp.Header.Get("Last-Modified")}
	if resp.StatusCode == http.StatusNotModified {
		c.notModified.Add(1)
		res.NotModified, res.Body = true, nil
		if res.ETag == "" {
			res.ETag = req.ETag
		}
		if res.LastModified == "" {
			res.LastModified = req.LastModified
		}
	}
	return res, nil
}

// readBody reads at most limit bytes: more is ErrBodyTooLarge, or cut
// when truncate. A known length sizes the buffer exactly.
func readBody(r io.Reader, length, limit int64, truncate bool) ([]byte, error) {
	if length > limit && !truncate {
		return nil, ErrBodyTooLarge
	}
	if length >= 0 && length <= limit {
		buf := make([]byte, length)
		if _, err := io.ReadFull(r, buf); err != nil {
			return nil, err
		}
		return buf, nil
	}
	buf, err := io.ReadAll(io.LimitReader(r, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(buf)) > limit {
		if !truncate {
			return nil, ErrBodyTooLarge
		}
		buf = buf[:limit]
	}
	return buf, nil
}

// transportError names the URL once (not as *url.Error's "Get ..."), and
// says when the client's own timeout ran out (ctx is the caller's).
func (c *Client) transportError(ctx context.Context, u *url.URL, err error) error {
	var refused *netguard.RefusedError
	if errors.As(err, &refused) {
		return refused // it names what was refused already
	}
	var ue *url.Error
	if errors.As(err, &ue) {
		err = ue.Err
	}
	if errors.Is(err, context.DeadlineExceeded) && ctx.Err() == nil {
		return fmt.Errorf("fetch %s: no answer within %s: %w", u.Redacted(), c.cfg.Timeout, err)
	}
	return c.wrap(u, err)
}

// maxRetryAfter bounds the pause a host can ask for.
const maxRetryAfter = prospector.MaxTargetBackoff

// retryAfter reads a Retry-After value, seconds or an HTTP date, as a
// wait from now (at most maxRetryAfter); false when absent or unreadable.
func retryAfter(v string, now time.Time) (time.Duration, bool) {
	v = strings.TrimSpace(v)
	if v == "" {
		return 0, false
	}
	if n, err := strconv.ParseInt(v, 10, 64); err == nil {
		if n < 0 {
			return 0, false
		}
		return min(time.Duration(min(n, 1<<32))*time.Second, maxRetryAfter), true
	}
	if t, err := http.ParseTime(v); err == nil {
		return min(max(t.Sub(now), 0), maxRetryAfter), true
	}
	return 0, false
}
