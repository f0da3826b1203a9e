package prospector

import (
	"errors"
	"fmt"
)

// Error codes of the contract's Errors table. They are the only codes the
// API ever sends; every failure is mapped onto one of them.
const (
	EINVALID      = "validation_error"
	EUNAUTHORIZED = "unauthorized"
	ENOTFOUND     = "not_found"
	ELEADNOTFOUND = "lead_not_found"
	ERATELIMIT    = "rate_limit_exceeded"
	EINTERNAL     = "service_error"
)

// Error is a failure meant for the caller: its Code is one of the codes
// above and its Message is safe to show. Anything else is internal.
type Error struct {
	Code    string
	Message string
}

func (e *Error) Error() string { return fmt.Sprintf("%s: %s", e.Code, e.Message) }

// Errorf returns an *Error with a formatted message.
func Errorf(code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// ErrorCode returns the code of the first *Error in err's chain, or
// EINTERNAL when there is none (and "" for a nil err).
func ErrorCode(err error) string {
	if err == nil {
		return ""
	}
	var e *Error
	if errors.As(err, &e) {
		return e.Code
	}
	return EINTERNAL
}

// ErrorMessage returns the caller-safe message of err; internal errors get
// a generic text so nothing about the service's insides leaks.
func ErrorMessage(err error) string {
	var e *Error
	if errors.As(err, &e) {
		return e.Message
	}
	return "The service could not complete the request; retry with backoff."
}

// Sentinels that stores return; callers test them with errors.Is.
var (
	ErrNotFound            = &Error{Code: ENOTFOUND, Message: "not found"}
	ErrConflict            = &Error{Code: EINVALID, Message: "already exists"}
	ErrInsufficientCredits = &Error{Code: ERATELIMIT, Message: "credit limit reached for this billing period"}
	ErrQuotaExceeded       = &Error{Code: EINVALID, Message: "plan limit reached"}
	ErrIdempotencyMismatch = &Error{Code: EINVALID, Message: "Idempotency-Key: already used with a different request body"}
	// ErrLeaseLost: the worker no longer holds the job it tried to
	// finish or extend; another worker may be running it.
	ErrLeaseLost = &Error{Code: EINTERNAL, Message: "job lease lost"}
)
