package main

import (
	"fmt"
	"io"
	"maps"
	"net/url"
	"slices"
	"strings"

	"github.com/prospectorhq/prospector"
	"github.com/prospectorhq/prospector/boards"
	"github.com/prospectorhq/prospector/fetch"
	"github.com/prospectorhq/prospector/news"
	"github.com/prospectorhq/prospector/sec"
	"github.com/prospectorhq/prospector/sources"
	"github.com/prospectorhq/prospector/sources/adapters"
	"github.com/prospectorhq/prospector/techdetect"
	"github.com/spf13/cobra"
)

// sourceOptions are the flags of serve and sources run that say how the
// public web is fetched (docs/sources.md, "Running sources").
type sourceOptions struct {
	baseURLs     []string
	resolve      []string
	allowPrivate bool
	contactEmail string
	fingerprints []string
	gdelt        bool
}

func (o *sourceOptions) addFlags(cmd *cobra.Command) {
	f := cmd.Flags()
	f.StringArrayVar(&o.baseURLs, "source-base-url", nil, "NAME=URL replaces a source's base URL, for tests and air-gapped installs (repeatable); NAME is one of "+strings.Join(baseURLNames(), ", "))
	f.StringArrayVar(&o.resolve, "resolve", nil, "HOST=ADDR:PORT sends every fetch of HOST, http or https, to plain http://ADDR:PORT, like curl's --resolve (repeatable)")
	f.BoolVar(&o.allowPrivate, "allow-private-sources", false, "let sources reach loopback, private and other internal addresses, for local fixtures (or $PROSPECTOR_ALLOW_PRIVATE_SOURCES=1)")
	f.StringVar(&o.contactEmail, "contact-email", "", "the operator's contact, sent in every source request's User-Agent so site owners can reach you (or $PROSPECTOR_CONTACT_EMAIL)")
	f.StringArrayVar(&o.fingerprints, "fingerprints", nil, "a technology fingerprint file in the Wappalyzer JSON format, loaded after the built-in rules (repeatable)")
	f.BoolVar(&o.gdelt, "gdelt", false, "also search GDELT for the news of every watched company with a name (GDELT sees the names searched)")
}

// Base URL names of the sources outside package boards.
const (
	baseSEC   = "sec"   // www.sec.gov and data.sec.gov together (the fixture EDGAR serves both)
	baseGDELT = "gdelt" // the GDELT DOC 2.0 API
)

func baseURLNames() []string { return append(boards.Endpoints(), baseSEC, baseGDELT) }

// sourceKit is what the sources need, built from the flags.
type sourceKit struct {
	client     *fetch.Client
	boards     *boards.Registry
	detector   *techdetect.Detector
	classifier *news.Classifier
	contact    string
	gdelt      bool
	secBase    string // "" for EDGAR's own hosts
	gdeltBase  string
}

// build checks the flags and makes the fetch client, the board registry
// and the technology detector. An error names the flag at fault.
func (o sourceOptions) build(e *env) (*sourceKit, error) {
	contact := o.contactEmail
	if contact == "" {
		contact = e.getenv("PROSPECTOR_CONTACT_EMAIL")
	}
	allow := o.allowPrivate
	if v := e.getenv("PROSPECTOR_ALLOW_PRIVATE_SOURCES"); v == "1" || v == "true" {
		allow = true
	}
	resolve, err := fetch.ParseResolve(o.resolve)
	if err != nil {
		return nil, err
	}
	bases, hosts, err := parseSourceBaseURLs(o.baseURLs)
	if err != nil {
		return nil, err
	}
	secBase, gdeltBase := bases[baseSEC], bases[baseGDELT]
	delete(bases, baseSEC)
	delete(bases, baseGDELT)
	reg, err := boards.NewRegistry(bases)
	if err != nil {
		return nil, err
	}
	client, err := fetch.New(fetch.Config{Version: version, Contact: contact, AllowPrivate: allow, Resolve: resolve,
		Hosts: hosts})
	if err != nil {
		return nil, fmt.Errorf("--contact-email: %w", err)
	}
	det, err := techdetect.Load(o.fingerprints...)
	if err != nil {
		return nil, fmt.Errorf("--fingerprints: %w", err)
	}
	return &sourceKit{client: client, boards: reg, detector: det, classifier: news.NewClassifier(), contact: contact,
		gdelt: o.gdelt, secBase: secBase, gdeltBase: gdeltBase}, nil
}

// checkSEC returns sec.ErrNoContactEmail unless the operator's contact
// is an email address, which EDGAR requires in every User-Agent.
func (k *sourceKit) checkSEC() error {
	_, err := sec.NewClient(k.client, sec.Options{ContactEmail: k.contact})
	return err
}

// poller is a sources.Poller over the kit and st: boards, websites and
// news always; SEC EDGAR when the operator's contact is an email
// address, which EDGAR requires (secErr says why it is off otherwise).
// The SEC client and GDELT searches draw from st's token buckets, so
// every node of a deployment shares one fair-access budget.
func (k *sourceKit) poller(st prospector.Store) (p *sources.Poller, secErr error) {
	p = &sources.Poller{Store: st, Fetcher: k.client, Boards: adapters.Boards{Registry: k.boards},
		Sites: adapters.Sites{Detector: k.detector},
		News: &sources.News{Store: st, GDELT: k.gdelt,
			Reader: adapters.News{Classifier: k.classifier, GDELTBaseURL: k.gdeltBase, Bucket: st}}}
	c, err := sec.NewClient(k.client, sec.Options{ContactEmail: k.contact, BaseURL: k.secBase, DataURL: k.secBase, Bucket: st})
	if err != nil {
		return p, err
	}
	p.SEC = &sources.SEC{Store: st, Reader: &adapters.SEC{Client: c}}
	return p, nil
}

// parseSourceBaseURLs reads --source-base-url values into the board
// registry's overrides, and gives each overridden host its vendor's
// pacing: a fixture or mirror standing in for a vendor's API is paced as
// that API, not as a company's site. A host holding {token} (Recruitee,
// Personio) is paced as one host for all its subdomains, as the vendors'
// are.
func parseSourceBaseURLs(values []string) (map[string]string, map[string]fetch.HostPolicy, error) {
	bases := map[string]string{}
	plain := map[string]*url.URL{}
	hosts := map[string]fetch.HostPolicy{}
	for _, v := range values {
		if !strings.Contains(v, "=") {
			return nil, nil, fmt.Errorf("--source-base-url %q: missing NAME= (want NAME=URL)", v)
		}
		if n, raw, _ := strings.Cut(v, "="); strings.TrimSpace(n) == baseSEC || strings.TrimSpace(n) == baseGDELT {
			n = strings.TrimSpace(n)
			u, err := url.Parse(strings.TrimSpace(raw))
			if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.RawQuery != "" || u.User != nil {
				return nil, nil, fmt.Errorf("--source-base-url %q: want NAME=URL with an absolute http(s) URL without a query", v)
			}
			if _, dup := bases[n]; dup {
				return nil, nil, fmt.Errorf("--source-base-url %q: %s given twice", v, n)
			}
			bases[n] = strings.TrimRight(u.String(), "/")
			// Paced as the host it stands for.
			p := fetch.HostPolicy{Concurrency: fetch.SECConcurrency, Interval: fetch.SECInterval}
			if n == baseGDELT {
				p = fetch.HostPolicy{Concurrency: 1, Interval: fetch.GDELTInterval}
			}
			hosts[strings.ToLower(u.Host)] = p
			continue
		}
		name, base, ok, err := boards.ParseBaseURL(v)
		if err != nil {
			return nil, nil, err
		}
		if !ok {
			n, _, _ := strings.Cut(v, "=")
			return nil, nil, fmt.Errorf("--source-base-url %q: unknown source %q; one of %s", v, strings.TrimSpace(n),
				strings.Join(baseURLNames(), ", "))
		}
		if _, dup := bases[name]; dup {
			return nil, nil, fmt.Errorf("--source-base-url %q: %s given twice", v, name)
		}
		bases[name] = base
		u, err := url.Parse(strings.Replace(base, boards.TokenPlaceholder, "token", 1))
		if err != nil {
			return nil, nil, fmt.Errorf("--source-base-url %q: %w", v, err)
		}
		if !strings.Contains(base, boards.TokenPlaceholder) {
			plain[name] = u
			continue
		}
		if _, rest, ok := strings.Cut(u.Hostname(), "."); ok {
			hosts["*."+strings.ToLower(rest)] = fetch.APIPolicy()
		}
	}
	for k, v := range fetch.BaseURLPolicies(plain) {
		if _, ok := hosts[k]; !ok { // a fixture serving SEC and boards keeps the SEC pace
			hosts[k] = v
		}
	}
	return bases, hosts, nil
}

// sourceNames are the values of sources run --source.
func sourceNames() []string {
	return append([]string{sources.SourceBoards, sources.SourceWebsite, sources.SourceNews, sources.SourceFeed,
		sources.SourceGDELT, sources.SourceSEC}, boards.Endpoints()...)
}

func checkSourceName(s string) error {
	if s == "" || slices.Contains(sourceNames(), s) {
		return nil
	}
	return fmt.Errorf("--source: unknown source %q; one of %s", s, strings.Join(sourceNames(), ", "))
}

// printFingerprintStats writes what loading the technology rules kept
// and skipped, one line each, when operator files were loaded.
func printFingerprintStats(w io.Writer, det *techdetect.Detector) {
	st := det.Stats()
	if len(st.Files) <= 1 {
		return
	}
	fmt.Fprintf(w, "fingerprints: %d technologies, %d patterns from %s\n", st.Technologies, st.Patterns,
		strings.Join(st.Files, ", "))
	if n := len(st.Skipped); n > 0 {
		by := st.SkippedBy()
		var parts []string
		for _, r := range slices.Sorted(maps.Keys(by)) {
			parts = append(parts, fmt.Sprintf("%s %d", r, by[r]))
		}
		fmt.Fprintf(w, "fingerprints: %d patterns skipped (%s)\n", n, strings.Join(parts, ", "))
		for i, s := range st.Skipped {
			if i == 10 {
				fmt.Fprintf(w, "fingerprints:   ... and %d more\n", n-i)
				break
			}
			fmt.Fprintf(w, "fingerprints:   %s: %s: %s %q: %s\n", s.File, s.Technology, s.Kind, s.Pattern, s.Reason)
		}
	}
	if len(st.Unsupported) > 0 {
		var parts []string
		for _, k := range slices.Sorted(maps.Keys(st.Unsupported)) {
			parts = append(parts, fmt.Sprintf("%s %d", k, st.Unsupported[k]))
		}
		fmt.Fprintf(w, "fingerprints: keys not supported, ignored (technologies using them): %s\n", strings.Join(parts, ", "))
	}
	if len(st.Overridden) > 0 {
		fmt.Fprintf(w, "fingerprints: replaced by a later file: %s\n", strings.Join(st.Overridden, ", "))
	}
}
