package website

import (
	"net/url"
	"strings"
)

// resolve parses ref as a browser reads an attribute URL (surrounding
// white space stripped, tabs and newlines inside removed) and resolves it
// against base. It reports false for anything that is not an http or
// https URL with a host: javascript:, mailto:, data: and broken hrefs.
func resolve(base *url.URL, ref string) (*url.URL, bool) {
	ref = strings.TrimSpace(ref)
	if ref == "" || len(ref) > maxURLBytes {
		return nil, false
	}
	if strings.ContainsAny(ref, "\t\n\r") {
		ref = strings.NewReplacer("\t", "", "\n", "", "\r", "").Replace(ref)
	}
	u, err := url.Parse(ref)
	if err != nil {
		return nil, false
	}
	u = base.ResolveReference(u)
	u.Scheme = strings.ToLower(u.Scheme)
	if (u.Scheme != "http" && u.Scheme != "https") || u.Hostname() == "" {
		return nil, false
	}
	u.Host = strings.ToLower(u.Host)
	u.Fragment, u.RawFragment = "", ""
	return u, true
}

func resolveString(base *url.URL, ref string) (string, bool) {
	u, ok := resolve(base, ref)
	if !ok {
		return "", false
	}
	return u.String(), true
}

// resolveAll resolves refs, dropping duplicates and unusable ones, and
// keeps at most max.
func resolveAll(base *url.URL, refs []string, max int) []string {
	var out []string
	seen := make(map[string]bool, len(refs))
	for _, ref := range refs {
		if len(out) >= max {
			break
		}
		u, ok := resolveString(base, ref)
		if ok && !seen[u] {
			seen[u] = true
			out = append(out, u)
		}
	}
	return out
}
