package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// hintedCommand returns the arguments of the "prospector keys create"
// line serve printed.
func hintedCommand(t *testing.T, out string) []string {
	t.Helper()
	for _, line := range strings.Split(out, "\n") {
		if f := strings.Fields(line); len(f) > 2 && f[0] == "prospector" && f[1] == "keys" {
			return f[1:]
		}
	}
	t.Fatalf("serve printed no keys create command:\n%s", out)
	return nil
}

// TestServeTellsHowToGetAKey: on a store that has workspaces, serve
// prints no key (keys are shown once) but the command that makes one,
// with the --data the operator gave; that command works as printed.
func TestServeTellsHowToGetAKey(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "store")
	if _, _, err := cli(t, nil, "workspace", "create", "ops", "--data", dir); err != nil {
		t.Fatal(err)
	}
	_, out, stop := startServe(t, nil, "--data", dir)
	if err := stop(); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(out.String(), "psk_") || !strings.Contains(out.String(), "API keys are shown only when created") {
		t.Fatalf("serve on an existing store:\n%s", out)
	}
	args := hintedCommand(t, out.String())
	if strings.Join(args, " ") != "keys create --workspace ops --data "+dir {
		t.Fatalf("hinted %q", args)
	}
	keyOut, _, err := cli(t, nil, args...)
	if err != nil || !strings.HasPrefix(lastLine(keyOut), "psk_") {
		t.Fatalf("the hinted command: %q %v", keyOut, err)
	}
}

func TestServeHintsDemoWorkspace(t *testing.T) {
	vars := map[string]string{"PROSPECTOR_DATA": t.TempDir()}
	_, out, stop := startServe(t, vars)
	if err := stop(); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(out.String(), "keys create") {
		t.Fatalf("first start hinted although it printed the key:\n%s", out)
	}
	_, out, stop = startServe(t, vars)
	if err := stop(); err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(hintedCommand(t, out.String()), " "); got != "keys create --workspace demo --data "+vars["PROSPECTOR_DATA"] {
		t.Fatalf("restart hinted %q", got)
	}
	if _, _, err := cli(t, vars, "workspace", "create", "zz"); err != nil {
		t.Fatal(err)
	}
	_, out, stop = startServe(t, vars)
	if err := stop(); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "This store has 2 workspace(s)") || !strings.Contains(out.String(), "--workspace demo") ||
		!strings.Contains(out.String(), "prospector workspace list --data") {
		t.Fatalf("two workspaces:\n%s", out)
	}
}

func TestServeNoDemoOnEmptyStoreSaysHowToStart(t *testing.T) {
	_, out, stop := startServe(t, map[string]string{"PROSPECTOR_DATA": t.TempDir()}, "--no-demo")
	if err := stop(); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "No workspace yet") || !strings.Contains(out.String(), "prospector workspace create NAME --data") {
		t.Fatalf("--no-demo on an empty store:\n%s", out)
	}
}

func TestCommandFlagsNeverShowAPassword(t *testing.T) {
	for _, c := range []struct {
		opts       storeOptions
		vars       map[string]string
		flags, has string
	}{
		{storeOptions{}, nil, "", ""},
		{storeOptions{dataDir: "my data"}, nil, " --data 'my data'", ""},
		{storeOptions{}, map[string]string{"PROSPECTOR_DATA": "/srv/p"}, " --data /srv/p", ""},
		{storeOptions{databaseURL: "postgres://app:s3cret@db:5432/p?sslmode=disable"},
			nil, " --database-url 'postgres://app:xxxxx@db:5432/p?sslmode=disable'", "password of --database-url is elided"},
		{storeOptions{databaseURL: "postgres://app@db/p"}, nil, " --database-url postgres://app@db/p", ""},
		{storeOptions{}, map[string]string{"PROSPECTOR_DATABASE_URL": "postgres://app:s3cret@db/p"}, "", "same PROSPECTOR_DATABASE_URL"},
	} {
		flags, note := c.opts.commandFlags(&env{getenv: func(k string) string { return c.vars[k] }})
		if flags != c.flags || !strings.Contains(note, c.has) || strings.Contains(flags+note, "s3cret") {
			t.Errorf("%+v %v: flags %q note %q; want %q and a note with %q", c.opts, c.vars, flags, note, c.flags, c.has)
		}
	}
}
