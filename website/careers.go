package website

import (
	"net/netip"
	"net/url"
	"path"
	"sort"
	"strings"
	"unicode"

	"golang.org/x/net/publicsuffix"
	"golang.org/x/text/runes"
	"golang.org/x/text/transform"
	"golang.org/x/text/unicode/norm"
)

// careerCandidates ranks the same-site links that look like the careers
// page: by their text ("Careers", "Join us", "Trabaja con nosotros"), their
// path (/careers, /karriere, /work-with-us) and their host (careers.acme.example).
// A link to the page itself, or to another site (job boards are found by
// their own URL shapes, not here), is never a candidate.
func careerCandidates(page *url.URL, links []Link, max int) []Candidate {
	self := page.Scheme + "://" + strings.ToLower(page.Host) + page.EscapedPath()
	site := siteOf(page.Hostname())
	var out []Candidate
	phrases := careerPhrases()
	padded := make([]string, len(phrases))
	for i, p := range phrases {
		padded[i] = " " + p + " "
	}
	for _, l := range links {
		u, err := url.Parse(l.URL)
		if err != nil || siteOf(u.Hostname()) != site {
			continue
		}
		if u.Scheme+"://"+u.Host+u.EscapedPath() == self && u.RawQuery == "" {
			continue
		}
		c := Candidate{URL: l.URL, Text: l.Text}
		keyword := scoreText(l.Text, phrases, padded, &c) + scoreURL(u, page.Hostname(), &c)
		if keyword == 0 {
			continue
		}
		c.Score = keyword + penalties(u, &c)
		if c.Score > 0 {
			out = append(out, c)
		}
	}
	// Stable: equal scores keep document order, so the result is the
	// same for the same page.
	sort.SliceStable(out, func(i, j int) bool { return out[i].Score > out[j].Score })
	if len(out) > max {
		out = out[:max]
	}
	return out
}

// siteOf is the registrable domain (eTLD+1) of host; careers.acme.example
// and www.acme.example are one site. Hosts without one (IP addresses,
// localhost) are their own site.
func siteOf(host string) string {
	host = strings.ToLower(strings.TrimSuffix(host, "."))
	if _, err := netip.ParseAddr(host); err == nil {
		return host // 10.0.0.1 and 127.0.0.1 are not one site
	}
	if s, err := publicsuffix.EffectiveTLDPlusOne(host); err == nil {
		return s
	}
	return host
}

// scoreText scores a link's text against the career phrases; padded
// holds each phrase between spaces, to match whole words.
func scoreText(text string, phrases, padded []string, c *Candidate) int {
	t := normalizeWords(text)
	if t == "" {
		return 0
	}
	t2 := " " + t + " "
	best, why := 0, ""
	for i, p := range phrases {
		switch {
		case t == p && best < 10:
			best, why = 10, "text is "+p
		case best < 6 && len(t2) >= len(padded[i]) && strings.Contains(t2, padded[i]):
			best, why = 6, "text mentions "+p
		}
	}
	if best > 0 {
		c.Reasons = append(c.Reasons, why)
	}
	return best
}

func scoreURL(u *url.URL, pageHost string, c *Candidate) int {
	score := 0
	host := u.Hostname()
	if label, _, ok := strings.Cut(host, "."); ok && !strings.EqualFold(host, pageHost) && careerHostLabel(strings.ToLower(label)) {
		score += 8
		c.Reasons = append(c.Reasons, "host "+host)
	}
	best, why := 0, ""
	for _, seg := range strings.Split(strings.Trim(u.Path, "/"), "/") {
		seg = strings.TrimSuffix(seg, path.Ext(seg))
		words := strings.Fields(normalizeWords(seg))
		if len(words) == 0 {
			continue
		}
		if slug := strings.Join(words, "-"); careerSlug(slug) {
			if best < 8 {
				best, why = 8, "path /"+slug
			}
			continue
		}
		for _, w := range words {
			if careerWord(w) && best < 4 {
				best, why = 4, "path word "+w
			}
		}
	}
	if best > 0 {
		c.Reasons = append(c.Reasons, why)
	}
	return score + best
}

// penalties lower links that are less likely to be the careers landing
// page: deep paths (one posting, a blog article about hiring), queries,
// and sections about news.
func penalties(u *url.URL, c *Candidate) int {
	p := 0
	segs := strings.Split(strings.Trim(u.Path, "/"), "/")
	if len(segs) > 2 {
		p -= len(segs) - 2
	}
	if u.RawQuery != "" {
		p--
	}
	for _, s := range segs {
		switch strings.ToLower(s) {
		case "blog", "news", "press", "article", "articles", "posts", "stories":
			c.Reasons = append(c.Reasons, "under /"+strings.ToLower(s))
			return p - 5
		}
	}
	return p
}

// normalizeWords lower-cases s, drops accents (carrières -> carrieres,
// únete -> unete) and turns everything but letters and digits into single
// spaces.
func normalizeWords(s string) string {
	s = strings.ToLower(s)
	if !isASCIIString(s) {
		t := transform.Chain(norm.NFD, runes.Remove(runes.In(unicode.Mn)), norm.NFC)
		if out, _, err := transform.String(t, s); err == nil {
			s = out
		}
	}
	return strings.Join(strings.FieldsFunc(s, func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	}), " ")
}

func isASCIIString(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}
