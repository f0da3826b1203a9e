package fetch

import (
	"bytes"
	"strconv"
	"strings"
	"time"
)

// ProductToken is the name robots.txt groups address Prospector by
// ("User-agent: Prospector"); it leads the User-Agent header too.
const ProductToken = "Prospector"

// maxRobotsBytes is how much of a robots.txt is read; RFC 9309 asks
// crawlers to parse at least 500 KiB, and the rest is ignored.
const maxRobotsBytes = 500 << 10

// robots is the part of a robots.txt that applies to Prospector: the
// rules of the groups naming our product token, or else of the "*"
// groups (RFC 9309 section 2.2.1).
type robots struct {
	rules      []robotsRule
	crawlDelay time.Duration
	// disallowAll stands for a robots.txt that could not be fetched
	// (5xx, unreachable): nothing may be crawled for now.
	disallowAll bool
}

type robotsRule struct {
	pattern string // percent-encoding normalised; may hold * and a final $
	allow   bool
}

// parseRobots reads a robots.txt for the product token. It never fails:
// lines it does not understand are skipped, as RFC 9309 asks.
func parseRobots(body []byte, token string) *robots {
	token = strings.ToLower(token)
	var ours, star robots
	var haveOurs bool
	// The groups the current user-agent lines started, and whether a rule
	// line has been seen since (the next user-agent line starts a group).
	var inOurs, inStar, sawRule bool
	for len(body) > 0 {
		var line []byte
		line, body, _ = bytes.Cut(body, []byte{'\n'})
		if i := bytes.IndexByte(line, '#'); i >= 0 {
			line = line[:i]
		}
		key, value, ok := bytes.Cut(line, []byte{':'})
		if !ok {
			continue
		}
		k := strings.ToLower(string(bytes.TrimSpace(key)))
		v := string(bytes.TrimSpace(value))
		switch k {
		case "user-agent":
			if sawRule {
				inOurs, inStar, sawRule = false, false, false
			}
			name := strings.ToLower(v)
			if i := strings.IndexAny(name, "/ \t"); i >= 0 {
				name = name[:i]
			}
			switch name {
			case token:
				inOurs, haveOurs = true, true
			case "*":
				inStar = true
			}
		case "allow", "disallow":
			sawRule = true
			if v == "" {
				continue // "Disallow:" with no path allows everything
			}
			r := robotsRule{pattern: normalisePattern(v), allow: k == "allow"}
			if inOurs {
				ours.rules = append(ours.rules, r)
			}
			if inStar {
				star.rules = append(star.rules, r)
			}
		case "crawl-delay":
			sawRule = true
			if s, err := strconv.ParseFloat(v, 64); err == nil && s > 0 {
				d := time.Duration(min(s, maxCrawlDelay.Seconds()) * float64(time.Second))
				if inOurs {
					ours.crawlDelay = d
				}
				if inStar {
					star.crawlDelay = d
				}
			}
		}
	}
	if haveOurs {
		return &ours
	}
	return &star
}

// allowed reports whether path (escaped path and query of a URL) may be
// fetched: the longest matching rule decides, Allow winning a tie, and
// no matching rule allows. /robots.txt itself is always allowed.
func (r *robots) allowed(path string) bool {
	if path == "/robots.txt" {
		return true
	}
	if r.disallowAll {
		return false
	}
	path = normalisePath(path)
	best, allow := -1, true
	for _, rule := range r.rules {
		n := len(rule.pattern)
		if n < best || (n == best && allow) || !matchPattern(rule.pattern, path) {
			continue
		}
		best, allow = n, rule.allow
	}
	return allow
}

// matchPattern reports whether pattern matches the start of path (all
// of it when the pattern ends in $), * matching any run of characters.
func matchPattern(pattern, path string) bool {
	anchored := strings.HasSuffix(pattern, "$")
	if anchored {
		pattern = pattern[:len(pattern)-1]
	}
	segs := strings.Split(pattern, "*")
	if !strings.HasPrefix(path, segs[0]) {
		return false
	}
	if len(segs) == 1 {
		return !anchored || len(path) == len(segs[0])
	}
	pos := len(segs[0])
	last := len(segs) - 1
	// Placing each middle piece as early as possible leaves the most room
	// for the rest, so the first fit is the one to take.
	for _, s := range segs[1:last] {
		i := strings.Index(path[pos:], s)
		if i < 0 {
			return false
		}
		pos += i + len(s)
	}
	if !anchored {
		return strings.Contains(path[pos:], segs[last])
	}
	return len(path)-pos >= len(segs[last]) && strings.HasSuffix(path, segs[last])
}

// normalisePattern percent-encodes bytes outside printable ASCII and
// upper-cases existing escapes, so a pattern compares with a URL's
// escaped path octet for octet.
func normalisePattern(p string) string {
	if !strings.HasPrefix(p, "/") && !strings.HasPrefix(p, "*") {
		p = "/" + p // "Disallow: private" is read as /private, the cautious way
	}
	return normalisePath(p)
}

func normalisePath(p string) string {
	clean := true
	for i := 0; i < len(p); i++ {
		if c := p[i]; c <= ' ' || c >= 0x7f || (c == '%' && i+2 < len(p) && (isLowerHex(p[i+1]) || isLowerHex(p[i+2]))) {
			clean = false
			break
		}
	}
	if clean {
		return p
	}
	const hex = "0123456789ABCDEF"
	var b strings.Builder
	for i := 0; i < len(p); i++ {
		c := p[i]
		switch {
		case c <= ' ' || c >= 0x7f:
			b.WriteByte('%')
			b.WriteByte(hex[c>>4])
			b.WriteByte(hex[c&15])
		case c == '%' && i+2 < len(p):
			b.WriteByte('%')
			b.WriteString(strings.ToUpper(p[i+1 : i+3]))
			i += 2
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

func isLowerHex(c byte) bool { return c >= 'a' && c <= 'f' }
