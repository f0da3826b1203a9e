package sqlite_test

import (
	"context"
	"testing"

	"github.com/prospectorhq/prospector"
	"github.com/prospectorhq/prospector/sqlite"
	"github.com/prospectorhq/prospector/storetest"
)

func open(t *testing.T) prospector.Store {
	t.Helper()
	db, err := sqlite.Open(context.Background(), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

func TestConformance(t *testing.T) { storetest.Run(t, open) }

func TestReopenKeepsDataAndSkipsApplied(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	db, err := sqlite.Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	storetest.NewWorkspace(t, db, "kept", prospector.PlanGrowth)
	db.Close()
	db, err = sqlite.Open(ctx, dir)
	if err != nil {
		t.Fatalf("reopen (migrations must not run twice): %v", err)
	}
	defer db.Close()
	if _, err := db.WorkspaceByName(ctx, "kept"); err != nil {
		t.Fatalf("workspace lost across reopen: %v", err)
	}
}
