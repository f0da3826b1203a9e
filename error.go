package prospector

import (
	"errors"
	"fmt"
	"time"
)

// Code is an error code of the contract's Errors table: the only codes
// the API ever sends. It is a number rather than a string so that a code
// mistyped in the source does not compile (a string would, and become a
// silent 500); String gives the code the API sends.
type Code uint8

// The codes. The zero Code is no code at all: ErrorCode's answer for a
// nil error, and for an *Error built without one, which counts as
// EINTERNAL.
const (
	EINVALID      Code = iota + 1 // validation_error, 400
	EUNAUTHORIZED                 // unauthorized, 401
	ENOTFOUND                     // not_found, 404
	ELEADNOTFOUND                 // lead_not_found, 404
	ERATELIMIT                    // rate_limit_exceeded, 429
	EINTERNAL                     // service_error, 500
)

// String returns the code as the API sends it; "" for the zero Code.
func (c Code) String() string {
	switch c {
	case EINVALID:
		return "validation_error"
	case EUNAUTHORIZED:
		return "unauthorized"
	case ENOTFOUND:
		return "not_found"
	case ELEADNOTFOUND:
		return "lead_not_found"
	case ERATELIMIT:
		return "rate_limit_exceeded"
	case 0:
		return ""
	}
	return "service_error"
}

// MarshalText encodes the code as String does, so a Code in JSON reads
// as the API's code.
func (c Code) MarshalText() ([]byte, error) { return []byte(c.String()), nil }

// Error is a failure meant for the caller: its Code is one of the codes
// above, other than EINTERNAL, and its Message is safe to show. Internal
// failures are plain errors (wrapped with %w): the API logs them with
// the request id and answers service_error without their text.
type Error struct {
	Code    Code
	Message string
	// RetryAfter, when positive, is how long the caller should wait
	// before asking again (the API's Retry-After header).
	RetryAfter time.Duration
}

func (e *Error) Error() string { return fmt.Sprintf("%s: %s", e.Code, e.Message) }

// Errorf returns an *Error with a formatted message.
func Errorf(code Code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// ErrorCode returns the code of the first *Error in err's chain, or
// EINTERNAL when there is none or it has no code (and the zero Code for
// a nil err).
func ErrorCode(err error) Code {
	if err == nil {
		return 0
	}
	var e *Error
	if errors.As(err, &e) && e.Code != 0 {
		return e.Code
	}
	return EINTERNAL
}

// Internal reports whether err is an internal failure: one the caller
// sees only as service_error, and that is to be logged.
func Internal(err error) bool { return err != nil && ErrorCode(err) == EINTERNAL }

// ErrorMessage returns the caller-safe message of err; internal errors get
// a generic text so nothing about the service's insides leaks.
func ErrorMessage(err error) string {
	var e *Error
	if !Internal(err) && errors.As(err, &e) {
		return e.Message
	}
	return "The service could not complete the request; retry with backoff."
}

// Sentinels that stores return; callers test them with errors.Is. Each
// has one meaning: the caller-facing ones are *Error, the others (a race
// another worker won) are plain errors that reach no caller as such.
var (
	ErrNotFound = &Error{Code: ENOTFOUND, Message: "not found"}
	// ErrAlreadyExists: a create whose natural key is taken (a workspace
	// name, a workspace's webhook settings).
	ErrAlreadyExists       = &Error{Code: EINVALID, Message: "already exists"}
	ErrInsufficientCredits = &Error{Code: ERATELIMIT, Message: "credit limit reached for this billing period"}
	ErrQuotaExceeded       = &Error{Code: EINVALID, Message: "plan limit reached"}
	ErrIdempotencyMismatch = &Error{Code: EINVALID, Message: "Idempotency-Key: already used with a different request body"}
	// ErrConcurrentUpdate: another worker changed the row first (a
	// delivery's attempts moved on); the caller's view of it is stale.
	ErrConcurrentUpdate = errors.New("changed concurrently by another worker")
	// ErrLeaseLost: the worker no longer holds the job it tried to
	// finish or extend; another worker may be running it.
	ErrLeaseLost = errors.New("job lease lost")
)
