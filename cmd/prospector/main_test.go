package main

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/prospectorhq/prospector/sqlite"
)

// syncBuffer is a bytes.Buffer safe for a server goroutine and a test.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// cli runs one command in-process with the given environment.
func cli(t *testing.T, vars map[string]string, args ...string) (string, string, error) {
	t.Helper()
	var out, errOut syncBuffer
	err := run(context.Background(), args, func(k string) string { return vars[k] }, &out, &errOut)
	return out.String(), errOut.String(), err
}

func lastLine(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return lines[len(lines)-1]
}

func TestWorkspaceAndKeysCommands(t *testing.T) {
	dir := t.TempDir()
	vars := map[string]string{"PROSPECTOR_DATA": dir}
	testWorkspaceAndKeys(t, vars)
}

func testWorkspaceAndKeys(t *testing.T, vars map[string]string) {
	out, _, err := cli(t, vars, "workspace", "create", "acme", "--plan", "starter", "--email", "ops@example.test")
	if err != nil || !strings.Contains(out, "created workspace acme") || !strings.Contains(out, "credits 1000") {
		t.Fatalf("workspace create: %q %v", out, err)
	}
	if _, _, err := cli(t, vars, "workspace", "create", "acme"); err == nil || !strings.Contains(err.Error(), "already exists") {
		t.Fatalf("duplicate workspace: %v", err)
	}
	for _, bad := range [][]string{
		{"workspace", "create", "x", "--plan", "platinum"},
		{"workspace", "create", "x", "--credits", "5", "--unlimited"},
		{"workspace", "create", "Bad Name"},
		{"workspace", "create"},
		{"keys", "create"},
		{"keys", "create", "--workspace", "acme", "--tier", "gold"},
		{"keys", "create", "--workspace", "acme", "--expires", "soon"},
		{"keys", "create", "--workspace", "nope"},
		{"keys", "revoke", "key_nope"},
	} {
		if _, _, err := cli(t, vars, bad...); err == nil {
			t.Errorf("%v: no error", bad)
		}
	}
	out, _, err = cli(t, vars, "workspace", "create", "quiet", "--unlimited", "--public-api=false")
	if err != nil || !strings.Contains(out, "credits unlimited") || !strings.Contains(out, "public API false") {
		t.Fatalf("workspace create --unlimited --public-api=false: %q %v", out, err)
	}

	out, _, err = cli(t, vars, "keys", "create", "--workspace", "acme", "--tier", "growth", "--expires", "30d")
	if err != nil {
		t.Fatal(err)
	}
	key := lastLine(out)
	if !strings.HasPrefix(key, "psk_") || strings.Contains(key, " ") {
		t.Fatalf("last line %q is not the key alone", key)
	}
	if !strings.Contains(out, "tier growth") {
		t.Errorf("keys create output %q lacks the tier", out)
	}
	out, _, err = cli(t, vars, "keys", "create", "--workspace", "acme")
	if err != nil || !strings.Contains(out, "tier starter") {
		t.Fatalf("default tier should be the workspace's plan: %q %v", out, err)
	}
	list, _, err := cli(t, vars, "keys", "list", "--workspace", "acme")
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(list, key) || !strings.Contains(list, key[:12]) || strings.Count(list, "active") != 2 {
		t.Fatalf("keys list must show prefixes, never keys:\n%s", list)
	}
	keyID := ""
	for _, line := range strings.Split(list, "\n") {
		if strings.Contains(line, key[:12]) {
			keyID = strings.Fields(line)[0]
		}
	}
	out, _, err = cli(t, vars, "keys", "revoke", keyID)
	if err != nil || !strings.Contains(out, "revoked key "+keyID) {
		t.Fatalf("revoke: %q %v", out, err)
	}
	list, _, err = cli(t, vars, "keys", "list", "--workspace", "acme")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(list, "revoked") {
		t.Fatalf("revoked key not shown as revoked:\n%s", list)
	}
	if out, _, err := cli(t, vars, "migrate"); err != nil || !strings.Contains(out, "migrations applied") {
		t.Fatalf("migrate: %q %v", out, err)
	}
}

func TestHelp(t *testing.T) {
	out, _, err := cli(t, nil, "--help")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"serve", "workspace", "keys", "migrate", "--data", "--database-url"} {
		if !strings.Contains(out, want) {
			t.Errorf("prospector --help lacks %q", want)
		}
	}
	for args, want := range map[string]string{
		"serve --help":            "drains in-flight requests",
		"workspace create --help": "--unlimited",
		"keys create --help":      "last line",
		"keys list --help":        "never the key",
		"keys revoke --help":      "Revoke",
		"migrate --help":          "Apply",
	} {
		out, _, err := cli(t, nil, strings.Fields(args)...)
		if err != nil || !strings.Contains(out, want) {
			t.Errorf("prospector %s: want %q in:\n%s", args, want, out)
		}
	}
}

// startServe runs serve in-process and returns its address, its stdout
// and a stop function that cancels it and returns run's error.
func startServe(t *testing.T, vars map[string]string, args ...string) (string, *syncBuffer, func() error) {
	t.Helper()
	addr, out, _, stop := startServeLogs(t, vars, args...)
	return addr, out, stop
}

// startServeLogs is startServe that also returns serve's stderr, the
// JSON log. Metrics are off unless args set --metrics-addr: the default
// port is fixed, and tests run side by side.
func startServeLogs(t *testing.T, vars map[string]string, args ...string) (string, *syncBuffer, *syncBuffer, func() error) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	addrc := make(chan string, 1)
	out, errOut := &syncBuffer{}, &syncBuffer{}
	e := &env{getenv: func(k string) string { return vars[k] }, stdout: out, stderr: errOut, ready: func(a string) { addrc <- a }}
	done := make(chan error, 1)
	go func() {
		done <- runEnv(ctx, append([]string{"serve", "--addr", "127.0.0.1:0", "--demo-people", "200", "--metrics-addr="}, args...), e)
	}()
	select {
	case addr := <-addrc:
		return addr, out, errOut, func() error { cancel(); return <-done }
	case err := <-done:
		cancel()
		t.Fatalf("serve exited: %v\n%s", err, errOut.String())
	case <-time.After(30 * time.Second):
		cancel()
		t.Fatal("serve did not start")
	}
	return "", nil, nil, nil
}

func getJSON(t *testing.T, url, key string) (int, map[string]any) {
	t.Helper()
	req, err := http.NewRequest("GET", url, nil)
	if err != nil {
		t.Fatal(err)
	}
	if key != "" {
		req.Header.Set("X-Service-API-Key", key)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var body map[string]any
	if err := json.NewDecoder(res.Body).Decode(&body); err != nil {
		t.Fatalf("GET %s: %v", url, err)
	}
	return res.StatusCode, body
}

func TestServeCreatesDemoOnceAndAnswersWithItsKey(t *testing.T) {
	vars := map[string]string{"PROSPECTOR_DATA": t.TempDir()}
	addr, out, stop := startServe(t, vars)
	key := lastLine(out.String())
	if !strings.HasPrefix(key, "psk_") {
		t.Fatalf("serve on an empty store printed no key: %q", out.String())
	}
	status, body := getJSON(t, "http://"+addr+"/api/v1/account/key-info", key)
	data, _ := body["data"].(map[string]any)
	if status != 200 || data["tier"] != "growth" || data["valid"] != true {
		t.Fatalf("key-info with the demo key: %d %v", status, body)
	}
	if err := stop(); err != nil {
		t.Fatalf("serve after cancel: %v", err)
	}
	st, err := sqlite.Open(context.Background(), vars["PROSPECTOR_DATA"])
	if err != nil {
		t.Fatal(err)
	}
	nc, err := st.CountCompanies(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	np, err := st.CountPeople(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	st.Close()
	if nc != 20 || np != 200 {
		t.Fatalf("serve on an empty store loaded %d companies and %d people, want the demo's 20 and 200", nc, np)
	}
	// Restarted on the same store: no new workspace, no key printed, the
	// old key still works.
	addr, out, stop = startServe(t, vars)
	if strings.Contains(out.String(), "psk_") {
		t.Fatalf("serve printed a key on a non-empty store: %q", out.String())
	}
	if status, _ := getJSON(t, "http://"+addr+"/api/v1/account/key-info", key); status != 200 {
		t.Fatalf("demo key after restart: %d", status)
	}
	if err := stop(); err != nil {
		t.Fatal(err)
	}
}

func TestServeNoDemoAndRateLimitFlags(t *testing.T) {
	vars := map[string]string{"PROSPECTOR_DATA": t.TempDir()}
	if _, _, err := cli(t, vars, "workspace", "create", "ops"); err != nil {
		t.Fatal(err)
	}
	out, _, err := cli(t, vars, "keys", "create", "--workspace", "ops")
	if err != nil {
		t.Fatal(err)
	}
	key := lastLine(out)
	if _, _, err := cli(t, vars, "serve", "--tier-rates", "gold=5/m"); err == nil {
		t.Fatal("serve accepted an unknown tier in --tier-rates")
	}
	addr, sout, stop := startServe(t, vars, "--no-demo", "--rate-limit=false", "--tier-rates", "default=7/m")
	defer stop()
	if strings.Contains(sout.String(), "psk_") {
		t.Fatal("--no-demo still created a key")
	}
	for i := 0; i < 20; i++ {
		if status, _ := getJSON(t, "http://"+addr+"/api/v1/meta/field-values", key); status != 200 {
			t.Fatalf("request %d with --rate-limit=false: %d", i, status)
		}
	}
	_, body := getJSON(t, "http://"+addr+"/api/v1/account/key-info", key)
	rl := body["data"].(map[string]any)["rate_limit"].(map[string]any)
	if rl["enabled"] != false || rl["tiers"].(map[string]any)["default"] != "7/m" {
		t.Fatalf("key-info rate_limit = %v", rl)
	}
}

func TestServeDrainsInFlightRequests(t *testing.T) {
	ln, err := netListen()
	if err != nil {
		t.Fatal(err)
	}
	entered, release := make(chan struct{}), make(chan struct{})
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		close(entered)
		<-release
		fmt.Fprint(w, "done")
	})
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- serveHTTP(ctx, ln, h, 10*time.Second, discardLogger()) }()
	resc := make(chan string, 1)
	go func() {
		res, err := http.Get("http://" + ln.Addr().String() + "/")
		if err != nil {
			resc <- "error: " + err.Error()
			return
		}
		defer res.Body.Close()
		var b bytes.Buffer
		b.ReadFrom(res.Body)
		resc <- fmt.Sprintf("%d %s", res.StatusCode, b.String())
	}()
	<-entered
	cancel()
	select {
	case err := <-served:
		t.Fatalf("serveHTTP returned %v with a request in flight", err)
	case <-time.After(100 * time.Millisecond):
	}
	close(release)
	if got := <-resc; got != "200 done" {
		t.Fatalf("in-flight request got %q, want it answered", got)
	}
	if err := <-served; err != nil {
		t.Fatalf("serveHTTP after drain: %v", err)
	}
	if _, err := http.Get("http://" + ln.Addr().String() + "/"); err == nil {
		t.Fatal("server still accepting after shutdown")
	}
}

func TestCommandsOnPostgres(t *testing.T) {
	url := os.Getenv("TEST_DATABASE_URL")
	if url == "" {
		t.Skip("TEST_DATABASE_URL not set: skipping PostgreSQL tests")
	}
	vars := map[string]string{"PROSPECTOR_DATABASE_URL": freshSchema(t, url), "PROSPECTOR_DATA": t.TempDir()}
	testWorkspaceAndKeys(t, vars)
	addr, out, stop := startServe(t, vars)
	defer stop()
	if strings.Contains(out.String(), "psk_") {
		t.Fatal("demo created on a non-empty PostgreSQL store")
	}
	keyOut, _, err := cli(t, vars, "keys", "create", "--workspace", "acme")
	if err != nil {
		t.Fatal(err)
	}
	status, body := getJSON(t, "http://"+addr+"/api/v1/account/credit-usage", lastLine(keyOut))
	if status != 200 || body["data"].(map[string]any)["subscription"].(map[string]any)["tier"] != "starter" {
		t.Fatalf("credit-usage on PostgreSQL: %d %v", status, body)
	}
	if _, err := os.Stat(vars["PROSPECTOR_DATA"] + "/prospector.db"); err == nil {
		t.Fatal("a SQLite file was created although PROSPECTOR_DATABASE_URL was set")
	}
}

// freshSchema makes an empty schema for one test and returns a URL whose
// search_path points at it.
func freshSchema(t *testing.T, url string) string {
	t.Helper()
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	b := make([]byte, 6)
	rand.Read(b)
	schema := "t_cli_" + hex.EncodeToString(b)
	if _, err := conn.Exec(ctx, "CREATE SCHEMA "+schema); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		c, err := pgx.Connect(context.Background(), url)
		if err == nil {
			c.Exec(context.Background(), "DROP SCHEMA "+schema+" CASCADE")
			c.Close(context.Background())
		}
	})
	sep := "?"
	if strings.Contains(url, "?") {
		sep = "&"
	}
	return url + sep + "search_path=" + schema
}
