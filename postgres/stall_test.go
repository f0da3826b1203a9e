package postgres_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/prospectorhq/prospector"
	"github.com/prospectorhq/prospector/postgres"
	"github.com/prospectorhq/prospector/postgres/pgtest"
	"github.com/prospectorhq/prospector/storetest"
)

// A database that stops answering (a hung server or a stalled network,
// here a frozen proxy) must not commit writes whose callers already gave
// up: each write either answers within its caller's deadline or leaves
// nothing behind, even once the held bytes reach the server.
func TestStalledDatabaseKeepsNothingItDidNotAnswer(t *testing.T) {
	lookup := func(w *prospector.Workspace, key string) *prospector.EmailLookup {
		return &prospector.EmailLookup{WorkspaceID: w.ID, IdempotencyKey: key, RequestHash: "h" + key,
			Email: "ada@acme.example", Verified: true, Confidence: 0.9, Credits: 1}
	}
	for _, tc := range []struct {
		name string
		// write is run once before the stall (so the connection has its
		// statements prepared and sends the next call's at once) and once
		// during it.
		write func(ctx context.Context, db *postgres.DB, w *prospector.Workspace, n int) error
		// kept counts what the writes left behind: want one, the first.
		kept func(u *prospector.CreditUsage, lookups int) int64
	}{
		{"batched charge", func(ctx context.Context, db *postgres.DB, w *prospector.Workspace, _ int) error {
			_, _, err := db.RecordEmailLookup(ctx, lookup(w, ""), time.Now())
			return err
		}, func(u *prospector.CreditUsage, lookups int) int64 { return max(u.CreditsUsed, int64(lookups)) }},
		{"charge with idempotency key", func(ctx context.Context, db *postgres.DB, w *prospector.Workspace, n int) error {
			_, _, err := db.RecordEmailLookup(ctx, lookup(w, string(rune('a'+n))), time.Now())
			return err
		}, func(u *prospector.CreditUsage, lookups int) int64 { return max(u.CreditsUsed, int64(lookups)) }},
		{"radar quota", func(ctx context.Context, db *postgres.DB, w *prospector.Workspace, _ int) error {
			return db.AcquireQuota(ctx, w.ID, prospector.QuotaRadars)
		}, func(u *prospector.CreditUsage, _ int) int64 { return u.Radars.Used }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			url := freshSchema(t)
			direct := openURL(t, url)
			w := storetest.NewWorkspace(t, direct, "stalled", prospector.PlanGrowth)
			proxy, proxied, app := pgtest.Proxied(t, url)
			// One connection: the write during the stall goes out on the
			// one the first write warmed.
			db, err := postgres.OpenWith(context.Background(), proxied+"&pool_max_conns=1",
				postgres.Options{StatementTimeout: 5 * time.Second})
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			if err := tc.write(context.Background(), db, w, 0); err != nil {
				t.Fatal(err)
			}

			proxy.Freeze()
			errc := make(chan error, 1)
			go func() {
				ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
				defer cancel()
				errc <- tc.write(ctx, db, w, 1)
			}()
			select {
			case err := <-errc:
				if err == nil {
					t.Fatal("succeeded through a frozen database")
				} else if !errors.Is(err, context.DeadlineExceeded) {
					t.Errorf("%v, want the caller's deadline", err)
				}
			case <-time.After(10 * time.Second):
				t.Error("not answered within its deadline while the database was frozen")
			}

			// The server now reads what the proxy held, then the end of
			// the abandoned connection.
			proxy.Thaw()
			db.Close()
			pgtest.Drained(t, app)
			u, err := direct.CreditUsage(context.Background(), w.ID, time.Now())
			if err != nil {
				t.Fatal(err)
			}
			var lookups int
			if err := direct.Pool().QueryRow(context.Background(), `SELECT count(*) FROM email_lookups`).Scan(&lookups); err != nil {
				t.Fatal(err)
			}
			if n := tc.kept(u, lookups); n != 1 {
				t.Fatalf("after the stall %d writes are kept, want only the first", n)
			}
		})
	}
}

// StatementTimeout ends a statement the server is stuck in even when the
// caller set no deadline, and bounds idle time inside transactions.
func TestStatementTimeout(t *testing.T) {
	url := freshSchema(t)
	db, err := postgres.OpenWith(context.Background(), url, postgres.Options{StatementTimeout: 300 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	w := storetest.NewWorkspace(t, db, "locked", prospector.PlanGrowth)
	var idle string
	if err := db.Pool().QueryRow(context.Background(), `SHOW idle_in_transaction_session_timeout`).Scan(&idle); err != nil || idle != "300ms" {
		t.Fatalf("idle_in_transaction_session_timeout = %q, %v; want 300ms", idle, err)
	}
	// Another session holds the workspace row, as a stuck transaction
	// of another node would.
	ctx := context.Background()
	holder, err := db.Pool().Acquire(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer holder.Release()
	if _, err := holder.Exec(ctx, `BEGIN; SET LOCAL idle_in_transaction_session_timeout = 0;
		SELECT 1 FROM workspaces WHERE id = '`+w.ID+`' FOR UPDATE`); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- db.AcquireQuota(ctx, w.ID, prospector.QuotaRadars) }()
	select {
	case err := <-done:
		if err == nil {
			t.Fatal("AcquireQuota passed a row lock held by another session")
		}
	case <-time.After(10 * time.Second):
		t.Fatal("a statement waiting on a lock was not ended by the statement timeout")
	}
	holder.Exec(ctx, `ROLLBACK`)
}
