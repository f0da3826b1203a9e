package console

import (
	"context"
	"net/http"
	"net/url"

	"github.com/prospectorhq/prospector"
)

// access is what a route asks of its caller.
type access int

const (
	public   access = iota // anyone: the sign-in page and static files
	signedIn               // a live session; POSTs also carry its CSRF token
)

type route struct {
	pattern string
	access  access
	handle  func(c *Console, w http.ResponseWriter, r *http.Request) error
}

// routeList is the whole console: every page and form it answers.
func routeList() []route {
	return []route{
		{"GET /{$}", public, (*Console).home},
		{"GET /sign-in", public, (*Console).signInForm},
		{"POST /sign-in", public, (*Console).signIn},
		{"POST /sign-out", signedIn, (*Console).signOut},
		{"GET /search", signedIn, (*Console).search},
		{"GET /companies/{domain}", signedIn, (*Console).company},
		{"GET /radars", signedIn, (*Console).radars},
		{"GET /radars/new", signedIn, (*Console).newRadar},
		{"POST /radars", signedIn, (*Console).createRadar},
		{"GET /radars/{id}", signedIn, (*Console).radar},
		{"POST /radars/{id}/pause", signedIn, (*Console).pauseRadar},
		{"POST /radars/{id}/resume", signedIn, (*Console).resumeRadar},
		{"POST /radars/{id}/delete", signedIn, (*Console).deleteRadar},
		{"GET /leads", signedIn, (*Console).leads},
		{"POST /leads/export", signedIn, (*Console).exportLeads},
		{"POST /leads/push", signedIn, (*Console).pushLeads},
		{"POST /feedback", signedIn, (*Console).recordFeedback},
		{"GET /insights", signedIn, (*Console).insights},
		{"GET /account", signedIn, (*Console).account},
		{"GET /static/{file}", public, (*Console).staticFile},
	}
}

func (c *Console) routes() http.Handler {
	mux := http.NewServeMux()
	for _, rt := range routeList() {
		mux.Handle(rt.pattern, c.endpoint(rt))
	}
	mux.Handle("/", c.endpoint(route{"", public, func(c *Console, w http.ResponseWriter, r *http.Request) error {
		return errPageNotFound
	}}))
	return mux
}

type ctxKey int

const sessionKey ctxKey = iota

// sessionOf is the request's session; nil on public routes.
func sessionOf(ctx context.Context) *session {
	s, _ := ctx.Value(sessionKey).(*session)
	return s
}

// endpoint wraps a route with the console's headers, the cross-site
// checks every POST passes, and for signed-in routes the session.
func (c *Console) endpoint(rt route) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		securityHeaders(w.Header())
		if err := c.guard(rt, w, r); err != nil {
			c.fail(w, r, err)
		}
	})
}

func (c *Console) guard(rt route, w http.ResponseWriter, r *http.Request) error {
	if r.Method == http.MethodPost {
		if err := sameOrigin(r); err != nil {
			return err
		}
		// The largest form is an export of every lead a page shows.
		r.Body = http.MaxBytesReader(w, r.Body, maxFormBytes)
		if err := r.ParseForm(); err != nil {
			return errFormTooLarge
		}
	}
	if rt.access == signedIn {
		s, err := c.session(r)
		if err != nil {
			return err
		}
		if s == nil {
			if r.Method == http.MethodGet {
				http.Redirect(w, r, "/sign-in?next="+url.QueryEscape(r.URL.RequestURI()), http.StatusSeeOther)
				return nil
			}
			return errSignedOut
		}
		if r.Method == http.MethodPost && !s.validCSRF(r.PostFormValue(csrfField)) {
			return errBadCSRF
		}
		r = r.WithContext(context.WithValue(r.Context(), sessionKey, s))
	}
	return rt.handle(c, w, r)
}

// maxFormBytes bounds a POST's body.
const maxFormBytes = 1 << 20

var errFormTooLarge = prospector.Errorf(prospector.EINVALID, "The form could not be read, or is larger than 1 MiB.")

// contentSecurityPolicy allows the console's own files and nothing else:
// no inline script or style, no framing, forms only to itself.
const contentSecurityPolicy = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; " +
	"object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"

func securityHeaders(h http.Header) {
	h.Set("Content-Security-Policy", contentSecurityPolicy)
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("X-Frame-Options", "DENY")
	h.Set("Referrer-Policy", "same-origin")
	h.Set("Cache-Control", "no-store")
}
