package api

import (
	"net/http"
	"path"
	"strings"

	"github.com/prospectorhq/prospector"
)

// canonical answers a path that is not in canonical form (an empty, "."
// or ".." segment, as in /api/v1//account/key-info) with the JSON 404 of
// any unknown path, before the mux would redirect it with a 307 and an
// HTML body. A redirect is not in the contract, and following it would
// repeat a POST with its body to a path the caller did not write. The
// message names the canonical path, and for signals/company/{id} says how
// a profile URL must be sent: percent-encoded as one segment.
func (s *Server) canonical(next http.Handler) http.Handler {
	notCanonical := s.wrap("unmatched", func(w http.ResponseWriter, r *http.Request) error {
		p := r.URL.EscapedPath()
		msg := "no such endpoint: " + r.Method + " " + p + "; paths are matched as sent, without empty, . or .. segments"
		switch clean := cleanPath(p); {
		case strings.HasPrefix(p, "/api/v1/signals/company/"):
			msg += "; send a company id that is a URL percent-encoded as one path segment: " +
				"/api/v1/signals/company/https%3A%2F%2Fnetwork.example%2Fcompany%2Facme"
		case clean != "":
			msg += " (did you mean " + clean + "?)"
		}
		return prospector.Errorf(prospector.ENOTFOUND, "%s", msg)
	})
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		// The path as decoded has the same segments as the escaped one
		// (escaping leaves '/' and '.' alone), and reading it costs no
		// escaping; a path sent with escapes is checked as sent.
		p := r.URL.RawPath
		if p == "" {
			p = r.URL.Path
		} else {
			p = r.URL.EscapedPath()
		}
		if !isCleanPath(p) {
			notCanonical.ServeHTTP(w, r)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// isCleanPath reports whether cleanPath(p) == p without building the
// cleaned path, in one pass: p starts with a slash and no slash is
// followed by another or by a "." or ".." segment.
func isCleanPath(p string) bool {
	if p == "" || p[0] != '/' {
		return false
	}
	for i := 0; i < len(p); i++ {
		if p[i] != '/' {
			continue
		}
		switch rest := p[i+1:]; {
		case rest == "": // a trailing slash
		case rest[0] == '/':
			return false
		case rest[0] == '.' && (len(rest) == 1 || rest[1] == '/'):
			return false
		case rest[0] == '.' && rest[1] == '.' && (len(rest) == 2 || rest[2] == '/'):
			return false
		}
	}
	return true
}

// cleanPath is the path ServeMux would redirect p to ("" for a path that
// does not start with a slash): path.Clean, keeping a trailing slash.
func cleanPath(p string) string {
	if p == "" || p[0] != '/' {
		return ""
	}
	np := path.Clean(p)
	if p[len(p)-1] == '/' && np != "/" {
		np += "/"
	}
	return np
}
