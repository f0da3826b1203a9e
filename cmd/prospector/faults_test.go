package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/prospectorhq/prospector"
	"github.com/prospectorhq/prospector/api"
	"github.com/prospectorhq/prospector/proxytest"
	"github.com/prospectorhq/prospector/search"
	"github.com/prospectorhq/prospector/sqlite"
	"github.com/prospectorhq/prospector/workflows"
)

// hungStore is a store whose CreditUsage hangs until its caller gives up,
// as a database that stopped answering would.
type hungStore struct {
	prospector.Store
	entered chan struct{}
}

func (s *hungStore) CreditUsage(ctx context.Context, workspaceID string, now time.Time) (*prospector.CreditUsage, error) {
	s.entered <- struct{}{}
	<-ctx.Done()
	return nil, fmt.Errorf("credit usage: %w", ctx.Err())
}

// A request still running when the shutdown deadline passes gets the
// error envelope with Retry-After (not an empty reply), the log names
// it, and serve returns nil: the process exits 0, as the help says.
func TestShutdownPastItsDeadlineAnswersAndExitsZero(t *testing.T) {
	st, err := sqlite.Open(context.Background(), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	w := prospector.NewWorkspace("drain", prospector.PlanGrowth)
	if err := st.CreateWorkspace(context.Background(), w); err != nil {
		t.Fatal(err)
	}
	k, key := prospector.NewAPIKey(w.ID, prospector.PlanGrowth, nil)
	if err := st.CreateAPIKey(context.Background(), k); err != nil {
		t.Fatal(err)
	}
	logs := &syncBuffer{}
	logger := slog.New(slog.NewJSONHandler(logs, nil))
	hung := &hungStore{Store: st, entered: make(chan struct{}, 1)}
	h := api.NewServer(api.Config{Store: hung, Logger: logger, Version: "test",
		Workflows: workflows.New(workflows.Parts{Store: hung, Index: search.New(st)})})
	ln, err := netListen()
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- serveHTTP(ctx, ln, h, 200*time.Millisecond, logger) }()
	type answer struct {
		res  *http.Response
		body []byte
		err  error
	}
	answers := make(chan answer, 1)
	go func() {
		req, err := http.NewRequest("GET", "http://"+ln.Addr().String()+"/api/v1/account/credit-usage", nil)
		if err != nil {
			answers <- answer{err: err}
			return
		}
		req.Header.Set(prospector.KeyHeader, key)
		req.Header.Set("X-Request-Id", "cut-off-1")
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			answers <- answer{err: err}
			return
		}
		defer res.Body.Close()
		body, err := io.ReadAll(res.Body)
		answers <- answer{res, body, err}
	}()
	<-hung.entered
	cancel()
	select {
	case err := <-served:
		if err != nil {
			t.Fatalf("serveHTTP after a drain past its deadline: %v, want nil (exit 0)", err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("serveHTTP did not return")
	}
	var a answer
	select {
	case a = <-answers:
	case <-time.After(30 * time.Second):
		t.Fatal("the cut-off client got no answer")
	}
	if a.err != nil {
		t.Fatalf("the cut-off client got no answer: %v", a.err)
	}
	var env struct {
		Error struct{ Code, Message string } `json:"error"`
	}
	if a.res.StatusCode != 500 || json.Unmarshal(a.body, &env) != nil || env.Error.Code != prospector.EINTERNAL.String() ||
		a.res.Header.Get("Retry-After") == "" {
		t.Fatalf("cut-off answer %d %s (Retry-After %q), want 500 service_error with Retry-After",
			a.res.StatusCode, a.body, a.res.Header.Get("Retry-After"))
	}
	var cut, request map[string]any
	for _, l := range strings.Split(strings.TrimSpace(logs.String()), "\n") {
		var m map[string]any
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			t.Fatalf("log line is not JSON: %q", l)
		}
		switch m["msg"] {
		case "shutdown deadline passed: in-flight requests cut off":
			cut = m
		case "request":
			request = m
		}
	}
	if cut == nil || cut["count"] != 1.0 || !strings.Contains(fmt.Sprint(cut["requests"]), "cut-off-1") ||
		!strings.Contains(fmt.Sprint(cut["requests"]), "GET /api/v1/account/credit-usage") {
		t.Errorf("cut-off log line %v, want the request's id and route", cut)
	}
	if request == nil || request["status"] != 500.0 || request["shutdown"] != true {
		t.Errorf("request log line %v, want status 500 and shutdown", request)
	}
}

// Metrics are served on their own listener, not on the API's, and the
// default listener is on loopback.
func TestMetricsServedOnTheirOwnListener(t *testing.T) {
	def := newServeCommand(&env{}, &storeOptions{}).Flags().Lookup("metrics-addr").DefValue
	if host, _, err := net.SplitHostPort(def); err != nil || !net.ParseIP(host).IsLoopback() {
		t.Fatalf("--metrics-addr defaults to %q, want a loopback address", def)
	}
	vars := map[string]string{"PROSPECTOR_DATA": t.TempDir()}
	addr, _, logs, stop := startServeLogs(t, vars, "--metrics-addr", "127.0.0.1:0")
	defer stop()
	// The API listener serves the console outside /api/: /metrics is one
	// of its unknown pages, a 404 with no metric in it.
	res0, err := http.Get("http://" + addr + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	page, _ := io.ReadAll(res0.Body)
	res0.Body.Close()
	if res0.StatusCode != 404 || strings.Contains(string(page), "# HELP") {
		t.Fatalf("GET /metrics on the API listener: %d, want a 404 without metrics:\n%s", res0.StatusCode, page)
	}
	m := regexp.MustCompile(`"msg":"metrics listening".*"url":"(http://[^"]+)"`).FindStringSubmatch(logs.String())
	if m == nil {
		t.Fatalf("no metrics listener in the log:\n%s", logs)
	}
	res, err := http.Get(m[1])
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	body, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	if res.StatusCode != 200 || !strings.Contains(string(body), `prospector_http_requests_total{route="console",status="404"} 1`) {
		t.Fatalf("metrics listener: %d\n%s", res.StatusCode, body)
	}
}

// Every line the serve process writes to stderr is a JSON record, and a
// Redis outage's repeated complaints come as one warning each (the Redis
// client's and the limiter's), not one a second. The binary runs as a
// process, so process-wide loggers (go-redis's) are what they are in
// production.
func TestEveryLineIsJSONDuringARedisOutage(t *testing.T) {
	raw := os.Getenv("TEST_REDIS_URL")
	if raw == "" {
		t.Skip("TEST_REDIS_URL not set: skipping Redis tests")
	}
	bin := buildBinary(t)
	u, err := url.Parse(raw)
	if err != nil {
		t.Fatal(err)
	}
	proxy := proxytest.New(t, u.Host)
	u.Host = proxy.Addr()
	cmd := exec.Command(bin, "serve", "--addr", "127.0.0.1:0", "--data", t.TempDir(), "--demo-people", "200", "--metrics-addr=")
	cmd.Env = append(os.Environ(), "PROSPECTOR_DATABASE_URL=", "PROSPECTOR_REDIS_URL="+u.String())
	stdout := &syncBuffer{}
	cmd.Stdout = stdout
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	var (
		mu    sync.Mutex
		lines []string
	)
	addrc := make(chan string, 1)
	listening := regexp.MustCompile(`"msg":"listening".*"addr":"([^"]+)"`)
	stderrDone := make(chan struct{})
	go func() {
		defer close(stderrDone)
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			mu.Lock()
			lines = append(lines, sc.Text())
			mu.Unlock()
			if m := listening.FindStringSubmatch(sc.Text()); m != nil {
				addrc <- m[1]
			}
		}
	}()
	var addr string
	select {
	case addr = <-addrc:
	case <-time.After(60 * time.Second):
		t.Fatal("serve did not start")
	}
	// The key is on stdout, a pipe of its own: it may arrive after the
	// listening record.
	key := ""
	for end := time.Now().Add(10 * time.Second); !strings.HasPrefix(key, "psk_") && time.Now().Before(end); {
		key = strings.TrimSpace(lastLine(stdout.String()))
		time.Sleep(10 * time.Millisecond)
	}
	call := func() {
		req, err := http.NewRequest("GET", "http://"+addr+"/api/v1/account/key-info", nil)
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set(prospector.KeyHeader, key)
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		io.Copy(io.Discard, res.Body)
		res.Body.Close()
		if res.StatusCode != 200 {
			t.Fatalf("key-info: %d", res.StatusCode)
		}
	}
	call()
	proxy.Cut()
	// Four seconds of traffic: the limiter probes Redis once a second.
	for end := time.Now().Add(4 * time.Second); time.Now().Before(end); time.Sleep(20 * time.Millisecond) {
		call()
	}
	if err := cmd.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	if err := cmd.Wait(); err != nil {
		t.Fatalf("serve exit: %v", err)
	}
	<-stderrDone
	redisLines, limiterLines := 0, 0
	for _, l := range lines {
		var m map[string]any
		if err := json.Unmarshal([]byte(l), &m); err != nil || m["level"] == nil || m["msg"] == nil {
			t.Errorf("stderr line is not a JSON log record: %q", l)
			continue
		}
		switch m["msg"] {
		case "redis client":
			redisLines++
		case "rate limiter: primary failed, enforcing per-node limits":
			limiterLines++
		}
	}
	if redisLines != 1 || limiterLines != 1 {
		t.Errorf("%d Redis client and %d limiter warnings over a 4 s outage, want one each:\n%s",
			redisLines, limiterLines, strings.Join(lines, "\n"))
	}
}

// The write timeout outlasts every request's deadline, so a request out
// of time is still answered: 60 s at the defaults (a push's 50 s + 10 s).
func TestWriteTimeoutOutlastsEveryDeadline(t *testing.T) {
	st, err := sqlite.Open(context.Background(), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	for _, c := range []struct{ request, want time.Duration }{
		{0, 60 * time.Second},
		{90 * time.Second, 100 * time.Second},
	} {
		h := api.NewServer(api.Config{Store: st, RequestTimeout: c.request,
			Workflows: workflows.New(workflows.Parts{Store: st, Index: search.New(st)})})
		if got := writeTimeout(h); got != c.want {
			t.Errorf("--request-timeout %v: write timeout %v, want %v", c.request, got, c.want)
		}
	}
}
