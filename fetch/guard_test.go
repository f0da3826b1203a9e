package fetch

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/prospectorhq/prospector"
	"github.com/prospectorhq/prospector/netguard"
)

// TestInternalAddressesRefused: a source URL that leads to loopback, a
// private network or cloud metadata is refused before any connection,
// whether written as an address, a local name, or a public-looking name
// whose DNS answer is internal; and so is a redirect from an allowed
// site to any of them.
func TestInternalAddressesRefused(t *testing.T) {
	guarded := newSite(t, func(w http.ResponseWriter, r *http.Request) { w.Write([]byte("secret")) })
	p := guarded.port()
	res := stubResolver{
		"evil.test":    {"127.0.0.1"},
		"private.test": {"10.0.0.5"},
		"meta.test":    {"169.254.169.254"},
		"mixed.test":   {"93.184.216.34", "192.168.1.20"},
		"mapped.test":  {"::ffff:127.0.0.1"},
	}
	// public.test stands for a real site: --resolve sends it to a fixture
	// that redirects wherever the test asks.
	var redirectTo atomic.Value
	public := newSite(t, func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, redirectTo.Load().(string), http.StatusFound)
	})
	c := newClient(t, Config{Resolver: res, Resolve: map[string]string{"public.test": public.addr()}})
	useClock(c, newFakeClock()) // public.test is paced as a website, 1 s apart
	forms := []string{
		"http://127.0.0.1:" + p + "/", "https://127.0.0.1:" + p + "/", "http://[::1]:" + p + "/",
		"http://[::ffff:127.0.0.1]:" + p + "/", "http://localhost:" + p + "/", "http://api.localhost:" + p + "/",
		"http://2130706433:" + p + "/", "http://0x7f.1:" + p + "/", "http://169.254.169.254/latest/meta-data/",
		"http://metadata.google.internal/computeMetadata/v1/", "http://10.0.0.1/", "http://192.168.0.1/",
		"http://[fd00::1]/", "http://evil.test:" + p + "/", "http://private.test/", "http://meta.test/",
		"http://mixed.test/", "http://mapped.test:" + p + "/", "ftp://public.test/", "file:///etc/passwd",
		"http://user:pw@public.test/", "http:///nohost", "http://public.test:99999/",
	}
	for _, form := range forms {
		_, err := c.Fetch(context.Background(), prospector.FetchRequest{URL: form})
		if !netguard.IsRefused(err) || !strings.HasPrefix(err.Error(), "refused: source URL ") {
			t.Errorf("%s: %v, want a refusal", form, err)
		}
	}
	for _, target := range []string{
		"http://127.0.0.1:" + p + "/secret", "http://evil.test:" + p + "/secret", "http://169.254.169.254/",
		"http://localhost:" + p + "/", "file:///etc/passwd", "gopher://127.0.0.1:" + p + "/",
	} {
		redirectTo.Store(target)
		_, err := c.Fetch(context.Background(), prospector.FetchRequest{URL: "https://public.test/jobs"})
		if !netguard.IsRefused(err) {
			t.Errorf("redirect to %s: %v, want a refusal", target, err)
		}
	}
	if n := guarded.hits.Load(); n != 0 {
		t.Fatalf("%d requests reached the internal server", n)
	}
	if public.hits.Load() != 6 {
		t.Fatalf("the redirecting site got %d requests, want 6", public.hits.Load())
	}
	// The refusal message says what and why.
	_, err := c.Fetch(context.Background(), prospector.FetchRequest{URL: "http://private.test/jobs"})
	if err == nil || err.Error() != "refused: source URL private.test (10.0.0.5) is a private address" {
		t.Fatalf("message: %v", err)
	}
}

// TestAllowPrivateSources: --allow-private-sources lets fixtures on
// loopback be fetched by address or by a name resolving there.
func TestAllowPrivateSources(t *testing.T) {
	s := newSite(t, func(w http.ResponseWriter, r *http.Request) { w.Write([]byte("ok")) })
	c := newClient(t, Config{AllowPrivate: true, Resolver: stubResolver{"fixture.test": {"127.0.0.1"}}})
	for _, u := range []string{s.URL + "/a", "http://fixture.test:" + s.port() + "/b"} {
		res, err := c.Fetch(context.Background(), prospector.FetchRequest{URL: u})
		if err != nil || res.Status != 200 || string(res.Body) != "ok" {
			t.Fatalf("%s: %+v, %v", u, res, err)
		}
	}
	if _, err := c.Fetch(context.Background(), prospector.FetchRequest{URL: "ftp://fixture.test/"}); !netguard.IsRefused(err) {
		t.Fatalf("scheme rule with AllowPrivate: %v", err)
	}
}

// TestResolveOverride: --resolve company.test=ADDR:PORT sends
// https://company.test/ to the fixture over plain http with the original
// Host header, robots.txt included, even with private addresses refused:
// the operator named the address. A redirect out of it is checked as
// usual.
func TestResolveOverride(t *testing.T) {
	s := newSite(t, func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/robots.txt":
			w.Write([]byte("User-agent: *\nDisallow: /private\n"))
		case "/old":
			http.Redirect(w, r, "https://company.test/careers", http.StatusMovedPermanently)
		case "/escape":
			http.Redirect(w, r, "http://"+r.Context().Value(http.LocalAddrContextKey).(interface{ String() string }).String()+"/", http.StatusFound)
		default:
			w.Write([]byte("page " + r.Host + r.URL.RequestURI()))
		}
	})
	resolve, err := ParseResolve([]string{"Company.Test=" + s.addr()})
	if err != nil {
		t.Fatal(err)
	}
	c := newClient(t, Config{Resolve: resolve})
	useClock(c, newFakeClock())
	res, err := c.Fetch(context.Background(), prospector.FetchRequest{URL: "https://company.test/old?x=1", Robots: true})
	if err != nil || string(res.Body) != "page company.test/careers" || res.URL != "https://company.test/careers" {
		t.Fatalf("%+v, %v", res, err)
	}
	if got := strings.Join(s.paths(), " "); got != "/robots.txt /old?x=1 /careers" {
		t.Fatalf("fixture saw %s", got)
	}
	for _, r := range s.requests() {
		if r.Host != "company.test" {
			t.Fatalf("Host header %q", r.Host)
		}
	}
	if _, err := c.Fetch(context.Background(), prospector.FetchRequest{URL: "http://company.test/private/x", Robots: true}); !errors.Is(err, prospector.ErrRobotsDisallowed) {
		t.Fatalf("robots through the override: %v", err)
	}
	if _, err := c.Fetch(context.Background(), prospector.FetchRequest{URL: "http://company.test/escape"}); !netguard.IsRefused(err) {
		t.Fatalf("redirect from an overridden host to its loopback address: %v", err)
	}
}

// TestProxy: HTTP_PROXY is ignored; Config.Proxy is used, with the
// target's name checked before the request is handed over.
func TestProxy(t *testing.T) {
	var proxied atomic.Int64
	var asked atomic.Value
	proxy := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		proxied.Add(1)
		asked.Store(r.URL.String())
		w.Write([]byte("via proxy"))
	}))
	defer proxy.Close()
	t.Setenv("HTTP_PROXY", proxy.URL)
	t.Setenv("HTTPS_PROXY", proxy.URL)
	t.Setenv("http_proxy", proxy.URL)
	t.Setenv("NO_PROXY", "")
	s := newSite(t, func(w http.ResponseWriter, r *http.Request) { w.Write([]byte("direct")) })
	res := stubResolver{"board.test": {"127.0.0.1"}, "site.test": {"93.184.216.34"}, "inside.test": {"10.0.0.1"}}
	c := newClient(t, Config{AllowPrivate: true, Resolver: res})
	got, err := c.Fetch(context.Background(), prospector.FetchRequest{URL: "http://board.test:" + s.port() + "/"})
	if err != nil || string(got.Body) != "direct" || proxied.Load() != 0 {
		t.Fatalf("environment proxy: %+v, %v, proxied %d", got, err, proxied.Load())
	}

	pu, err := url.Parse(proxy.URL)
	if err != nil {
		t.Fatal(err)
	}
	c = newClient(t, Config{Resolver: res, Proxy: pu})
	got, err = c.Fetch(context.Background(), prospector.FetchRequest{URL: "http://site.test/jobs"})
	if err != nil || string(got.Body) != "via proxy" || asked.Load() != "http://site.test/jobs" {
		t.Fatalf("configured proxy: %+v, %v, asked %v", got, err, asked.Load())
	}
	if _, err := c.Fetch(context.Background(), prospector.FetchRequest{URL: "http://inside.test/"}); !netguard.IsRefused(err) {
		t.Fatalf("internal name through the proxy: %v", err)
	}
	if proxied.Load() != 1 {
		t.Fatalf("proxy got %d requests, want 1", proxied.Load())
	}
}
