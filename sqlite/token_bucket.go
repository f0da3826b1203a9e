package sqlite

import (
	"context"
	"fmt"
	"time"

	"github.com/prospectorhq/prospector"
)

// qReserve is prospector.TokenBucket's cell rate algorithm in one
// statement: the key's theoretical arrival time moves to max(stored, now)
// plus one interval, and the new value comes back. Times are Unix
// microseconds on this machine's clock. SQLite has one writer, so
// reservations never interleave, and a second process on the same file
// (`prospector sources run --once` beside `serve`) draws from the same
// budget, which an in-process bucket would double. The price: a
// reservation waits for the writer like any write.
const qReserve = `INSERT INTO token_buckets (key, tat) VALUES (?1, ?2 + ?3)
	ON CONFLICT (key) DO UPDATE SET tat = max(tat, ?2) + ?3 RETURNING tat`

// Reserve implements prospector.TokenBucket on the database, so the
// budget holds across restarts of the process. EINVALID for a rate or
// burst that is not positive.
func (db *DB) Reserve(ctx context.Context, key string, ratePerSecond float64, burst int) (time.Duration, error) {
	interval, err := prospector.BucketInterval(ratePerSecond, burst)
	if err != nil {
		return 0, err
	}
	step := max(interval.Microseconds(), 1)
	now := time.Now().UnixMicro()
	var tat int64
	if err := db.write.QueryRowContext(ctx, qReserve, key, now, step).Scan(&tat); err != nil {
		return 0, fmt.Errorf("sqlite: reserve %s: %w", key, err)
	}
	return time.Duration(max(tat-int64(burst)*step-now, 0)) * time.Microsecond, nil
}
