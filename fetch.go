package prospector

import (
	"context"
	"fmt"
	"net/http"
	"time"
)

// FetchRequest is one GET of a public source: a job board's API, a
// company's website, a feed or a filing.
type FetchRequest struct {
	URL string
	// ETag and LastModified are the validators of the previous successful
	// fetch of URL; when either is set the request is conditional and an
	// unchanged resource answers NotModified without a body.
	ETag         string
	LastModified string
	// Accept is sent as the Accept header; empty sends */*.
	Accept string
	// NoRedirects returns a redirect as the response instead of following
	// it (Personio sends unknown boards to a page that looks empty).
	NoRedirects bool
	// Robots makes the fetch obey the host's robots.txt for the client's
	// User-Agent; a disallowed URL fails with ErrRobotsDisallowed.
	Robots bool
}

// FetchResponse is what a fetch got back. Non-2xx statuses other than
// 304 are returned as responses too, so callers can tell a missing board
// (404) from a failure; only transport failures, refusals and exhausted
// retries are errors.
type FetchResponse struct {
	// URL is the final URL, after any redirects.
	URL    string
	Status int
	// NotModified is true for a 304 answer to a conditional request;
	// Body is then empty and the caller keeps what it had.
	NotModified bool
	Header      http.Header
	Body        []byte
	// ETag and LastModified are the validators to send next time.
	ETag         string
	LastModified string
	// Elapsed is the time the request took, waits for pacing excluded.
	Elapsed time.Duration
}

// Fetcher gets public web resources politely: robots.txt where asked,
// per-host pacing, conditional requests, Retry-After, and never an
// internal address. Every source goes through one.
type Fetcher interface {
	Fetch(ctx context.Context, req FetchRequest) (*FetchResponse, error)
}

// ErrRobotsDisallowed is returned when robots.txt forbids a fetch.
var ErrRobotsDisallowed = &Error{Code: EINVALID, Message: "robots.txt disallows this URL for Prospector"}

// RetryLaterError is a host that asked to be left alone (429 or 503 with
// Retry-After, or a 503 that outlasted the fetcher's retries): the fetch
// was not done, and the caller should reschedule it at Until or later.
// Every fetch of Host fails this way until then.
type RetryLaterError struct {
	Host   string
	Status int // the answer that paused the host: 429 or 503
	Until  time.Time
}

func (e *RetryLaterError) Error() string {
	return fmt.Sprintf("%s asked to retry after %s (status %d)", e.Host, e.Until.UTC().Format(time.RFC3339), e.Status)
}

// TargetFailureThreshold is how many failures in a row pause a target
// (a board or a website) beyond its regular schedule.
const TargetFailureThreshold = 3

// MaxTargetBackoff bounds the pause of a failing target.
const MaxTargetBackoff = 24 * time.Hour

// TargetBackoff returns how long a target that has failed failures times
// in a row waits before its next poll: nothing below
// TargetFailureThreshold, then 1 h, doubling with each further failure,
// at most MaxTargetBackoff (24 h from the 8th failure on). The poller
// waits for the later of this and the target's regular interval.
func TargetBackoff(failures int) time.Duration {
	if failures < TargetFailureThreshold {
		return 0
	}
	n := failures - TargetFailureThreshold
	if n >= 5 { // 1h<<5 = 32h: past the cap, and no overflow for any n
		return MaxTargetBackoff
	}
	return min(time.Hour<<n, MaxTargetBackoff)
}
