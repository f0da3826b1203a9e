package api

import (
	"errors"
	"log/slog"
	"math"
	"net/http"

	"github.com/prospectorhq/prospector"
)

// statusOf is the one table from error code to HTTP status.
func statusOf(code prospector.Code) int {
	switch code {
	case prospector.EINVALID:
		return http.StatusBadRequest
	case prospector.EUNAUTHORIZED:
		return http.StatusUnauthorized
	case prospector.ENOTFOUND, prospector.ELEADNOTFOUND:
		return http.StatusNotFound
	case prospector.ERATELIMIT:
		return http.StatusTooManyRequests
	default:
		return http.StatusInternalServerError
	}
}

type errorBody struct {
	Error errorDetail `json:"error"`
}

type errorDetail struct {
	Code    prospector.Code `json:"code"` // written as its String
	Message string          `json:"message"`
}

// renderError writes the contract's error envelope. Every internal error
// (a plain error, or an *Error without a caller's code) is logged with
// the request id and reaches the caller only as service_error; a
// caller's error that says when to retry gets Retry-After.
func (s *Server) renderError(w http.ResponseWriter, r *http.Request, err error) {
	code, msg := prospector.ErrorCode(err), prospector.ErrorMessage(err)
	if code == prospector.EINTERNAL {
		s.logger.LogAttrs(r.Context(), slog.LevelError, "request failed",
			slog.String("request_id", requestID(r.Context())), slog.String("error", err.Error()))
		// An outage, the deadline or a shutdown: say when to retry.
		if seconds, m, ok := s.retryable(r, err); ok {
			setRetryAfter(w.Header(), seconds)
			msg = m
		}
	} else if perr := (*prospector.Error)(nil); errors.As(err, &perr) && perr.RetryAfter > 0 {
		setRetryAfter(w.Header(), int(math.Ceil(perr.RetryAfter.Seconds())))
	}
	writeJSON(w, statusOf(code), errorBody{Error: errorDetail{Code: code, Message: msg}})
}
