package importer

import (
	"context"

	"github.com/prospectorhq/prospector"
)

// committer commits a bulk session every size records and counts what
// was committed: the one rule imports and the demo seed write by.
type committer struct {
	bulk prospector.Bulk
	size int
	// committed counts the committed writes; pending those since.
	committed, pending prospector.UpsertResult
	rows               int
}

func newCommitter(b prospector.Bulk, size int) *committer {
	if size <= 0 {
		size = DefaultCommitSize
	}
	return &committer{bulk: b, size: size}
}

// wrote records an upsert of n records, committing when size wait.
func (c *committer) wrote(ctx context.Context, n int, res prospector.UpsertResult) error {
	c.pending.Add(res)
	if c.rows += n; c.rows >= c.size {
		return c.commit(ctx)
	}
	return nil
}

func (c *committer) commit(ctx context.Context) error {
	if err := c.bulk.Commit(ctx); err != nil {
		return err
	}
	c.committed.Add(c.pending)
	c.pending, c.rows = prospector.UpsertResult{}, 0
	return nil
}
