// Package ratelimit implements prospector.RateLimiter: fixed windows per
// key that start with the key's first request, at most limit.Requests per
// limit.Window.
//
// Memory counts in process and suits a single node. Redis counts in one
// Lua script on a shared Redis, so every node spends one budget per key and
// the window clock is Redis's, not the nodes'.
//
// Fallback wraps Redis with Memory. When Redis fails, each node answers
// from its own Memory limiter (fail open to per-node limits), logs a warning
// at most once every 30 s, and leaves Redis alone for a one-second cool-down
// before one request probes it again. The reason: the API staying up matters
// more than the shared budget being exact during a Redis outage, and each
// node still enforces the tier limit on its own, so a key can get at most
// one budget per node until Redis is back. The cool-down keeps a dead Redis
// from adding a timeout to every request.
package ratelimit

import (
	"errors"

	"github.com/prospectorhq/prospector"
)

// errInvalidLimit is returned for a limit that allows nothing or has no
// window; prospector.ParseRateLimit never produces one.
var errInvalidLimit = errors.New("ratelimit: limit needs Requests >= 1 and Window > 0")

func checkLimit(limit prospector.RateLimit) error {
	if limit.Requests < 1 || limit.Window <= 0 {
		return errInvalidLimit
	}
	return nil
}
