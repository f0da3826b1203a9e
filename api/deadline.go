package api

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"slices"
	"strconv"
	"sync"
	"time"

	"github.com/prospectorhq/prospector/leads"
)

// DefaultRequestTimeout is the deadline of a request when Config sets
// none. The HTTP server's write timeout must be longer, so that a request
// that runs out of time is still answered (serve keeps it 30 s longer).
const DefaultRequestTimeout = 30 * time.Second

// ErrShutdown is the cause with which the process cancels the contexts of
// requests still running when its shutdown deadline passes; they answer
// 500 service_error with Retry-After, and their log lines say shutdown.
var ErrShutdown = errors.New("server shutting down")

// pushRequestTimeout is the least deadline of a push, which does its
// network I/O inside the request: leads.PushDeadline for the destination,
// plus time to record the outcome and answer.
const pushRequestTimeout = leads.PushDeadline + 5*time.Second

// timeoutOf returns the deadline of the route with pattern.
func (s *Server) timeoutOf(pattern string) time.Duration {
	if pattern == "POST /api/v1/leads/push" {
		return max(s.requestTimeout, pushRequestTimeout)
	}
	return s.requestTimeout
}

// LongestRequest returns the longest deadline of any route; the HTTP
// server's write timeout must exceed it for every request to be answered.
func (s *Server) LongestRequest() time.Duration {
	return max(s.requestTimeout, pushRequestTimeout)
}

// errRequestTimeout is the cause of a request's context ending at its
// deadline.
var errRequestTimeout = errors.New("request deadline passed")

// Retry-After seconds of the service errors a caller should simply retry:
// after an outage (a dependency down, slow or unreachable, or the request
// out of time), and when this node is shutting down (another node, or
// this one restarted, can answer at once).
const (
	outageRetryAfter   = 5
	shutdownRetryAfter = 1
)

// retryable returns the Retry-After seconds and the caller's message for
// an internal error caused by an outage, a deadline or a shutdown; ok is
// false for any other error (a bug, which a retry would not fix).
func (s *Server) retryable(r *http.Request, err error) (seconds int, msg string, ok bool) {
	switch cause := context.Cause(r.Context()); {
	case errors.Is(cause, ErrShutdown):
		return shutdownRetryAfter, "The server is shutting down; retry the request.", true
	case errors.Is(cause, errRequestTimeout):
		return outageRetryAfter, "The request did not complete within " + s.timeoutOf(info(r.Context()).route).String() +
			"; retry with backoff.", true
	}
	var netErr net.Error // dial failures, resets, i/o timeouts; DeadlineExceeded is one too
	if errors.As(err, &netErr) || errors.Is(err, io.ErrUnexpectedEOF) {
		return outageRetryAfter, "A service this request needs is unavailable; retry with backoff.", true
	}
	return 0, "", false
}

func setRetryAfter(h http.Header, seconds int) {
	h["Retry-After"] = []string{strconv.Itoa(seconds)}
}

// InFlight is a request being served, as Server.InFlight reports it.
type InFlight struct {
	ID      string
	Method  string
	Route   string
	Path    string
	Started time.Time
}

// inFlight is the set of requests whose handler runs, so a shutdown that
// cuts them off can say which.
type inFlight struct {
	mu   sync.Mutex
	reqs map[*requestInfo]InFlight
}

func (f *inFlight) add(ri *requestInfo, r *http.Request) {
	f.mu.Lock()
	f.reqs[ri] = InFlight{ID: ri.id, Method: r.Method, Route: ri.route, Path: r.URL.Path, Started: ri.started}
	f.mu.Unlock()
}

func (f *inFlight) remove(ri *requestInfo) {
	f.mu.Lock()
	delete(f.reqs, ri)
	f.mu.Unlock()
}

// InFlight returns the requests whose handlers are running, oldest first.
func (s *Server) InFlight() []InFlight {
	s.inflight.mu.Lock()
	out := make([]InFlight, 0, len(s.inflight.reqs))
	for _, r := range s.inflight.reqs {
		out = append(out, r)
	}
	s.inflight.mu.Unlock()
	slices.SortFunc(out, func(a, b InFlight) int { return a.Started.Compare(b.Started) })
	return out
}
