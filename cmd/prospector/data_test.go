package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/prospectorhq/prospector/sqlite"
)

func samplePath(name string) string { return filepath.Join("..", "..", "testdata", "import", name) }

func TestImportCommand(t *testing.T) {
	vars := map[string]string{"PROSPECTOR_DATA": t.TempDir()}
	out, _, err := cli(t, vars, "import", "--kind", "companies", samplePath("companies.jsonl"))
	if err != nil || !strings.Contains(out, "read 3, inserted 3, updated 0, unchanged 0, rejected 0") {
		t.Fatalf("import companies: %q %v", out, err)
	}
	out, _, err = cli(t, vars, "import", "--kind", "companies", samplePath("companies.jsonl"))
	if err != nil || !strings.Contains(out, "read 3, inserted 0, updated 0, unchanged 3, rejected 0") {
		t.Fatalf("re-import must change nothing: %q %v", out, err)
	}
	bad := filepath.Join(t.TempDir(), "people.txt")
	os.WriteFile(bad, []byte("full_name,id,email\nAda,1,ada@x.example\nBob,,\nCy,3,not-an-email\n"), 0o644)
	out, errOut, err := cli(t, vars, "import", "--kind", "people", "--format", "csv", bad)
	if err == nil || !strings.Contains(err.Error(), "2 of 3 lines rejected") {
		t.Fatalf("a file with rejected lines must fail: %v", err)
	}
	if !strings.Contains(out, "read 3, inserted 1, updated 0, unchanged 0, rejected 2") ||
		!strings.Contains(errOut, bad+":3: network_url or id") || !strings.Contains(errOut, bad+":4: email:") {
		t.Fatalf("summary %q, errors %q", out, errOut)
	}
	for _, args := range [][]string{
		{"import", samplePath("companies.jsonl")},
		{"import", "--kind", "leads", samplePath("companies.jsonl")},
		{"import", "--kind", "people", bad},
		{"import", "--kind", "people", filepath.Join(t.TempDir(), "missing.csv")},
	} {
		if _, _, err := cli(t, vars, args...); err == nil {
			t.Errorf("%v: no error", args)
		}
	}
}

func TestDemoSeedCommand(t *testing.T) {
	dir := t.TempDir()
	vars := map[string]string{"PROSPECTOR_DATA": dir}
	out, errOut, err := cli(t, vars, "demo", "seed", "--companies", "30", "--people", "300", "--seed", "7")
	if err != nil || !strings.Contains(out, "demo: 30 companies and 300 people (seed 7)") {
		t.Fatalf("demo seed: %q %q %v", out, errOut, err)
	}
	st, err := sqlite.Open(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	nc, err := st.CountCompanies(ctx)
	if err != nil {
		t.Fatal(err)
	}
	np, err := st.CountPeople(ctx)
	if err != nil {
		t.Fatal(err)
	}
	ns, err := st.CountSignals(ctx)
	if err != nil {
		t.Fatal(err)
	}
	people, err := st.ListPeople(ctx, 0, 300)
	if err != nil {
		t.Fatal(err)
	}
	st.Close()
	if nc != 30 || np != 300 || ns == 0 {
		t.Fatalf("stored %d companies, %d people, %d signals", nc, np, ns)
	}
	levels := map[string]bool{}
	for _, p := range people {
		if p.JobLevel == "" || p.CompanyID == nil {
			t.Fatalf("demo person without derived level or company: %+v", p)
		}
		levels[p.JobLevel] = true
	}
	if len(levels) < 5 {
		t.Errorf("demo people span only levels %v", levels)
	}
	out, _, err = cli(t, vars, "demo", "seed", "--companies", "30", "--people", "300", "--seed", "7")
	if err != nil || !strings.Contains(out, "inserted 0,") {
		t.Fatalf("same seed again must insert nothing: %q %v", out, err)
	}
	if _, _, err := cli(t, vars, "demo", "seed", "--companies", "0"); err == nil {
		t.Error("--companies 0 accepted")
	}
}

// TestDemoExportImportsCleanly: the exported files are valid import input
// and load the same dataset.
func TestDemoExportImportsCleanly(t *testing.T) {
	dir := t.TempDir()
	out, _, err := cli(t, nil, "demo", "seed", "--companies", "25", "--people", "250", "--out", dir)
	if err != nil || !strings.Contains(out, "wrote 25 companies and 250 people") {
		t.Fatalf("export: %q %v", out, err)
	}
	vars := map[string]string{"PROSPECTOR_DATA": t.TempDir()}
	for _, kind := range []string{"companies", "people", "signals", "news-events", "financing-events"} {
		out, errOut, err := cli(t, vars, "import", "--kind", kind, filepath.Join(dir, kind+".jsonl"))
		if err != nil || !strings.Contains(out, "rejected 0") {
			t.Fatalf("import %s: %q %q %v", kind, out, errOut, err)
		}
		if kind == "people" && !strings.Contains(out, "inserted 250") {
			t.Fatalf("people: %q", out)
		}
	}
}
