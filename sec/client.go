package sec

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/mail"
	"strings"
	"sync"
	"time"

	"github.com/prospectorhq/prospector"
)

// MaxRate is the SEC's fair-access ceiling in requests per second, for
// all of a deployment's nodes together. DefaultRate keeps 5% below it:
// requests leave exactly 1/rate apart, and network jitter would
// otherwise let EDGAR see eleven of them within one second.
const (
	MaxRate     = 10
	DefaultRate = 9.5
)

// ErrNoContactEmail is returned when the client is built (or used)
// without the operator contact EDGAR requires in every User-Agent.
var ErrNoContactEmail = errors.New("sec: SEC EDGAR requires an operator contact email in the User-Agent; set --contact-email or PROSPECTOR_CONTACT_EMAIL")

// Options configure a Client.
type Options struct {
	// ContactEmail is the operator's address the Fetcher sends in its
	// User-Agent. Required: the client refuses to exist without it.
	ContactEmail string
	// BaseURL replaces https://www.sec.gov (indexes and filings).
	BaseURL string
	// DataURL replaces https://data.sec.gov (submissions records).
	DataURL string
	// Bucket paces requests; nil means an in-process LocalBucket, right
	// for one node only. Several nodes must share one (see
	// prospector.TokenBucket).
	Bucket prospector.TokenBucket
	// BucketKey names the shared budget; default "sec.gov".
	BucketKey string
	// Rate is the requests per second for all nodes together: default
	// DefaultRate, at most MaxRate.
	Rate float64
	// Backoff is the wait after a throttling answer without Retry-After;
	// default DefaultBackoff.
	Backoff time.Duration
	// Now returns the current time; default time.Now.
	Now func() time.Time
}

// Client reads EDGAR through a prospector.Fetcher at the fair-access
// pace. Safe for concurrent use.
type Client struct {
	f       prospector.Fetcher
	base    string
	data    string
	bucket  prospector.TokenBucket
	key     string
	rate    float64
	backoff time.Duration
	now     func() time.Time

	mu          sync.Mutex
	pausedUntil time.Time
	pauseErr    *BackoffError
}

// NewClient returns a client fetching through f. It fails with
// ErrNoContactEmail when opts has no valid contact email, and when f is
// nil or the rate is above MaxRate.
func NewClient(f prospector.Fetcher, opts Options) (*Client, error) {
	if !validEmail(opts.ContactEmail) {
		return nil, ErrNoContactEmail
	}
	if f == nil {
		return nil, errors.New("sec: a Fetcher is required")
	}
	c := &Client{
		f: f, base: DefaultBaseURL, data: DefaultDataURL, bucket: opts.Bucket, key: opts.BucketKey,
		rate: opts.Rate, backoff: opts.Backoff, now: opts.Now,
	}
	if opts.BaseURL != "" {
		c.base = strings.TrimRight(opts.BaseURL, "/")
	}
	if opts.DataURL != "" {
		c.data = strings.TrimRight(opts.DataURL, "/")
	}
	if c.bucket == nil {
		c.bucket = NewLocalBucket()
	}
	if c.key == "" {
		c.key = "sec.gov"
	}
	switch {
	case c.rate == 0:
		c.rate = DefaultRate
	case c.rate < 0 || c.rate > MaxRate:
		return nil, fmt.Errorf("sec: rate %g/s: want 0 < rate <= %d", c.rate, MaxRate)
	}
	if c.backoff <= 0 {
		c.backoff = DefaultBackoff
	}
	if c.now == nil {
		c.now = time.Now
	}
	return c, nil
}

func validEmail(s string) bool {
	a, err := mail.ParseAddress(strings.TrimSpace(s))
	if err != nil {
		return false
	}
	_, domain, ok := strings.Cut(a.Address, "@")
	return ok && strings.Contains(domain, ".") && !strings.HasSuffix(domain, ".")
}

// BaseURL is the archives host the client reads, for building links.
func (c *Client) BaseURL() string { return c.base }

// get fetches url at the shared pace. It returns the response for 2xx,
// 404 and a 403 that is not throttling; a *BackoffError while EDGAR asks
// the client to wait (remembered, so no request is sent until then).
func (c *Client) get(ctx context.Context, url, accept string) (*prospector.FetchResponse, error) {
	if c == nil || c.f == nil {
		return nil, ErrNoContactEmail
	}
	if err := c.paused(); err != nil {
		return nil, err
	}
	wait, err := c.bucket.Reserve(ctx, c.key, c.rate, 1)
	if err != nil {
		return nil, fmt.Errorf("sec: pace %s: %w", url, err)
	}
	if wait > 0 {
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return nil, ctx.Err()
		case <-t.C:
		}
	}
	resp, err := c.f.Fetch(ctx, prospector.FetchRequest{URL: url, Accept: accept})
	if err != nil {
		return nil, fmt.Errorf("sec: fetch %s: %w", url, err)
	}
	if throttled(resp.Status, resp.Body) {
		now := c.now()
		w := retryAfter(resp.Header, now, c.backoff)
		be := &BackoffError{URL: url, Status: resp.Status, Wait: w, Until: now.Add(w)}
		c.mu.Lock()
		if be.Until.After(c.pausedUntil) {
			c.pausedUntil, c.pauseErr = be.Until, be
		}
		c.mu.Unlock()
		return nil, be
	}
	return resp, nil
}

// paused returns the pending backoff, with the wait left, while there is
// one.
func (c *Client) paused() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	now := c.now()
	if c.pauseErr == nil || !now.Before(c.pausedUntil) {
		return nil
	}
	e := *c.pauseErr
	e.Wait = c.pausedUntil.Sub(now)
	return &e
}

// body returns a 200's body, ErrMissing for 404 or a non-throttling 403,
// a *StatusError otherwise.
func body(url string, resp *prospector.FetchResponse) ([]byte, error) {
	switch {
	case resp.Status >= 200 && resp.Status < 300:
		return resp.Body, nil
	case resp.Status == http.StatusNotFound || resp.Status == http.StatusForbidden || resp.Status == http.StatusGone:
		return nil, fmt.Errorf("%w: %s (HTTP %d)", ErrMissing, url, resp.Status)
	default:
		return nil, &StatusError{URL: url, Status: resp.Status}
	}
}

// fetchBody is get then body.
func (c *Client) fetchBody(ctx context.Context, url, accept string) ([]byte, error) {
	resp, err := c.get(ctx, url, accept)
	if err != nil {
		return nil, err
	}
	return body(url, resp)
}

// DailyIndex fetches and parses the form index of day and keeps the
// filings of the forms the source reads (Wanted), each once: a filing of
// several issuers or co-registrants is listed under every one of their
// CIKs, and the first listing stands for it. ok is false, with no
// error, when EDGAR has no index for the day (404 or 403: weekends,
// holidays, a day not yet published): that is not a failure.
func (c *Client) DailyIndex(ctx context.Context, day time.Time) (entries []IndexEntry, ok bool, err error) {
	url := DailyIndexURL(c.base, day)
	b, err := c.fetchBody(ctx, url, "text/plain")
	if errors.Is(err, ErrMissing) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, err
	}
	all, _, err := ParseFormIndex(b)
	if err != nil {
		return nil, false, fmt.Errorf("sec: %s: %w", url, err)
	}
	seen := map[string]bool{}
	for _, e := range all {
		if Wanted(e.FormType) && !seen[e.Accession] {
			seen[e.Accession] = true
			entries = append(entries, e)
		}
	}
	return entries, true, nil
}
