package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/prospectorhq/prospector/boards/boardtest"
)

// Bad values of the source flags are refused with an error naming the
// flag, before anything is fetched or written.
func TestSourcesFlagErrors(t *testing.T) {
	vars := map[string]string{"PROSPECTOR_DATA": t.TempDir()}
	fp := filepath.Join(t.TempDir(), "broken.json")
	if err := os.WriteFile(fp, []byte(`{"Acme": {"cats": "analytics"}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	run := []string{"sources", "run", "--once"}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"sources", "run"}, "--once is required"},
		{append(run, "--source", "monster"), "--source: unknown source \"monster\""},
		{append(run, "--domain", "not a domain"), "--domain"},
		{append(run, "--source-base-url", "greenhouse"), "--source-base-url"},
		{append(run, "--source-base-url", "monster=http://127.0.0.1:9"), "--source-base-url"},
		{append(run, "--source-base-url", "greenhouse=ftp://127.0.0.1:9"), "--source-base-url"},
		{append(run, "--source-base-url", "lever=http://a.test", "--source-base-url", "lever=http://b.test"), "given twice"},
		{append(run, "--source-base-url", "sec=ftp://127.0.0.1:9"), "--source-base-url"},
		{append(run, "--source-base-url", "gdelt=http://127.0.0.1:9/doc?x=1"), "--source-base-url"},
		{append(run, "--source", "sec", "--source-base-url", "sec=http://127.0.0.1:9"), "contact email"},
		{append(run, "--source", "sec", "--contact-email", "https://ops.example", "--source-base-url", "sec=http://127.0.0.1:9"), "contact email"},
		{append(run, "--since", "2026-05-04"), "--since: only with --source sec"},
		{append(run, "--source", "sec", "--domain", "acme.example"), "--domain"},
		{append(run, "--source", "sec", "--since", "May 4"), "--since"},
		{append(run, "--resolve", "acme.test"), "--resolve"},
		{append(run, "--resolve", "acme.test=127.0.0.1:99999"), "--resolve"},
		{append(run, "--contact-email", "ops at example"), "--contact-email"},
		{append(run, "--fingerprints", filepath.Join(t.TempDir(), "missing.json")), "--fingerprints"},
		{append(run, "--fingerprints", fp), "--fingerprints"},
		{[]string{"sources", "status", "--domain", "not a domain"}, "--domain"},
		{[]string{"serve", "--no-demo", "--board-interval", "30s"}, "--board-interval"},
		{[]string{"serve", "--no-demo", "--website-interval", "0s"}, "--website-interval"},
		{[]string{"serve", "--no-demo", "--source-workers", "-1"}, "--source-workers"},
		{[]string{"serve", "--no-demo", "--sec-interval", "10s"}, "--sec-interval"},
		{[]string{"sources", "map", "x", "acme.example"}, "not a CIK"},
		{[]string{"sources", "unresolved", "--cik", "12a"}, "--cik"},
		{[]string{"serve", "--no-demo", "--resolve", "x"}, "--resolve"},
	} {
		_, _, err := cli(t, vars, c.args...)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: %v, want an error with %q", c.args, err, c.want)
		}
	}
}

// A board that fails three times in a row pauses; sources status and
// sources list show it, and the next run leaves it alone.
func TestSourcesStatusShowsAPausedTarget(t *testing.T) {
	vars := map[string]string{"PROSPECTOR_DATA": t.TempDir()}
	bs := boardtest.NewServer()
	defer bs.Close()
	if err := bs.AddFixture("lever", "bluefin"); err != nil {
		t.Fatal(err)
	}
	bs.Fail("lever", "bluefin", 502, 3)
	mustCLI(t, vars, "watch", "add", "bluefin.test", "--board", "lever:bluefin")
	run := func() string {
		out, errOut, err := cli(t, vars, "sources", "run", "--once", "--source", "lever", "--allow-private-sources",
			"--source-base-url", "lever="+bs.URL+"/lever", "--source-base-url", "lever-eu="+bs.URL+"/lever-eu")
		if err != nil {
			t.Fatalf("sources run: %v\n%s", err, errOut)
		}
		return out + errOut
	}
	for range 3 {
		if out := run(); !strings.Contains(out, "failed") || !strings.Contains(out, "502") {
			t.Fatalf("a failing run:\n%s", out)
		}
	}
	var rows []targetJSON
	if err := json.Unmarshal([]byte(mustCLI(t, vars, "sources", "status", "--domain", "bluefin.test", "--json")), &rows); err != nil {
		t.Fatal(err)
	}
	var board *targetJSON
	for i := range rows {
		if rows[i].Kind == "board" {
			board = &rows[i]
		}
	}
	if board == nil || board.Health != "paused" || board.Failures != 3 || board.PausedUntil == nil ||
		!strings.Contains(board.LastError, "502") || board.Origin != "flag" {
		t.Fatalf("status: %+v", board)
	}
	table := mustCLI(t, vars, "sources", "status", "--domain", "bluefin.test")
	if !strings.Contains(table, "paused") || !strings.Contains(table, *board.PausedUntil) {
		t.Fatalf("status table:\n%s", table)
	}
	list := mustCLI(t, vars, "sources", "list")
	if !strings.Contains(squash(list), "board lever 1 0 1 1") || !strings.Contains(list, "0 failing, 1 paused") {
		t.Fatalf("sources list:\n%s", list)
	}
	before := bs.Stats("lever").Requests
	if out := run(); !strings.Contains(out, "1 skipped") || bs.Stats("lever").Requests != before {
		t.Fatalf("a run with the board paused:\n%s", out)
	}
	if out, _, err := cli(t, vars, "sources", "run", "--once", "--retry-paused", "--source", "boards", "--allow-private-sources",
		"--source-base-url", "lever="+bs.URL+"/lever"); err != nil || !strings.Contains(squash(out), "openings 3 new") {
		t.Fatalf("--retry-paused: %v\n%s", err, out)
	}
}

// --fingerprints loads an operator's file after the built-ins and says
// what it could not use.
func TestSourcesFingerprintStats(t *testing.T) {
	vars := map[string]string{"PROSPECTOR_DATA": t.TempDir()}
	fp := filepath.Join(t.TempDir(), "extra.json")
	if err := os.WriteFile(fp, []byte(`{"Acme Widget": {"cats": [1], "html": "acme-widget(?=-v2)", "js": {"AcmeWidget": ""},
		"scriptSrc": "cdn\\.acme-widget\\.test/w\\.js"}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	_, errOut, err := cli(t, vars, "sources", "run", "--once", "--fingerprints", fp)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"from built-in, " + fp, "1 patterns skipped (lookaround 1)", "Acme Widget", "keys not supported, ignored (technologies using them): js 1"} {
		if !strings.Contains(errOut, want) {
			t.Fatalf("stderr lacks %q:\n%s", want, errOut)
		}
	}
}

// serve polls the watched companies' sources on its own, as durable
// jobs: a watched board's openings appear without sources run.
func TestServePollsWatchedSources(t *testing.T) {
	vars := map[string]string{"PROSPECTOR_DATA": t.TempDir(), "PROSPECTOR_ALLOW_PRIVATE_SOURCES": "1",
		"PROSPECTOR_CONTACT_EMAIL": "ops@example.test"}
	bs := boardtest.NewServer()
	defer bs.Close()
	if err := bs.AddFixture("ashby", "lumenpath"); err != nil {
		t.Fatal(err)
	}
	mustCLI(t, vars, "watch", "add", "lumenpath.test", "--board", "ashby:lumenpath")
	mustCLI(t, vars, "workspace", "create", "reader")
	key := lastLine(mustCLI(t, vars, "keys", "create", "--workspace", "reader"))
	addr, _, stop := startServe(t, vars, "--no-demo", "--source-base-url", "ashby="+bs.URL+"/ashby")
	defer stop()
	waitUntil(t, func() bool {
		status, body := getJSON(t, "http://"+addr+"/api/v1/signals/job-openings?company_domain=lumenpath.test", key)
		d, _ := body["data"].(map[string]any)
		return status == 200 && d["count"] == float64(3)
	})
	if n := bs.Stats("ashby").Requests; n != 1 {
		t.Fatalf("the board was fetched %d times", n)
	}
}
