// Package email finds and verifies people's work addresses the way
// open-source verifiers do: candidates from the person's names and the
// domain's learnt address pattern, syntax and disposable-domain checks,
// MX lookup and, when enabled, an SMTP conversation that asks the
// domain's server about recipients and stops before DATA.
package email

import (
	"context"
	"fmt"
	"net"
	"strconv"
	"time"

	"github.com/prospectorhq/prospector"
)

// Confidence scale of a FindEmail answer. "evidence" below is the
// pattern's share of the known personal addresses at the domain, times
// min(known addresses, 10)/10: 0 with no support, 1 when ten or more
// known addresses all follow the pattern. Outreach feedback adjusts it:
// replies count as known addresses, bounces count against (outcome.go).
//
//	| What happened                                      | Verified | Confidence                 | Evidence      |
//	|----------------------------------------------------|----------|----------------------------|---------------|
//	| SMTP accepted it, random address rejected          | true     | 0.95; 0.99 for Known       | smtp_accepted |
//	| Catch-all domain (random address accepted), Known  | false    | 0.5                        | catch_all     |
//	| Catch-all domain, pattern with evidence > 0        | false    | 0.2 + 0.3*evidence (≤ 0.5) | catch_all     |
//	| No SMTP answer, Known                              | false    | 0.85                       | known         |
//	| No SMTP answer, pattern with evidence > 0          | false    | 0.3 + 0.5*evidence (≤ 0.8) | pattern       |
//	| No pattern evidence (catch-all or no SMTP answer)  | false    | 0 (no result)              | none          |
//	| Domain disposable, without MX, or all rejected     | false    | 0 (no result)              | none          |
//
// "No SMTP answer" is probing disabled, a temporary DNS failure, a 4xx
// reply (greylisting), a 5.7.x policy refusal, a timeout or a broken
// connection. A candidate the server rejected is skipped, Known
// included. A Known role address (info@, sales@...) is capped at 0.5;
// role local parts are never generated from names. A verified candidate
// wins over earlier unverified ones; otherwise candidates are taken in
// order: Known first, then patterns by evidence, then by prior.
const (
	confVerified      = 0.95
	confVerifiedKnown = 0.99
	confKnown         = 0.85
	confCatchAllKnown = 0.5
	confRoleCap       = 0.5
)

// unknownTTL bounds how long an inconclusive SMTP answer is remembered:
// greylisting and timeouts pass, and a retry should get a real answer.
const unknownTTL = 10 * time.Minute

// Resolver looks up MX records; *net.Resolver satisfies it.
type Resolver interface {
	LookupMX(ctx context.Context, name string) ([]*net.MX, error)
}

// People lists a company's people; prospector.Store satisfies it.
type People interface {
	PeopleAtCompany(ctx context.Context, companyID int64) ([]*prospector.Person, error)
}

// Config sets up a Finder. Zero fields take the defaults noted.
type Config struct {
	Resolver Resolver // nil = net.DefaultResolver
	People   People   // nil = no pattern learning
	Outcomes Outcomes // nil = no feedback from outreach (outcome.go)
	SMTP     SMTPConfig
	// Synthetic reports the domains of synthetic data (serve passes
	// demo.IsCompanyDomain): their reserved TLD has no mail servers, so
	// a lookup would always answer "no mail" and the demo would never
	// find an address. They are answered as a mail domain whose server
	// cannot be asked: MX present, no DNS lookup and no SMTP probe (even
	// with probing on), so answers rest on the data's addresses and
	// patterns and are never verified. nil = none.
	Synthetic func(domain string) bool
	// DomainTTL is how long per-domain facts (MX hosts, catch-all,
	// pattern) are kept: default 6h.
	DomainTTL time.Duration
	// AddressTTL is how long per-address verdicts are kept: default 24h;
	// inconclusive ones at most 10 minutes.
	AddressTTL time.Duration
	// OutcomesTTL is how long a domain's outreach outcomes are kept:
	// default 1s. ForgetOutcomes drops them at once on the node that
	// records a new one; other nodes see it within this time.
	OutcomesTTL time.Duration
	Now         func() time.Time // clock; nil = time.Now
	// Dial opens SMTP connections; nil = a net.Dialer. Tests inject
	// faults with it.
	Dial func(ctx context.Context, network, addr string) (net.Conn, error)
}

// Finder implements prospector.EmailFinder. It is safe for concurrent
// use; its caches make a repeated question cost no DNS, SMTP or store
// call.
type Finder struct {
	cfg    Config
	now    func() time.Time
	prober *prober

	mx       *ttlCache[mxAnswer]                  // by domain
	patterns *ttlCache[patternStats]              // by company id and domain
	catchAll *ttlCache[tri]                       // by domain
	verdicts *ttlCache[verdict]                   // by address
	learned  *ttlCache[*prospector.EmailOutcomes] // outreach outcomes by domain
}

var _ prospector.EmailFinder = (*Finder)(nil)

// New returns a Finder for cfg with defaults filled in.
func New(cfg Config) *Finder {
	if cfg.Resolver == nil {
		cfg.Resolver = net.DefaultResolver
	}
	if cfg.DomainTTL <= 0 {
		cfg.DomainTTL = 6 * time.Hour
	}
	if cfg.AddressTTL <= 0 {
		cfg.AddressTTL = 24 * time.Hour
	}
	if cfg.OutcomesTTL <= 0 {
		cfg.OutcomesTTL = time.Second
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Dial == nil {
		cfg.Dial = (&net.Dialer{}).DialContext
	}
	cfg.SMTP = cfg.SMTP.withDefaults()
	return &Finder{
		cfg:      cfg,
		now:      cfg.Now,
		prober:   &prober{cfg: cfg.SMTP, dial: cfg.Dial, sems: make(map[string]*domainSem)},
		mx:       newTTLCache[mxAnswer](maxCacheEntries),
		patterns: newTTLCache[patternStats](maxCacheEntries),
		catchAll: newTTLCache[tri](maxCacheEntries),
		verdicts: newTTLCache[verdict](maxCacheEntries),
		learned:  newTTLCache[*prospector.EmailOutcomes](maxCacheEntries),
	}
}

// noResult is the answer when nothing is found.
var noResult = prospector.EmailResult{Evidence: prospector.EvidenceNone}

// FindEmail returns the person's most likely work address with the
// confidence of the scale above, or an EmailResult with Email "" and
// EvidenceNone when there is none worth giving. DNS and SMTP trouble
// lowers confidence rather than failing: the error is ctx's when it
// ends, or a People failure, wrapped.
func (f *Finder) FindEmail(ctx context.Context, q prospector.EmailQuery) (prospector.EmailResult, error) {
	if err := ctx.Err(); err != nil {
		return noResult, err
	}
	cands, err := f.candidates(ctx, q)
	if err != nil || len(cands) == 0 {
		return noResult, err
	}
	checks := make(map[string]domainCheck, 2)
	for _, c := range cands {
		if _, done := checks[c.domain]; done {
			continue
		}
		var addrs []string
		for _, o := range cands {
			if o.domain == c.domain {
				addrs = append(addrs, o.addr)
			}
		}
		checks[c.domain] = f.checkDomain(ctx, c.domain, addrs)
	}
	if err := ctx.Err(); err != nil {
		return noResult, err
	}
	return decide(cands, checks), nil
}

// candidate is an address that may be the person's.
type candidate struct {
	addr, domain string
	known        bool    // q.Known
	role         bool    // a shared mailbox such as info@
	evidence     float64 // pattern support, 0 for Known
}

// candidates lists the Known address, when usable, then the addresses
// the name patterns give at q.Domain, best supported first. None when
// q.Domain is disposable.
func (f *Finder) candidates(ctx context.Context, q prospector.EmailQuery) ([]candidate, error) {
	domain := prospector.NormalizeDomain(q.Domain)
	if domain != "" && (isDisposable(domain) || !validDomain(domain)) {
		return nil, nil
	}
	var cs []candidate
	seen := make(map[string]bool)
	// An address whose newest outreach outcome is a bounce is never
	// answered again, as if the server had rejected it.
	out, err := f.outcomes(ctx, domain)
	if err != nil {
		return nil, err
	}
	if local, d, ok := parseAddress(q.Known); ok && !isDisposable(d) {
		addr := local + "@" + d
		ko := out
		if d != domain {
			if ko, err = f.outcomes(ctx, d); err != nil {
				return nil, err
			}
		}
		if !undeliverable(ko, addr) {
			cs = append(cs, candidate{addr: addr, domain: d, known: true, role: isRole(local)})
		}
		seen[addr] = true
	}
	first, last := foldName(q.FirstName), foldName(q.LastName)
	if first == "" || domain == "" {
		return cs, nil
	}
	stats, err := f.patternStats(ctx, q.CompanyID, domain)
	if err != nil {
		return nil, err
	}
	stats = stats.withOutcomes(out)
	for _, p := range stats.rank() {
		local := p.Local(first, last)
		if local == "" || isRole(local) || !validLocal(local) {
			continue
		}
		addr := local + "@" + domain
		if seen[addr] || undeliverable(out, addr) {
			continue
		}
		seen[addr] = true
		cs = append(cs, candidate{addr: addr, domain: domain, evidence: stats.evidence(p)})
	}
	return cs, nil
}

// patternStats learns the domain's pattern from the company's people,
// through the cache. The zero stats without a company.
func (f *Finder) patternStats(ctx context.Context, companyID int64, domain string) (patternStats, error) {
	if companyID == 0 || f.cfg.People == nil {
		return patternStats{}, nil
	}
	key := strconv.FormatInt(companyID, 10) + "|" + domain
	if s, ok := f.patterns.get(key, f.now()); ok {
		return s, nil
	}
	people, err := f.cfg.People.PeopleAtCompany(ctx, companyID)
	if err != nil {
		return patternStats{}, fmt.Errorf("email: people at company %d: %w", companyID, err)
	}
	s := inferPatterns(people, domain)
	f.patterns.set(key, s, f.now(), f.cfg.DomainTTL)
	return s, nil
}

// decide applies the confidence scale to the checked candidates.
func decide(cands []candidate, checks map[string]domainCheck) prospector.EmailResult {
	for _, c := range cands {
		dc := checks[c.domain]
		if dc.mail == mailYes && dc.catchAll == triNo && dc.verdicts[c.addr] == verdictAccepted {
			conf := confVerified
			if c.known {
				conf = confVerifiedKnown
			}
			return result(c, true, conf, prospector.EvidenceSMTPAccepted)
		}
	}
	for _, c := range cands {
		dc := checks[c.domain]
		if dc.mail == mailNo || dc.verdicts[c.addr] == verdictRejected {
			continue
		}
		switch {
		case dc.catchAll == triYes && c.known:
			return result(c, false, confCatchAllKnown, prospector.EvidenceCatchAll)
		case dc.catchAll == triYes && c.evidence > 0:
			return result(c, false, 0.2+0.3*c.evidence, prospector.EvidenceCatchAll)
		case c.known:
			return result(c, false, confKnown, prospector.EvidenceKnown)
		case c.evidence > 0:
			return result(c, false, 0.3+0.5*c.evidence, prospector.EvidencePattern)
		}
	}
	return noResult
}

func result(c candidate, verified bool, conf float64, evidence string) prospector.EmailResult {
	if c.role {
		conf = min(conf, confRoleCap)
	}
	return prospector.EmailResult{Email: c.addr, Verified: verified, Confidence: conf, Evidence: evidence}
}
