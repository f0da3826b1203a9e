package webhook

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/prospectorhq/prospector"
)

// UserAgent identifies deliveries to receivers.
const UserAgent = "Prospector-Webhooks/1"

// MaxResponse is how much of a destination's answer is kept (push's
// provider_response, a delivery's last error): 1,000 bytes, cut on a
// character boundary. Up to maxDrain more is read and dropped so the
// connection can be reused.
const MaxResponse = 1000

const maxDrain = 64 << 10

// maxSecret bounds an auth value (prospector.ValidateAuthHeader) or key.
const maxSecret = 4096 + 64

// Request is one POST to a destination.
type Request struct {
	URL  string
	ID   string // webhook-id: the same on every attempt of one delivery
	Body []byte
	// AuthHeader and AuthValue are the workspace's header, if any.
	AuthHeader string
	AuthValue  string
	// Secret is the whsec_ signing secret; "" sends no signature headers.
	Secret string
	// Now is the webhook-timestamp; zero means time.Now.
	Now time.Time
}

// Result is what the destination answered.
type Result struct {
	StatusCode int
	// Response is the start of the answer's body (MaxResponse bytes), with
	// the auth value and signing secret blanked out should the receiver
	// echo them.
	Response string
	// RetryAfter is the answer's Retry-After, in seconds or as a date;
	// zero when absent or unreadable.
	RetryAfter time.Duration
}

// OK reports whether the destination accepted the delivery (2xx).
func (r *Result) OK() bool { return r.StatusCode >= 200 && r.StatusCode < 300 }

// Deliver POSTs r.Body as JSON with the auth header and the Standard
// Webhooks headers. Any HTTP answer, 2xx or not, is a Result with a nil
// error. Without an answer the error is a *RefusedError (the destination
// is not allowed), or says what went wrong (timeout, connection refused,
// bad header) naming only the host: never the URL's path or query, the
// auth value or the secret.
func (c *Client) Deliver(ctx context.Context, r Request) (*Result, error) {
	allow, err := c.AllowPrivate(ctx)
	if err != nil {
		return nil, err
	}
	u, err := c.checkURL(r.URL, allow)
	if err != nil {
		return nil, err
	}
	if r.AuthHeader != "" || r.AuthValue != "" {
		if err := prospector.ValidateAuthHeader(r.AuthHeader, r.AuthValue); err != nil {
			return nil, err
		}
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, u.String(), bytes.NewReader(r.Body))
	if err != nil {
		return nil, fmt.Errorf("webhook: request to %s: invalid", u.Hostname())
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", UserAgent)
	if r.AuthHeader != "" {
		req.Header.Set(r.AuthHeader, r.AuthValue)
	}
	if r.Secret != "" {
		key, err := ParseSecret(r.Secret)
		if err != nil {
			return nil, err
		}
		now := r.Now
		if now.IsZero() {
			now = time.Now()
		}
		req.Header.Set(HeaderID, r.ID)
		req.Header.Set(HeaderTimestamp, strconv.FormatInt(now.Unix(), 10))
		req.Header.Set(HeaderSignature, Sign(key, r.ID, now, r.Body))
	}
	return c.do(req, allow, r.AuthValue, r.Secret)
}

// do sends req, through the client allowed to reach internal addresses
// when allowPrivate, and reads the answer, blanking secrets out of it.
func (c *Client) do(req *http.Request, allowPrivate bool, secrets ...string) (*Result, error) {
	resp, err := c.client(allowPrivate).Do(req)
	if err != nil {
		return nil, c.transportError(req.URL.Host, err)
	}
	defer resp.Body.Close()
	// Read past MaxResponse by the longest secret, so that a secret the
	// cut would split is blanked out whole first.
	head, err := io.ReadAll(io.LimitReader(resp.Body, MaxResponse+maxSecret))
	if err == nil {
		_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, maxDrain))
	}
	return &Result{
		StatusCode: resp.StatusCode,
		Response:   truncate([]byte(redact(string(head), secrets...)), MaxResponse),
		RetryAfter: retryAfter(resp.Header.Get("Retry-After"), time.Now()),
	}, nil
}

// TimeoutError is a destination that did not answer in time.
type TimeoutError struct {
	Host    string
	Timeout time.Duration
}

func (e *TimeoutError) Error() string {
	return fmt.Sprintf("%s did not answer within %s", e.Host, e.Timeout)
}

// transportError turns a failed round trip into an error that names only
// the host: *url.Error would quote the whole URL, query string included.
func (c *Client) transportError(host string, err error) error {
	var refused *RefusedError
	if errors.As(err, &refused) {
		return refused
	}
	var ne net.Error
	if errors.Is(err, context.DeadlineExceeded) || (errors.As(err, &ne) && ne.Timeout()) {
		return &TimeoutError{Host: host, Timeout: c.cfg.Timeout}
	}
	if errors.Is(err, context.Canceled) {
		return fmt.Errorf("post to %s: cancelled: %w", host, context.Canceled)
	}
	var ue *url.Error
	if errors.As(err, &ue) {
		err = ue.Err
	}
	var op *net.OpError
	if errors.As(err, &op) && op.Err != nil {
		err = op.Err
	}
	return fmt.Errorf("post to %s: %w", host, err)
}

// IsTimeout reports whether err is a destination that did not answer in
// time.
func IsTimeout(err error) bool {
	var t *TimeoutError
	return errors.As(err, &t)
}

// truncate cuts b to at most n bytes on a character boundary, as text
// the stores accept (prospector.CleanText: a receiver's NUL must not
// fail recording its answer).
func truncate(b []byte, n int) string {
	if len(b) > n {
		b = b[:n]
		// Drop a character the cut split in two.
		for i := 0; i < utf8.UTFMax-1 && len(b) > 0; i++ {
			if r, size := utf8.DecodeLastRune(b); r != utf8.RuneError || size != 1 {
				break
			}
			b = b[:len(b)-1]
		}
	}
	return prospector.CleanText(string(b))
}

// redact blanks secrets (8 bytes or longer) out of s.
func redact(s string, secrets ...string) string {
	for _, sec := range secrets {
		if len(sec) >= 8 {
			s = strings.ReplaceAll(s, sec, "[redacted]")
			if rest, ok := strings.CutPrefix(sec, secretPrefix); ok && len(rest) >= 8 {
				s = strings.ReplaceAll(s, rest, "[redacted]")
			}
		}
	}
	return s
}

// retryAfter reads a Retry-After value: seconds, or an HTTP date.
func retryAfter(v string, now time.Time) time.Duration {
	v = strings.TrimSpace(v)
	if v == "" {
		return 0
	}
	if n, err := strconv.ParseInt(v, 10, 64); err == nil {
		if n <= 0 {
			return 0
		}
		return time.Duration(min(n, 7*24*3600)) * time.Second
	}
	if t, err := http.ParseTime(v); err == nil && t.After(now) {
		return t.Sub(now)
	}
	return 0
}

// Send shapes p as settings s say and delivers it to target (the push's
// webhook_url, or s.URL for auto-sync) with s's auth header and secret.
// A validation error when s cannot shape bodies; otherwise as Deliver.
func (c *Client) Send(ctx context.Context, s *prospector.WebhookSettings, target, id string, p *Payload) (*Result, error) {
	sh, err := NewShape(s)
	if err != nil {
		return nil, err
	}
	body, err := sh.Body(p)
	if err != nil {
		return nil, fmt.Errorf("webhook: shape body: %w", err)
	}
	return c.Deliver(ctx, Request{URL: target, ID: id, Body: body, AuthHeader: s.AuthHeader,
		AuthValue: s.AuthValue, Secret: s.SigningSecret, Now: p.DispatchedAt})
}
