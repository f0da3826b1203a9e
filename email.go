package prospector

import (
	"context"
	"fmt"
	"time"
)

// EmailQuery is whom an address is wanted for. Names are as written;
// the finder folds accents and case itself.
type EmailQuery struct {
	FirstName string
	LastName  string
	Domain    string // normalised company domain
	// CompanyID is the stored company at Domain, 0 when there is none;
	// the finder learns the domain's address pattern from its people.
	CompanyID int64
	// Known is an address the data already holds for the person, or "".
	Known string
}

// Evidence values of an EmailResult: what the answer rests on.
const (
	EvidenceSMTPAccepted = "smtp_accepted" // the domain's server accepted the address and rejects random ones
	EvidenceCatchAll     = "catch_all"     // the server accepts any address, so acceptance proves nothing
	EvidenceKnown        = "known"         // the address is in the data
	EvidencePattern      = "pattern"       // built from the pattern of addresses known at the domain
	EvidenceNone         = "none"          // nothing found
)

// EmailResult is a finder's answer. Email is "" when nothing was found.
type EmailResult struct {
	Email      string
	Verified   bool    // true only after a real acceptance on a domain that is not catch-all
	Confidence float64 // 0..1; docs/decisions.md gives the scale
	Evidence   string
}

// EmailFinder finds or verifies a person's work address.
type EmailFinder interface {
	FindEmail(ctx context.Context, q EmailQuery) (EmailResult, error)
	// ForgetOutcomes drops what the finder keeps of the outreach outcomes
	// at a domain (or at an address's domain), once a new one is recorded.
	ForgetOutcomes(domainOrAddress string)
}

// EmailLookup is an enrich/email answer as recorded for its workspace,
// with what it cost.
type EmailLookup struct {
	ID             string
	WorkspaceID    string
	IdempotencyKey string // "" when the request carried none
	RequestHash    string // hash of the request body, to refuse a reused key
	Email          string
	Verified       bool
	Confidence     float64
	Credits        int64 // charged: 1 when Email is not "", else 0
	CreatedAt      time.Time
}

// Validate refuses negative credits: a lookup never gives credits back.
// The error is internal (the service sets Credits, users never do).
func (l *EmailLookup) Validate() error {
	if l.Credits < 0 {
		return fmt.Errorf("email lookup: negative credits %d", l.Credits)
	}
	return nil
}

// EmailLookupStore records enrich/email answers.
type EmailLookupStore interface {
	// RecordEmailLookup stores l and charges l.Credits to the workspace
	// in the same transaction, so an answer is never returned uncharged
	// nor charged twice. ErrInsufficientCredits when the credits do not
	// cover it: then nothing is stored. When l.IdempotencyKey was used in
	// the workspace within IdempotencyWindow, nothing is stored or
	// charged: the first lookup is returned with replayed true, or
	// ErrIdempotencyMismatch when its RequestHash differs.
	RecordEmailLookup(ctx context.Context, l *EmailLookup, now time.Time) (first *EmailLookup, replayed bool, err error)
	// EmailLookupByKey returns the lookup recorded under the workspace's
	// idempotency key, ErrNotFound when there is none. Its key may have
	// expired (KeyHeldAt), so a caller can check a key before doing the
	// work a replay would skip; RecordEmailLookup decides at last.
	EmailLookupByKey(ctx context.Context, workspaceID, key string) (*EmailLookup, error)
}

// KeyHeldAt reports whether l's idempotency key still holds at now: a
// key is remembered for IdempotencyWindow after its first lookup.
func (l *EmailLookup) KeyHeldAt(now time.Time) bool {
	return l.IdempotencyKey != "" && now.Sub(l.CreatedAt) < IdempotencyWindow
}
