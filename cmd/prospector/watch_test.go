package main

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/prospectorhq/prospector"
)

func TestWatchCommands(t *testing.T) {
	vars := map[string]string{"PROSPECTOR_DATA": t.TempDir()}
	out := mustCLI(t, vars, "watch", "add", "HTTPS://www.Acme-Robotics.test/about", "--board", "greenhouse:acme",
		"--board", "https://jobs.eu.lever.co/acme", "--feed", "https://acme-robotics.test/blog.rss")
	if !strings.Contains(out, "watching acme-robotics.test (new company, 4 new targets)") {
		t.Fatalf("watch add: %q", out)
	}
	list := filepath.Join(t.TempDir(), "domains.txt")
	if err := os.WriteFile(list, []byte("# prospects\nbeta.test\n\nacme-robotics.test\ngamma.test\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	out = mustCLI(t, vars, "watch", "add", "--file", list, "delta.test")
	for _, want := range []string{"watching delta.test (new company, 1 new targets)", "watching beta.test (new company",
		"watching acme-robotics.test (already watched, 0 new targets)"} {
		if !strings.Contains(out, want) {
			t.Fatalf("watch add --file: %q lacks %q", out, want)
		}
	}
	// A radar naming a competitor watches it too.
	st := openStore(t, vars)
	w := prospector.NewWorkspace("radars", prospector.PlanGrowth)
	if err := st.CreateWorkspace(context.Background(), w); err != nil {
		t.Fatal(err)
	}
	r := &prospector.Radar{ID: prospector.NewRadarID(), WorkspaceID: w.ID, Name: "rivals",
		Config: prospector.RadarConfig{CompetitorURLs: []string{"https://rival.test"}}}
	if err := st.CreateRadar(context.Background(), r); err != nil {
		t.Fatal(err)
	}
	var rows []watchJSON
	if err := json.Unmarshal([]byte(mustCLI(t, vars, "watch", "list", "--json")), &rows); err != nil {
		t.Fatal(err)
	}
	byDomain := map[string]watchJSON{}
	for _, r := range rows {
		byDomain[r.Domain] = r
	}
	acme := byDomain["acme-robotics.test"]
	if len(rows) != 5 || !acme.Explicit || acme.AddedBy != "cli" || acme.AddedAt == nil ||
		strings.Join(acme.Boards, " ") != "greenhouse:acme lever-eu:acme" || len(acme.Feeds) != 1 {
		t.Fatalf("watch list: %+v", rows)
	}
	if rival := byDomain["rival.test"]; rival.Explicit || len(rival.Radars) != 1 || rival.Radars[0] != r.ID {
		t.Fatalf("the radar's competitor: %+v", rival)
	}
	if table := mustCLI(t, vars, "watch", "list"); !strings.Contains(table, "radar "+r.ID) || !strings.Contains(table, "5 watched") {
		t.Fatalf("watch list table:\n%s", table)
	}
	out = mustCLI(t, vars, "watch", "remove", "beta.test", "rival.test")
	if !strings.Contains(out, "stopped watching 1 of 2 domains") {
		t.Fatalf("watch remove: %q", out)
	}
	rows = nil
	if err := json.Unmarshal([]byte(mustCLI(t, vars, "watch", "list", "--json")), &rows); err != nil || len(rows) != 4 {
		t.Fatalf("after remove: %d %v", len(rows), err)
	}
}

func TestWatchAddErrors(t *testing.T) {
	vars := map[string]string{"PROSPECTOR_DATA": t.TempDir()}
	bad := filepath.Join(t.TempDir(), "bad.txt")
	if err := os.WriteFile(bad, []byte("ok.test\nnot a domain\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"watch", "add"}, "give one or more domains"},
		{[]string{"watch", "add", "not a domain"}, `"not a domain" is not a domain`},
		{[]string{"watch", "add", "--file", bad}, "line 2"},
		{[]string{"watch", "add", "--file", filepath.Join(t.TempDir(), "missing.txt")}, "--file"},
		{[]string{"watch", "add", "a.test", "b.test", "--board", "greenhouse:acme"}, "exactly one domain"},
		{[]string{"watch", "add", "a.test", "--board", "monster:acme"}, "--board"},
		{[]string{"watch", "add", "a.test", "--board", "greenhouse"}, "--board"},
		{[]string{"watch", "add", "a.test", "--feed", "ftp://a.test/feed"}, "--feed"},
		{[]string{"watch", "remove", "not a domain"}, "is not a domain"},
		{[]string{"watch", "remove"}, "requires at least 1 arg"},
	} {
		_, _, err := cli(t, vars, c.args...)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: %v, want an error with %q", c.args, err, c.want)
		}
	}
	// Nothing was written by the refused commands.
	var rows []watchJSON
	if err := json.Unmarshal([]byte(mustCLI(t, vars, "watch", "list", "--json")), &rows); err != nil || len(rows) != 0 {
		t.Fatalf("after refused commands: %v %v", rows, err)
	}
}
