package console_test

import (
	"context"
	"crypto/tls"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/prospectorhq/prospector"
	"github.com/prospectorhq/prospector/console"
)

func TestSignInStartsASession(t *testing.T) {
	e := newEnv(t)
	b := e.browser()
	if p := b.get("/"); p.status != http.StatusSeeOther || p.header.Get("Location") != "/sign-in" {
		t.Fatalf("home signed out: %d %s", p.status, p.header.Get("Location"))
	}
	token := b.csrf("/sign-in")
	res := b.post("/sign-in", url.Values{"key": {e.key}, "csrf": {token}})
	if res.status != http.StatusSeeOther || res.header.Get("Location") != "/search" {
		t.Fatalf("sign in: %d %s", res.status, res.header.Get("Location"))
	}
	var session string
	for _, c := range res.header.Values("Set-Cookie") {
		if strings.HasPrefix(c, "prospector_session=") {
			session = c
		}
	}
	for _, want := range []string{"HttpOnly", "SameSite=Strict", "Path=/"} {
		if !strings.Contains(session, want) {
			t.Errorf("session cookie %q lacks %s", session, want)
		}
	}
	if strings.Contains(session, "Secure") {
		t.Errorf("plain-HTTP session cookie is Secure: the browser would drop it: %q", session)
	}
	if strings.Contains(session, e.key) || strings.Contains(session, prospector.HashKey(e.key)) {
		t.Fatal("the session cookie carries the key")
	}
	p := b.get("/search")
	if p.status != http.StatusOK || !strings.Contains(p.body, "acme") {
		t.Fatalf("search after sign-in: %d", p.status)
	}
	if strings.Contains(p.body, e.key) || strings.Contains(e.logs.String(), e.key) {
		t.Fatal("the key appears on a page or in the log")
	}
	if p := b.get("/"); p.header.Get("Location") != "/search" {
		t.Fatalf("home signed in goes to %q", p.header.Get("Location"))
	}
}

func TestSignInRefusals(t *testing.T) {
	e := newEnv(t)
	for _, tc := range []struct {
		name, key string
		status    int
		msg       string
	}{
		{"empty", " ", http.StatusBadRequest, "Paste your API key"},
		{"unknown", "psk_notarealkey", http.StatusUnauthorized, "Invalid, revoked or expired API key."},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := e.browser()
			p := b.post("/sign-in", url.Values{"key": {tc.key}, "csrf": {b.csrf("/sign-in")}})
			if p.status != tc.status || !strings.Contains(errorOf(p), tc.msg) {
				t.Fatalf("%d %q", p.status, errorOf(p))
			}
			if strings.Contains(strings.Join(p.header.Values("Set-Cookie"), ";"), "prospector_session=") {
				t.Fatal("a refused sign-in set a session")
			}
			if strings.Contains(p.body, tc.key) && strings.TrimSpace(tc.key) != "" {
				t.Fatal("the refused key is echoed on the page")
			}
		})
	}
	t.Run("no form token", func(t *testing.T) {
		b := e.browser()
		p := b.post("/sign-in", url.Values{"key": {e.key}})
		if p.status != http.StatusUnauthorized {
			t.Fatalf("sign-in without the form's token: %d", p.status)
		}
	})
	t.Run("revoked key", func(t *testing.T) {
		k, secret := prospector.NewAPIKey(e.ws.ID, prospector.PlanGrowth, nil)
		if err := e.store.CreateAPIKey(context.Background(), k); err != nil {
			t.Fatal(err)
		}
		if err := e.store.RevokeAPIKey(context.Background(), k.ID, time.Now()); err != nil {
			t.Fatal(err)
		}
		b := e.browser()
		if p := b.post("/sign-in", url.Values{"key": {secret}, "csrf": {b.csrf("/sign-in")}}); p.status != http.StatusUnauthorized {
			t.Fatalf("revoked key signed in: %d", p.status)
		}
	})
}

func TestSignedOutIsRefused(t *testing.T) {
	e := newEnv(t)
	b := e.signedIn()
	token := b.csrf("/search")
	if p := b.post("/sign-out", url.Values{"csrf": {token}}); p.status != http.StatusSeeOther || p.header.Get("Location") != "/sign-in" {
		t.Fatalf("sign out: %d %s", p.status, p.header.Get("Location"))
	}
	for _, path := range []string{"/search", "/radars", "/leads", "/insights", "/account", "/companies/hostile.example"} {
		p := b.get(path)
		if p.status != http.StatusSeeOther || !strings.HasPrefix(p.header.Get("Location"), "/sign-in?next=") {
			t.Errorf("GET %s signed out: %d %s", path, p.status, p.header.Get("Location"))
		}
	}
	if p := b.post("/radars", url.Values{"csrf": {token}, "signals_to_track": {"hiring"}}); p.status != http.StatusUnauthorized {
		t.Fatalf("POST signed out: %d", p.status)
	}
}

func TestRevokedKeyEndsItsSessions(t *testing.T) {
	e := newEnv(t)
	b := e.signedIn()
	keys, err := e.store.ListAPIKeys(context.Background(), e.ws.ID)
	if err != nil {
		t.Fatal(err)
	}
	if err := e.store.RevokeAPIKey(context.Background(), keys[0].ID, time.Now()); err != nil {
		t.Fatal(err)
	}
	if p := b.get("/account"); p.status != http.StatusSeeOther {
		t.Fatalf("session of a revoked key still answers: %d", p.status)
	}
}

func TestForgedSessionIsRefused(t *testing.T) {
	e := newEnv(t)
	b := e.signedIn()
	u, _ := url.Parse(e.server.URL)
	for _, c := range b.client.Jar.Cookies(u) {
		if c.Name == "prospector_session" {
			v := []byte(c.Value)
			v[len(v)/2] ^= 1
			c.Value = string(v)
			b.client.Jar.SetCookies(u, []*http.Cookie{c})
		}
	}
	if p := b.get("/account"); p.status != http.StatusSeeOther {
		t.Fatalf("tampered session answered: %d", p.status)
	}
}

func TestSessionCookieIsSecureUnderTLS(t *testing.T) {
	e := newEnv(t)
	// Sign in over TLS through the handler directly.
	c := e.server.Config.Handler.(*console.Console)
	get := httptest.NewRequest(http.MethodGet, "https://console.test/sign-in", nil)
	get.TLS = &tls.ConnectionState{}
	w := httptest.NewRecorder()
	c.ServeHTTP(w, get)
	ck := w.Result().Cookies()
	if len(ck) == 0 || !ck[0].Secure {
		t.Fatalf("sign-in form cookie over TLS: %+v", ck)
	}
	token := csrfRE.FindStringSubmatch(w.Body.String())[1]
	post := httptest.NewRequest(http.MethodPost, "https://console.test/sign-in",
		strings.NewReader(url.Values{"key": {e.key}, "csrf": {token}}.Encode()))
	post.TLS = &tls.ConnectionState{}
	post.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	post.Header.Set("Origin", "https://console.test")
	post.AddCookie(ck[0])
	w = httptest.NewRecorder()
	c.ServeHTTP(w, post)
	var found bool
	for _, k := range w.Result().Cookies() {
		if k.Name == "prospector_session" {
			found = true
			if !k.Secure || !k.HttpOnly || k.SameSite != http.SameSiteStrictMode {
				t.Fatalf("session cookie over TLS: %+v", k)
			}
		}
	}
	if !found {
		t.Fatalf("no session over TLS: %d %s", w.Code, errorOf(page{body: w.Body.String()}))
	}
}

// A copy of the session cookie taken before sign-out is refused after
// it, although it is still sealed correctly and not expired: sign-out is
// recorded in the store, not only in the browser that signed out.
func TestSignOutRefusesACopiedCookie(t *testing.T) {
	e := newEnv(t)
	b := e.signedIn()
	u, _ := url.Parse(e.server.URL)
	thief := e.browser()
	thief.client.Jar.SetCookies(u, b.client.Jar.Cookies(u))
	if p := thief.get("/account"); p.status != http.StatusOK {
		t.Fatalf("copied cookie before sign-out: %d, want the page", p.status)
	}
	stolenToken := thief.csrf("/search")
	if p := b.post("/sign-out", url.Values{"csrf": {b.csrf("/search")}}); p.status != http.StatusSeeOther {
		t.Fatalf("sign out: %d", p.status)
	}
	if p := thief.get("/account"); p.status != http.StatusSeeOther || !strings.HasPrefix(p.header.Get("Location"), "/sign-in") {
		t.Fatalf("copied cookie replayed after sign-out: %d %s, want a redirect to sign in", p.status, p.header.Get("Location"))
	}
	if p := thief.post("/radars", url.Values{"csrf": {stolenToken}, "signals_to_track": {"hiring"}}); p.status != http.StatusUnauthorized {
		t.Fatalf("POST with the copied cookie after sign-out: %d, want 401", p.status)
	}
	// Signing in again starts a new session; the old copy stays refused.
	b.signIn()
	if p := b.get("/account"); p.status != http.StatusOK {
		t.Fatalf("signed in again: %d", p.status)
	}
	if p := thief.get("/account"); p.status != http.StatusSeeOther {
		t.Fatalf("copied cookie after a new sign-in: %d", p.status)
	}
}

// Two nodes of a deployment share the session key and the store: a
// session started on one answers on the other, and signing out on one
// ends it on the other at once.
func TestSessionIsSharedAcrossNodes(t *testing.T) {
	e := newEnv(t)
	b := e.signedIn()
	other := httptest.NewServer(e.otherNode())
	t.Cleanup(other.Close)
	u, _ := url.Parse(e.server.URL)
	ou, _ := url.Parse(other.URL)
	nb := e.browser()
	nb.client.Jar.SetCookies(ou, b.client.Jar.Cookies(u))
	get := func(base string) int {
		req, _ := http.NewRequest(http.MethodGet, base+"/account", nil)
		return nb.do(req).status
	}
	if s := get(other.URL); s != http.StatusOK {
		t.Fatalf("session on the other node: %d", s)
	}
	if p := b.post("/sign-out", url.Values{"csrf": {b.csrf("/search")}}); p.status != http.StatusSeeOther {
		t.Fatalf("sign out: %d", p.status)
	}
	if s := get(other.URL); s != http.StatusSeeOther {
		t.Fatalf("session on the other node after sign-out on the first: %d", s)
	}
}

// A sealed cookie whose session the store does not hold (purged, or made
// under the same key by a deployment whose rows are gone) is refused.
func TestSessionWithoutRowIsRefused(t *testing.T) {
	e := newEnv(t)
	b := e.signedIn()
	if _, err := e.store.PurgeExpired(context.Background(), prospector.Retention{}, time.Now().Add(13*time.Hour), 100); err != nil {
		t.Fatal(err)
	}
	if p := b.get("/account"); p.status != http.StatusSeeOther {
		t.Fatalf("session purged from the store still answers: %d", p.status)
	}
}
