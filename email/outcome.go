package email

import (
	"context"
	"fmt"

	"github.com/prospectorhq/prospector"
)

// Outcomes reports what outreach feedback taught about a domain's
// addresses (docs/email.md, "Confidence"); prospector.Store satisfies it.
type Outcomes interface {
	EmailOutcomes(ctx context.Context, domain string) (*prospector.EmailOutcomes, error)
}

// ClassifyAddress returns addr lowercased and the names of the patterns
// that build its local part from the folded names, in prior order (none
// for a role mailbox or an address no pattern explains). ok is false when
// addr is not a usable address.
func ClassifyAddress(firstName, lastName, addr string) (normalized string, patterns []string, ok bool) {
	local, domain, ok := parseAddress(addr)
	if !ok {
		return "", nil, false
	}
	first, last := foldName(firstName), foldName(lastName)
	if first != "" && !isRole(local) {
		for p := range NumPatterns {
			if l := p.Local(first, last); l != "" && l == local {
				patterns = append(patterns, p.String())
			}
		}
	}
	return local + "@" + domain, patterns, true
}

// outcomes reads what feedback taught about domain: nil without an
// Outcomes source or a domain. Every lookup of a domain asks for them,
// so they are kept for OutcomesTTL (a second by default): a bounce
// recorded through this node counts from the next lookup (ForgetOutcomes),
// one recorded through another node within that second.
func (f *Finder) outcomes(ctx context.Context, domain string) (*prospector.EmailOutcomes, error) {
	if f.cfg.Outcomes == nil || domain == "" {
		return nil, nil
	}
	now := f.now()
	if o, ok := f.learned.get(domain, now); ok {
		return o, nil
	}
	o, err := f.cfg.Outcomes.EmailOutcomes(ctx, domain)
	if err != nil {
		return nil, fmt.Errorf("email: outcomes at %s: %w", domain, err)
	}
	f.learned.set(domain, o, now, f.cfg.OutcomesTTL)
	return o, nil
}

// ForgetOutcomes drops what the finder keeps of the outcomes at a domain
// or an address's domain, so the next lookup reads the one just recorded.
func (f *Finder) ForgetOutcomes(domainOrAddress string) {
	f.learned.delete(prospector.NormalizeDomain(domainOrAddress))
}

// undeliverable reports whether addr's newest outcome is a bounce.
func undeliverable(o *prospector.EmailOutcomes, addr string) bool {
	return o != nil && o.Undeliverable[addr]
}

// withOutcomes adds feedback to what the stored addresses say: an address
// that replied counts as one more known address following its patterns;
// an address that bounced counts against its patterns (evidence).
func (s patternStats) withOutcomes(o *prospector.EmailOutcomes) patternStats {
	if o == nil {
		return s
	}
	s.known += int(o.Patterns[prospector.AnyPattern].Replies)
	for p := range NumPatterns {
		po := o.Patterns[p.String()]
		s.explained[p] += int(po.Replies)
		s.bounced[p] += int(po.Bounces)
	}
	return s
}
