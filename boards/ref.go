package boards

import (
	"net/url"
	"strings"

	"github.com/prospectorhq/prospector"
)

// The board kinds: one adapter each. A kind is also the source name of
// the postings its boards give.
const (
	KindGreenhouse      = "greenhouse"
	KindLever           = "lever"
	KindAshby           = "ashby"
	KindWorkable        = "workable"
	KindSmartRecruiters = "smartrecruiters"
	KindRecruitee       = "recruitee"
	KindPersonio        = "personio"
)

// Regions: the second host some vendors serve boards from.
const (
	// RegionEU is Lever's EU instance (jobs.eu.lever.co, api.eu.lever.co).
	RegionEU = "eu"
	// RegionCom is Personio's .com domain ({account}.jobs.personio.com);
	// the default is .de.
	RegionCom = "com"
)

// Kinds returns the board kinds, in a fixed order.
func Kinds() []string {
	return []string{KindGreenhouse, KindLever, KindAshby, KindWorkable, KindSmartRecruiters, KindRecruitee, KindPersonio}
}

// Ref names one board: its kind, the token the vendor knows it by (a
// Greenhouse board token, a Lever site, an Ashby job board name, a
// Workable or Recruitee subdomain, a SmartRecruiters company identifier, a
// Personio account), and the region its vendor hosts it in, "" for the
// default one.
type Ref struct {
	Kind   string
	Token  string
	Region string
}

// Endpoint is the name of the API host the board is read from, as
// --source-base-url names it: the kind, or "lever-eu" and "personio-com"
// for the second regions.
func (r Ref) Endpoint() string {
	if r.Region == "" {
		return r.Kind
	}
	return r.Kind + "-" + r.Region
}

// String is the board as --board writes it: "greenhouse:acme",
// "lever-eu:acme". ParseRef reads it back.
func (r Ref) String() string { return r.Endpoint() + ":" + r.Token }

// ParseRef reads a --board value: SOURCE:TOKEN, where SOURCE is a kind or
// "lever-eu" / "personio-com", or the URL of a board (anything Recognize
// knows). Tokens of the kinds whose token is a host name (Workable,
// Recruitee, Personio) are lower-cased. On bad input it returns a
// validation *prospector.Error naming --board.
func ParseRef(s string) (Ref, error) {
	s = strings.TrimSpace(s)
	if strings.Contains(s, "://") {
		if ref, ok := Recognize(s); ok {
			return ref, nil
		}
		return Ref{}, prospector.Errorf(prospector.EINVALID, "--board: %q is not the address of a job board this version knows", s)
	}
	src, token, ok := strings.Cut(s, ":")
	if !ok || src == "" || token == "" {
		return Ref{}, prospector.Errorf(prospector.EINVALID, "--board: %q is not SOURCE:TOKEN (e.g. greenhouse:acme)", s)
	}
	ref, ok := refFromEndpoint(strings.ToLower(strings.TrimSpace(src)))
	if !ok {
		return Ref{}, prospector.Errorf(prospector.EINVALID, "--board: unknown source %q; one of %s", src,
			strings.Join(Endpoints(), ", "))
	}
	ref.Token, ok = cleanToken(ref.Kind, strings.TrimSpace(token))
	if !ok {
		return Ref{}, prospector.Errorf(prospector.EINVALID, "--board: %q is not a valid %s token", token, ref.Kind)
	}
	return ref, nil
}

// Endpoints returns the API endpoint names --source-base-url accepts.
func Endpoints() []string {
	return []string{KindGreenhouse, KindLever, KindLever + "-" + RegionEU, KindAshby, KindWorkable,
		KindSmartRecruiters, KindRecruitee, KindPersonio, KindPersonio + "-" + RegionCom}
}

func refFromEndpoint(name string) (Ref, bool) {
	switch name {
	case KindLever + "-" + RegionEU:
		return Ref{Kind: KindLever, Region: RegionEU}, true
	case KindPersonio + "-" + RegionCom:
		return Ref{Kind: KindPersonio, Region: RegionCom}, true
	}
	for _, k := range Kinds() {
		if k == name {
			return Ref{Kind: k}, true
		}
	}
	return Ref{}, false
}

// hostTokenKind reports whether the kind's token is a DNS label (a
// subdomain), so it is case-insensitive and lower-cased.
func hostTokenKind(kind string) bool {
	return kind == KindWorkable || kind == KindRecruitee || kind == KindPersonio
}

// cleanToken validates a token for kind and returns its canonical form.
// Tokens are 1-100 characters of letters, digits, '-', '_' and '.'; host
// tokens are DNS labels; an Ashby job board name may also hold spaces
// (percent-encoded in its URLs).
func cleanToken(kind, t string) (string, bool) {
	if kind == KindAshby && strings.Contains(t, "%") {
		if u, err := url.PathUnescape(t); err == nil {
			t = u
		}
	}
	if t == "" || len(t) > 100 {
		return "", false
	}
	if hostTokenKind(kind) {
		t = strings.ToLower(t)
		if len(t) > 63 || t[0] == '-' || t[len(t)-1] == '-' {
			return "", false
		}
	}
	for i := 0; i < len(t); i++ {
		c := t[i]
		switch {
		case c >= 'a' && c <= 'z', c >= '0' && c <= '9', c == '-':
		case c >= 'A' && c <= 'Z', c == '_', c == '.':
			if hostTokenKind(kind) {
				return "", false
			}
		case c == ' ' && kind == KindAshby && i > 0 && i < len(t)-1:
		default:
			return "", false
		}
	}
	if t == "." || t == ".." {
		return "", false
	}
	return t, true
}
