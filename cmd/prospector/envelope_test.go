package main

import (
	"bufio"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"
)

// TestServeAnswersUnparsableRequestsInJSON: serve wires api.Server.Listener,
// so even a request net/http refuses itself (here: no Host header) gets
// the JSON envelope and the request id header.
func TestServeAnswersUnparsableRequestsInJSON(t *testing.T) {
	addr, _, stop := startServe(t, map[string]string{"PROSPECTOR_DATA": t.TempDir()}, "--no-demo")
	defer stop()
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	conn.SetDeadline(time.Now().Add(10 * time.Second))
	io.WriteString(conn, "GET /api/v1/health HTTP/1.1\r\n\r\n")
	res, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatal(err)
	}
	body, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	if res.StatusCode != 400 || res.Header.Get("Content-Type") != "application/json" || res.Header.Get("X-Request-Id") == "" ||
		!strings.Contains(string(body), `"code":"validation_error"`) {
		t.Fatalf("%d %v %s", res.StatusCode, res.Header, body)
	}
}
