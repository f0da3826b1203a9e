package api

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"net/http"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/prospectorhq/prospector"
)

// statusWriter remembers the status and whether anything was written, for
// logs and for the panic handler. It also holds the request's info, so
// one allocation serves both.
type statusWriter struct {
	http.ResponseWriter
	status   int
	writeErr error // the first failed write: the client did not get it all
	info     requestInfo
	ctx      requestContext
}

func (w *statusWriter) WriteHeader(code int) {
	if w.status == 0 {
		w.status = code
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *statusWriter) Write(b []byte) (int, error) {
	if w.status == 0 {
		w.status = http.StatusOK
	}
	n, err := w.ResponseWriter.Write(b)
	if err != nil && w.writeErr == nil {
		w.writeErr = err
	}
	return n, err
}

func (w *statusWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// outer gives every response a request id and rate-limit headers, turns a
// panic into service_error, and logs and counts the request.
func (s *Server) outer(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := s.now()
		sw := &statusWriter{ResponseWriter: w}
		ri := &sw.info
		ri.id = s.requestIDs.next(r.Header.Get("X-Request-Id"))
		ri.started = start
		sw.ctx = requestContext{Context: r.Context(), ri: ri}
		r = r.WithContext(&sw.ctx)
		h := w.Header()
		// Header keys below are already canonical; assigning the map
		// directly skips re-canonicalising them on every request.
		h["X-Request-Id"] = []string{ri.id}
		// Requests that never reach a key's budget (no key, a bad key, the
		// open endpoints) report the default tier's full allowance. The
		// value slices are shared and never modified.
		for k, v := range s.defaultRateHeaders {
			h[k] = v
		}

		defer func() {
			if p := recover(); p != nil {
				if p == http.ErrAbortHandler {
					panic(p)
				}
				s.logger.LogAttrs(r.Context(), slog.LevelError, "panic",
					slog.String("request_id", ri.id), slog.String("panic", fmt.Sprint(p)))
				if sw.status == 0 {
					s.renderError(sw, r, fmt.Errorf("panic: %v", p))
				}
			}
			s.observe(r, ri, sw, s.now().Sub(start))
		}()
		next.ServeHTTP(sw, r)
	})
}

func (s *Server) observe(r *http.Request, ri *requestInfo, sw *statusWriter, elapsed time.Duration) {
	status := sw.status
	if status == 0 {
		status = http.StatusOK
	}
	route := ri.route
	if route == "" {
		route = "unmatched"
	}
	s.metrics.observe(route, status, elapsed)
	workspace := ""
	if ri.principal != nil {
		workspace = ri.principal.Workspace.ID
	}
	attrs := []slog.Attr{slog.String("request_id", ri.id), slog.String("method", r.Method), slog.String("route", route),
		slog.String("path", r.URL.Path), slog.Int("status", status),
		slog.Int64("duration_us", elapsed.Microseconds()), slog.String("workspace", workspace)}
	// Why the request's context ended before it was answered, if it did:
	// its deadline, the shutdown's, or the client closing the connection
	// (then nobody got the status above).
	ended := ri.ended
	if ended == nil && r.Context().Err() != nil {
		ended = context.Cause(r.Context())
	}
	if ended != nil {
		switch cause := ended; {
		case errors.Is(cause, errRequestTimeout):
			attrs = append(attrs, slog.Bool("timed_out", true))
		case errors.Is(cause, ErrShutdown):
			attrs = append(attrs, slog.Bool("shutdown", true))
		default:
			attrs = append(attrs, slog.Bool("client_gone", true))
		}
	}
	if sw.writeErr != nil {
		attrs = append(attrs, slog.String("write_error", sw.writeErr.Error()))
	}
	s.logger.LogAttrs(r.Context(), slog.LevelInfo, "request", attrs...)
}

// requestIDs makes request ids: a random per-process prefix and a
// counter, unique across nodes without a random read per request.
type requestIDs struct {
	prefix string
	seq    atomic.Uint64
}

func newRequestIDs() *requestIDs {
	var b [6]byte
	_, _ = rand.Read(b[:])
	return &requestIDs{prefix: "req_" + hex.EncodeToString(b[:]) + "_"}
}

// next keeps a caller's id when it is short and plain, so traces can be
// joined across services; otherwise it makes one.
func (g *requestIDs) next(given string) string {
	if n := len(given); n > 0 && n <= 64 {
		ok := true
		for _, c := range given {
			if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_' || c == '.') {
				ok = false
				break
			}
		}
		if ok {
			return given
		}
	}
	return g.prefix + strconv.FormatUint(g.seq.Add(1), 36)
}

// setRateHeaders sets the three rate-limit headers from one allocation
// of the three values' text and one of their slices (five allocations
// otherwise, on every request).
func setRateHeaders(h http.Header, res prospector.RateResult) {
	var buf [64]byte
	b := strconv.AppendInt(buf[:0], int64(res.Limit), 10)
	n1 := len(b)
	b = strconv.AppendInt(b, int64(max(res.Remaining, 0)), 10)
	n2 := len(b)
	b = strconv.AppendInt(b, int64(resetSeconds(res.Reset)), 10)
	text := string(b)
	vals := []string{text[:n1], text[n1:n2], text[n2:]}
	h["X-Ratelimit-Limit"] = vals[0:1:1]
	h["X-Ratelimit-Remaining"] = vals[1:2:2]
	h["X-Ratelimit-Reset"] = vals[2:3:3]
}

// resetSeconds rounds up, so a caller that waits that long is in the next
// window.
func resetSeconds(d time.Duration) int {
	if d <= 0 {
		return 0
	}
	return int(math.Ceil(d.Seconds()))
}

// authenticate resolves the key, spends one unit of its budget and checks
// that the workspace has the public API enabled. The order is the
// contract's: 401 before 429 before 404. A failed authentication spends
// no one's budget.
//
// With bearer, a key sent as Authorization: Bearer counts too (the
// key header wins when both are sent), and a refusal says so in a
// WWW-Authenticate header, as MCP clients expect.
func (s *Server) authenticate(next handlerFunc, bearer bool) handlerFunc {
	missing := fmt.Sprintf("Missing API key: send it in the %s header.", prospector.KeyHeader)
	if bearer {
		missing = fmt.Sprintf("Missing API key: send it in the %s header or as Authorization: Bearer.", prospector.KeyHeader)
	}
	return func(w http.ResponseWriter, r *http.Request) error {
		secret := r.Header.Get(prospector.KeyHeader)
		if bearer {
			if secret == "" {
				secret = bearerToken(r.Header.Get("Authorization"))
			}
			defer func() {
				if info(r.Context()).principal == nil {
					w.Header().Set("WWW-Authenticate", `Bearer realm="prospector"`)
				}
			}()
		}
		if secret == "" {
			return prospector.Errorf(prospector.EUNAUTHORIZED, "%s", missing)
		}
		entry, err := s.keys.resolve(r.Context(), secret)
		if err != nil {
			// The key could not be checked; when it is known, the
			// headers still name its tier (nothing was counted).
			if entry != nil && entry.principal != nil {
				rate := s.tierRates.Of(entry.principal.Key.Tier)
				setRateHeaders(w.Header(), prospector.RateResult{Limit: rate.Requests, Remaining: rate.Requests, Reset: rate.Window})
			}
			return err
		}
		p := entry.principal
		if p == nil || !p.Key.Active(s.now()) {
			return prospector.Errorf(prospector.EUNAUTHORIZED, "Invalid, revoked or expired API key.")
		}
		ri := info(r.Context())
		ri.principal, ri.key = p, entry
		rate := s.tierRates.Of(p.Key.Tier)
		if s.limiter != nil {
			res, err := s.limiter.Allow(r.Context(), p.Key.ID, rate)
			if err != nil {
				return fmt.Errorf("rate limiter: %w", err)
			}
			setRateHeaders(w.Header(), res)
			if !res.Allowed {
				w.Header().Set("Retry-After", strconv.Itoa(max(resetSeconds(res.Reset), 1)))
				return prospector.Errorf(prospector.ERATELIMIT, "Rate limit exceeded; retry in %d seconds.", max(resetSeconds(res.Reset), 1))
			}
		} else {
			setRateHeaders(w.Header(), prospector.RateResult{Limit: rate.Requests, Remaining: rate.Requests, Reset: rate.Window})
		}
		if !p.Workspace.PublicAPI {
			return prospector.Errorf(prospector.ENOTFOUND, "Public API access is not enabled for this workspace.")
		}
		// The key's prefix names the actor of what the store audits
		// (prospector.ActorFrom reads it through requestContext).
		ri.actor = p.Key.Prefix
		return next(w, r)
	}
}

// bearerToken is the token of an Authorization: Bearer value, or "".
func bearerToken(v string) string {
	scheme, token, ok := strings.Cut(strings.TrimSpace(v), " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") {
		return ""
	}
	return strings.TrimSpace(token)
}
