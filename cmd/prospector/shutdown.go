package main

import (
	"context"
	"log/slog"
	"net/http"
	"time"

	"github.com/prospectorhq/prospector/api"
)

// cutOffGrace is how long requests still running at the shutdown
// deadline get to send their answer once their contexts are cancelled.
const cutOffGrace = 2 * time.Second

// maxNamedCutOff bounds the requests the cut-off log line names.
const maxNamedCutOff = 100

// writeMargin is how much longer than the longest request deadline the
// server gives a response to be written.
const writeMargin = 10 * time.Second

// inFlighter is a handler that can tell which requests it is serving
// (api.Server).
type inFlighter interface{ InFlight() []api.InFlight }

// writeTimeout is the HTTP server's write timeout for h: longer than any
// request's deadline, so a request that runs out of time still gets its
// answer (60 s at the default deadlines).
func writeTimeout(h http.Handler) time.Duration {
	if l, ok := h.(interface{ LongestRequest() time.Duration }); ok {
		return l.LongestRequest() + writeMargin
	}
	return 60 * time.Second
}

// drain shuts srv down: it stops accepting and waits up to timeout for
// in-flight requests. Past that, it cancels the contexts of the requests
// still running (cause api.ErrShutdown), so that each answers 500
// service_error with Retry-After rather than an empty reply, gives them
// cutOffGrace to do so, closes whatever is left and logs what was cut
// off. It never fails: serve exits 0 after a drain, as its help says.
func drain(srv *http.Server, stop context.CancelCauseFunc, h http.Handler, timeout time.Duration, logger *slog.Logger) {
	logger.Info("shutting down: draining in-flight requests", "timeout", timeout.String())
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	if srv.Shutdown(ctx) == nil {
		return
	}
	f, named := h.(inFlighter)
	var cut []api.InFlight
	if named {
		cut = f.InFlight()
	}
	stop(api.ErrShutdown)
	gctx, gcancel := context.WithTimeout(context.Background(), cutOffGrace)
	defer gcancel()
	// Shutdown again: it returns once the cancelled requests' answers are
	// written and their connections idle.
	closed := srv.Shutdown(gctx) != nil
	if closed {
		_ = srv.Close()
	}
	attrs := []slog.Attr{slog.String("timeout", timeout.String()), slog.Bool("connections_closed", closed)}
	if named {
		list := make([]any, 0, min(len(cut), maxNamedCutOff))
		for _, r := range cut[:min(len(cut), maxNamedCutOff)] {
			list = append(list, map[string]string{"request_id": r.ID, "route": r.Route, "path": r.Path})
		}
		// Those still running after the grace were closed unanswered.
		attrs = append(attrs, slog.Int("count", len(cut)), slog.Int("unanswered", len(f.InFlight())),
			slog.Any("requests", list))
	}
	logger.LogAttrs(context.Background(), slog.LevelWarn, "shutdown deadline passed: in-flight requests cut off", attrs...)
}
