package api

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"net"
	"net/http"
	"strconv"
	"strings"

	"github.com/prospectorhq/prospector"
)

// Listener returns l with its connections' answers from net/http itself
// rewritten to the contract's JSON envelope. net/http answers a request
// it cannot parse (headers over MaxHeaderBytes, a control character in a
// header, no Host, an unsupported version or transfer encoding) before
// any handler runs, in plain text, and offers no hook for it; it writes
// each such answer to the connection in one Write, in a fixed shape (a
// status line, exactly "Content-Type: text/plain; charset=utf-8" and
// "Connection: close", no Date). A connection from this listener replaces
// that Write with a 400 validation_error carrying the usual headers
// (x-request-id, the default x-ratelimit-*) and logs it. A 417 for an
// Expect header other than 100-continue, which net/http also sends
// itself, is rewritten alike. What cannot be changed is in
// docs/decisions.md ("Answers net/http writes itself").
func (s *Server) Listener(l net.Listener) net.Listener { return &envelopeListener{Listener: l, s: s} }

type envelopeListener struct {
	net.Listener
	s *Server
}

func (l *envelopeListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	return &envelopeConn{Conn: c, s: l.s}, nil
}

type envelopeConn struct {
	net.Conn
	s *Server
}

// cannedHeaders are the headers of every answer net/http writes itself.
const cannedHeaders = "\r\nContent-Type: text/plain; charset=utf-8\r\nConnection: close\r\n\r\n"

func (c *envelopeConn) Write(p []byte) (int, error) {
	msg, ok := cannedMessage(p)
	if !ok {
		return c.Conn.Write(p)
	}
	if _, err := c.Conn.Write(c.s.preHandlerAnswer(msg)); err != nil {
		return 0, err
	}
	return len(p), nil
}

// CloseWrite keeps net/http's half-close after a 431 (a *net.TCPConn has it).
func (c *envelopeConn) CloseWrite() error {
	if cw, ok := c.Conn.(interface{ CloseWrite() error }); ok {
		return cw.CloseWrite()
	}
	return nil
}

// cannedMessage recognises an answer net/http wrote itself and returns
// what the JSON answer says instead; ok is false for anything else, which
// includes every answer a handler writes (net/http gives those a Date).
func cannedMessage(p []byte) (string, bool) {
	if bytes.HasPrefix(p, []byte("HTTP/1.1 417 ")) {
		return "Expect: only 100-continue is supported", true
	}
	if !bytes.HasPrefix(p, []byte("HTTP/1.1 ")) {
		return "", false
	}
	line, rest, ok := bytes.Cut(p, []byte("\r\n"))
	if !ok || !bytes.HasPrefix(rest, []byte(cannedHeaders[2:])) {
		return "", false
	}
	status := string(line[len("HTTP/1.1 "):])
	switch {
	case strings.HasPrefix(status, "431 "):
		return "headers: the request's headers are larger than the server accepts", true
	case strings.HasPrefix(status, "501 "):
		return "Transfer-Encoding: not supported; send chunked or a Content-Length", true
	case strings.HasPrefix(status, "505 "):
		return "request: unsupported HTTP version; use HTTP/1.1", true
	}
	// "400 Bad Request" or "400 Bad Request: invalid header value" (and
	// other reasons net/http gives).
	if _, reason, ok := strings.Cut(status, ": "); ok {
		return "request: " + reason, true
	}
	return "request: malformed request line or header", true
}

// preHandlerAnswer is the whole HTTP/1.1 answer for a request net/http
// refused: 400 validation_error (the statuses net/http uses, 431, 501,
// 505 and 417, are not in the contract's table), with a request id and
// the default rate-limit headers, closing the connection as net/http
// does. It logs and counts the request as the handlers' requests are.
func (s *Server) preHandlerAnswer(msg string) []byte {
	id := s.requestIDs.next("")
	body, _ := json.Marshal(errorBody{Error: errorDetail{Code: prospector.EINVALID, Message: msg}})
	body = append(body, '\n')
	var b bytes.Buffer
	b.WriteString("HTTP/1.1 400 Bad Request\r\nConnection: close\r\nContent-Type: application/json\r\n")
	b.WriteString("Content-Length: " + strconv.Itoa(len(body)) + "\r\n")
	b.WriteString("Date: " + s.now().UTC().Format(http.TimeFormat) + "\r\n")
	b.WriteString("X-Request-Id: " + id + "\r\n")
	for _, k := range []string{"X-Ratelimit-Limit", "X-Ratelimit-Remaining", "X-Ratelimit-Reset"} {
		b.WriteString(k + ": " + s.defaultRateHeaders.Get(k) + "\r\n")
	}
	b.WriteString("\r\n")
	b.Write(body)
	s.metrics.observe("unparsed", http.StatusBadRequest, 0)
	s.logger.LogAttrs(context.Background(), slog.LevelInfo, "request", slog.String("request_id", id), slog.String("route", "unparsed"),
		slog.Int("status", http.StatusBadRequest), slog.String("error", msg))
	return b.Bytes()
}
