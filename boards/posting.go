package boards

import (
	"strings"
	"time"

	"github.com/prospectorhq/prospector/taxonomy"
)

// Hash is the posting's content hash: 64-bit FNV-1a over Title,
// Department, Location, CountryCode, Remote ("1" or "0") and URL, each
// followed by a 0 byte, read as an int64. It leaves out what identifies
// the posting (Source, Board, ExternalID), what is derived from the title
// (Level, Function) and the times, which some vendors bump on any touch of
// the description. The value is stable across releases: changing the
// fields or their order would mark every stored opening as edited once.
func (p *Posting) Hash() int64 {
	h := uint64(fnvOffset64)
	remote := "0"
	if p.Remote {
		remote = "1"
	}
	for _, s := range [...]string{p.Title, p.Department, p.Location, p.CountryCode, remote, p.URL} {
		for i := 0; i < len(s); i++ {
			h ^= uint64(s[i])
			h *= fnvPrime64
		}
		h *= fnvPrime64 // the 0 separator: h ^= 0 is a no-op
	}
	return int64(h)
}

const (
	fnvOffset64 = 14695981039346656037
	fnvPrime64  = 1099511628211
)

// collector gathers a board's postings, normalising each and dropping
// repeats and postings without an id or a title.
type collector struct {
	ref  Ref
	seen map[string]bool
	out  []Posting
}

func newCollector(ref Ref, n int) *collector {
	return &collector{ref: ref, seen: make(map[string]bool, n), out: make([]Posting, 0, n)}
}

// add normalises p and keeps it. country is the API's structured country
// (a code or a name), "" when it has none; the location text is read
// then. remote is the API's remote flag.
func (c *collector) add(p Posting, country string, remote bool) {
	p.Source, p.Board = c.ref.Kind, c.ref.Token
	p.ExternalID = strings.TrimSpace(p.ExternalID)
	p.Title = collapseSpace(p.Title)
	if p.ExternalID == "" || p.Title == "" || c.seen[p.ExternalID] {
		return
	}
	c.seen[p.ExternalID] = true
	p.Department = collapseSpace(p.Department)
	p.Location = collapseSpace(p.Location)
	p.URL = strings.TrimSpace(p.URL)
	info := taxonomy.ParseTitle(p.Title)
	p.Level, p.Function = info.Level, info.Function
	if code, ok := taxonomy.NormalizeCountry(strings.TrimSpace(country)); ok && code != taxonomy.WorldCode {
		p.CountryCode = code
	} else {
		p.CountryCode, _ = taxonomy.LocationCountry(p.Location)
	}
	p.Remote = remote || RemoteText(p.Location)
	p.ContentHash = p.Hash()
	c.out = append(c.out, p)
}

// RemoteText reports whether a location text says the job is remote:
// "Remote", "Remote - US", "Anywhere", "Work from home", "WFH",
// "Home office", "Télétravail", "Remoto", "Distributed". "Hybrid" alone is
// not remote.
func RemoteText(s string) bool {
	if s == "" {
		return false
	}
	words := strings.FieldsFunc(strings.ToLower(s), func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r > 127)
	})
	for i, w := range words {
		switch w {
		case "remote", "remoto", "remota", "anywhere", "wfh", "distributed", "homeoffice", "telecommute",
			"télétravail", "teletravail", "teletrabajo", "fernarbeit":
			return true
		case "home":
			if i+1 < len(words) && (words[i+1] == "office" || words[i+1] == "based") {
				return true
			}
			if i >= 2 && words[i-1] == "from" && words[i-2] == "work" {
				return true
			}
		}
	}
	return false
}

func collapseSpace(s string) string {
	if !strings.ContainsAny(s, "\t\n\r\u00a0") && !strings.Contains(s, "  ") {
		return strings.TrimSpace(s)
	}
	return strings.Join(strings.Fields(strings.ReplaceAll(s, "\u00a0", " ")), " ")
}

// parseTime reads the timestamps the vendors use: RFC 3339 with or
// without fractions, "2006-01-02 15:04:05 UTC" (Recruitee), a bare date
// (Workable). Anything else gives the zero time.
func parseTime(s string) time.Time {
	s = strings.TrimSpace(s)
	if s == "" {
		return time.Time{}
	}
	for _, layout := range [...]string{time.RFC3339Nano, "2006-01-02 15:04:05 MST", "2006-01-02 15:04:05 -0700",
		"2006-01-02T15:04:05", "2006-01-02"} {
		if t, err := time.Parse(layout, s); err == nil {
			return t.UTC()
		}
	}
	return time.Time{}
}

// unixMillis reads Lever's millisecond timestamps; 0 is no time.
func unixMillis(ms int64) time.Time {
	if ms <= 0 {
		return time.Time{}
	}
	return time.UnixMilli(ms).UTC()
}

// joinNonEmpty joins the distinct non-empty parts with ", ".
func joinNonEmpty(parts ...string) string {
	var b strings.Builder
	var prev []string
	for _, p := range parts {
		p = strings.TrimSpace(p)
		if p == "" || contains(prev, p) {
			continue
		}
		if b.Len() > 0 {
			b.WriteString(", ")
		}
		b.WriteString(p)
		prev = append(prev, p)
	}
	return b.String()
}

func contains(l []string, s string) bool {
	for _, x := range l {
		if strings.EqualFold(x, s) {
			return true
		}
	}
	return false
}

// countryName is the English name of an alpha-2 code in any case, or the
// code itself when it is no country.
func countryName(code string) string {
	if n := taxonomy.CountryName(code); n != "" {
		return n
	}
	return code
}
