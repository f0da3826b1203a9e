package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// servedBinary is a serve process of the built binary on a fresh data
// directory with a small demo dataset.
type servedBinary struct {
	addr, key string
}

// serveBinary starts `prospector serve` on the demo data and returns its
// address and the demo key; the process is killed when the test ends.
func serveBinary(t *testing.T, bin string) servedBinary {
	t.Helper()
	cmd := exec.Command(bin, "serve", "--addr", "127.0.0.1:0", "--data", t.TempDir(), "--demo-people", "600",
		"--metrics-addr=")
	cmd.Env = append(os.Environ(), "PROSPECTOR_DATABASE_URL=", "PROSPECTOR_REDIS_URL=")
	stdout, _ := cmd.StdoutPipe()
	stderr, _ := cmd.StderrPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cmd.Process.Kill()
		cmd.Wait()
	})
	keyc, addrc := make(chan string, 1), make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			if strings.HasPrefix(sc.Text(), "psk_") {
				keyc <- sc.Text()
			}
		}
	}()
	listening := regexp.MustCompile(`"msg":"listening".*"url":"http://([^"]+)"`)
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			if m := listening.FindStringSubmatch(sc.Text()); m != nil {
				addrc <- m[1]
			}
		}
	}()
	var s servedBinary
	timeout := time.After(90 * time.Second)
	for s.key == "" || s.addr == "" {
		select {
		case s.key = <-keyc:
		case s.addr = <-addrc:
		case <-timeout:
			t.Fatal("serve printed no key or address")
		}
	}
	return s
}

// TestMCPStdioSession is a desktop agent's session: `prospector mcp`
// started as a command, talking to a running serve over stdio:
// initialize, the tool list, a search, and an email found for exactly
// one credit.
func TestMCPStdioSession(t *testing.T) {
	bin := buildBinary(t)
	s := serveBinary(t, bin)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.Command(bin, "mcp", "--url", "http://"+s.addr)
	cmd.Env = append(os.Environ(), "PROSPECTOR_API_KEY="+s.key)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	client := mcp.NewClient(&mcp.Implementation{Name: "desktop-agent", Version: "1"}, nil)
	cs, err := client.Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatalf("initialize: %v\n%s", err, stderr.String())
	}
	if info := cs.InitializeResult(); info.ServerInfo.Name != "prospector" || !strings.Contains(info.Instructions, "find_email") {
		t.Fatalf("initialize: %+v", info)
	}
	names := map[string]bool{}
	for tool, err := range cs.Tools(ctx, nil) {
		if err != nil {
			t.Fatal(err)
		}
		if tool.Name == "find_email" && !strings.Contains(tool.Description, "credit") {
			t.Errorf("find_email does not say it spends credits: %q", tool.Description)
		}
		names[tool.Name] = true
	}
	// The bridge relays the remote server's whole list, including the
	// live-signal tools added after the first release.
	for _, want := range []string{"find_email", "search_people", "radar_create", "job_openings", "technologies", "feedback_insights"} {
		if !names[want] {
			t.Errorf("bridge does not list %s (listed %d tools)", want, len(names))
		}
	}
	if len(names) != 29 {
		t.Fatalf("%d tools listed, want 29", len(names))
	}
	structured := func(name string, args map[string]any) map[string]any {
		t.Helper()
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
		if err != nil || res.IsError {
			t.Fatalf("%s: %v %+v\n%s", name, err, res, stderr.String())
		}
		b, _ := json.Marshal(res.StructuredContent)
		var out map[string]any
		if err := json.Unmarshal(b, &out); err != nil {
			t.Fatalf("%s: %s", name, b)
		}
		return out
	}
	used := func() float64 {
		return structured("account_credit_usage", map[string]any{})["credits"].(map[string]any)["used"].(float64)
	}
	page := structured("search_people", map[string]any{"location": "WORLD", "max_results": 3})
	people := page["items"].([]any)
	if len(people) != 3 {
		t.Fatalf("search_people: %v", page)
	}
	before := used()
	person := people[0].(map[string]any)
	found := structured("find_email", map[string]any{"network_url": person["network_url"]})
	if e, _ := found["email"].(string); !strings.Contains(e, "@") {
		t.Fatalf("find_email for %v: %v", person["name"], found)
	}
	if after := used(); after != before+1 {
		t.Fatalf("credits used %v then %v: find_email must charge exactly one", before, after)
	}
	// A validation error is a tool error with the API's message.
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "find_email", Arguments: map[string]any{"name": "Ada"}})
	if err != nil || !res.IsError || res.Content[0].(*mcp.TextContent).Text != "company: required: give network_url, or both name and company" {
		t.Fatalf("bad find_email: %v %+v", err, res)
	}
	if err := cs.Close(); err != nil {
		t.Fatalf("close: %v\n%s", err, stderr.String())
	}
	// Its log is JSON lines like serve's, so one pipeline reads both.
	for _, line := range strings.Split(strings.TrimSpace(stderr.String()), "\n") {
		if !json.Valid([]byte(line)) {
			t.Errorf("stderr line is not JSON: %q", line)
		}
	}
	// A key the server refuses stops the command at once, saying so.
	bad := exec.Command(bin, "mcp", "--url", "http://"+s.addr, "--key", "psk_notakey")
	bad.Stdin = strings.NewReader("")
	out, err := bad.CombinedOutput()
	if err == nil || !strings.Contains(string(out), "connect to http://"+s.addr+"/mcp") || !strings.Contains(string(out), "Unauthorized") {
		t.Fatalf("refused key: %v\n%s", err, out)
	}
}

// TestMCPCommandRefuses: no key, a bad URL and a refused key stop the
// command with a message, before it serves anything.
func TestMCPCommandRefuses(t *testing.T) {
	for _, c := range []struct {
		args []string
		env  map[string]string
		want string
	}{
		{[]string{"mcp"}, nil, "no API key: give --key or set PROSPECTOR_API_KEY"},
		{[]string{"mcp", "--key", "psk_x", "--url", "ftp://x"}, nil, `--url: "ftp://x" is not an http(s) URL`},
		{[]string{"mcp", "--url", "http://127.0.0.1:1"}, map[string]string{"PROSPECTOR_API_KEY": "psk_x"},
			"connect to http://127.0.0.1:1/mcp"},
	} {
		var out, errb bytes.Buffer
		getenv := func(k string) string { return c.env[k] }
		err := run(context.Background(), c.args, getenv, &out, &errb)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: %v, want %q", c.args, err, c.want)
		}
	}
}
