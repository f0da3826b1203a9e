package sec

import (
	"bytes"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"time"
)

// DefaultBackoff is how long the client stops asking after a throttling
// answer without Retry-After: the SEC's fair-access policy limits a
// client that exceeded the rate for about ten minutes.
const DefaultBackoff = 10 * time.Minute

// BackoffError is returned when EDGAR throttled the client (429, or a 403
// carrying the SEC's rate-threshold page) and for every request made
// before Until. The caller should retry the work after Wait.
type BackoffError struct {
	URL    string
	Status int
	Wait   time.Duration
	Until  time.Time
}

func (e *BackoffError) Error() string {
	return fmt.Sprintf("sec: EDGAR throttled %s (HTTP %d); back off for %s", e.URL, e.Status, e.Wait.Round(time.Second))
}

// ErrMissing is wrapped by errors for a resource EDGAR does not have: an
// index for a day without one, a filing document that is not there.
var ErrMissing = errors.New("sec: not on EDGAR")

// StatusError is an unexpected answer from EDGAR (a 5xx, a 400).
type StatusError struct {
	URL    string
	Status int
}

func (e *StatusError) Error() string {
	return fmt.Sprintf("sec: %s answered HTTP %d", e.URL, e.Status)
}

// throttleMarkers are phrases of the page EDGAR sends with a 403 when a
// client exceeds the request rate or sends no declared User-Agent. A 403
// without them is how the archive answers for a key it does not hold (a
// day without an index), so it means "missing", not "slow down".
var throttleMarkers = [][]byte{
	[]byte("Request Rate Threshold Exceeded"),
	[]byte("Undeclared Automated Tool"),
}

// throttled reports whether an answer tells the client to slow down.
func throttled(status int, body []byte) bool {
	if status == http.StatusTooManyRequests {
		return true
	}
	if status != http.StatusForbidden {
		return false
	}
	for _, m := range throttleMarkers {
		if bytes.Contains(body, m) {
			return true
		}
	}
	return false
}

// retryAfter reads a Retry-After header (seconds or an HTTP date) as a
// wait from now; def when absent or unreadable.
func retryAfter(h http.Header, now time.Time, def time.Duration) time.Duration {
	v := h.Get("Retry-After")
	if v == "" {
		return def
	}
	if s, err := strconv.Atoi(v); err == nil && s >= 0 {
		return time.Duration(s) * time.Second
	}
	if t, err := http.ParseTime(v); err == nil {
		if d := t.Sub(now); d > 0 {
			return d
		}
		return 0
	}
	return def
}
