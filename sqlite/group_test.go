package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
)

// TestGroupedWritesFailAlone runs concurrent grouped writes of which every
// third fails after writing: only the failed ones' rows are gone, and
// every caller gets its own outcome.
func TestGroupedWritesFailAlone(t *testing.T) {
	ctx := context.Background()
	db, err := Open(ctx, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	boom := errors.New("boom")
	var wg sync.WaitGroup
	errs := make([]error, 90)
	for i := range errs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = db.grouped(ctx, func(ctx context.Context, tx *sql.Tx) error {
				if _, err := tx.ExecContext(ctx, `INSERT INTO settings (name, value) VALUES (?, 'x')`, fmt.Sprint(i)); err != nil {
					return err
				}
				if i%3 == 0 {
					return boom
				}
				return nil
			})
		}()
	}
	wg.Wait()
	for i, err := range errs {
		var n int
		if qerr := db.read.QueryRow(`SELECT count(*) FROM settings WHERE name = ?`, fmt.Sprint(i)).Scan(&n); qerr != nil {
			t.Fatal(qerr)
		}
		if want := i%3 != 0; (n == 1) != want || (err == nil) != want || (!want && !errors.Is(err, boom)) {
			t.Errorf("write %d: error %v, rows %d", i, err, n)
		}
	}
}

// TestGroupedAfterClose refuses writes once the database is closed.
func TestGroupedAfterClose(t *testing.T) {
	db, err := Open(context.Background(), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	db.Close()
	err = db.grouped(context.Background(), func(context.Context, *sql.Tx) error { return nil })
	if !errors.Is(err, errClosed) {
		t.Fatalf("got %v", err)
	}
}

// TestWALRewindsUnderSteadyReads: with readers busy all the while, the
// load under which SQLite never rewinds the WAL by itself, the write
// after restartWAL starts the log from its beginning again.
func TestWALRewindsUnderSteadyReads(t *testing.T) {
	ctx := context.Background()
	db, err := Open(ctx, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	db.rewindAt.Store(1 << 40) // only the test asks for a rewind
	if _, err := db.write.ExecContext(ctx, `CREATE TABLE load (id INTEGER PRIMARY KEY, v TEXT)`); err != nil {
		t.Fatal(err)
	}
	stop := make(chan struct{})
	var wg sync.WaitGroup
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				select {
				case <-stop:
					return
				default:
				}
				var n int
				_ = db.read.QueryRowContext(ctx, `SELECT id FROM load WHERE id = 1`).Scan(&n)
			}
		}()
	}
	defer func() { close(stop); wg.Wait() }()
	pad := strings.Repeat("x", 6000) // text: the store refuses NUL
	write := func(id int) {
		t.Helper()
		err := db.grouped(ctx, func(ctx context.Context, tx *sql.Tx) error {
			_, err := tx.ExecContext(ctx, `INSERT INTO load (id, v) VALUES (?, ?)`, id, pad)
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	frames := func() int {
		t.Helper()
		var busy, log, done int
		if err := db.ckpt.QueryRowContext(ctx, `PRAGMA wal_checkpoint(PASSIVE)`).Scan(&busy, &log, &done); err != nil {
			t.Fatal(err)
		}
		return log
	}
	for i := range 300 {
		write(i + 1)
	}
	if n := frames(); n < 300 {
		t.Fatalf("300 writes left %d frames in the WAL", n)
	}
	// A reader can slip into the log between the checkpoint and the next
	// write (the committer then asks again, 250 ms later); a few tries
	// must do.
	n := 0
	for try := range 20 {
		db.restartWAL()
		write(1000 + try)
		if n = frames(); n <= 10 {
			return
		}
	}
	t.Fatalf("after restartWAL a write left the WAL at %d frames: it was not rewound", n)
}
