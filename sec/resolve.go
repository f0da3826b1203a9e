package sec

import (
	"strings"

	"github.com/prospectorhq/prospector"
)

// Confidence of an issuer-to-company match, by what agreed. A match
// below ResolveThreshold leaves the issuer unresolved (it waits for a
// hand mapping); the best candidate is still returned to show why.
const (
	ConfidenceDomain        = 0.99 // the issuer's website is the company's domain
	ConfidenceSubdomain     = 0.95 // one is a subdomain of the other (ir.acme.example)
	ConfidenceName          = 0.50 // the normalised legal names are equal
	bonusState              = 0.25 // ... and the state agrees
	bonusCity               = 0.15 // ... and the city too
	penaltyState            = 0.20 // the company is known to be elsewhere
	penaltyCity             = 0.05 // same state, another city (offices move)
	penaltyFormerName       = 0.05 // matched a name the issuer no longer uses
	ResolveThreshold        = 0.70 // name and state at least
	ConfidenceNameStateCity = ConfidenceName + bonusState + bonusCity
	ConfidenceNameState     = ConfidenceName + bonusState
)

// IssuerFacts are what EDGAR says of an issuer that can tell which
// company it is.
type IssuerFacts struct {
	CIK         string
	Name        string
	FormerNames []string
	Website     string // from the submissions record, often empty
	State       string // EDGAR state or country code
	StateDesc   string
	City        string
}

// Facts gathers an offering's issuer facts, completed by the issuer's
// submissions record when subs is not nil (website, former names, and
// the business address where the Form D gave none).
func (o *Offering) Facts(subs *Submissions) IssuerFacts {
	f := IssuerFacts{
		CIK: o.Issuer.CIK, Name: o.Issuer.Name, FormerNames: o.Issuer.PreviousNames,
		State: o.Issuer.State, StateDesc: o.Issuer.StateDescription, City: o.Issuer.City,
	}
	if subs != nil {
		f.merge(subs.Facts())
	}
	return f
}

// Facts are the submissions record's issuer facts: its website (or,
// without one, its investor website), names and business address (or
// mailing address).
func (s *Submissions) Facts() IssuerFacts {
	a := s.Business
	if a.City == "" {
		a = s.Mailing
	}
	f := IssuerFacts{CIK: s.CIK, Name: s.Name, Website: s.Website, State: a.State, StateDesc: a.StateDescription, City: a.City}
	if f.Website == "" {
		f.Website = s.InvestorWebsite
	}
	for _, n := range s.FormerNames {
		f.FormerNames = append(f.FormerNames, n.Name)
	}
	return f
}

func (f *IssuerFacts) merge(o IssuerFacts) {
	if f.Name == "" {
		f.Name = o.Name
	} else if o.Name != "" && NormalizeLegalName(o.Name) != NormalizeLegalName(f.Name) {
		f.FormerNames = append(f.FormerNames, o.Name)
	}
	f.FormerNames = append(f.FormerNames, o.FormerNames...)
	if f.Website == "" {
		f.Website = o.Website
	}
	if f.City == "" && f.State == "" {
		f.State, f.StateDesc, f.City = o.State, o.StateDesc, o.City
	}
}

// Match is the best company for an issuer and how sure it is.
type Match struct {
	Company    *prospector.Company
	Confidence float64
	// Reason names what agreed: domain, subdomain, name_state_city,
	// name_state, name, or ambiguous when two companies tie.
	Reason string
	// Resolved is Confidence >= ResolveThreshold without a tie.
	Resolved bool
}

// Resolve picks the candidate that best matches the issuer: a website
// domain match first, then equal normalised legal names (current or
// former) weighed by state and city. Two different companies tying for
// the best score leave the issuer unresolved ("ambiguous"). The zero
// Match (no Company) means no candidate matched at all.
func Resolve(f IssuerFacts, candidates []*prospector.Company) Match {
	var best Match
	tie := false
	site := prospector.NormalizeDomain(f.Website)
	names := map[string]float64{}
	if n := NormalizeLegalName(f.Name); n != "" {
		names[n] = 0
	}
	for _, fn := range f.FormerNames {
		if n := NormalizeLegalName(fn); n != "" {
			if _, ok := names[n]; !ok {
				names[n] = penaltyFormerName
			}
		}
	}
	reg := region{code: strings.ToUpper(f.State), desc: f.StateDesc}
	for _, c := range candidates {
		if c == nil {
			continue
		}
		conf, reason := score(site, names, reg, f.City, c)
		switch {
		case conf <= 0:
			continue
		case conf > best.Confidence+1e-9:
			best, tie = Match{Company: c, Confidence: conf, Reason: reason}, false
		case conf > best.Confidence-1e-9 && !sameCompany(best.Company, c):
			tie = true
		}
	}
	if tie {
		best.Reason = "ambiguous"
	}
	best.Resolved = best.Company != nil && !tie && best.Confidence >= ResolveThreshold-1e-9
	return best
}

func score(site string, names map[string]float64, reg region, city string, c *prospector.Company) (float64, string) {
	if site != "" {
		for _, d := range []string{c.Domain, prospector.NormalizeDomain(c.Website)} {
			d = prospector.NormalizeDomain(d)
			switch {
			case d == "":
			case d == site:
				return ConfidenceDomain, "domain"
			case strings.HasSuffix(site, "."+d) || strings.HasSuffix(d, "."+site):
				return ConfidenceSubdomain, "subdomain"
			}
		}
	}
	penalty, ok := names[NormalizeLegalName(c.Name)]
	if !ok {
		return 0, ""
	}
	conf, reason := ConfidenceName-penalty, "name"
	known, same := reg.compare(c.Region, c.CountryCode)
	switch {
	case known && !same:
		return conf - penaltyState, "name"
	case !known:
		return conf, reason
	}
	conf, reason = conf+bonusState, "name_state"
	cc, ic := normCity(c.City), normCity(city)
	switch {
	case cc == "" || ic == "":
	case cc == ic:
		conf, reason = conf+bonusCity, "name_state_city"
	default:
		conf -= penaltyCity
	}
	return conf, reason
}

func normCity(s string) string {
	s = foldAccents(strings.ToLower(s))
	s = strings.NewReplacer(".", "", "saint ", "st ", "-", " ").Replace(s)
	return strings.Join(strings.Fields(s), " ")
}

func sameCompany(a, b *prospector.Company) bool {
	if a == nil || b == nil {
		return false
	}
	if a == b {
		return true
	}
	if a.ID != 0 && a.ID == b.ID {
		return true
	}
	return a.Domain != "" && prospector.NormalizeDomain(a.Domain) == prospector.NormalizeDomain(b.Domain)
}
