package fetch

import (
	"fmt"
	"net"
	"net/netip"
	"net/url"
	"strconv"
	"strings"

	"github.com/prospectorhq/prospector"
)

// ParseResolve reads repeated --resolve HOST=ADDR:PORT values into
// Config.Resolve: every fetch of HOST, http or https, goes to plain
// http://ADDR:PORT. HOST is a host name without port (any case); ADDR an
// IP address or host name; PORT 1-65535. A validation error names the
// flag and the value; a HOST given twice is an error.
func ParseResolve(values []string) (map[string]string, error) {
	out := make(map[string]string, len(values))
	for _, v := range values {
		host, addr, err := parseResolveEntry(v)
		if err != nil {
			return nil, err
		}
		if _, dup := out[host]; dup {
			return nil, prospector.Errorf(prospector.EINVALID, "--resolve %q: host %s given twice", v, host)
		}
		out[host] = addr
	}
	return out, nil
}

func parseResolveEntry(v string) (host, addr string, err error) {
	bad := func(why string) (string, string, error) {
		return "", "", prospector.Errorf(prospector.EINVALID, "--resolve %q: %s (want HOST=ADDR:PORT)", v, why)
	}
	host, addr, ok := strings.Cut(strings.TrimSpace(v), "=")
	host = strings.TrimSuffix(strings.ToLower(strings.TrimSpace(host)), ".")
	if !ok || host == "" {
		return bad("missing HOST=")
	}
	if !validHostName(host) {
		return bad("HOST must be a host name without port or scheme")
	}
	a, port, err := net.SplitHostPort(strings.TrimSpace(addr))
	if err != nil {
		return bad("ADDR:PORT does not parse")
	}
	if n, err := strconv.Atoi(port); err != nil || n < 1 || n > 65535 {
		return bad("PORT must be 1-65535")
	}
	if ip, err := netip.ParseAddr(a); err == nil {
		if ip.Zone() != "" {
			return bad("ADDR must not carry a zone")
		}
	} else if !validHostName(strings.ToLower(a)) {
		return bad("ADDR must be an IP address or a host name")
	}
	return host, net.JoinHostPort(a, port), nil
}

// validHostName reports whether h (lower case) is a DNS name: labels of
// letters, digits, '-' and '_', no empty label.
func validHostName(h string) bool {
	if h == "" || len(h) > 253 {
		return false
	}
	for _, label := range strings.Split(h, ".") {
		if label == "" || len(label) > 63 {
			return false
		}
		for _, r := range label {
			if !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-' || r == '_') {
				return false
			}
		}
	}
	return true
}

// ParseBaseURLs reads repeated --source-base-url NAME=URL values: NAME a
// source's name (lower-case letters, digits, '-', '_'), URL an absolute
// http or https URL without user info, query or fragment that replaces
// that source's base URL (its path is kept; a trailing slash is dropped).
// A validation error names the flag and the value; a NAME given twice is
// an error. Which names exist is the caller's to check.
func ParseBaseURLs(values []string) (map[string]*url.URL, error) {
	out := make(map[string]*url.URL, len(values))
	for _, v := range values {
		bad := func(why string) error {
			return prospector.Errorf(prospector.EINVALID, "--source-base-url %q: %s (want NAME=URL)", v, why)
		}
		name, raw, ok := strings.Cut(strings.TrimSpace(v), "=")
		name = strings.TrimSpace(name)
		if !ok || name == "" {
			return nil, bad("missing NAME=")
		}
		if strings.Trim(name, "abcdefghijklmnopqrstuvwxyz0123456789-_") != "" {
			return nil, bad("NAME must be lower-case letters, digits, '-' or '_'")
		}
		u, err := url.Parse(strings.TrimSpace(raw))
		switch {
		case err != nil:
			return nil, bad("URL does not parse")
		case u.Scheme != "http" && u.Scheme != "https":
			return nil, bad("URL must be http or https")
		case u.Host == "" || u.Hostname() == "":
			return nil, bad("URL must have a host")
		case u.User != nil:
			return nil, bad("URL must not carry user info")
		case u.RawQuery != "" || u.Fragment != "" || u.ForceQuery:
			return nil, bad("URL must not have a query or fragment")
		}
		if port := u.Port(); port != "" {
			if n, err := strconv.Atoi(port); err != nil || n < 1 || n > 65535 {
				return nil, bad("URL port must be 1-65535")
			}
		}
		if _, dup := out[name]; dup {
			return nil, bad(fmt.Sprintf("%s given twice", name))
		}
		u.Path = strings.TrimSuffix(u.Path, "/")
		u.RawPath = strings.TrimSuffix(u.RawPath, "/")
		out[name] = u
	}
	return out, nil
}

// BaseURLPolicies returns APIPolicy for the host of every base URL, for
// Config.Hosts: a fixture or mirror standing in for a vendor's API (say
// greenhouse=http://127.0.0.1:9001) is paced like that API, not like a
// company's website.
func BaseURLPolicies(bases map[string]*url.URL) map[string]HostPolicy {
	out := make(map[string]HostPolicy, len(bases))
	for _, u := range bases {
		out[hostKey(u)] = APIPolicy()
	}
	return out
}
