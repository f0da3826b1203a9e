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

// inFlight is the list of requests whose handlers run, oldest first, so
// a shutdown that cuts them off can say which, and what ends each at its
// deadline: one timer for the whole list, armed for the earliest
// deadline. A context.WithTimeout per request cost a runtime timer's
// heap operations and locks on every call, a fifth of what the request
// path gained with deadlines; under load this timer fires about once a
// timeout, finding nothing due.
type inFlight struct {
	mu         sync.Mutex
	head, tail *requestInfo
	timer      *time.Timer
	armed      time.Time // when timer fires; zero when it is not armed
}

// deadlineContext is a request's context below wrap: a cancelCtx that
// expire cancels with errRequestTimeout at the deadline, reporting the
// deadline and, then, DeadlineExceeded as context.WithDeadline would. It
// lives in the requestInfo's allocation.
type deadlineContext struct {
	context.Context // from context.WithCancelCause: derived contexts link to it directly
	deadline        time.Time
}

func (c *deadlineContext) Deadline() (time.Time, bool) { return c.deadline, true }

func (c *deadlineContext) Err() error {
	err := c.Context.Err()
	if err != nil && context.Cause(c.Context) == errRequestTimeout {
		return context.DeadlineExceeded
	}
	return err
}

// add puts ri on the list with the cancel that ends its context, ri.ctx,
// at that context's deadline.
func (f *inFlight) add(ri *requestInfo, r *http.Request, cancel context.CancelCauseFunc) {
	ri.method, ri.path, ri.cancel = r.Method, r.URL.Path, cancel
	deadline := ri.ctx.deadline
	f.mu.Lock()
	ri.prev, ri.next = f.tail, nil
	if f.tail != nil {
		f.tail.next = ri
	} else {
		f.head = ri
	}
	f.tail = ri
	if f.armed.IsZero() || deadline.Before(f.armed) {
		f.arm(deadline)
	}
	f.mu.Unlock()
}

func (f *inFlight) remove(ri *requestInfo) {
	f.mu.Lock()
	if ri.prev != nil {
		ri.prev.next = ri.next
	} else if f.head == ri {
		f.head = ri.next
	}
	if ri.next != nil {
		ri.next.prev = ri.prev
	} else if f.tail == ri {
		f.tail = ri.prev
	}
	ri.prev, ri.next = nil, nil
	f.mu.Unlock()
}

// arm sets the timer to fire at at; f.mu is held.
func (f *inFlight) arm(at time.Time) {
	f.armed = at
	if f.timer == nil {
		f.timer = time.AfterFunc(time.Until(at), f.expire)
		return
	}
	f.timer.Reset(time.Until(at))
}

// expire cancels the requests whose deadline has passed and arms the
// timer for the earliest of the others.
func (f *inFlight) expire() {
	var due []context.CancelCauseFunc
	f.mu.Lock()
	now := time.Now()
	var next time.Time
	for ri := f.head; ri != nil; ri = ri.next {
		switch {
		case !ri.ctx.deadline.After(now):
			due = append(due, ri.cancel)
		case next.IsZero() || ri.ctx.deadline.Before(next):
			next = ri.ctx.deadline
		}
	}
	f.armed = time.Time{}
	if !next.IsZero() {
		f.arm(next)
	}
	f.mu.Unlock()
	for _, cancel := range due {
		cancel(errRequestTimeout)
	}
}

// InFlight returns the requests whose handlers are running, oldest first.
func (s *Server) InFlight() []InFlight {
	var out []InFlight
	s.inflight.mu.Lock()
	for ri := s.inflight.head; ri != nil; ri = ri.next {
		out = append(out, InFlight{ID: ri.id, Method: ri.method, Route: ri.route, Path: ri.path, Started: ri.started})
	}
	s.inflight.mu.Unlock()
	slices.SortFunc(out, func(a, b InFlight) int { return a.Started.Compare(b.Started) })
	return out
}
