package ratelimit

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/prospectorhq/prospector"
)

var _ prospector.RateLimiter = (*Redis)(nil)

// allowScript counts one request and reports the count and the window's
// remaining milliseconds. Only a key without an expiry gets one (the
// first hit, or a key someone left persistent), so requests refused over
// the limit never extend the window. Redis evaluates the script atomically
// on its own clock, which every node shares.
var allowScript = redis.NewScript(`
local n = redis.call('INCR', KEYS[1])
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then
	redis.call('PEXPIRE', KEYS[1], ARGV[1])
	ttl = tonumber(ARGV[1])
end
return {n, ttl}
`)

// Redis is a limiter shared by every node using the same Redis and prefix.
type Redis struct {
	client *redis.Client
	prefix string
}

// NewRedis returns a limiter that stores each key's counter at prefix+key.
func NewRedis(client *redis.Client, prefix string) *Redis {
	return &Redis{client: client, prefix: prefix}
}

// Allow counts one request for key. It returns an error for an invalid
// limit or when Redis cannot be reached or answers unexpectedly; the error
// never contains the key.
func (r *Redis) Allow(ctx context.Context, key string, limit prospector.RateLimit) (prospector.RateResult, error) {
	if err := checkLimit(limit); err != nil {
		return prospector.RateResult{}, err
	}
	res, err := allowScript.Run(ctx, r.client, []string{r.prefix + key}, limit.Window.Milliseconds()).Int64Slice()
	if err != nil {
		return prospector.RateResult{}, fmt.Errorf("ratelimit: redis: %w", err)
	}
	if len(res) != 2 {
		return prospector.RateResult{}, fmt.Errorf("ratelimit: redis: script returned %d values, want 2", len(res))
	}
	count, ttl := res[0], res[1]
	return prospector.RateResult{
		Allowed:   count <= int64(limit.Requests),
		Limit:     limit.Requests,
		Remaining: int(max(int64(limit.Requests)-count, 0)),
		Reset:     time.Duration(max(ttl, 0)) * time.Millisecond,
	}, nil
}

// Ping reports whether Redis answers a PING; the error never contains a
// key.
func (r *Redis) Ping(ctx context.Context) error {
	if err := r.client.Ping(ctx).Err(); err != nil {
		return fmt.Errorf("ratelimit: redis: %w", err)
	}
	return nil
}

// NewRedisClient parses a redis:// or rediss:// URL and returns a client
// tuned to fail fast, so an unreachable Redis costs a request a fraction of
// a second before Fallback takes over. Timeouts given in the URL's query
// (dial_timeout, read_timeout, ...) win. It returns an error for a URL it
// cannot parse; the error leaves out the URL, which may hold a password.
func NewRedisClient(rawURL string) (*redis.Client, error) {
	opt, err := redis.ParseURL(rawURL)
	if err != nil {
		var uerr *url.Error
		if errors.As(err, &uerr) {
			err = uerr.Err
		}
		return nil, fmt.Errorf("ratelimit: redis url: %w", err)
	}
	const fast = 250 * time.Millisecond
	if opt.DialTimeout == 0 {
		opt.DialTimeout = fast
	}
	if opt.ReadTimeout == 0 {
		opt.ReadTimeout = fast
	}
	if opt.WriteTimeout == 0 {
		opt.WriteTimeout = fast
	}
	if opt.PoolTimeout == 0 {
		opt.PoolTimeout = fast
	}
	if opt.MaxRetries == 0 {
		// One retry survives a pooled connection that died with a Redis
		// restart; the default three would quadruple the wait on an outage.
		opt.MaxRetries = 1
	}
	// The defaults dial five times with backoff per command.
	opt.DialerRetries = 1
	// Let a cancelled request stop waiting on Redis.
	opt.ContextTimeoutEnabled = true
	return redis.NewClient(opt), nil
}
