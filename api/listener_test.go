package api_test

import (
	"bufio"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// TestAnswersNetHTTPWritesItself: requests net/http refuses before any
// handler runs get the contract's JSON envelope and headers through
// Server.Listener, where they used to get plain text (431, 400, 501,
// 505, 417); requests it can parse are not touched, on the same
// connection too.
func TestAnswersNetHTTPWritesItself(t *testing.T) {
	e := newEnv(t)
	ts := httptest.NewUnstartedServer(e.server)
	ts.Listener = e.server.Listener(ts.Listener)
	ts.Config.MaxHeaderBytes = 4 << 10 // net/http allows 4 KiB more
	ts.Start()
	defer ts.Close()
	ok := "GET /api/v1/health HTTP/1.1\r\nHost: x\r\n\r\n"
	for _, tc := range []struct{ name, raw, msg string }{
		{"headers too large", "GET /api/v1/health HTTP/1.1\r\nHost: x\r\nX-Big: " + strings.Repeat("a", 16<<10) + "\r\n\r\n",
			"headers: the request's headers are larger than the server accepts"},
		{"control character in a header", "GET /api/v1/health HTTP/1.1\r\nHost: x\r\nX-Test: a\x01b\r\n\r\n", "request: "},
		{"NUL in a header", "GET /api/v1/health HTTP/1.1\r\nHost: x\r\nX-Test: a\x00b\r\n\r\n", "request: "},
		{"no Host", "GET /api/v1/health HTTP/1.1\r\n\r\n", "request: missing required Host header"},
		{"bad header name", "GET /api/v1/health HTTP/1.1\r\nHost: x\r\nBad Name: v\r\n\r\n", "request: "},
		{"unsupported version", "GET /api/v1/health HTTP/3.0\r\nHost: x\r\n\r\n", "request: unsupported HTTP version; use HTTP/1.1"},
		{"unsupported transfer encoding", "POST /api/v1/search/companies HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip\r\n\r\n",
			"Transfer-Encoding: not supported"},
		{"malformed request line", "NONSENSE\r\n\r\n", "request: malformed request line or header"},
		{"unknown expectation", "POST /api/v1/search/companies HTTP/1.1\r\nHost: x\r\nExpect: teapot\r\nContent-Length: 2\r\n\r\n{}",
			"Expect: only 100-continue is supported"},
		{"after a good request on the same connection", ok + "GET /api/v1/health HTTP/1.1\r\n\r\n", "request: missing required Host header"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			conn, err := net.Dial("tcp", ts.Listener.Addr().String())
			if err != nil {
				t.Fatal(err)
			}
			defer conn.Close()
			conn.SetDeadline(time.Now().Add(10 * time.Second))
			if _, err := io.WriteString(conn, tc.raw); err != nil {
				t.Fatal(err)
			}
			rd := bufio.NewReader(conn)
			if strings.HasPrefix(tc.raw, ok) {
				res, err := http.ReadResponse(rd, nil)
				if err != nil || res.StatusCode != 200 || res.Header.Get("Content-Type") != "application/json" {
					t.Fatalf("good request: %v %v", res, err)
				}
				io.Copy(io.Discard, res.Body)
			}
			res, err := http.ReadResponse(rd, nil)
			if err != nil {
				t.Fatal(err)
			}
			body, _ := io.ReadAll(res.Body)
			r := response{status: res.StatusCode, header: res.Header, body: body}
			msg := r.wantError(t, http.StatusBadRequest, "validation_error")
			if !strings.HasPrefix(msg, tc.msg) {
				t.Errorf("message %q, want it to start %q", msg, tc.msg)
			}
			if ct := res.Header.Get("Content-Type"); ct != "application/json" || !res.Close {
				t.Errorf("Content-Type %q, closes %v", ct, res.Close)
			}
			wantRateHeaders(t, r)
			var env map[string]any
			if err := json.Unmarshal(body, &env); err != nil {
				t.Errorf("body %q: %v", body, err)
			}
		})
	}
	if !strings.Contains(e.logs.String(), `"route":"unparsed","status":400`) {
		t.Errorf("refused requests not logged: %s", e.logs.String())
	}
}
