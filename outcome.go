package prospector

import (
	"slices"
	"strings"
	"time"
)

// What feedback events teach about mail addresses: each bounce or reply
// counts for its address and, the first time, for the address patterns
// it follows; the email finder reads the counts back (EmailOutcomes).

// EmailOutcome returns what ev says about its address, and whether it
// says anything (a bounce or a reply with a known address).
func EmailOutcome(ev *FeedbackEvent) (outcome string, ok bool) {
	if ev.Facts.Email == "" || !concernsEmail(ev.Type) {
		return "", false
	}
	if ev.Type == EventBounce {
		return EventBounce, true
	}
	return EventReply, true
}

// PatternOutcome counts the distinct addresses following one pattern at
// a domain that bounced and that replied.
type PatternOutcome struct {
	Bounces int64
	Replies int64
}

// AnyPattern is the pattern name under which a domain's outcome counts
// all its addresses, whatever pattern they follow.
const AnyPattern = ""

// EmailOutcomes is what feedback events taught about one mail domain.
type EmailOutcomes struct {
	// Patterns by pattern name; AnyPattern counts every address.
	Patterns map[string]PatternOutcome
	// Undeliverable are the domain's addresses whose newest outcome is a
	// bounce.
	Undeliverable map[string]bool
}

// OutcomePatterns are the pattern rows an address outcome updates: every
// pattern the address follows, and AnyPattern. They are sorted, the order
// engines write them in, so two transactions never wait on each other's
// rows in a cycle.
func OutcomePatterns(f LeadFacts) []string {
	out := append([]string{AnyPattern}, f.EmailPatterns...)
	slices.Sort(out)
	return slices.Compact(out)
}

// AddressOutcome is what one bounce or reply adds to the outcome counts:
// one bounce or one reply for Address, and for Patterns when it is the
// address's first of its kind (CountsPatterns).
type AddressOutcome struct {
	Address  string
	Domain   string // what follows the address's last @
	Outcome  string // EventBounce or EventReply, as EmailOutcome says
	Bounces  int64  // 1 for a bounce, else 0
	Replies  int64  // 1 for a reply, else 0
	At       time.Time
	Patterns []string // OutcomePatterns of the event's facts
}

// CountOutcome returns what ev adds to the outcome counts; false when it
// adds nothing (EmailOutcome).
func CountOutcome(ev *FeedbackEvent) (AddressOutcome, bool) {
	outcome, ok := EmailOutcome(ev)
	if !ok {
		return AddressOutcome{}, false
	}
	addr := ev.Facts.Email
	o := AddressOutcome{Address: addr, Domain: addr[strings.LastIndexByte(addr, '@')+1:], Outcome: outcome,
		At: ev.OccurredAt, Patterns: OutcomePatterns(ev.Facts)}
	if outcome == EventBounce {
		o.Bounces = 1
	} else {
		o.Replies = 1
	}
	return o, true
}

// CountsPatterns reports whether o counts for its patterns, given the
// address's counts with o added: only an address's first bounce and its
// first reply do, so a pattern counts distinct addresses.
func (o AddressOutcome) CountsPatterns(bounces, replies int64) bool {
	return o.Bounces == 1 && bounces == 1 || o.Replies == 1 && replies == 1
}
