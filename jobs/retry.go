package jobs

import (
	"errors"
	"math/rand/v2"
	"time"
)

// maxBackoff caps the delay between attempts.
const maxBackoff = time.Hour

// DefaultBackoff returns 1s·2^(attempt-1), capped at an hour, with ±20%
// jitter so that jobs failing together (a receiver that was down) do not
// all come back in the same instant. Attempt 1 is the first failure.
func DefaultBackoff(attempt int) time.Duration {
	d := maxBackoff
	if attempt < 1 {
		attempt = 1
	}
	if attempt <= 13 { // 2^12 s is past the cap already
		d = min(time.Second<<(attempt-1), maxBackoff)
	}
	jittered := d - d/5 + rand.N(2*d/5+1)
	return min(jittered, maxBackoff)
}

type permanentError struct{ err error }

func (e *permanentError) Error() string { return e.err.Error() }
func (e *permanentError) Unwrap() error { return e.err }

// Permanent marks err as one a retry cannot fix (a malformed payload, a
// destination that answered 410 Gone): a handler returning it fails its
// job at once. Permanent(nil) is nil.
func Permanent(err error) error {
	if err == nil {
		return nil
	}
	return &permanentError{err: err}
}

// IsPermanent reports whether err, or an error it wraps, came from
// Permanent.
func IsPermanent(err error) bool {
	var p *permanentError
	return errors.As(err, &p)
}
