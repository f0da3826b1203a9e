package fetch

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/prospectorhq/prospector"
)

func TestRobotsMatching(t *testing.T) {
	const txt = `# a comment
User-agent: *
Disallow: /private
Disallow: /*.pdf$
Allow: /private/open

User-agent: OtherBot
Disallow: /

user-agent: prospector/1.0
User-Agent: AnotherBot
Disallow: /careers/internal   # trailing comment
Allow: /careers/internal/public$
Disallow: /search*q=
Allow: /tie
Disallow: /tie
Disallow: /caf%c3%a9
Disallow: /ünï
Crawl-delay: 2.5
Sitemap: https://company.test/sitemap.xml
`
	ours := parseRobots([]byte(txt), ProductToken)
	for path, want := range map[string]bool{
		"/":                            true,
		"/private":                     true, // our group replaces *'s rules
		"/careers/internal":            false,
		"/careers/internal/x":          false,
		"/careers/internal/public":     true,
		"/careers/internal/public/x":   false, // $ anchors
		"/search?q=sales":              false,
		"/search/page?lang=en&q=sales": false,
		"/searching":                   true,
		"/tie":                         true, // equal length: Allow wins
		"/caf%C3%A9/menu":              false,
		"/%C3%BCn%C3%AF":               false,
		"/robots.txt":                  true,
		"/CAREERS/internal":            true, // paths are case-sensitive
	} {
		if got := ours.allowed(path); got != want {
			t.Errorf("Prospector %s: %v, want %v", path, got, want)
		}
	}
	if ours.crawlDelay != 2500*time.Millisecond {
		t.Errorf("crawl delay %s", ours.crawlDelay)
	}
	star := parseRobots([]byte(txt), "SomeoneElse")
	for path, want := range map[string]bool{
		"/private/x":      false,
		"/private/open/x": true, // longer Allow beats shorter Disallow
		"/docs/a.pdf":     false,
		"/docs/a.pdf?x=1": true,
		"/careers":        true,
		"/robots.txt":     true,
	} {
		if got := star.allowed(path); got != want {
			t.Errorf("* %s: %v, want %v", path, got, want)
		}
	}
	for _, tc := range []struct {
		txt, path string
		want      bool
	}{
		{"", "/x", true},
		{"User-agent: *\nDisallow: /t\nAllow: /t", "/t", true}, // a tie goes to Allow, in either order
		{"User-agent: *\nAllow: /t\nDisallow: /t", "/t", true},
		{"User-agent: *\nDisallow: /t$\nAllow: /t*", "/t", true}, // same length in octets: a tie
		{"User-agent: *\nDisallow:", "/x", true},
		{"User-agent: *\nDisallow: /", "/x", false},
		{"Disallow: /\nUser-agent: *\nAllow: /", "/x", true},                                        // rules before any group are ignored
		{"User-agent: Prospector\nAllow: /\n\nUser-agent: *\nDisallow: /", "/x", true},              // our group, not *'s
		{"User-agent: Prospector\nDisallow: /a\nUser-agent: Prospector\nDisallow: /b", "/b", false}, // groups merge
		{"User-agent: *\nDisallow: /*/jobs/*/apply", "/acme/jobs/42/apply", false},
		{"User-agent: *\nDisallow: /*/jobs/*/apply", "/acme/jobs/apply", true},
		{"User-agent: *\nDisallow: /a*b*c$", "/axxbyyc", false},
		{"User-agent: *\nDisallow: /a*b*c$", "/axxbyycd", true},
		{"User-agent: *\nDisallow: /a*bc$", "/abcbc", false},
		{"User-agent: *\nDisallow: *.json", "/api/x.json", false},
		{"User-agent: *\nDisallow: private", "/private/x", false}, // read as /private
		{"User-agent: *\r\nDisallow: /crlf\r\n", "/crlf", false},
		{"garbage line\nUser-agent *\nUser-agent: *\nDisallow: /x", "/x", false},
	} {
		if got := parseRobots([]byte(tc.txt), ProductToken).allowed(tc.path); got != tc.want {
			t.Errorf("%q %s: %v, want %v", tc.txt, tc.path, got, tc.want)
		}
	}
}

// TestRobotsFetchedOncePerHost: many fetches, several at once, ask
// robots.txt once; disallowed paths fail with ErrRobotsDisallowed and
// never reach the site; after the TTL a conditional request revalidates.
func TestRobotsFetchedOncePerHost(t *testing.T) {
	var robotsStatus atomic.Int64
	robotsStatus.Store(200)
	s := newSite(t, func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/robots.txt" {
			if r.Header.Get("If-None-Match") == `"r1"` {
				w.WriteHeader(http.StatusNotModified)
				return
			}
			if st := int(robotsStatus.Load()); st != 200 {
				w.WriteHeader(st)
				return
			}
			w.Header().Set("ETag", `"r1"`)
			w.Write([]byte("User-agent: *\nDisallow: /admin\n"))
			return
		}
		w.Write([]byte("page"))
	})
	c := newClient(t, Config{AllowPrivate: true, Hosts: map[string]HostPolicy{"127.0.0.1:" + s.port(): {Concurrency: 4}}})
	clk := newFakeClock()
	useClock(c, clk)
	var wg sync.WaitGroup
	errs := make([]error, 12)
	for i := range errs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			path := "/careers"
			if i%3 == 0 {
				path = "/admin/users"
			}
			_, errs[i] = c.Fetch(context.Background(), prospector.FetchRequest{URL: s.URL + path, Robots: true})
		}()
	}
	wg.Wait()
	for i, err := range errs {
		if i%3 == 0 != errors.Is(err, prospector.ErrRobotsDisallowed) || (i%3 != 0 && err != nil) {
			t.Errorf("fetch %d: %v", i, err)
		}
	}
	if n := s.count("/robots.txt"); n != 1 {
		t.Fatalf("robots.txt fetched %d times, want 1", n)
	}
	if s.count("/admin/users") != 0 {
		t.Fatal("a disallowed path was fetched")
	}
	// Robots off: the caller takes responsibility (an API, not a crawl).
	if _, err := c.Fetch(context.Background(), prospector.FetchRequest{URL: s.URL + "/admin/users"}); err != nil {
		t.Fatal(err)
	}
	// A day later the copy is revalidated with its ETag.
	clk.Advance(DefaultRobotsTTL + time.Minute)
	if _, err := c.Fetch(context.Background(), prospector.FetchRequest{URL: s.URL + "/careers", Robots: true}); err != nil {
		t.Fatal(err)
	}
	if n := s.count("/robots.txt"); n != 2 {
		t.Fatalf("robots.txt fetched %d times after the TTL, want 2", n)
	}
	if _, err := c.Fetch(context.Background(), prospector.FetchRequest{URL: s.URL + "/admin", Robots: true}); !errors.Is(err, prospector.ErrRobotsDisallowed) {
		t.Fatalf("after a 304 the rules stand: %v", err)
	}
	if st := c.Stats(); st.RobotsFetches != 2 {
		t.Fatalf("stats %+v", st)
	}
}

// TestRobotsUnavailable: RFC 9309: a 4xx robots.txt allows everything;
// a 5xx or no answer disallows everything for now.
func TestRobotsUnavailable(t *testing.T) {
	for _, tc := range []struct {
		status int
		allow  bool
	}{{404, true}, {403, true}, {410, true}, {500, false}, {503, false}, {429, false}} {
		s := newSite(t, func(w http.ResponseWriter, r *http.Request) {
			if r.URL.Path == "/robots.txt" {
				if tc.status >= 429 {
					w.Header().Set("Retry-After", "3600") // no retries: straight to "unreachable"
				}
				w.WriteHeader(tc.status)
				return
			}
			w.Write([]byte("page"))
		})
		c := newClient(t, Config{AllowPrivate: true})
		useClock(c, newFakeClock())
		_, err := c.Fetch(context.Background(), prospector.FetchRequest{URL: s.URL + "/careers", Robots: true})
		if tc.allow != (err == nil) {
			t.Errorf("robots.txt %d: %v", tc.status, err)
		}
		if !tc.allow && (!errors.Is(err, prospector.ErrRobotsDisallowed) || !strings.Contains(err.Error(), "unavailable")) {
			t.Errorf("robots.txt %d: error %v", tc.status, err)
		}
	}
	// Nothing listening: unreachable, so disallowed.
	c := newClient(t, Config{AllowPrivate: true})
	if _, err := c.Fetch(context.Background(), prospector.FetchRequest{URL: "http://127.0.0.1:1/careers", Robots: true}); !errors.Is(err, prospector.ErrRobotsDisallowed) {
		t.Errorf("unreachable robots.txt: %v", err)
	}
}

// TestRobotsCrawlDelay: a Crawl-delay longer than the host's interval
// stretches it.
func TestRobotsCrawlDelay(t *testing.T) {
	clk := newFakeClock()
	var starts []time.Time
	s := newSite(t, func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/robots.txt" {
			w.Write([]byte("User-agent: *\nCrawl-delay: 5\n"))
			return
		}
		starts = append(starts, clk.Now())
	})
	c := newClient(t, Config{AllowPrivate: true})
	useClock(c, clk)
	for range 3 {
		if _, err := c.Fetch(context.Background(), prospector.FetchRequest{URL: s.URL + "/p", Robots: true}); err != nil {
			t.Fatal(err)
		}
	}
	for i := 1; i < len(starts); i++ {
		if d := starts[i].Sub(starts[i-1]); d < 5*time.Second {
			t.Fatalf("requests %s apart under Crawl-delay 5", d)
		}
	}
}

// FuzzRobots: any file and path parse and match without panicking,
// /robots.txt stays allowed, and a file disallowing "/" for everyone
// blocks any other path.
func FuzzRobots(f *testing.F) {
	f.Add([]byte("User-agent: *\nDisallow: /a*b$\nAllow: /a\n"), "/a/b")
	f.Add([]byte("user-agent: prospector\ndisallow: /%E2%82\ncrawl-delay: 1e9"), "/\xe2\x82")
	f.Fuzz(func(t *testing.T, body []byte, path string) {
		r := parseRobots(body, ProductToken)
		r.allowed(path)
		if !r.allowed("/robots.txt") {
			t.Fatal("/robots.txt disallowed")
		}
		if r.crawlDelay < 0 || r.crawlDelay > maxCrawlDelay {
			t.Fatalf("crawl delay %s", r.crawlDelay)
		}
		all := parseRobots([]byte("User-agent: *\nDisallow: /\n"), ProductToken)
		if p := "/" + path; p != "/robots.txt" && all.allowed(p) {
			t.Fatalf("%q allowed under Disallow: /", p)
		}
	})
}
