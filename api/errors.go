package api

import (
	"errors"
	"log/slog"
	"net/http"

	"github.com/prospectorhq/prospector"
)

// statusOf is the one table from error code to HTTP status.
func statusOf(code string) int {
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
	Code    string `json:"code"`
	Message string `json:"message"`
}

// renderError writes the contract's error envelope. Internal errors are
// logged with the request id and reach the caller only as service_error.
func (s *Server) renderError(w http.ResponseWriter, r *http.Request, err error) {
	code := prospector.ErrorCode(err)
	var perr *prospector.Error
	if !errors.As(err, &perr) {
		s.logger.LogAttrs(r.Context(), slog.LevelError, "request failed",
			slog.String("request_id", requestID(r.Context())), slog.String("error", err.Error()))
	}
	writeJSON(w, statusOf(code), errorBody{Error: errorDetail{Code: code, Message: prospector.ErrorMessage(err)}})
}
