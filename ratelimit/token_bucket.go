package ratelimit

import (
	"context"
	"fmt"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/prospectorhq/prospector"
)

var _ prospector.TokenBucket = (*RedisBucket)(nil)

// reserveScript is prospector.TokenBucket's cell rate algorithm on
// Redis's clock: the key holds the theoretical arrival time in
// microseconds; the script moves it to max(stored, now) plus one interval
// (ARGV[1] microseconds) and returns the wait for a bucket of ARGV[2].
// The key expires once the bucket is full again, so idle keys go away.
// Redis 5 and later replicate the script's writes, not the script, so
// reading TIME before writing is safe.
var reserveScript = redis.NewScript(`
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000000 + tonumber(t[2])
local step = tonumber(ARGV[1])
local burst = tonumber(ARGV[2])
local tat = tonumber(redis.call('GET', KEYS[1]) or '0')
if tat < now then tat = now end
local wait = tat - (burst - 1) * step - now
if wait < 0 then wait = 0 end
tat = tat + step
redis.call('SET', KEYS[1], string.format('%d', tat), 'PX', math.ceil((tat - now) / 1000) + 1000)
return wait
`)

// RedisBucket is a prospector.TokenBucket every node using the same
// Redis and prefix shares.
type RedisBucket struct {
	client *redis.Client
	prefix string
}

// NewRedisBucket returns a bucket that keeps each key at prefix+key.
func NewRedisBucket(client *redis.Client, prefix string) *RedisBucket {
	return &RedisBucket{client: client, prefix: prefix}
}

// Reserve implements prospector.TokenBucket. It returns EINVALID for a
// rate or burst that is not positive, and an error when Redis cannot be
// reached; the error never contains the key.
func (b *RedisBucket) Reserve(ctx context.Context, key string, ratePerSecond float64, burst int) (time.Duration, error) {
	interval, err := prospector.BucketInterval(ratePerSecond, burst)
	if err != nil {
		return 0, err
	}
	step := max(interval.Microseconds(), 1)
	wait, err := reserveScript.Run(ctx, b.client, []string{b.prefix + key}, step, burst).Int64()
	if err != nil {
		return 0, fmt.Errorf("ratelimit: redis bucket: %w", err)
	}
	return time.Duration(wait) * time.Microsecond, nil
}
