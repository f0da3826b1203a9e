package postgres_test

import (
	"context"
	"sync"
	"testing"

	"github.com/prospectorhq/prospector/postgres/pgtest"

	"github.com/prospectorhq/prospector"
	"github.com/prospectorhq/prospector/postgres"
	"github.com/prospectorhq/prospector/storetest"
)

// baseURL is the database the tests use; each test works in a schema of
// its own, so runs in parallel (and leftovers) never collide.
func baseURL(t testing.TB) string                   { return pgtest.BaseURL(t) }
func freshSchema(t testing.TB) string               { return pgtest.FreshSchema(t) }
func openURL(t testing.TB, url string) *postgres.DB { return pgtest.Open(t, url) }

func open(t *testing.T) prospector.Store { return openURL(t, freshSchema(t)) }

func TestConformance(t *testing.T) {
	baseURL(t)
	storetest.Run(t, open)
}

// migrated counts the rows of schema_migrations against the embedded files.
func migrated(t *testing.T, db *postgres.DB) int {
	t.Helper()
	var n int
	if err := db.Pool().QueryRow(context.Background(), `SELECT count(*) FROM schema_migrations`).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

func TestReopenKeepsDataAndSkipsApplied(t *testing.T) {
	ctx := context.Background()
	url := freshSchema(t)
	db, err := postgres.Open(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	storetest.NewWorkspace(t, db, "kept", prospector.PlanGrowth)
	want := migrated(t, db)
	db.Close()
	db = openURL(t, url)
	if _, err := db.WorkspaceByName(ctx, "kept"); err != nil {
		t.Fatalf("workspace lost across reopen: %v", err)
	}
	if got := migrated(t, db); got != want || got == 0 {
		t.Fatalf("schema_migrations has %d rows after reopen, want %d", got, want)
	}
}

// Nodes of one deployment start together; the advisory lock must make
// every one of them succeed, with each step applied once.
func TestConcurrentOpen(t *testing.T) {
	url := freshSchema(t)
	const nodes = 4
	dbs := make([]*postgres.DB, nodes)
	errs := make([]error, nodes)
	var wg sync.WaitGroup
	for i := range nodes {
		wg.Add(1)
		go func() {
			defer wg.Done()
			dbs[i], errs[i] = postgres.Open(context.Background(), url)
		}()
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Errorf("node %d: %v", i, err)
			continue
		}
		t.Cleanup(func() { dbs[i].Close() })
	}
	if t.Failed() {
		t.FailNow()
	}
	storetest.NewWorkspace(t, dbs[0], "shared", prospector.PlanDefault)
	if _, err := dbs[nodes-1].WorkspaceByName(context.Background(), "shared"); err != nil {
		t.Fatalf("nodes do not share the schema: %v", err)
	}
}
