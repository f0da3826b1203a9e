package sqlite

import (
	"context"
	"fmt"
	"strings"

	"github.com/prospectorhq/prospector"
)

// Durability. In WAL mode SQLite's synchronous setting decides when the
// log reaches the disk: NORMAL syncs it only at checkpoints, so a commit
// survives the process crashing but may be lost with the machine (power,
// kernel panic, a VM stopped hard); FULL syncs the log at every commit, so
// an acknowledged commit survives both, at the cost of one fsync per
// transaction, which group commit (group.go) shares among the writes of a
// group. See docs/decisions.md ("Infrastructure") for the figures behind
// the default.

// Options tune OpenWith. Zero fields get the defaults documented on them.
type Options struct {
	// Synchronous is "NORMAL" or "FULL" (any case); default
	// DefaultSynchronous.
	Synchronous string
}

// DefaultSynchronous is the synchronous setting of a store opened
// without one.
const DefaultSynchronous = "FULL"

// ParseSynchronous returns the synchronous setting s names, in upper
// case: DefaultSynchronous for "", else NORMAL or FULL. A validation
// error for anything else (OFF would lose commits when the process
// crashes).
func ParseSynchronous(s string) (string, error) {
	switch v := strings.ToUpper(strings.TrimSpace(s)); v {
	case "":
		return DefaultSynchronous, nil
	case "NORMAL", "FULL":
		return v, nil
	}
	return "", prospector.Errorf(prospector.EINVALID, "sqlite synchronous %q: want normal or full", s)
}

// Synchronous returns the synchronous setting in force on the writer
// connection and on a reader: OFF, NORMAL, FULL or EXTRA. An error when
// either cannot be read.
func (db *DB) Synchronous(ctx context.Context) (writer, reader string, err error) {
	names := map[int]string{0: "OFF", 1: "NORMAL", 2: "FULL", 3: "EXTRA"}
	var w, r int
	if err := db.write.QueryRowContext(ctx, `PRAGMA synchronous`).Scan(&w); err != nil {
		return "", "", fmt.Errorf("sqlite: synchronous: %w", err)
	}
	if err := db.read.QueryRowContext(ctx, `PRAGMA synchronous`).Scan(&r); err != nil {
		return "", "", fmt.Errorf("sqlite: synchronous: %w", err)
	}
	return names[w], names[r], nil
}
