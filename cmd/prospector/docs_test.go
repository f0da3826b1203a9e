package main

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/prospectorhq/prospector/api"
)

// docCommand is one shell command of a document that runs curl.
type docCommand struct {
	line   int    // where it starts
	text   string // continuation lines joined
	want   string // the status its comment announces ("# → 404"); "" for 2xx
	assign string // the variable it sets (NAME=$(curl ...)), if any
}

var (
	wantStatus = regexp.MustCompile(`#\s*→\s*(\d{3})\s*$`)
	assignment = regexp.MustCompile(`^([A-Z_]+)=\$\(`)
)

// curlCommands returns the commands of the sh blocks of a Markdown file
// that run curl, in order.
func curlCommands(t *testing.T, path string) []docCommand {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []docCommand
	var cur *docCommand
	in := false
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "```"):
			in = line == "```sh"
			continue
		case !in:
			continue
		}
		if cur == nil {
			cur = &docCommand{line: n}
		}
		text, more := strings.CutSuffix(line, `\`)
		cur.text += text
		if more {
			continue
		}
		if strings.Contains(cur.text, "curl ") {
			if m := wantStatus.FindStringSubmatch(cur.text); m != nil {
				cur.want = m[1]
			}
			if m := assignment.FindStringSubmatch(cur.text); m != nil {
				cur.assign = m[1]
			}
			out = append(out, *cur)
		}
		cur = nil
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// runDocCommand runs c with bash, vars in its environment, and checks
// the status of every HTTP answer curl got: 2xx, or the one announced. A
// variable it sets joins vars.
func runDocCommand(t *testing.T, path string, c docCommand, vars map[string]string) {
	t.Helper()
	script := "set -o pipefail\n" +
		// The status goes to stderr, so what the command pipes is untouched.
		`curl() { command curl -w '%{stderr}\n@@status %{http_code}\n' "$@"; }` + "\n" +
		strings.ReplaceAll(c.text, "http://127.0.0.1:8080", vars["BASE"]) + "\n"
	if c.assign != "" {
		script += fmt.Sprintf("printf '@@var %%s\\n' \"$%s\"\n", c.assign)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, "bash", "-c", script)
	cmd.Env = os.Environ()
	for k, v := range vars {
		cmd.Env = append(cmd.Env, k+"="+v)
	}
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	where := fmt.Sprintf("%s:%d: %.100s", path, c.line, c.text)
	if err := cmd.Run(); err != nil {
		t.Fatalf("%s\n%v\nstdout: %.2000s\nstderr: %.2000s", where, err, stdout.String(), stderr.String())
	}
	var statuses []string
	for _, l := range strings.Split(stderr.String(), "\n") {
		if s, ok := strings.CutPrefix(l, "@@status "); ok {
			statuses = append(statuses, s)
		}
	}
	if len(statuses) == 0 {
		t.Fatalf("%s: curl made no request", where)
	}
	for _, s := range statuses {
		if c.want != "" && s != c.want || c.want == "" && !strings.HasPrefix(s, "2") {
			t.Fatalf("%s: status %s, want %s\nstdout: %.2000s", where, s, or(c.want, "2xx"), stdout.String())
		}
	}
	if c.assign != "" {
		_, v, _ := strings.Cut(stdout.String(), "@@var ")
		v = strings.TrimSpace(v)
		if v == "" || v == "null" {
			t.Fatalf("%s: %s is %q", where, c.assign, v)
		}
		vars[c.assign] = v
	}
}

// TestDocsCurlExamples runs every curl command of docs/api.md and
// docs/mcp.md, in order, against the built binary serving the demo data,
// with its address and key for the documents' $BASE and $KEY: each
// request must answer 2xx, or the status its comment announces, so the
// documents cannot rot.
func TestDocsCurlExamples(t *testing.T) {
	for _, tool := range []string{"bash", "curl", "jq"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s is not installed: the documents' commands need it", tool)
		}
	}
	bin := buildBinary(t)
	s := serveBinary(t, bin)
	total := 0
	for _, doc := range []string{"../../docs/api.md", "../../docs/mcp.md"} {
		vars := map[string]string{"BASE": "http://" + s.addr, "KEY": s.key}
		cmds := curlCommands(t, doc)
		if len(cmds) == 0 {
			t.Fatalf("%s has no curl command", doc)
		}
		for _, c := range cmds {
			runDocCommand(t, doc, c, vars)
		}
		total += len(cmds)
	}
	t.Logf("%d commands", total)
}

// Every endpoint of the API has an example in docs/api.md.
func TestDocsCoverEveryEndpoint(t *testing.T) {
	b, err := os.ReadFile("../../docs/api.md")
	if err != nil {
		t.Fatal(err)
	}
	doc := string(b)
	for _, ep := range append(api.Endpoints(), "GET /api/v1/openapi.json") {
		method, path, _ := strings.Cut(ep, " ")
		// The first path segment after /api/v1 that varies is a shell
		// variable in the examples.
		prefix := path
		if i := strings.Index(path, "{"); i >= 0 {
			prefix = path[:i]
		}
		found := false
		for _, c := range curlCommands(t, "../../docs/api.md") {
			hasMethod := method == "GET" && !strings.Contains(c.text, "-X ") || strings.Contains(c.text, "-X "+method)
			if hasMethod && strings.Contains(c.text, prefix) && strings.Contains(doc, "**"+method+" "+path+"**") {
				found = true
				break
			}
		}
		if !found {
			t.Errorf("docs/api.md has no example of %s", ep)
		}
	}
}

// The README and the documents link only to files of the repository that
// exist: a fresh clone has nothing outside it.
func TestDocLinksStayInRepository(t *testing.T) {
	link := regexp.MustCompile(`\]\(([^)\s]+)\)`)
	files, err := filepath.Glob("../../docs/*.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range append(files, "../../README.md") {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		dir := f[:strings.LastIndex(f, "/")]
		for _, m := range link.FindAllStringSubmatch(string(b), -1) {
			target, _, _ := strings.Cut(m[1], "#")
			switch {
			case target == "" || strings.HasPrefix(target, "https://") || strings.HasPrefix(target, "mailto:"):
				if f == "../../README.md" && target != "" {
					t.Errorf("README links outside the repository: %s", m[1])
				}
				continue
			case strings.HasPrefix(target, "http://"):
				t.Errorf("%s links over plain http: %s", f, m[1])
				continue
			}
			resolved := dir + "/" + target
			if !strings.HasPrefix(filepath.Clean(resolved), "../../") || strings.HasPrefix(filepath.Clean(resolved), "../../../") {
				t.Errorf("%s links outside the repository: %s", f, m[1])
				continue
			}
			if _, err := os.Stat(resolved); err != nil {
				t.Errorf("%s links to %s, which does not exist", f, m[1])
			}
		}
	}
}
