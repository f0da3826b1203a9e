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
// Outcomes source or a domain. It is read on every lookup, not cached,
// so a bounce counts from the next lookup on.
func (f *Finder) outcomes(ctx context.Context, domain string) (*prospector.EmailOutcomes, error) {
	if f.cfg.Outcomes == nil || domain == "" {
		return nil, nil
	}
	o, err := f.cfg.Outcomes.EmailOutcomes(ctx, domain)
	if err != nil {
		return nil, fmt.Errorf("email: outcomes at %s: %w", domain, err)
	}
	return o, nil
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
