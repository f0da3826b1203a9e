package prospector

import (
	"strings"
	"time"
)

// How an SEC issuer was matched to a company (SECIssuer.Match and
// IssuerMatch.Reason): the reasons of sec.Resolve, and manual for
// `prospector sources map`.
const (
	MatchDomain        = "domain"          // the submissions record's website is the company's domain
	MatchSubdomain     = "subdomain"       // one is a subdomain of the other
	MatchNameStateCity = "name_state_city" // equal normalised legal names, same state and city
	MatchNameState     = "name_state"      // equal names, same state
	MatchName          = "name"            // equal names only (below the threshold)
	MatchAmbiguous     = "ambiguous"       // two companies tie for the best score
	MatchManual        = "manual"          // mapped by hand
)

// SECIssuer is a company that files with the SEC, known by its CIK, and
// the Prospector company it is (CompanyID), once resolved. Issuers are
// deployment-wide data, like companies.
type SECIssuer struct {
	CIK         string // digits without leading zeros, as sec.NormalizeCIK gives it
	Name        string
	FormerNames []string
	State       string // EDGAR state or country code (CA, NY, X0, ...)
	City        string
	Website     string // from the submissions record; often empty
	// FactsFiled is the filing date of the filing the facts above come
	// from: a filing processed later but filed earlier does not replace
	// them. Set by the store.
	FactsFiled string

	// CompanyID is the resolved company, nil while the issuer is
	// unresolved; CompanyDomain is its domain (read).
	CompanyID     *int64
	CompanyDomain string
	// Confidence and Match say how sure and by what the issuer was
	// resolved; for an unresolved issuer, how close its best candidate
	// (CandidateID) came.
	Confidence  float64
	Match       string
	CandidateID *int64
	ResolvedAt  *time.Time
	UpdatedAt   time.Time

	// Pending counts the filings waiting for the issuer to be resolved
	// (read by UnresolvedIssuers).
	Pending int
}

// Resolved reports whether the issuer is matched to a company.
func (i *SECIssuer) Resolved() bool { return i.CompanyID != nil }

// IssuerMatch is the caller's resolution of a filing's issuer
// (sec.Resolve over the IssuerCandidates): the best company, how sure,
// by what, and whether that is enough. The zero IssuerMatch means no
// candidate matched.
type IssuerMatch struct {
	CompanyID  int64
	Confidence float64
	Reason     string // one of the Match* values but manual
	Resolved   bool
}

// Validate returns an EINVALID naming the field of a match that is not
// one: a reason that is no Match* value (or manual, which only MapIssuer
// gives), a confidence outside [0, 1], or resolved without a company.
func (m IssuerMatch) Validate() error {
	switch m.Reason {
	case "", MatchDomain, MatchSubdomain, MatchNameStateCity, MatchNameState, MatchName, MatchAmbiguous:
	default:
		return Errorf(EINVALID, "match.reason: %q is not a match reason", m.Reason)
	}
	if !(m.Confidence >= 0 && m.Confidence <= 1) {
		return Errorf(EINVALID, "match.confidence: %v is not in [0, 1]", m.Confidence)
	}
	if m.Resolved && m.CompanyID <= 0 {
		return Errorf(EINVALID, "match.company_id: required when resolved")
	}
	return nil
}

// ValidCIK reports whether s is a CIK as stored: 1 to 10 digits without
// leading zeros.
func ValidCIK(s string) bool {
	if s == "" || len(s) > 10 || s[0] == '0' {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// Bounds of an issuer's text, in bytes.
const (
	maxIssuerText  = 300
	maxFormerNames = 20
)

// Normalize cleans the issuer's facts: text trimmed and bounded, the
// state upper-cased, former names deduplicated and at most 20.
func (i *SECIssuer) Normalize() {
	i.Name = cleanText(i.Name, maxIssuerText)
	i.State = upperASCII(cleanText(i.State, 8))
	i.City = cleanText(i.City, maxIssuerText)
	i.Website = cleanText(i.Website, maxURLBytes)
	var names []string
	seen := map[string]bool{NormalizeLegalName(i.Name): true}
	for _, n := range i.FormerNames {
		n = cleanText(n, maxIssuerText)
		if k := NormalizeLegalName(n); k != "" && !seen[k] && len(names) < maxFormerNames {
			seen[k] = true
			names = append(names, n)
		}
	}
	i.FormerNames = names
}

// validate returns an EINVALID naming the field of an issuer that cannot
// be stored: a malformed CIK, no name, or text with a NUL.
func (i *SECIssuer) validate() error {
	if !ValidCIK(i.CIK) {
		return Errorf(EINVALID, "issuer.cik: %q is not a CIK (digits without leading zeros)", i.CIK)
	}
	if strings.TrimSpace(i.Name) == "" {
		return Errorf(EINVALID, "issuer.name: required")
	}
	for _, f := range []struct{ name, v string }{{"issuer.name", i.Name}, {"issuer.state", i.State},
		{"issuer.city", i.City}, {"issuer.website", i.Website}, {"issuer.former_names", strings.Join(i.FormerNames, " ")}} {
		if err := CheckText(f.name, f.v); err != nil {
			return err
		}
	}
	return nil
}

// Absorb takes a filing's facts of the issuer, filed on filed, and the
// caller's match; it reports whether anything changed. Facts are replaced
// by those of a filing filed on or after the one they came from. A
// resolution, once made, stays until MapIssuer changes it: a later
// automatic match never moves an issuer to another company, since its
// applied filings would then belong to two. An unresolved issuer is
// resolved by a resolved match, and otherwise keeps the latest match's
// best candidate for the queue.
func (i *SECIssuer) Absorb(facts SECIssuer, filed string, m IssuerMatch, at time.Time) bool {
	changed := false
	if filed >= i.FactsFiled {
		if i.Name != facts.Name || i.State != facts.State || i.City != facts.City || i.Website != facts.Website ||
			strings.Join(i.FormerNames, "\x00") != strings.Join(facts.FormerNames, "\x00") || i.FactsFiled != filed {
			changed = true
		}
		i.Name, i.State, i.City, i.Website, i.FormerNames, i.FactsFiled =
			facts.Name, facts.State, facts.City, facts.Website, facts.FormerNames, filed
	}
	if i.Resolved() {
		return changed
	}
	at = at.UTC().Truncate(time.Microsecond)
	if m.Resolved {
		id := m.CompanyID
		i.CompanyID, i.CandidateID, i.Confidence, i.Match, i.ResolvedAt = &id, nil, m.Confidence, m.Reason, &at
		return true
	}
	var cand *int64
	if m.CompanyID > 0 {
		id := m.CompanyID
		cand = &id
	}
	if !equalID(cand, i.CandidateID) || i.Confidence != m.Confidence || i.Match != m.Reason {
		i.CandidateID, i.Confidence, i.Match = cand, m.Confidence, m.Reason
		changed = true
	}
	return changed
}

// MapTo resolves the issuer to companyID by hand at at.
func (i *SECIssuer) MapTo(companyID int64, at time.Time) {
	at = at.UTC().Truncate(time.Microsecond)
	i.CompanyID, i.CandidateID, i.Confidence, i.Match, i.ResolvedAt = &companyID, nil, 1, MatchManual, &at
}

func equalID(a, b *int64) bool {
	return a == nil && b == nil || a != nil && b != nil && *a == *b
}

// IssuerCandidateQuery asks for the companies an issuer may be.
type IssuerCandidateQuery struct {
	// Names are the issuer's current and former names, as filed; the
	// store compares their NormalizeLegalName keys with its companies'.
	Names []string
	// Website is the issuer's website: the company with its domain, or
	// with a parent domain of it (ir.acme.example finds acme.example),
	// is a candidate.
	Website string
	// Limit bounds the companies returned per name key (default 50):
	// a common name should not read thousands of rows.
	Limit int
}

// DomainAndParents returns the normalised domain of a website and its
// parent domains down to two labels: "https://ir.acme.example/x" gives
// ir.acme.example and acme.example. nil for a website with no domain.
func DomainAndParents(website string) []string {
	d := NormalizeDomain(website)
	if d == "" {
		return nil
	}
	out := []string{d}
	for {
		i := strings.IndexByte(d, '.')
		if i < 0 || strings.Count(d[i+1:], ".") < 1 {
			return out
		}
		d = d[i+1:]
		out = append(out, d)
	}
}

// LegalNameKeys returns the distinct non-empty NormalizeLegalName keys
// of names, in order.
func LegalNameKeys(names []string) []string {
	var out []string
	seen := map[string]bool{}
	for _, n := range names {
		if k := NormalizeLegalName(n); k != "" && !seen[k] {
			seen[k] = true
			out = append(out, k)
		}
	}
	return out
}
