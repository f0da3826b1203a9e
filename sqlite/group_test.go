package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
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
