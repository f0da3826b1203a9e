package sec

import (
	"math"
	"strings"
	"time"

	"github.com/prospectorhq/prospector"
)

// What the store keeps of a filing: these map the package's results to
// prospector.SECFiling, the issuer facts to the store's candidate query,
// and a Match to prospector.IssuerMatch.

// Query is the store's candidate lookup for the issuer
// (SECStore.IssuerCandidates): its current and former names and its
// website.
func (f IssuerFacts) Query() prospector.IssuerCandidateQuery {
	return prospector.IssuerCandidateQuery{Names: append([]string{f.Name}, f.FormerNames...), Website: f.Website}
}

// Issuer is the facts as a filing gives them to the store.
func (f IssuerFacts) Issuer() prospector.SECIssuer {
	return prospector.SECIssuer{CIK: NormalizeCIK(f.CIK), Name: f.Name, FormerNames: f.FormerNames, State: f.State,
		City: f.City, Website: f.Website}
}

// IssuerMatch is the match as the store takes it: the zero IssuerMatch
// when no candidate matched, the confidence rounded to two decimals.
func (m Match) IssuerMatch() prospector.IssuerMatch {
	if m.Company == nil {
		return prospector.IssuerMatch{}
	}
	return prospector.IssuerMatch{CompanyID: m.Company.ID, Confidence: math.Round(m.Confidence*100) / 100,
		Reason: m.Reason, Resolved: m.Resolved}
}

// Filing is the offering as the store keeps it: the filing with its
// issuer's facts (Facts(subs)), the caller's match, the figures the event
// has no room for, the event (none when skipped, its links built on
// base) and the related persons, normalised. processedAt is when the
// source read it.
func (o *Offering) Filing(base string, facts IssuerFacts, m Match, processedAt time.Time) *prospector.SECFiling {
	f := &prospector.SECFiling{
		Accession: o.Accession, Form: o.FormType, Filed: o.Filed, URL: o.FilingURL, Kind: prospector.FilingFinancing,
		Skip: o.Skip, Issuer: facts.Issuer(), Match: m.IssuerMatch(), Financing: o.Event(base), ProcessedAt: processedAt,
		Offering: &prospector.SECOffering{
			IndustryGroup: o.IndustryGroup, FundType: o.FundType, Securities: o.Securities, Exemptions: o.Exemptions,
			TotalOffering: o.TotalOffering, OfferingIndefinite: o.OfferingIndefinite, TotalSold: o.TotalSold,
			TotalRemaining: o.TotalRemaining, RemainingIndefinite: o.RemainingIndefinite,
			MinimumInvestment: o.MinimumInvestment, InvestorCount: o.InvestorCount, FirstSale: o.FirstSale,
			Original: o.Original, OriginalMethod: o.OriginalMethod,
		},
	}
	if f.Form != FormD && f.Form != FormDA {
		f.Form = FormD
		if o.IsAmendment {
			f.Form = FormDA
		}
	}
	for _, p := range o.RelatedPersons {
		f.People = append(f.People, prospector.FilingPerson{Role: prospector.PersonRelated, Name: p.Name,
			Title: strings.Join(p.Relationships, ", "), City: p.City, State: p.State, Note: p.Clarification})
	}
	f.Normalize()
	return f
}

// Facts gathers an 8-K's issuer facts: its CIK and name, completed by
// the issuer's submissions record when subs is not nil.
func (r *ExecutiveReport) Facts(subs *Submissions) IssuerFacts {
	f := IssuerFacts{CIK: r.CIK, Name: r.Company}
	if subs != nil {
		f.merge(subs.Facts())
	}
	return f
}

// Filing is the 8-K as the store keeps it: its job_change signals, the
// executives they come from and the text the rules could not read, or,
// when it reports no Item 5.02, nothing but the filing (skipped).
func (r *ExecutiveReport) Filing(facts IssuerFacts, m Match, processedAt time.Time) *prospector.SECFiling {
	f := &prospector.SECFiling{
		Accession: r.Accession, Form: r.FormType, Filed: r.Filed, URL: r.FilingURL, Kind: prospector.FilingExecutive,
		Issuer: facts.Issuer(), Match: m.IssuerMatch(), ProcessedAt: processedAt,
	}
	if f.Form != Form8K && f.Form != Form8KA {
		f.Form = Form8K
	}
	if !r.HasItem {
		f.Skip = "no Item 5.02"
		f.Normalize()
		return f
	}
	f.Signals = r.Signals()
	for _, c := range r.Changes {
		f.People = append(f.People, prospector.FilingPerson{Role: prospector.PersonExecutive, Name: c.Name,
			Title: c.Title, Action: c.Action, EffectiveDate: c.EffectiveDate, Note: c.Sentence,
			SignalID: c.Key(r.CIK, r.Filed)})
	}
	for _, u := range r.Unparsed {
		f.Unparsed = append(f.Unparsed, u.Text)
	}
	f.Normalize()
	return f
}
