package console

import (
	"crypto/rand"
	"crypto/subtle"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/prospectorhq/prospector"
)

// Cookie and form names.
const (
	sessionCookie = "prospector_session"
	// signInCookie carries the sign-in form's token (double submit): the
	// form has no session yet to tie a token to.
	signInCookie = "prospector_sign_in"
	csrfField    = "csrf"
)

// session is what a session cookie holds, sealed with AES-GCM so the
// browser can neither read nor change it. It names the session by its
// random id, whose hash keys the session's row in the store: every
// request reads the row (sign-out, on any node, ends the session at once)
// and the key it names (a revoked or expired key ends its sessions too).
type session struct {
	ID      string `json:"i"`
	CSRF    string `json:"c"`
	Expires int64  `json:"x"` // Unix seconds
	// principal is the key's, read for this request.
	principal *prospector.Principal
}

// Errors of the session layer, shown on the error page.
var (
	errSignedOut = prospector.Errorf(prospector.EUNAUTHORIZED, "You are signed out. Sign in again with your API key.")
	errBadCSRF   = prospector.Errorf(prospector.EUNAUTHORIZED,
		"This form has expired or did not come from this console. Reload the page and try again.")
	errCrossSite = prospector.Errorf(prospector.EUNAUTHORIZED,
		"Refused: the form was sent from another site.")
	errBadKey = prospector.Errorf(prospector.EUNAUTHORIZED, "Invalid, revoked or expired API key.")
)

func randomToken() string {
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		panic("console: crypto/rand: " + err.Error())
	}
	return base64.RawURLEncoding.EncodeToString(b)
}

// seal encrypts s into a cookie value: nonce then ciphertext, base64.
func (c *Console) seal(s *session) (string, error) {
	plain, err := json.Marshal(s)
	if err != nil {
		return "", fmt.Errorf("console: session: %w", err)
	}
	nonce := make([]byte, c.aead.NonceSize())
	if _, err := rand.Read(nonce); err != nil {
		return "", fmt.Errorf("console: session: %w", err)
	}
	return base64.RawURLEncoding.EncodeToString(c.aead.Seal(nonce, nonce, plain, []byte(sessionCookie))), nil
}

// open decrypts a cookie value; nil when it was not sealed by this
// deployment's key or is malformed.
func (c *Console) open(v string) *session {
	raw, err := base64.RawURLEncoding.DecodeString(v)
	if err != nil || len(raw) < c.aead.NonceSize() {
		return nil
	}
	plain, err := c.aead.Open(nil, raw[:c.aead.NonceSize()], raw[c.aead.NonceSize():], []byte(sessionCookie))
	if err != nil {
		return nil
	}
	var s session
	if json.Unmarshal(plain, &s) != nil || s.ID == "" || s.CSRF == "" {
		return nil
	}
	return &s
}

// session returns the request's live session with its principal, nil
// when there is none (no cookie, a forged or expired one, a session
// signed out or purged, a key no longer active), or an error when the
// store could not be read.
func (c *Console) session(r *http.Request) (*session, error) {
	ck, err := r.Cookie(sessionCookie)
	if err != nil {
		return nil, nil
	}
	s := c.open(ck.Value)
	now := c.now()
	if s == nil || now.Unix() >= s.Expires {
		return nil, nil
	}
	row, err := c.sessions.ConsoleSession(r.Context(), prospector.HashKey(s.ID))
	if errors.Is(err, prospector.ErrNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("console: session: %w", err)
	}
	if !row.Live(now) {
		return nil, nil
	}
	p, err := c.principal(r, row.KeyHash)
	if err != nil || p == nil {
		return nil, err
	}
	s.principal = p
	return s, nil
}

// principal resolves a key hash; nil for an unknown or inactive key.
func (c *Console) principal(r *http.Request, hash string) (*prospector.Principal, error) {
	p, err := c.keys.PrincipalByKeyHash(r.Context(), hash)
	if errors.Is(err, prospector.ErrNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("console: key: %w", err)
	}
	if !p.Key.Active(c.now()) {
		return nil, nil
	}
	return p, nil
}

func (s *session) validCSRF(token string) bool {
	return token != "" && subtle.ConstantTimeCompare([]byte(token), []byte(s.CSRF)) == 1
}

func (c *Console) cookie(r *http.Request, name, value string, maxAge int) *http.Cookie {
	return &http.Cookie{Name: name, Value: value, Path: "/", MaxAge: maxAge, HttpOnly: true,
		SameSite: http.SameSiteStrictMode, Secure: c.secure || r.TLS != nil}
}

// sameOrigin refuses a POST another site's page sent: its Origin must be
// this host's; a browser that sends no Origin must say same-origin in
// Sec-Fetch-Site. A request with neither is refused too: every browser
// the console supports sends one.
func sameOrigin(r *http.Request) error {
	if origin := r.Header.Get("Origin"); origin != "" {
		u, err := url.Parse(origin)
		if err != nil || u.Host != r.Host || (u.Scheme != "http" && u.Scheme != "https") {
			return errCrossSite
		}
		return nil
	}
	if r.Header.Get("Sec-Fetch-Site") == "same-origin" {
		return nil
	}
	return errCrossSite
}

// home sends a visitor to search when signed in, else to sign in.
func (c *Console) home(w http.ResponseWriter, r *http.Request) error {
	s, err := c.session(r)
	if err != nil {
		return err
	}
	to := "/sign-in"
	if s != nil {
		to = "/search"
	}
	http.Redirect(w, r, to, http.StatusSeeOther)
	return nil
}

type signInData struct {
	Next  string
	Token string
}

// signInForm: GET /sign-in
func (c *Console) signInForm(w http.ResponseWriter, r *http.Request) error {
	return c.showSignIn(w, r, http.StatusOK, "")
}

func (c *Console) showSignIn(w http.ResponseWriter, r *http.Request, status int, msg string) error {
	token := randomToken()
	http.SetCookie(w, c.cookie(r, signInCookie, token, 3600))
	return c.render(w, r, status, "sign-in", &page{Title: "Sign in", Error: msg,
		Data: signInData{Next: localPath(r.FormValue("next")), Token: token}})
}

// signIn: POST /sign-in. The key comes in the form body only; the
// session's row names it by hash, the cookie names the session.
func (c *Console) signIn(w http.ResponseWriter, r *http.Request) error {
	ck, err := r.Cookie(signInCookie)
	if err != nil || ck.Value == "" || subtle.ConstantTimeCompare([]byte(ck.Value), []byte(r.PostFormValue(csrfField))) != 1 {
		return c.showSignIn(w, r, http.StatusUnauthorized, errBadCSRF.Message)
	}
	secret := strings.TrimSpace(r.PostFormValue("key"))
	if secret == "" {
		return c.showSignIn(w, r, http.StatusBadRequest, "Paste your API key (it starts with psk_).")
	}
	hash := prospector.HashKey(secret)
	p, err := c.principal(r, hash)
	if err != nil {
		return err
	}
	if p == nil {
		return c.showSignIn(w, r, http.StatusUnauthorized, errBadKey.Message)
	}
	s := &session{ID: randomToken(), CSRF: randomToken(), Expires: c.now().Add(c.ttl).Unix()}
	row := &prospector.ConsoleSession{IDHash: prospector.HashKey(s.ID), KeyID: p.Key.ID, KeyHash: hash,
		WorkspaceID: p.Workspace.ID, ExpiresAt: time.Unix(s.Expires, 0)}
	if err := c.sessions.CreateConsoleSession(r.Context(), row); err != nil {
		return fmt.Errorf("console: sign in: %w", err)
	}
	v, err := c.seal(s)
	if err != nil {
		return err
	}
	http.SetCookie(w, c.cookie(r, sessionCookie, v, int(c.ttl/time.Second)))
	http.SetCookie(w, c.cookie(r, signInCookie, "", -1))
	to := localPath(r.PostFormValue("next"))
	if to == "" {
		to = "/search"
	}
	http.Redirect(w, r, to, http.StatusSeeOther)
	return nil
}

// signOut: POST /sign-out. The row is marked signed out, so a copy of
// the cookie is refused on every node from now on, not only this
// browser's.
func (c *Console) signOut(w http.ResponseWriter, r *http.Request) error {
	if err := c.sessions.SignOutConsoleSession(r.Context(), prospector.HashKey(sessionOf(r.Context()).ID), c.now()); err != nil {
		return fmt.Errorf("console: sign out: %w", err)
	}
	http.SetCookie(w, c.cookie(r, sessionCookie, "", -1))
	http.Redirect(w, r, "/sign-in", http.StatusSeeOther)
	return nil
}

// localPath returns p when it is a path on this site ("/..." but not
// "//host" or "/\host"), else "": redirects never leave the console.
func localPath(p string) string {
	if !strings.HasPrefix(p, "/") || strings.HasPrefix(p, "//") || strings.HasPrefix(p, "/\\") {
		return ""
	}
	return p
}
