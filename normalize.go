package prospector

import (
	"net/url"
	"strings"
)

// NormalizeDomain reduces a domain, URL or e-mail address to its bare
// lowercase host: "HTTPS://www.Acme.io/about" and "acme.io." are both
// "acme.io". It returns "" when nothing domain-like is left.
func NormalizeDomain(s string) string {
	s = strings.TrimSpace(strings.ToLower(s))
	if i := strings.LastIndexByte(s, '@'); i >= 0 && !strings.Contains(s, "://") {
		s = s[i+1:]
	}
	if i := strings.Index(s, "://"); i >= 0 {
		s = s[i+3:]
	}
	if i := strings.IndexAny(s, "/?#"); i >= 0 {
		s = s[:i]
	}
	if i := strings.LastIndexByte(s, '@'); i >= 0 {
		s = s[i+1:]
	}
	if i := strings.LastIndexByte(s, ':'); i >= 0 {
		s = s[:i]
	}
	s = strings.TrimSuffix(s, ".")
	s = strings.TrimPrefix(s, "www.")
	if !validHost(s) {
		return ""
	}
	return s
}

func validHost(s string) bool {
	if len(s) < 3 || len(s) > 253 || !strings.Contains(s, ".") {
		return false
	}
	for _, label := range strings.Split(s, ".") {
		if label == "" || len(label) > 63 || label[0] == '-' || label[len(label)-1] == '-' {
			return false
		}
		for _, c := range label {
			if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-') {
				return false
			}
		}
	}
	return true
}

// NormalizeProfileURL canonicalises a profile URL on the professional
// network: https, no "www.", no query or fragment, no trailing slash,
// lowercase host and path. It returns "" for something that is not an
// http(s) URL with a host and a path.
func NormalizeProfileURL(s string) string {
	s = strings.TrimSpace(s)
	if s == "" {
		return ""
	}
	if !strings.Contains(s, "://") {
		s = "https://" + s
	}
	u, err := url.Parse(s)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return ""
	}
	host := strings.TrimPrefix(strings.ToLower(u.Hostname()), "www.")
	path := strings.TrimRight(strings.ToLower(u.EscapedPath()), "/")
	if !validHost(host) || path == "" {
		return ""
	}
	return "https://" + host + path
}
