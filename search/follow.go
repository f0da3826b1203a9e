package search

import (
	"context"
	"log/slog"
	"time"
)

// Follow keeps the index in step with the store until ctx ends, applying
// the changes every node's writers record (imports on any node, other
// processes) every interval. Errors are logged and retried.
func (ix *Index) Follow(ctx context.Context, every time.Duration, logger *slog.Logger) {
	ix.FollowThen(ctx, every, logger, nil)
}

// FollowThen is Follow calling then (when not nil) after every catch-up,
// on the same goroutine: a snapshot written there holds the read lock
// while no change waits for the write lock, so queries never queue
// behind it.
func (ix *Index) FollowThen(ctx context.Context, every time.Duration, logger *slog.Logger, then func(context.Context)) {
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			n, err := ix.Sync(ctx)
			if err != nil && ctx.Err() == nil {
				logger.Warn("search index sync failed; retrying", "error", err.Error())
			} else if n > 0 {
				logger.Info("search index caught up", "rows", n)
			}
			if then != nil && ctx.Err() == nil {
				then(ctx)
			}
		}
	}
}
