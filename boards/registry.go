package boards

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/prospectorhq/prospector"
)

// TokenPlaceholder stands for the board's token in the base URL of a kind
// whose token is a host name (Recruitee, Personio).
const TokenPlaceholder = "{token}"

// DefaultBaseURL returns the vendor's public API base URL for an endpoint
// name (see Endpoints), "" for an unknown name.
func DefaultBaseURL(endpoint string) string {
	switch endpoint {
	case KindGreenhouse:
		return "https://boards-api.greenhouse.io"
	case KindLever:
		return "https://api.lever.co"
	case KindLever + "-" + RegionEU:
		return "https://api.eu.lever.co"
	case KindAshby:
		return "https://api.ashbyhq.com"
	case KindWorkable:
		return "https://apply.workable.com"
	case KindSmartRecruiters:
		return "https://api.smartrecruiters.com"
	case KindRecruitee:
		return "https://" + TokenPlaceholder + ".recruitee.com"
	case KindPersonio:
		return "https://" + TokenPlaceholder + ".jobs.personio.de"
	case KindPersonio + "-" + RegionCom:
		return "https://" + TokenPlaceholder + ".jobs.personio.com"
	}
	return ""
}

// Registry holds one adapter per kind and the base URL of each endpoint.
// It is safe for concurrent use once built.
type Registry struct {
	bases    map[string]string
	adapters map[string]Adapter
}

// NewRegistry returns a Registry with the vendors' base URLs, the entries
// of overrides replacing them (endpoint name -> base URL, as
// --source-base-url gives them). An override is an absolute http(s) URL
// without query or fragment; a path in it is kept as a prefix
// ("http://127.0.0.1:9001/gh" reads http://127.0.0.1:9001/gh/v1/boards/...).
// For Recruitee and Personio, whose token is in the host name, a base
// holding "{token}" gets the token there; a base without it gets the token
// as the first path segment instead: "http://127.0.0.1:9001" reads
// http://127.0.0.1:9001/acme/api/offers/ for the Recruitee board acme. It
// fails with a validation error naming --source-base-url on an unknown
// name or a bad URL.
func NewRegistry(overrides map[string]string) (*Registry, error) {
	r := &Registry{bases: make(map[string]string), adapters: make(map[string]Adapter)}
	for _, e := range Endpoints() {
		r.bases[e] = DefaultBaseURL(e)
	}
	for name, base := range overrides {
		clean, err := checkBaseURL(name, base)
		if err != nil {
			return nil, err
		}
		r.bases[name] = clean
	}
	for _, a := range []Adapter{&greenhouse{r}, &lever{r}, &ashby{r}, &workable{r}, &smartRecruiters{r},
		&recruitee{r}, &personio{r}} {
		r.adapters[a.Kind()] = a
	}
	return r, nil
}

// ParseBaseURL reads one --source-base-url value, NAME=URL, for a board
// endpoint. It reports ok=false when NAME is no board endpoint (the flag
// also names other sources), and an error when it is one but URL is bad.
func ParseBaseURL(s string) (name, base string, ok bool, err error) {
	name, base, found := strings.Cut(s, "=")
	name = strings.ToLower(strings.TrimSpace(name))
	if !found || DefaultBaseURL(name) == "" {
		return "", "", false, nil
	}
	base, err = checkBaseURL(name, strings.TrimSpace(base))
	return name, base, true, err
}

func checkBaseURL(name, base string) (string, error) {
	if DefaultBaseURL(name) == "" {
		return "", prospector.Errorf(prospector.EINVALID, "--source-base-url: unknown board source %q; one of %s",
			name, strings.Join(Endpoints(), ", "))
	}
	probe := strings.ReplaceAll(base, TokenPlaceholder, "token")
	u, err := url.Parse(probe)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.RawQuery != "" ||
		u.Fragment != "" || u.User != nil {
		return "", prospector.Errorf(prospector.EINVALID, "--source-base-url: %s=%q is not an absolute http(s) URL without query", name, base)
	}
	if n := strings.Count(base, TokenPlaceholder); n > 0 {
		kind, _ := refFromEndpoint(name)
		host, _, _ := strings.Cut(strings.SplitN(base, "://", 2)[1], "/")
		if kind.Kind != KindRecruitee && kind.Kind != KindPersonio || n != 1 || !strings.Contains(host, TokenPlaceholder) {
			return "", prospector.Errorf(prospector.EINVALID,
				"--source-base-url: %s: %s may only stand once in the host name of a recruitee or personio URL", name, TokenPlaceholder)
		}
	}
	return strings.TrimRight(base, "/"), nil
}

// Adapter returns the adapter of a kind.
func (r *Registry) Adapter(kind string) (Adapter, bool) {
	a, ok := r.adapters[kind]
	return a, ok
}

// BaseURL returns the base URL an endpoint is read from.
func (r *Registry) BaseURL(endpoint string) string { return r.bases[endpoint] }

// List polls a board with its kind's adapter; see Adapter.List. An unknown
// kind is a validation error.
func (r *Registry) List(ctx context.Context, f prospector.Fetcher, ref Ref, v Validators) (*Listing, error) {
	a, ok := r.adapters[ref.Kind]
	if !ok {
		return nil, prospector.Errorf(prospector.EINVALID, "unknown board kind %q", ref.Kind)
	}
	return a.List(ctx, f, ref, v)
}

// checkRef returns ref as kind's adapter reads it: the kind set, the token
// validated and canonical (a token is spliced into a URL, for Recruitee and
// Personio into its host name, so nothing else may pass), the region one
// the kind has. A bad ref is a validation error that fetches nothing.
func checkRef(ref Ref, kind string, regions ...string) (Ref, error) {
	tok, ok := cleanToken(kind, ref.Token)
	if !ok {
		return Ref{}, prospector.Errorf(prospector.EINVALID, "boards: %q is not a valid %s token", ref.Token, kind)
	}
	if ref.Region != "" && (len(regions) == 0 || ref.Region != regions[0]) {
		return Ref{}, prospector.Errorf(prospector.EINVALID, "boards: %s has no region %q", kind, ref.Region)
	}
	return Ref{Kind: kind, Token: tok, Region: ref.Region}, nil
}

// pathURL is base + the path, for the kinds whose token is a path segment.
func (r *Registry) pathURL(ref Ref, path string) string {
	return r.bases[ref.Endpoint()] + path
}

// hostURL is the board's root URL for the kinds whose token is a host
// name: the token replaces {token}, or becomes the first path segment.
func (r *Registry) hostURL(ref Ref) string {
	base := r.bases[ref.Endpoint()]
	if strings.Contains(base, TokenPlaceholder) {
		return strings.Replace(base, TokenPlaceholder, ref.Token, 1)
	}
	return base + "/" + url.PathEscape(ref.Token)
}

// get fetches one URL of a board and sorts the answer: a success or a 304
// comes back, a 404 or 410 (and with noRedirects a 3xx) is ErrNotFound,
// anything else a *StatusError.
func get(ctx context.Context, f prospector.Fetcher, ref Ref, u string, v Validators, accept string, noRedirects bool) (*prospector.FetchResponse, error) {
	resp, err := f.Fetch(ctx, prospector.FetchRequest{
		URL: u, ETag: v.ETag, LastModified: v.LastModified, Accept: accept, NoRedirects: noRedirects,
	})
	if err != nil {
		return nil, fmt.Errorf("boards: %s: %w", ref, err)
	}
	switch {
	case resp.NotModified:
		return resp, nil
	case resp.Status >= 200 && resp.Status < 300:
		return resp, nil
	case resp.Status == 404 || resp.Status == 410:
		return nil, notFound(ref)
	case noRedirects && resp.Status >= 300 && resp.Status < 400:
		return nil, notFound(ref)
	}
	return nil, &StatusError{Ref: ref, Status: resp.Status, RetryAfter: retryAfter(resp.Header.Get("Retry-After"))}
}

// nextValidators are the validators a response hands on: its own, or those
// sent when a 304 repeated none.
func nextValidators(resp *prospector.FetchResponse, sent Validators) Validators {
	v := Validators{ETag: resp.ETag, LastModified: resp.LastModified}
	if resp.NotModified && v.IsZero() {
		return sent
	}
	return v
}

// retryAfter reads a Retry-After header: seconds or an HTTP date.
func retryAfter(h string) time.Duration {
	if h == "" {
		return 0
	}
	if n, err := strconv.Atoi(strings.TrimSpace(h)); err == nil && n > 0 {
		return time.Duration(n) * time.Second
	}
	if t, err := http.ParseTime(h); err == nil {
		if d := time.Until(t); d > 0 {
			return d.Round(time.Second)
		}
	}
	return 0
}

// listEitherHost lists a board whose vendor hosts it in one of two
// regions: a ref without a region tries the default host, then other's,
// counting both requests.
func listEitherHost(ctx context.Context, f prospector.Fetcher, ref Ref, v Validators, other string,
	list func(context.Context, prospector.Fetcher, Ref, Validators) (*Listing, error)) (*Listing, error) {
	l, err := list(ctx, f, ref, v)
	if ref.Region != "" || !errors.Is(err, ErrNotFound) {
		return l, err
	}
	alt := ref
	alt.Region = other
	l, err = list(ctx, f, alt, v)
	if l != nil {
		l.Requests++
	}
	if errors.Is(err, ErrNotFound) {
		return nil, fmt.Errorf("boards: %s: %w on either host", ref, ErrNotFound)
	}
	return l, err
}
