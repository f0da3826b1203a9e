package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
)

// Group commit. Small writes of concurrent requests (an email lookup and
// its charge, later a feedback event) would each pay a transaction of
// their own on SQLite's single writer: BEGIN, a WAL append of the same
// workspace page, COMMIT. The committer runs the writes waiting at the
// moment in one transaction instead, each inside its own savepoint, so
// one write failing (no credits left) rolls back only itself, and each
// write sees the ones before it (a repeated idempotency key replays).

// maxGroup bounds the writes of one transaction, so the first waits for
// at most that many others.
const maxGroup = 64

var errClosed = errors.New("sqlite: database closed")

type groupWrite struct {
	ctx  context.Context
	fn   func(ctx context.Context, tx *sql.Tx) error
	done chan error
}

// grouped runs fn in a transaction shared with other grouped writes and
// returns fn's error once the transaction has committed, or the
// transaction's error. fn's statements run with ctx's values but not its
// cancellation: interrupting a statement would roll back every write of
// the group.
func (db *DB) grouped(ctx context.Context, fn func(ctx context.Context, tx *sql.Tx) error) error {
	w := &groupWrite{ctx: context.WithoutCancel(ctx), fn: fn, done: make(chan error, 1)}
	select {
	case db.group <- w:
	case <-ctx.Done():
		return ctx.Err()
	case <-db.closing:
		return errClosed
	}
	return <-w.done // once queued, the write happens: wait for its outcome
}

// committer takes the writes queued by grouped and commits them in
// groups until the database closes.
func (db *DB) committer() {
	defer close(db.groupDone)
	for {
		var batch []*groupWrite
		select {
		case w := <-db.group:
			batch = append(batch, w)
		case <-db.closing:
			return
		}
	fill:
		for len(batch) < maxGroup {
			select {
			case w := <-db.group:
				batch = append(batch, w)
			default:
				break fill
			}
		}
		db.commitGroup(batch)
	}
}

func (db *DB) commitGroup(batch []*groupWrite) {
	errs := make([]error, len(batch))
	err := db.tx(context.Background(), func(tx *sql.Tx) error {
		if len(batch) == 1 { // no savepoint needed: its error rolls back the transaction
			errs[0] = batch[0].fn(batch[0].ctx, tx)
			return errs[0]
		}
		for i, w := range batch {
			if _, err := tx.Exec(`SAVEPOINT grouped`); err != nil {
				return fmt.Errorf("sqlite: savepoint: %w", err)
			}
			if errs[i] = w.fn(w.ctx, tx); errs[i] != nil {
				if _, err := tx.Exec(`ROLLBACK TO grouped`); err != nil {
					return fmt.Errorf("sqlite: rollback to savepoint: %w", err)
				}
			}
			if _, err := tx.Exec(`RELEASE grouped`); err != nil {
				return fmt.Errorf("sqlite: release savepoint: %w", err)
			}
		}
		return nil
	})
	for i, w := range batch {
		switch {
		case errs[i] != nil:
			w.done <- errs[i]
		default:
			w.done <- err
		}
	}
}
