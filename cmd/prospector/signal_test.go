package main

import (
	"bufio"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

var binary struct {
	once sync.Once
	dir  string
	path string
	err  error
	out  []byte
}

// buildBinary builds the prospector binary once for the package's tests
// that run it as a process; it skips them under -short.
func buildBinary(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("builds the binary")
	}
	binary.once.Do(func() {
		binary.dir, binary.err = os.MkdirTemp("", "prospector-bin-")
		if binary.err != nil {
			return
		}
		binary.path = filepath.Join(binary.dir, "prospector")
		// go test puts its own GOROOT/bin first on the test's PATH.
		binary.out, binary.err = exec.Command("go", "build", "-o", binary.path, ".").CombinedOutput()
	})
	if binary.err != nil {
		t.Fatalf("go build: %v\n%s", binary.err, binary.out)
	}
	return binary.path
}

// TestBinaryServesAndExitsZeroOnSIGTERM is the newcomer's path: build the
// binary, run serve on an empty data dir, call key-info with the printed
// key, send SIGTERM, and expect exit status 0.
func TestBinaryServesAndExitsZeroOnSIGTERM(t *testing.T) {
	bin := buildBinary(t)
	for _, sig := range []syscall.Signal{syscall.SIGTERM, syscall.SIGINT} {
		t.Run(sig.String(), func(t *testing.T) {
			cmd := exec.Command(bin, "serve", "--addr", "127.0.0.1:0", "--data", t.TempDir())
			cmd.Env = append(os.Environ(), "PROSPECTOR_DATABASE_URL=", "PROSPECTOR_REDIS_URL=", "PROSPECTOR_METRICS_ADDR=127.0.0.1:0")
			stdout, err := cmd.StdoutPipe()
			if err != nil {
				t.Fatal(err)
			}
			stderr, err := cmd.StderrPipe()
			if err != nil {
				t.Fatal(err)
			}
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			defer cmd.Process.Kill()
			keyc := make(chan string, 1)
			go func() {
				sc := bufio.NewScanner(stdout)
				for sc.Scan() {
					if strings.HasPrefix(sc.Text(), "psk_") {
						keyc <- sc.Text()
					}
				}
			}()
			addrc := make(chan string, 1)
			listening := regexp.MustCompile(`"msg":"listening".*"url":"http://([^"]+)"`)
			go func() {
				sc := bufio.NewScanner(stderr)
				for sc.Scan() {
					if m := listening.FindStringSubmatch(sc.Text()); m != nil {
						addrc <- m[1]
					}
				}
			}()
			var key, addr string
			timeout := time.After(60 * time.Second)
			for key == "" || addr == "" {
				select {
				case key = <-keyc:
				case addr = <-addrc:
				case <-timeout:
					t.Fatal("serve printed no key or address")
				}
			}
			status, body := getJSON(t, "http://"+addr+"/api/v1/account/key-info", key)
			if status != 200 || body["data"].(map[string]any)["tier"] != "growth" {
				t.Fatalf("key-info: %d %v", status, body)
			}
			if err := cmd.Process.Signal(sig); err != nil {
				t.Fatal(err)
			}
			done := make(chan error, 1)
			go func() { done <- cmd.Wait() }()
			select {
			case err := <-done:
				if err != nil { // an *exec.ExitError carries the non-zero status
					t.Fatalf("exit after %s: %v", sig, err)
				}
			case <-time.After(30 * time.Second):
				t.Fatalf("no exit after %s", sig)
			}
		})
	}
}

func TestMain(m *testing.M) {
	code := m.Run()
	if binary.dir != "" {
		os.RemoveAll(binary.dir)
	}
	os.Exit(code)
}
