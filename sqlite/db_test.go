package sqlite_test

import (
	"context"
	"database/sql"
	"path/filepath"
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

// TestChangeSeqMigrationBackfills: rows written before the seq column
// existed must still reach the search index after migrating.
func TestChangeSeqMigrationBackfills(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	db, err := sqlite.Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.UpsertCompanies(ctx, []*prospector.Company{{Name: "Old", Domain: "old.example"}}); err != nil {
		t.Fatal(err)
	}
	db.Close()
	// Roll the file back to how version 2 left it.
	raw, err := sql.Open("sqlite", filepath.Join(dir, "prospector.db"))
	if err != nil {
		t.Fatal(err)
	}
	for _, stmt := range []string{
		`DROP INDEX companies_seq`, `DROP INDEX people_seq`,
		`ALTER TABLE companies DROP COLUMN seq`, `ALTER TABLE people DROP COLUMN seq`,
		`DROP TABLE settings`, `DELETE FROM schema_migrations WHERE version IN (3, 4)`,
	} {
		if _, err := raw.Exec(stmt); err != nil {
			t.Fatalf("%s: %v", stmt, err)
		}
	}
	raw.Close()
	db, err = sqlite.Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	got, err := db.CompaniesChangedSince(ctx, 0, 10)
	if err != nil || len(got) != 1 || got[0].Seq == 0 {
		t.Fatalf("a company written before migration 3 is invisible to followers: %+v %v", got, err)
	}
}

// TestNewFileSettings: a new file gets 8 KiB pages (the driver runs the
// DSN's pragmas alphabetically, so journal_mode used to fix the page size
// at 4 KiB before page_size ran) and WAL; reopening keeps both.
func TestNewFileSettings(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	for range 2 {
		db, err := sqlite.Open(ctx, dir)
		if err != nil {
			t.Fatal(err)
		}
		db.Close()
		raw, err := sql.Open("sqlite", "file:"+filepath.Join(dir, "prospector.db"))
		if err != nil {
			t.Fatal(err)
		}
		var size int
		var mode string
		if err := raw.QueryRow(`PRAGMA page_size`).Scan(&size); err != nil {
			t.Fatal(err)
		}
		if err := raw.QueryRow(`PRAGMA journal_mode`).Scan(&mode); err != nil {
			t.Fatal(err)
		}
		raw.Close()
		if size != 8192 || mode != "wal" {
			t.Fatalf("page_size %d, journal_mode %s; want 8192 and wal", size, mode)
		}
	}
}
