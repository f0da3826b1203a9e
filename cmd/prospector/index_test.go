package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/prospectorhq/prospector"
	"github.com/prospectorhq/prospector/sqlite"
)

// findsTitle polls search/people until someone with title appears (the
// index catches up in the background) and fails after ten seconds.
func findsTitle(t *testing.T, addr, key, title string) {
	t.Helper()
	body := `{"people":{"job_title":{"include":["` + title + `"]}},"max_results":5}`
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		status, res := postJSON(t, "http://"+addr+"/api/v1/search/people", key, body)
		if status != 200 {
			t.Fatalf("search/people: %d %v", status, res)
		}
		data, _ := res["data"].(map[string]any)
		if items, _ := data["items"].([]any); len(items) == 1 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("nobody titled %q found: %v", title, res)
		}
	}
}

func addPerson(t *testing.T, dir, title string) {
	t.Helper()
	st, err := sqlite.Open(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	p := &prospector.Person{ExternalID: "snap-" + title, FullName: "Sam Snapshot", Title: title, JobLevel: "CXO", CountryCode: "US"}
	if _, err := st.UpsertPeople(context.Background(), []*prospector.Person{p}); err != nil {
		t.Fatal(err)
	}
}

// TestServeRestartsFromIndexSnapshot: serve saves the index next to the
// SQLite data when it stops, loads it on the next start and catches up
// with what was written in between; a damaged snapshot is refused and
// the index built from the database.
func TestServeRestartsFromIndexSnapshot(t *testing.T) {
	dir := t.TempDir()
	vars := map[string]string{"PROSPECTOR_DATA": dir}
	_, out, stop := startServe(t, vars)
	key := lastLine(out.String())
	if err := stop(); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, indexSnapshotFile)
	if _, err := os.Stat(path); err != nil {
		t.Fatalf("no snapshot after shutdown: %v", err)
	}

	addPerson(t, dir, "Chief Snapshot Officer")
	addr, _, logs, stop := startServeLogs(t, vars)
	findsTitle(t, addr, key, "Chief Snapshot Officer")
	if err := stop(); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(logs.String(), "search index loaded from snapshot") {
		t.Fatalf("restart did not load the snapshot:\n%s", logs)
	}

	if err := os.WriteFile(path, []byte("PROSPECTOR-INDEX\nnot a snapshot"), 0o600); err != nil {
		t.Fatal(err)
	}
	addPerson(t, dir, "Head of Rebuilds")
	addr, _, logs, stop = startServeLogs(t, vars)
	findsTitle(t, addr, key, "Head of Rebuilds")
	findsTitle(t, addr, key, "Chief Snapshot Officer")
	if err := stop(); err != nil {
		t.Fatal(err)
	}
	if l := logs.String(); !strings.Contains(l, "search index snapshot not used") || !strings.Contains(l, "search index built") {
		t.Fatalf("a damaged snapshot was not refused and rebuilt:\n%s", l)
	}

	// --index-snapshot=off neither loads nor writes one.
	os.Remove(path)
	_, _, stop = startServe(t, vars, "--index-snapshot=off")
	if err := stop(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(path); err == nil {
		t.Fatal("--index-snapshot=off wrote a snapshot")
	}
}

// TestServeIndexSnapshotOnPostgres: on PostgreSQL a node keeps no
// snapshot unless given a path; with one it restarts from it.
func TestServeIndexSnapshotOnPostgres(t *testing.T) {
	url := os.Getenv("TEST_DATABASE_URL")
	if url == "" {
		t.Skip("TEST_DATABASE_URL not set: skipping PostgreSQL tests")
	}
	dir := t.TempDir()
	vars := map[string]string{"PROSPECTOR_DATABASE_URL": freshSchema(t, url), "PROSPECTOR_DATA": dir}
	_, _, stop := startServe(t, vars)
	if err := stop(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, indexSnapshotFile)); err == nil {
		t.Fatal("a snapshot was written on PostgreSQL without --index-snapshot")
	}
	path := filepath.Join(t.TempDir(), "node-1.snapshot")
	_, _, stop = startServe(t, vars, "--index-snapshot", path)
	if err := stop(); err != nil {
		t.Fatal(err)
	}
	_, _, logs, stop := startServeLogs(t, vars, "--index-snapshot", path)
	if err := stop(); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(logs.String(), "search index loaded from snapshot") {
		t.Fatalf("restart on PostgreSQL did not load its snapshot:\n%s", logs)
	}
}
