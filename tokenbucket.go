package prospector

import (
	"context"
	"math"
	"time"
)

// TokenBucket paces requests to a remote service that sets one budget for
// a whole deployment, such as SEC EDGAR's 10 requests per second: every
// node reserves its requests from the same bucket, so together they stay
// under the budget. An in-process bucket (sec.LocalBucket) is enough for a
// single node; several nodes need one shared through the database or
// Redis.
//
// The semantics are a generic cell rate algorithm, which needs one stored
// time per key: the theoretical arrival time (TAT). A reservation at now
// with interval = 1s/ratePerSecond does
//
//	tat  := max(stored, now)
//	wait := max(0, tat - (burst-1)*interval - now)
//	stored = tat + interval
//
// which a Redis script or one PostgreSQL UPDATE ... RETURNING can do
// atomically.
type TokenBucket interface {
	// Reserve books the next request slot of the bucket key, refilled at
	// ratePerSecond tokens per second and holding at most burst, and
	// returns how long the caller must wait before sending (0 to send now).
	// A slot is spent even if the caller then gives up. An error means the
	// bucket could not be consulted (or ratePerSecond or burst is not
	// positive); the caller must then not send.
	Reserve(ctx context.Context, key string, ratePerSecond float64, burst int) (time.Duration, error)
}

// BucketInterval returns the interval between two requests of a bucket
// refilled at ratePerSecond, and an EINVALID when ratePerSecond or burst
// is not positive (or the rate is not a number).
func BucketInterval(ratePerSecond float64, burst int) (time.Duration, error) {
	if !(ratePerSecond > 0) || burst < 1 || math.IsInf(ratePerSecond, 0) {
		return 0, Errorf(EINVALID, "token bucket: rate %v and burst %d must be positive", ratePerSecond, burst)
	}
	return time.Duration(float64(time.Second) / ratePerSecond), nil
}
