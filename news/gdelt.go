package news

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"time"
	"unicode"
)

// DefaultGDELTBaseURL is the GDELT DOC 2.0 API.
const DefaultGDELTBaseURL = "https://api.gdeltproject.org/api/v2/doc/doc"

// GDELTMinInterval is the pace GDELT asks of each client: no more than
// one request every five seconds (its 429 answer says so). The lead
// configures the fetcher with this minimum interval and one request at a
// time for api.gdeltproject.org, across all nodes.
const GDELTMinInterval = 5 * time.Second

// GDELT's limits on an article list.
const (
	gdeltDefaultRecords = 75
	gdeltMaxRecords     = 250
	gdeltDefaultSpan    = "1d"
)

// ErrGDELT is wrapped by ParseGDELT when GDELT answers with a message
// instead of JSON (a query it refuses, a rate-limit notice).
var ErrGDELT = errors.New("news: gdelt refused the query")

// GDELTQuery asks GDELT for recent articles naming a company.
type GDELTQuery struct {
	// BaseURL replaces DefaultGDELTBaseURL (tests, --source-base-url).
	BaseURL string
	// Name is the company's name, searched as an exact phrase.
	Name string
	// MaxRecords is 1 to 250; 0 means GDELT's default of 75.
	MaxRecords int
	// Timespan is how far back to search, from 15 minutes to 3 months:
	// "15min", "24h", "7d", "2w", "3m" (or "hours", "days", "weeks",
	// "months" spelt out); "" means "1d".
	Timespan string
	// Language, when set, keeps articles in that language ("english").
	Language string
}

var timespanRE = regexp.MustCompile(`^([0-9]{1,4})(min|mins|minutes|h|hours|d|days|w|weeks|m|months)$`)

// URL returns the artlist query URL: the name quoted as a phrase, sorted
// newest first, as JSON. It returns an error naming the field for a name
// with fewer than three letters or digits, a MaxRecords out of range, a
// timespan GDELT does not take, or a BaseURL that is not http(s).
func (q GDELTQuery) URL() (string, error) {
	base := q.BaseURL
	if base == "" {
		base = DefaultGDELTBaseURL
	}
	u, err := url.Parse(base)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.RawQuery != "" {
		return "", fmt.Errorf("news: gdelt base URL %q: want an http(s) URL without a query", base)
	}
	phrase := gdeltPhrase(q.Name)
	if len(strings.ReplaceAll(phrase, " ", "")) < 3 {
		return "", fmt.Errorf("news: gdelt name %q: too short to search", q.Name)
	}
	n := q.MaxRecords
	if n == 0 {
		n = gdeltDefaultRecords
	}
	if n < 1 || n > gdeltMaxRecords {
		return "", fmt.Errorf("news: gdelt max records %d: want 1 to %d", q.MaxRecords, gdeltMaxRecords)
	}
	span := strings.ToLower(strings.TrimSpace(q.Timespan))
	if span == "" {
		span = gdeltDefaultSpan
	}
	if err := checkTimespan(span); err != nil {
		return "", err
	}
	query := `"` + phrase + `"`
	if lang := gdeltPhrase(q.Language); lang != "" {
		query += " sourcelang:" + strings.ReplaceAll(lang, " ", "")
	}
	esc := func(s string) string { return strings.ReplaceAll(url.QueryEscape(s), "+", "%20") }
	return base + "?query=" + esc(query) + "&mode=artlist&format=json&maxrecords=" + strconv.Itoa(n) +
		"&timespan=" + esc(span) + "&sort=datedesc", nil
}

// gdeltPhrase reduces a name to lower-case letters and digits separated
// by single spaces, its legal form dropped: GDELT's phrase search matches
// words, and quotes, colons, parentheses or a minus sign in a name would
// read as its operators.
func gdeltPhrase(name string) string {
	f := strings.FieldsFunc(strings.ToLower(name), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	})
	for len(f) > 1 {
		switch f[len(f)-1] {
		case "inc", "llc", "ltd", "corp", "corporation", "co", "plc", "gmbh", "ag", "sa", "nv", "bv", "limited":
			f = f[:len(f)-1]
			continue
		}
		break
	}
	return strings.Join(f, " ")
}

// checkTimespan accepts GDELT's spans from 15 minutes to 3 months.
func checkTimespan(span string) error {
	m := timespanRE.FindStringSubmatch(span)
	if m == nil {
		return fmt.Errorf("news: gdelt timespan %q: want a number and min, h, d, w or m", span)
	}
	n, _ := strconv.Atoi(m[1])
	var d time.Duration
	switch m[2][0] {
	case 'h':
		d = time.Duration(n) * time.Hour
	case 'd':
		d = time.Duration(n) * 24 * time.Hour
	case 'w':
		d = time.Duration(n) * 7 * 24 * time.Hour
	case 'm':
		if strings.HasPrefix(m[2], "min") {
			d = time.Duration(n) * time.Minute
		} else {
			d = time.Duration(n) * 31 * 24 * time.Hour
		}
	}
	if d < 15*time.Minute || d > 93*24*time.Hour {
		return fmt.Errorf("news: gdelt timespan %q: want 15 minutes to 3 months", span)
	}
	return nil
}

// gdeltArticle is one article of an artlist answer.
type gdeltArticle struct {
	URL           string `json:"url"`
	URLMobile     string `json:"url_mobile"`
	Title         string `json:"title"`
	SeenDate      string `json:"seendate"`
	SocialImage   string `json:"socialimage"`
	Domain        string `json:"domain"`
	Language      string `json:"language"`
	SourceCountry string `json:"sourcecountry"`
}

// ParseGDELT reads an artlist JSON answer into items, in GDELT's order.
// Published is the seendate (when GDELT saw the article). Articles
// without an http(s) URL are skipped; an answer with no articles ("{}")
// gives none. GDELT answers a query it refuses with a plain-text message
// and status 200: ParseGDELT returns an error wrapping ErrGDELT that
// quotes it. Control characters and bad escapes that GDELT sometimes
// leaves in titles are repaired before a second attempt; JSON that still
// does not parse returns the decoder's error, wrapped.
func ParseGDELT(body []byte) ([]Item, error) {
	body = bytes.TrimSpace(bytes.TrimPrefix(body, []byte("\xef\xbb\xbf")))
	if len(body) == 0 || body[0] != '{' {
		msg := clip(collapse(plainText(string(body[:min(len(body), 2000)]))), 200)
		return nil, fmt.Errorf("%w: %q", ErrGDELT, msg)
	}
	var resp struct {
		Articles []gdeltArticle `json:"articles"`
	}
	if err := json.Unmarshal(body, &resp); err != nil {
		if err2 := json.Unmarshal(repairJSON(body), &resp); err2 != nil {
			return nil, fmt.Errorf("news: parse gdelt answer: %w", err)
		}
	}
	out := make([]Item, 0, len(resp.Articles))
	for _, a := range resp.Articles {
		u, err := url.Parse(strings.TrimSpace(a.URL))
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			continue
		}
		it := Item{Title: plainText(a.Title), Link: u.String(), GUID: u.String(), Source: "gdelt",
			Domain: strings.ToLower(strings.TrimSpace(a.Domain)), Language: strings.TrimSpace(a.Language),
			SourceCountry: strings.TrimSpace(a.SourceCountry)}
		if t, err := time.Parse("20060102T150405Z", strings.TrimSpace(a.SeenDate)); err == nil {
			it.Published = t
		}
		out = append(out, it)
	}
	return out, nil
}

// repairJSON replaces control characters inside strings with spaces and
// drops the backslash of escapes JSON does not have ("\'", "\x").
func repairJSON(b []byte) []byte {
	out := make([]byte, 0, len(b))
	inString := false
	for i := 0; i < len(b); i++ {
		c := b[i]
		switch {
		case !inString:
			if c == '"' {
				inString = true
			}
			out = append(out, c)
		case c == '"':
			inString = false
			out = append(out, c)
		case c == '\\':
			if i+1 < len(b) && strings.IndexByte(`"\/bfnrtu`, b[i+1]) >= 0 {
				out = append(out, c, b[i+1])
				i++
			}
		case c < 0x20:
			out = append(out, ' ')
		default:
			out = append(out, c)
		}
	}
	return out
}
