package webhook

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// TestForbiddenTargetsNeverReached: every address form that leads to the
// service's own host, its network or cloud metadata is refused before a
// connection is made. A guarded receiver listens on loopback; the stub
// resolver points names at it; not one request may reach it, and the
// client may not even dial.
func TestForbiddenTargetsNeverReached(t *testing.T) {
	guard := newReceiver(t, nil)
	p := guard.port()
	stub := newStub(map[string][][]string{
		"loopback.test": {{"127.0.0.1"}},
		"mapped.test":   {{"::ffff:127.0.0.1"}},
		"v6loop.test":   {{"::1"}},
		"mixed.test":    {{"93.184.216.34", "127.0.0.1"}},
		"private.test":  {{"10.1.2.3"}},
		"meta.test":     {{"169.254.169.254"}},
		"cgnat.test":    {{"100.100.1.1"}},
		"ula.test":      {{"fd12:3456::1"}},
		"nat64.test":    {{"64:ff9b::a00:1"}},
		"zero.test":     {{"0.0.0.0"}},
		"public.test":   {{"93.184.216.34"}},
	})
	c := NewClient(Config{Resolver: stub})
	forms := []string{
		"http://127.0.0.1:" + p + "/",
		"https://127.0.0.1:" + p + "/",
		"http://127.0.0.2:" + p + "/",
		"http://127.255.255.254:" + p + "/",
		"http://[::1]:" + p + "/",
		"http://[0:0:0:0:0:0:0:1]:" + p + "/",
		"http://[::ffff:127.0.0.1]:" + p + "/",
		"http://[::ffff:7f00:1]:" + p + "/",
		"http://[0:0:0:0:0:ffff:127.0.0.1]:" + p + "/",
		"http://[::127.0.0.1]:" + p + "/",
		"http://0.0.0.0:" + p + "/",
		"http://0:" + p + "/",
		"http://[::]:" + p + "/",
		"http://2130706433:" + p + "/",
		"http://0x7f000001:" + p + "/",
		"http://0x7f.0.0.1:" + p + "/",
		"http://0177.0.0.1:" + p + "/",
		"http://127.1:" + p + "/",
		"http://127.0.1:" + p + "/",
		"http://127.0.0.1.:" + p + "/",
		"http://localhost:" + p + "/",
		"http://LOCALHOST:" + p + "/",
		"http://localhost.:" + p + "/",
		"http://api.localhost:" + p + "/",
		"http://localhost.localdomain:" + p + "/",
		"http://ip6-localhost:" + p + "/",
		"http://[64:ff9b::7f00:1]:" + p + "/",
		"http://[2002:7f00:1::1]:" + p + "/",
		"http://[2001:0:4136:e378:8000:63bf:80ff:fffe]:" + p + "/",
		"http://loopback.test:" + p + "/",
		"http://LoopBack.Test.:" + p + "/",
		"http://mapped.test:" + p + "/",
		"http://v6loop.test:" + p + "/",
		"http://mixed.test:" + p + "/",
		"http://zero.test:" + p + "/",
		"http://10.0.0.1:" + p + "/",
		"http://172.16.5.4:" + p + "/",
		"http://172.31.255.255:" + p + "/",
		"http://192.168.1.1:" + p + "/",
		"http://100.64.0.1:" + p + "/",
		"http://169.254.169.254/latest/meta-data/",
		"http://169.254.0.1:" + p + "/",
		"http://100.100.100.200/",
		"http://[fd00:ec2::254]/",
		"http://[::ffff:10.0.0.1]:" + p + "/",
		"http://[::ffff:169.254.169.254]/",
		"http://[::ffff:a9fe:a9fe]/",
		"http://[fe80::1]:" + p + "/",
		"http://[fe80::1%25lo]:" + p + "/",
		"http://[fc00::1]:" + p + "/",
		"http://[fd00::1]:" + p + "/",
		"http://[fec0::1]:" + p + "/",
		"http://[ff02::1]:" + p + "/",
		"http://224.0.0.1:" + p + "/",
		"http://239.255.255.250:" + p + "/",
		"http://255.255.255.255:" + p + "/",
		"http://240.0.0.1:" + p + "/",
		"http://192.0.2.10:" + p + "/",
		"http://198.51.100.7:" + p + "/",
		"http://203.0.113.9:" + p + "/",
		"http://198.18.0.1:" + p + "/",
		"http://192.0.0.8:" + p + "/",
		"http://[2001:db8::1]:" + p + "/",
		"http://[64:ff9b:1::1]:" + p + "/",
		"http://[2002:a00:1::1]:" + p + "/",
		"http://private.test:" + p + "/",
		"http://meta.test/",
		"http://cgnat.test:" + p + "/",
		"http://ula.test:" + p + "/",
		"http://nat64.test:" + p + "/",
		"http://metadata.google.internal/computeMetadata/v1/",
		"http://metadata/",
		"http://printer.local:" + p + "/",
		"http://router.home.arpa/",
		"ftp://public.test/",
		"file:///etc/passwd",
		"gopher://public.test:70/",
		"http://user:pass@public.test/",
		"https://token@public.test/",
		"http:///nohost",
		"http://public.test:99999/",
	}
	if len(forms) < 30 {
		t.Fatalf("only %d forms", len(forms))
	}
	for _, form := range forms {
		res, err := c.Deliver(context.Background(), Request{URL: form, ID: "msg_1", Body: []byte(`{}`),
			Secret: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"})
		var refused *RefusedError
		if !errors.As(err, &refused) {
			t.Errorf("%s: result %+v, err %v; want a refusal", form, res, err)
			continue
		}
		if msg := err.Error(); !strings.HasPrefix(msg, "refused: webhook target ") || !strings.Contains(msg, " is ") {
			t.Errorf("%s: message %q does not say what was refused and why", form, msg)
		}
	}
	if n := guard.hits.Load(); n != 0 {
		t.Fatalf("%d requests reached the guarded receiver", n)
	}
	if n := c.dials.Load(); n != 0 {
		t.Fatalf("%d connections were attempted", n)
	}
	if stub.count("public.test") != 0 {
		t.Errorf("a URL refused for its scheme or user info was still resolved")
	}
	t.Logf("%d forms refused, 0 requests reached the receiver", len(forms))
}

func TestRefusalMessages(t *testing.T) {
	c := NewClient(Config{Resolver: newStub(map[string][][]string{"evil.test": {{"10.0.0.5"}}})})
	for url, want := range map[string]string{
		"http://127.0.0.1/":          "refused: webhook target 127.0.0.1 is a loopback address",
		"http://[::ffff:127.0.0.1]/": "refused: webhook target ::ffff:127.0.0.1 is a loopback address (IPv4-mapped)",
		"http://169.254.169.254/":    "refused: webhook target 169.254.169.254 is a cloud metadata address",
		"http://evil.test/":          "refused: webhook target evil.test (10.0.0.5) is a private address",
		"http://localhost/":          "refused: webhook target localhost is a loopback name",
		"http://100.64.1.1/":         "refused: webhook target 100.64.1.1 is a carrier-grade NAT (shared) address",
		"http://[2002:7f00:1::]/":    "refused: webhook target 2002:7f00:1:: is a loopback address (embedded in IPv6 2002:7f00:1::)",
		"ftp://example.com/":         `refused: webhook target URL is not http or https (scheme "ftp")`,
		"https://a:b@example.com/":   "refused: webhook target URL is carrying user info (put credentials in the auth header)",
		"http://2130706433/":         "refused: webhook target 2130706433 is a non-canonical numeric IP address",
		"http://[ff02::1]/":          "refused: webhook target ff02::1 is a multicast address",
		"http://255.255.255.255/":    "refused: webhook target 255.255.255.255 is the broadcast address",
	} {
		_, err := c.Deliver(context.Background(), Request{URL: url, ID: "msg_1", Body: []byte(`{}`)})
		if err == nil || err.Error() != want {
			t.Errorf("%s: %v\n want %s", url, err, want)
		}
	}
}

// TestAddressPolicy: the policy's public-address cases moved to
// netguard's TestPublicAddressesAllowed with the policy itself.
func TestAddressPolicy(t *testing.T) {
	// The dialer's last line checks the socket address itself.
	c := NewClient(Config{})
	if err := c.control("tcp4", "127.0.0.1:80", nil); !IsRefused(err) {
		t.Errorf("control let loopback through: %v", err)
	}
	if err := c.control("tcp6", "[::ffff:10.0.0.1]:443", nil); !IsRefused(err) {
		t.Errorf("control let a mapped private address through: %v", err)
	}
	if err := c.control("tcp4", "93.184.216.34:443", nil); err != nil {
		t.Errorf("control refused a public address: %v", err)
	}
}

// TestDNSRebinding: the name answers a public address, then loopback.
// Each delivery resolves once, checks what it got and dials exactly that
// address, so the second answer is refused rather than connected to, and
// the transport never resolves the name again behind the check's back.
func TestDNSRebinding(t *testing.T) {
	guard := newReceiver(t, nil)
	stub := newStub(map[string][][]string{"rebind.test": {{"93.184.216.34"}, {"127.0.0.1"}, {"93.184.216.34"}}})
	c := NewClient(Config{Resolver: stub})
	// "The public server" is the guarded receiver reached through the test
	// dialer, which records the address it was asked for.
	d := &loopbackDialer{target: strings.TrimPrefix(guard.URL, "http://")}
	c.dial = d.dial
	url := "http://rebind.test:" + guard.port() + "/hook"

	res, err := c.Deliver(context.Background(), Request{URL: url, ID: "msg_1", Body: []byte(`{}`)})
	if err != nil || res.StatusCode != http.StatusNoContent {
		t.Fatalf("first delivery (public answer): %+v, %v", res, err)
	}
	c.http.CloseIdleConnections() // a new connection, so a new lookup
	_, err = c.Deliver(context.Background(), Request{URL: url, ID: "msg_2", Body: []byte(`{}`)})
	if !IsRefused(err) || !strings.Contains(err.Error(), "rebind.test (127.0.0.1) is a loopback address") {
		t.Fatalf("second delivery (rebound to loopback): %v", err)
	}
	if n := stub.count("rebind.test"); n != 2 {
		t.Errorf("%d lookups for 2 deliveries: the transport must not resolve again after the check", n)
	}
	if len(d.asked) != 1 || d.asked[0] != "93.184.216.34:"+guard.port() {
		t.Errorf("dialled %v, want only the checked public address", d.asked)
	}
	if guard.hits.Load() != 1 {
		t.Errorf("receiver hits %d, want 1 (the first delivery)", guard.hits.Load())
	}
}

func TestRedirectsNotFollowed(t *testing.T) {
	second := newReceiver(t, nil)
	first := newReceiver(t, func(w http.ResponseWriter, r *http.Request, _ int64) {
		http.Redirect(w, r, second.URL+"/elsewhere", http.StatusTemporaryRedirect)
	})
	c := NewClient(Config{AllowPrivate: true})
	for _, code := range []int{301, 302, 303, 307, 308} {
		first.answer = func(w http.ResponseWriter, r *http.Request, _ int64) {
			http.Redirect(w, r, second.URL+"/elsewhere", code)
		}
		res, err := c.Deliver(context.Background(), Request{URL: first.URL, ID: "msg_1", Body: []byte(`{}`)})
		if err != nil || res.StatusCode != code || res.OK() {
			t.Fatalf("%d: %+v, %v", code, res, err)
		}
	}
	if second.hits.Load() != 0 {
		t.Fatalf("a redirect was followed %d times", second.hits.Load())
	}
}

// TestProxyFromEnvironmentIgnored: HTTP_PROXY would send deliveries (and
// their secrets) through whatever the environment names; the client
// never uses a proxy.
func TestProxyFromEnvironmentIgnored(t *testing.T) {
	var proxied atomic.Int64
	proxy := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		proxied.Add(1)
		w.WriteHeader(http.StatusOK)
	}))
	defer proxy.Close()
	t.Setenv("HTTP_PROXY", proxy.URL)
	t.Setenv("HTTPS_PROXY", proxy.URL)
	t.Setenv("http_proxy", proxy.URL)
	t.Setenv("NO_PROXY", "")
	rc := newReceiver(t, nil)
	// A name, not a loopback literal: the standard library would proxy it.
	c := NewClient(Config{AllowPrivate: true, Resolver: newStub(map[string][][]string{"hooks.test": {{"127.0.0.1"}}})})
	res, err := c.Deliver(context.Background(), Request{URL: "http://hooks.test:" + rc.port() + "/", ID: "msg_1", Body: []byte(`{}`)})
	if err != nil || res.StatusCode != http.StatusNoContent {
		t.Fatalf("%+v, %v", res, err)
	}
	if proxied.Load() != 0 || rc.hits.Load() != 1 {
		t.Fatalf("proxy got %d requests, receiver %d", proxied.Load(), rc.hits.Load())
	}
	if c.http.Transport.(*http.Transport).Proxy != nil {
		t.Fatal("transport has a proxy function")
	}
}

func TestAllowPrivate(t *testing.T) {
	rc := newReceiver(t, nil)
	c := NewClient(Config{AllowPrivate: true})
	for _, url := range []string{rc.URL, "http://localhost:" + rc.port() + "/"} {
		if res, err := c.Deliver(context.Background(), Request{URL: url, ID: "msg_1", Body: []byte(`{}`)}); err != nil || !res.OK() {
			t.Fatalf("%s with AllowPrivate: %+v, %v", url, res, err)
		}
	}
	// Scheme and user info rules hold even so.
	for _, url := range []string{"ftp://127.0.0.1/", "http://a:b@127.0.0.1/"} {
		if _, err := c.Deliver(context.Background(), Request{URL: url, ID: "msg_1"}); !IsRefused(err) {
			t.Errorf("%s: %v", url, err)
		}
	}
}

func TestTimeouts(t *testing.T) {
	release := make(chan struct{})
	slow := newReceiver(t, func(w http.ResponseWriter, r *http.Request, _ int64) {
		select {
		case <-release:
		case <-time.After(5 * time.Second):
		}
	})
	defer close(release)
	c := NewClient(Config{AllowPrivate: true, Timeout: 200 * time.Millisecond})
	start := time.Now()
	_, err := c.Deliver(context.Background(), Request{URL: slow.URL + "/?token=do-not-leak", ID: "msg_1", Body: []byte(`{}`)})
	if !IsTimeout(err) || time.Since(start) > 2*time.Second {
		t.Fatalf("err %v after %s, want a timeout after 200ms", err, time.Since(start))
	}
	if strings.Contains(err.Error(), "do-not-leak") {
		t.Fatalf("error %q quotes the URL's query", err)
	}
	// Nothing listens: connection refused, named by host only.
	c2 := NewClient(Config{AllowPrivate: true})
	_, err = c2.Deliver(context.Background(), Request{URL: "http://127.0.0.1:1/?token=do-not-leak", ID: "msg_1"})
	if err == nil || IsRefused(err) || strings.Contains(err.Error(), "do-not-leak") || !strings.Contains(err.Error(), "127.0.0.1:1") {
		t.Fatalf("connection refused: %v", err)
	}
}
