package ratelimit

import (
	"context"
	"fmt"
	"log/slog"
	"strings"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/prospectorhq/prospector/throttle"
)

// redisLogEvery is how often go-redis's own complaints reach the log
// while they repeat: during an outage its pool reports a failed dial
// every time the limiter probes Redis again (every second under load).
const redisLogEvery = 30 * time.Second

// RedisLog receives go-redis's own log lines (dial failures of its pool,
// mostly) and writes them to a structured logger, rate-limited: the
// first, then at most one every 30 s, counting the ones held back.
type RedisLog struct {
	logger *slog.Logger
	gate   *throttle.Gate
}

// NewRedisLog returns a RedisLog writing to logger on the clock now (nil
// means time.Now).
func NewRedisLog(logger *slog.Logger, now func() time.Time) *RedisLog {
	return &RedisLog{logger: logger, gate: throttle.New(redisLogEvery, now)}
}

// Printf implements go-redis's Logging interface.
func (l *RedisLog) Printf(ctx context.Context, format string, v ...any) {
	ok, held := l.gate.Pass()
	if !ok {
		return
	}
	// go-redis prefixes most lines with "redis: "; the message says so.
	msg := strings.TrimPrefix(strings.TrimSpace(fmt.Sprintf(format, v...)), "redis: ")
	l.logger.LogAttrs(ctx, slog.LevelWarn, "redis client", slog.String("detail", msg),
		slog.Int("repeats_held_back", held), slog.Duration("next_within", redisLogEvery))
}

// UseRedisLog makes every go-redis client of the process log through l
// instead of writing plain text to stderr. go-redis keeps its logger in a
// package variable, so this is process-wide: main's business only.
func UseRedisLog(l *RedisLog) { redis.SetLogger(l) }
