package prospector

import (
	"context"
	"encoding/json"
	"strings"
	"time"
)

// Kinds of SEC filing Prospector reads.
const (
	FilingFinancing = "financing" // Form D or D/A: notice of an exempt offering
	FilingExecutive = "executive" // 8-K or 8-K/A: Item 5.02, officers and directors
)

// What became of a stored filing (SECFiling.Status).
const (
	// FilingPending: it has an event or signals to write, and its issuer
	// is not resolved yet; it waits in `sources unresolved`.
	FilingPending = "pending"
	// FilingApplied: its event and signals are written for the issuer's
	// company.
	FilingApplied = "applied"
	// FilingRecorded: kept for provenance, nothing to apply (a pooled
	// fund, an 8-K whose Item 5.02 text could not be read).
	FilingRecorded = "recorded"
)

// Roles of a person named in a filing (FilingPerson.Role).
const (
	PersonRelated   = "related_person" // Form D: executive officer, director or promoter
	PersonExecutive = "executive"      // 8-K Item 5.02: an arrival or departure read from the text
)

// SECFiling is one processed EDGAR filing, with what it yields and where
// it came from. The caller (the SEC source) builds it from package sec's
// Offering or ExecutiveReport; the store keeps it, the issuer's facts,
// and, once the issuer is resolved, writes its financing event and
// signals.
type SECFiling struct {
	Accession string // 0001234567-26-000123: the natural key
	Form      string // D, D/A, 8-K or 8-K/A
	Filed     string // YYYY-MM-DD, from the daily index
	URL       string // the filing's index page
	Kind      string // FilingFinancing or FilingExecutive
	// Skip, when set, is why the filing yields nothing (a pooled
	// investment fund): it is recorded, and Financing and Signals are
	// ignored.
	Skip string
	// Issuer holds the issuer's facts as this filing gives them (CIK,
	// name, former names, state, city, website); its resolution fields
	// are the store's.
	Issuer SECIssuer
	// Match is the caller's resolution of the issuer (zero: no
	// candidate). It only resolves an issuer nothing resolved before.
	Match IssuerMatch
	// Offering keeps a Form D's figures the event has no room for.
	Offering *SECOffering
	// Financing is a Form D's financing event, without a company; its
	// ExternalID (sec.EventKey of the original notice) is shared by every
	// amendment of the offering.
	Financing *FinancingEvent
	// Signals are an 8-K's job_change signals, without a company. A Form
	// D's funding_announcement signal is derived from Financing
	// (FundingSignal) and not given here.
	Signals []*Signal
	// People are the related persons of a Form D and the executives an
	// 8-K names, kept with the filing (and deleted with it).
	People []FilingPerson
	// Unparsed is Item 5.02 text naming a change the rules could not
	// read, kept rather than guessed.
	Unparsed    []string
	ProcessedAt time.Time

	// Set by the store.
	Status    string
	CompanyID *int64
	AppliedAt *time.Time
}

// SECOffering is what a Form D says beyond its financing event.
type SECOffering struct {
	IndustryGroup       string   `json:"industry_group,omitempty"`
	FundType            string   `json:"fund_type,omitempty"`
	Securities          []string `json:"securities,omitempty"`
	Exemptions          []string `json:"exemptions,omitempty"`
	TotalOffering       *int64   `json:"total_offering,omitempty"`
	OfferingIndefinite  bool     `json:"offering_indefinite,omitempty"`
	TotalSold           *int64   `json:"total_sold,omitempty"`
	TotalRemaining      *int64   `json:"total_remaining,omitempty"`
	RemainingIndefinite bool     `json:"remaining_indefinite,omitempty"`
	MinimumInvestment   *int64   `json:"minimum_investment,omitempty"`
	InvestorCount       *int64   `json:"investor_count,omitempty"`
	FirstSale           string   `json:"first_sale,omitempty"`
	// Original is the accession of the offering's first notice and
	// OriginalMethod how it was found (sec.ResolveOriginal).
	Original       string `json:"original,omitempty"`
	OriginalMethod string `json:"original_method,omitempty"`
}

// FilingPerson is a person a filing names.
type FilingPerson struct {
	Role string // PersonRelated or PersonExecutive
	Name string
	// Title is an executive's role, or a related person's relationships
	// joined ("Executive Officer, Director").
	Title         string
	Action        string // executives: appointed, elected, promoted, departed or retired
	EffectiveDate string // executives: YYYY-MM-DD when the text gives it
	City          string // related persons
	State         string
	// Note is a related person's clarification, or the sentence an
	// executive change was read from.
	Note string
	// SignalID is the ExternalID of the job_change signal of an
	// executive change.
	SignalID string
}

// SECFilingDetails is what the stores keep of a filing in one JSON
// document: the offering's figures and the unparsed text.
type SECFilingDetails struct {
	Offering *SECOffering `json:"offering,omitempty"`
	Unparsed []string     `json:"unparsed,omitempty"`
}

// HasOutput reports whether the filing has anything to apply: an event
// or signals, and no reason to skip.
func (f *SECFiling) HasOutput() bool {
	return f.Skip == "" && (f.Financing != nil || len(f.Signals) > 0)
}

// EventKey is the ExternalID of the filing's financing event, "" when it
// has none to apply.
func (f *SECFiling) EventKey() string {
	if f.Skip != "" || f.Financing == nil {
		return ""
	}
	return f.Financing.ExternalID
}

// StatusFor is the status the filing takes for an issuer resolved or
// not.
func (f *SECFiling) StatusFor(resolved bool) string {
	switch {
	case !f.HasOutput():
		return FilingRecorded
	case resolved:
		return FilingApplied
	}
	return FilingPending
}

// ContentHash covers what the filing records, not how it was resolved
// or when it was processed: the same filing processed again hashes the
// same.
func (f *SECFiling) ContentHash() (int64, error) {
	b, err := json.Marshal(struct {
		A, F, D, U, K, S string
		I                SECIssuer
		O                *SECOffering
		E                *FinancingEvent
		G                []*Signal
		P                []FilingPerson
		N                []string
	}{f.Accession, f.Form, f.Filed, f.URL, f.Kind, f.Skip,
		SECIssuer{CIK: f.Issuer.CIK, Name: f.Issuer.Name, FormerNames: f.Issuer.FormerNames, State: f.Issuer.State,
			City: f.Issuer.City, Website: f.Issuer.Website},
		f.Offering, f.Financing, f.Signals, f.People, f.Unparsed})
	if err != nil {
		return 0, Errorf(EINVALID, "filing %s: %v", f.Accession, err)
	}
	h := newContentHasher()
	h.writeBytes(b)
	return h.sum(), nil
}

// FilingResult says what storing or applying one filing did.
type FilingResult struct {
	Status string // the filing's status after the call
	// Duplicate is true when the same filing, with the same content, was
	// stored already and nothing was written.
	Duplicate bool
	// EventsInserted and EventsUpdated count financing events written; an
	// amendment updates its offering's event.
	EventsInserted int
	EventsUpdated  int
	// SignalsInserted and SignalsUpdated count signals written.
	SignalsInserted int
	SignalsUpdated  int
	// Suppressed counts the people named in the filing left out because
	// they are on the suppression list (by name at the company's domain),
	// with their signals.
	Suppressed int
}

// Add accumulates another filing's counts (Status and Duplicate are
// left as they are).
func (r *FilingResult) Add(o FilingResult) {
	r.EventsInserted += o.EventsInserted
	r.EventsUpdated += o.EventsUpdated
	r.SignalsInserted += o.SignalsInserted
	r.SignalsUpdated += o.SignalsUpdated
	r.Suppressed += o.Suppressed
}

// MapResult says what mapping an issuer by hand did.
type MapResult struct {
	Issuer *SECIssuer
	// Applied counts the filings whose event and signals were written
	// (or rewritten for the new company).
	Applied int
	FilingResult
}

// SECFilingFilter selects stored filings, newest first (filed, then
// accession, descending). Zero fields do not filter.
type SECFilingFilter struct {
	CIK    string
	Status string
	Limit  int // 0: all
}

// SECStore keeps SEC issuers and filings.
type SECStore interface {
	// IssuerCandidates returns the companies an issuer may be: those whose
	// NormalizeLegalName key is one of q.Names', and those whose domain is
	// q.Website's or a parent of it. Companies written since the last call
	// are indexed by name first, so a company added a moment ago is found.
	IssuerCandidates(ctx context.Context, q IssuerCandidateQuery) ([]*Company, error)
	// ApplyFiling stores one processed filing in one transaction: the
	// issuer's facts and resolution (SECIssuer.Absorb), the filing with its
	// people, and, when the issuer is resolved, its financing event (an
	// amendment updates its offering's event) and signals through the
	// signals upsert. Storing the same filing again writes nothing
	// (Duplicate), unless its issuer has been resolved since, when it is
	// applied. EINVALID (nothing written) for a malformed filing or text
	// holding a NUL; ErrNotFound when the match names no stored company.
	ApplyFiling(ctx context.Context, f *SECFiling) (FilingResult, error)
	// MapIssuer resolves an issuer by hand to the company with domain and
	// applies its filings (pending ones, and applied ones again, which
	// moves them to the new company) in one transaction. ErrNotFound when
	// no issuer has the CIK or no company the domain.
	MapIssuer(ctx context.Context, cik, domain string, at time.Time) (MapResult, error)
	// SECIssuer returns an issuer; ErrNotFound when there is none.
	SECIssuer(ctx context.Context, cik string) (*SECIssuer, error)
	// UnresolvedIssuers returns the unresolved issuers with pending
	// filings, with their count, most pending first (then CIK), at most
	// limit (0: all).
	UnresolvedIssuers(ctx context.Context, limit int) ([]*SECIssuer, error)
	// SECFilings returns the stored filings matching f, with their people.
	SECFilings(ctx context.Context, f SECFilingFilter) ([]*SECFiling, error)
}

// SuppressedFilingName reports whether a person a filing names is
// suppressed by name at the filer's domain. Filings often write names
// "LAST FIRST", so both orders are tried.
func SuppressedFilingName(set *SuppressionSet, name, domain string) bool {
	if set.Empty() {
		return false
	}
	if set.Lookup(name, domain, "") {
		return true
	}
	words := strings.Fields(name)
	return len(words) > 1 && set.Lookup(strings.Join(append(words[1:], words[0]), " "), domain, "")
}
