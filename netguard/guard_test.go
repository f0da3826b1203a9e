package netguard

import (
	"context"
	"errors"
	"net"
	"strings"
	"sync"
	"testing"
)

// stubResolver answers from a table, one answer list per lookup in turn
// (the last repeats), like a rebinding attacker's DNS.
type stubResolver struct {
	mu      sync.Mutex
	answers map[string][][]string
	calls   map[string]int
}

func (s *stubResolver) LookupIPAddr(_ context.Context, host string) ([]net.IPAddr, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	seq, ok := s.answers[host]
	if !ok {
		return nil, &net.DNSError{Err: "no such host", Name: host, IsNotFound: true}
	}
	if s.calls == nil {
		s.calls = map[string]int{}
	}
	i := min(s.calls[host], len(seq)-1)
	s.calls[host]++
	var out []net.IPAddr
	for _, a := range seq[i] {
		out = append(out, net.IPAddr{IP: net.ParseIP(a)})
	}
	return out, nil
}

// recordingDial records the addresses it is asked to connect to and
// connects nowhere.
type recordingDial struct {
	mu    sync.Mutex
	asked []string
}

var errNoNetwork = errors.New("test dialer: no network")

func (d *recordingDial) dial(_ context.Context, _, address string) (net.Conn, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.asked = append(d.asked, address)
	return nil, errNoNetwork
}

// TestDialOnlyCheckedAddresses: the guard dials the exact addresses it
// checked, refuses a name when any of its addresses is internal, and a
// name that rebinds to loopback on its second lookup is refused then.
func TestDialOnlyCheckedAddresses(t *testing.T) {
	res := &stubResolver{answers: map[string][][]string{
		"public.test": {{"93.184.216.34", "2606:4700::1"}},
		"mixed.test":  {{"93.184.216.34", "10.0.0.7"}},
		"rebind.test": {{"93.184.216.34"}, {"127.0.0.1"}},
	}}
	d := &recordingDial{}
	g := &Guard{Label: "source URL", Resolver: res, Dial: d.dial}
	ctx := context.Background()

	if _, err := g.DialContext(ctx, "tcp", "public.test:443"); !errors.Is(err, errNoNetwork) {
		t.Fatalf("public name: %v", err)
	}
	if want := "93.184.216.34:443 [2606:4700::1]:443"; strings.Join(d.asked, " ") != want {
		t.Fatalf("dialled %v, want %s", d.asked, want)
	}
	d.asked = nil
	_, err := g.DialContext(ctx, "tcp", "mixed.test:80")
	if !IsRefused(err) || err.Error() != "refused: source URL mixed.test (10.0.0.7) is a private address" {
		t.Fatalf("mixed answers: %v", err)
	}
	if _, err := g.DialContext(ctx, "tcp", "rebind.test:80"); !errors.Is(err, errNoNetwork) {
		t.Fatalf("rebind, first lookup: %v", err)
	}
	_, err = g.DialContext(ctx, "tcp", "rebind.test:80")
	if !IsRefused(err) || !strings.Contains(err.Error(), "rebind.test (127.0.0.1) is a loopback address") {
		t.Fatalf("rebind, second lookup: %v", err)
	}
	for _, addr := range []string{"127.0.0.1:80", "[::1]:80", "localhost:80", "169.254.169.254:80", "0x7f.1:80"} {
		if _, err := g.DialContext(ctx, "tcp", addr); !IsRefused(err) {
			t.Errorf("%s: %v", addr, err)
		}
	}
	if len(d.asked) != 1 || d.asked[0] != "93.184.216.34:80" {
		t.Fatalf("dialled %v, want only the checked public address of rebind.test", d.asked)
	}
	if _, err := g.DialContext(ctx, "tcp", "missing.test:80"); err == nil || IsRefused(err) ||
		!strings.Contains(err.Error(), "resolve missing.test") {
		t.Fatalf("unknown name: %v", err)
	}
}

func TestAllowPrivateAndControl(t *testing.T) {
	d := &recordingDial{}
	open := &Guard{AllowPrivate: true, Dial: d.dial,
		Resolver: &stubResolver{answers: map[string][][]string{"localhost": {{"127.0.0.1"}}}}}
	if err := open.CheckHost("localhost"); err != nil {
		t.Fatal(err)
	}
	if _, err := open.DialContext(context.Background(), "tcp", "localhost:8080"); !errors.Is(err, errNoNetwork) {
		t.Fatalf("AllowPrivate: %v", err)
	}
	if len(d.asked) != 1 || d.asked[0] != "127.0.0.1:8080" {
		t.Fatalf("dialled %v", d.asked)
	}
	if err := open.Control("tcp4", "127.0.0.1:80", nil); err != nil {
		t.Fatalf("Control with AllowPrivate: %v", err)
	}

	var g Guard
	if err := g.CheckHost("127.0.0.1"); err == nil || err.Error() != "refused: destination 127.0.0.1 is a loopback address" {
		t.Fatalf("zero Guard: %v", err)
	}
	if err := g.CheckHost("example.com"); err != nil {
		t.Fatalf("public name: %v", err)
	}
	if err := g.Control("tcp6", "[::ffff:10.0.0.1]:443", nil); !IsRefused(err) {
		t.Errorf("Control let a mapped private address through: %v", err)
	}
	if err := g.Control("tcp4", "93.184.216.34:443", nil); err != nil {
		t.Errorf("Control refused a public address: %v", err)
	}
}

// TestDefaultDialerControl: without a Dial of its own the guard's dialer
// still runs Control, so even an address that reached the socket layer
// unchecked is stopped there.
func TestDefaultDialerControl(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	g := &Guard{AllowPrivate: true}
	conn, err := g.DialContext(context.Background(), "tcp", ln.Addr().String())
	if err != nil {
		t.Fatalf("AllowPrivate default dialer: %v", err)
	}
	conn.Close()
	strict := &Guard{}
	d := &net.Dialer{Control: strict.Control}
	if _, err := d.DialContext(context.Background(), "tcp", ln.Addr().String()); !IsRefused(err) {
		t.Fatalf("Control let loopback through: %v", err)
	}
}
