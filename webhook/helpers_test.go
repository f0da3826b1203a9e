package webhook

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
)

// receiver is a real HTTP server that records what reaches it.
type receiver struct {
	*httptest.Server
	hits atomic.Int64
	mu   sync.Mutex
	reqs []recorded
	// answer writes the response; default 204.
	answer func(w http.ResponseWriter, r *http.Request, n int64)
}

type recorded struct {
	header http.Header
	body   []byte
	path   string
}

func newReceiver(t *testing.T, answer func(w http.ResponseWriter, r *http.Request, n int64)) *receiver {
	t.Helper()
	rc := &receiver{answer: answer}
	rc.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n := rc.hits.Add(1)
		body, err := io.ReadAll(r.Body)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		rc.mu.Lock()
		rc.reqs = append(rc.reqs, recorded{header: r.Header.Clone(), body: body, path: r.URL.RequestURI()})
		rc.mu.Unlock()
		r.Body = io.NopCloser(bytes.NewReader(body))
		if rc.answer == nil {
			w.WriteHeader(http.StatusNoContent)
			return
		}
		rc.answer(w, r, n)
	}))
	t.Cleanup(rc.Close)
	return rc
}

func (rc *receiver) last(t *testing.T) recorded {
	t.Helper()
	rc.mu.Lock()
	defer rc.mu.Unlock()
	if len(rc.reqs) == 0 {
		t.Fatal("receiver got no request")
	}
	return rc.reqs[len(rc.reqs)-1]
}

func (rc *receiver) port() string {
	_, port, err := net.SplitHostPort(strings.TrimPrefix(rc.URL, "http://"))
	if err != nil {
		panic(err) // httptest's own URL
	}
	return port
}

// stubResolver answers from a table; names not in it do not exist. Each
// name's answers are used in turn (the last one repeats), so a name can
// change its answer between lookups like a rebinding attacker's DNS.
type stubResolver struct {
	mu      sync.Mutex
	answers map[string][][]string
	calls   map[string]int
}

func newStub(answers map[string][][]string) *stubResolver {
	return &stubResolver{answers: answers, calls: map[string]int{}}
}

func (s *stubResolver) LookupIPAddr(_ context.Context, host string) ([]net.IPAddr, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	seq, ok := s.answers[strings.ToLower(strings.TrimSuffix(host, "."))]
	if !ok {
		return nil, &net.DNSError{Err: "no such host", Name: host, IsNotFound: true}
	}
	i := min(s.calls[host], len(seq)-1)
	s.calls[host]++
	var out []net.IPAddr
	for _, a := range seq[i] {
		ip, zone, _ := strings.Cut(a, "%")
		out = append(out, net.IPAddr{IP: net.ParseIP(ip), Zone: zone})
	}
	return out, nil
}

func (s *stubResolver) count(host string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.calls[host]
}

// loopbackDialer sends every checked connection to addr instead of where
// it was meant to go, recording the address it was asked for: the tests'
// stand-in for "a public server".
type loopbackDialer struct {
	mu     sync.Mutex
	asked  []string
	target string
}

func (d *loopbackDialer) dial(ctx context.Context, network, address string) (net.Conn, error) {
	d.mu.Lock()
	d.asked = append(d.asked, address)
	d.mu.Unlock()
	if d.target == "" {
		return nil, errors.New("test dialer: no network")
	}
	var nd net.Dialer
	return nd.DialContext(ctx, network, d.target)
}
