package console_test

import (
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"
)

func TestPostsNeedTheSessionTokenAndOrigin(t *testing.T) {
	e := newEnv(t)
	b := e.signedIn()
	token := b.csrf("/radars/new")
	form := func(tok string) url.Values {
		return url.Values{"csrf": {tok}, "name": {"Hiring"}, "signals_to_track": {"hiring"}}
	}
	for _, tc := range []struct {
		name   string
		form   url.Values
		origin string
	}{
		{"no token", form(""), e.server.URL},
		{"wrong token", form("not-the-token"), e.server.URL},
		{"another site", form(token), "https://evil.example"},
		{"no origin", form(token), ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := b.postFrom("/radars", tc.form, tc.origin)
			if p.status != http.StatusUnauthorized {
				t.Fatalf("%d %q", p.status, errorOf(p))
			}
		})
	}
	// A second browser's token is no good in this session.
	other := e.signedIn()
	if p := b.post("/radars", form(other.csrf("/radars/new"))); p.status != http.StatusUnauthorized {
		t.Fatalf("another session's token: %d", p.status)
	}
	if p := b.get("/radars"); strings.Contains(p.body, "Hiring") {
		t.Fatal("a refused form created a radar")
	}
	// Sec-Fetch-Site: same-origin stands in for a missing Origin.
	req, _ := http.NewRequest(http.MethodPost, e.server.URL+"/radars", strings.NewReader(form(token).Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Sec-Fetch-Site", "same-origin")
	if p := b.do(req); p.status != http.StatusSeeOther {
		t.Fatalf("same-origin form: %d %q", p.status, errorOf(p))
	}
}

// inlineScriptRE finds script in markup: a script element with a body,
// an event-handler attribute inside a tag, a javascript: URL.
var inlineScriptRE = regexp.MustCompile(`(?i)<script(?:\s[^>]*)?>\s*[^<\s]|<[a-z][^>]*\son[a-z]+\s*=|="javascript:`)

func TestEveryPageHasTheStrictPolicyAndNoInlineScript(t *testing.T) {
	e := newEnv(t)
	b := e.signedIn()
	for _, path := range []string{"/sign-in", "/search", "/search?kind=companies&industry=Software+Development",
		"/companies/hostile.example", "/radars", "/radars/new", "/leads", "/insights", "/account", "/nothing"} {
		p := b.get(path)
		csp := p.header.Get("Content-Security-Policy")
		if !strings.Contains(csp, "default-src 'self'") || !strings.Contains(csp, "script-src 'self'") ||
			strings.Contains(csp, "unsafe-inline") {
			t.Errorf("%s: policy %q", path, csp)
		}
		if m := inlineScriptRE.FindString(p.body); m != "" {
			t.Errorf("%s: inline script %q", path, m)
		}
		if p.header.Get("X-Frame-Options") != "DENY" || p.header.Get("X-Content-Type-Options") != "nosniff" {
			t.Errorf("%s: headers %v", path, p.header)
		}
	}
}

func TestHostileCompanyNameShowsAsText(t *testing.T) {
	e := newEnv(t)
	b := e.signedIn()
	escaped := "&lt;img src=x onerror=alert(1)&gt;"
	for _, path := range []string{"/search?kind=companies&keywords=&industry=Software+Development&location=US",
		"/companies/hostile.example"} {
		p := b.get(path)
		if p.status != http.StatusOK {
			t.Fatalf("%s: %d", path, p.status)
		}
		if strings.Contains(p.body, xssName) || strings.Contains(p.body, "<img") {
			t.Fatalf("%s: the name is markup on the page", path)
		}
		if path == "/companies/hostile.example" && !strings.Contains(p.body, "<h1>"+escaped+"</h1>") {
			t.Fatalf("%s: the name is not shown as text", path)
		}
	}
	// Reaching the company through search: it is among the results.
	found := false
	next := "/search?kind=companies&industry=Software+Development"
	for i := 0; next != "" && i < 10; i++ {
		p := b.get(next)
		if strings.Contains(p.body, escaped) {
			found = true
			break
		}
		m := regexp.MustCompile(`href="(/search\?[^"]*)" rel="next"`).FindStringSubmatch(p.body)
		next = ""
		if m != nil {
			next = strings.ReplaceAll(m[1], "&amp;", "&")
		}
	}
	if !found {
		t.Fatal("the hostile company is not among the search results")
	}
}

func TestNextNeverLeavesTheConsole(t *testing.T) {
	e := newEnv(t)
	for _, next := range []string{"https://evil.example/", "//evil.example/x", `/\evil.example`} {
		b := e.browser()
		token := b.csrf("/sign-in?next=" + url.QueryEscape(next))
		p := b.post("/sign-in", url.Values{"key": {e.key}, "csrf": {token}, "next": {next}})
		if loc := p.header.Get("Location"); loc != "/search" {
			t.Errorf("next %q redirected to %q", next, loc)
		}
	}
	b := e.browser()
	p := b.post("/sign-in", url.Values{"key": {e.key}, "csrf": {b.csrf("/sign-in")}, "next": {"/radars"}})
	if loc := p.header.Get("Location"); loc != "/radars" {
		t.Errorf("local next redirected to %q", loc)
	}
}

func TestOversizedFormIsRefused(t *testing.T) {
	e := newEnv(t)
	b := e.signedIn()
	token := b.csrf("/radars/new")
	p := b.post("/radars", url.Values{"csrf": {token}, "signals_to_track": {"hiring"}, "titles": {strings.Repeat("x", 2<<20)}})
	if p.status != http.StatusBadRequest || !strings.Contains(errorOf(p), "larger than 1 MiB") {
		t.Fatalf("%d %q", p.status, errorOf(p))
	}
}
