package postgres

import (
	"context"
	"fmt"
	"time"

	"github.com/prospectorhq/prospector"
)

// qReserve is prospector.TokenBucket's cell rate algorithm in one
// statement: the key's theoretical arrival time moves to max(stored,
// now) plus one interval ($2 microseconds), under the row's lock, and the
// new value comes back with the database's now. Every node reads the
// database's clock, so their own clocks need not agree.
const qReserve = `INSERT INTO token_buckets AS b (key, tat) VALUES ($1, now() + make_interval(secs => $2::float8 / 1e6))
	ON CONFLICT (key) DO UPDATE SET tat = greatest(b.tat, now()) + make_interval(secs => $2::float8 / 1e6)
	RETURNING b.tat, now()`

// Reserve implements prospector.TokenBucket for every node sharing the
// database. EINVALID for a rate or burst that is not positive.
func (db *DB) Reserve(ctx context.Context, key string, ratePerSecond float64, burst int) (time.Duration, error) {
	interval, err := prospector.BucketInterval(ratePerSecond, burst)
	if err != nil {
		return 0, err
	}
	step := max(interval.Microseconds(), 1)
	var tat, now time.Time
	if err := db.pool.QueryRow(ctx, qReserve, key, step).Scan(&tat, &now); err != nil {
		return 0, fmt.Errorf("postgres: reserve %s: %w", key, err)
	}
	wait := tat.Sub(now) - time.Duration(int64(burst)*step)*time.Microsecond
	return max(wait, 0), nil
}
