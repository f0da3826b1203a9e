package api

import (
	"context"
	"log/slog"
)

// requestIDHandler adds the request id of a record's context to it, so
// that the workflows, which know nothing of requests, log their lines
// under the id of the request they serve, as the handlers do.
type requestIDHandler struct{ slog.Handler }

func (h requestIDHandler) Handle(ctx context.Context, r slog.Record) error {
	if id := requestID(ctx); id != "" {
		r.AddAttrs(slog.String("request_id", id))
	}
	return h.Handler.Handle(ctx, r)
}

func (h requestIDHandler) WithAttrs(as []slog.Attr) slog.Handler {
	return requestIDHandler{h.Handler.WithAttrs(as)}
}

func (h requestIDHandler) WithGroup(name string) slog.Handler {
	return requestIDHandler{h.Handler.WithGroup(name)}
}

// WorkflowLogger returns a logger writing to l's handler that adds the id
// of the API request a record's context belongs to, for the workflows'
// own lines (workflows.Parts.Logger). Nil l discards.
func WorkflowLogger(l *slog.Logger) *slog.Logger {
	if l == nil {
		return slog.New(slog.DiscardHandler)
	}
	return slog.New(requestIDHandler{l.Handler()})
}
