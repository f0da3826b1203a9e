package sqlite

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"time"
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

// The savepoint statements, prepared once (Open) like the writes they
// wrap.
const (
	qSavepoint  = `SAVEPOINT grouped`
	qRollbackTo = `ROLLBACK TO grouped`
	qRelease    = `RELEASE grouped`
)

func (db *DB) savepoint(ctx context.Context, tx *sql.Tx, q string) error {
	s, err := txStmt(ctx, db, tx, q)
	if err == nil {
		_, err = s.ExecContext(ctx)
	}
	if err != nil {
		return fmt.Errorf("sqlite: %s: %w", q, err)
	}
	return nil
}

// rewindFrames is the WAL length, in frames, past which the checkpointer
// asks the committer to restart the log (see restartWAL): 32 MiB of
// 8 KiB pages. A restart holds writes for about 5 ms, so under steady
// load it comes about once a second.
const rewindFrames = 4096

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
	var lastCommit, lastRewind time.Time
	for {
		var batch []*groupWrite
		select {
		case w := <-db.group:
			batch = append(batch, w)
		case <-db.rewind:
			// Only the committer's own steady writes need the rewind: a
			// bulk load (import, seed) writes through its own session with no reader
			// in the log and rewinds it by itself, and would only wait.
			if lastCommit.After(lastRewind) {
				db.restartWAL()
				lastRewind = time.Now()
			}
			continue
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
		lastCommit = time.Now()
	}
}

// restartWAL checkpoints the whole WAL and lets the next write start it
// from the beginning. SQLite rewinds the WAL only when a write begins
// with every frame copied back and no reader inside the log; under a
// steady stream of small writes and reads (enrich/email) that moment
// never comes by itself, as the passive checkpointer always trails the
// last commit: the WAL grew by 50 MB/s, and every page read searched a
// longer index of frames (throughput fell by a quarter in 20 s). RESTART
// mode holds off writers, here only the committer itself, and waits for
// the readers still inside the log; their transactions are short, so the
// wait is bounded tightly, and an attempt that times out is retried when
// the checkpointer next finds the WAL long.
//
// Nothing here fails a write, so restartWAL reports nothing: each step
// that fails leaves the WAL as long as it was, for the next attempt.
func (db *DB) restartWAL() {
	ctx := context.Background()
	conn, err := db.write.Conn(ctx)
	if err != nil {
		return // the writer is closing
	}
	// Close only hands the connection back to the pool (or finds it
	// already discarded below): it has nothing to report.
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, `PRAGMA busy_timeout = 10`); err != nil {
		return // the timeout is unchanged, so is the WAL
	}
	// A failed checkpoint (a reader still inside the log after 10 ms)
	// only means the WAL keeps its frames until the checkpointer next
	// finds it long and asks again: its error is not acted on.
	_, _ = conn.ExecContext(ctx, `PRAGMA wal_checkpoint(RESTART)`)
	if _, err := conn.ExecContext(ctx, `PRAGMA busy_timeout = 10000`); err != nil {
		// The writer must not keep a 10 ms timeout: ErrBadConn makes
		// database/sql close this connection, and the pool opens the next
		// with the DSN's pragmas. Raw returns that ErrBadConn back.
		_ = conn.Raw(func(any) error { return driver.ErrBadConn })
	}
}

func (db *DB) commitGroup(batch []*groupWrite) {
	errs := make([]error, len(batch))
	err := db.tx(context.Background(), func(tx *sql.Tx) error {
		if len(batch) == 1 { // no savepoint needed: its error rolls back the transaction
			errs[0] = batch[0].fn(batch[0].ctx, tx)
			return errs[0]
		}
		ctx := context.Background()
		for i, w := range batch {
			if err := db.savepoint(ctx, tx, qSavepoint); err != nil {
				return err
			}
			if errs[i] = w.fn(w.ctx, tx); errs[i] != nil {
				if err := db.savepoint(ctx, tx, qRollbackTo); err != nil {
					return err
				}
			}
			if err := db.savepoint(ctx, tx, qRelease); err != nil {
				return err
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
