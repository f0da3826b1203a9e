package sec

import (
	"strconv"
	"strings"
)

// Offering is what Prospector keeps of one Form D filing: everything the
// financing event has room for, and the rest (offering size, what
// remains, related persons) for the filing's record.
type Offering struct {
	Accession string
	FormType  string // D or D/A
	Filed     string // YYYY-MM-DD, from the index
	FilingURL string // the filing's index page
	Issuer    Issuer

	IndustryGroup string
	FundType      string // for pooled investment funds
	// Skip, when set, is why the filing yields no financing event (a
	// pooled investment fund raising money is not a company's funding).
	Skip string

	Securities       []string // equity, debt, option, security_to_be_acquired, pooled_fund, tenant_in_common, mineral_property, other
	OtherDescription string
	Exemptions       []string // as filed: 06b, 06c, 04, 3C.1, ...
	// BusinessCombination is true when the offering is made in
	// connection with a merger or acquisition.
	BusinessCombination bool

	FinancingType           string
	FinancingTypeNormalized string
	Category                string

	TotalOffering       *int64 // nil when indefinite or not given
	OfferingIndefinite  bool
	TotalSold           *int64
	TotalRemaining      *int64
	RemainingIndefinite bool
	MinimumInvestment   *int64
	InvestorCount       *int64
	RevenueRange        string

	FirstSale           string // YYYY-MM-DD, "" when yet to occur or not given
	FirstSaleYetToOccur bool

	IsAmendment       bool
	PreviousAccession string
	// Original is the accession of the notice this filing's offering
	// started with (itself for a D), and OriginalMethod how it was found
	// (see ResolveOriginal). The financing event is keyed on it.
	Original       string
	OriginalMethod string

	RelatedPersons []RelatedPerson
}

// Issuer is the company a Form D is filed for.
type Issuer struct {
	CIK              string
	Name             string
	Street1          string
	Street2          string
	City             string
	State            string // EDGAR state or country code: CA, NY, X0 ...
	StateDescription string // CALIFORNIA
	Zip              string
	Phone            string
	EntityType       string // Corporation, Limited Liability Company, ...
	Jurisdiction     string // of incorporation
	YearOfInc        int    // 0 when not given
	PreviousNames    []string
}

// RelatedPerson is an executive officer, director or promoter named in
// a Form D.
type RelatedPerson struct {
	Name          string // first, middle and last joined
	First         string
	Middle        string
	Last          string
	Relationships []string // Executive Officer, Director, Promoter
	Clarification string
	City          string
	State         string
}

// NewOffering reads a parsed Form D as filed under entry, whose links
// are built on base (the archives host). For a D the original is the
// filing itself; for a D/A it is its previousAccessionNumber until
// ResolveOriginal knows better.
func NewOffering(d *FormDDoc, entry IndexEntry, base string) *Offering {
	pi := d.PrimaryIssuer
	o := &Offering{
		Accession: entry.Accession,
		FormType:  strings.TrimSpace(d.SubmissionType),
		Filed:     entry.DateFiled,
		Issuer: Issuer{
			CIK: NormalizeCIK(pi.CIK), Name: clean(pi.EntityName),
			Street1: clean(pi.Address.Street1), Street2: clean(pi.Address.Street2), City: clean(pi.Address.City),
			State: strings.ToUpper(clean(pi.Address.StateOrCountry)), StateDescription: clean(pi.Address.StateOrCountryDescription),
			Zip: clean(pi.Address.ZipCode), Phone: clean(pi.Phone), EntityType: clean(pi.EntityType),
			Jurisdiction: clean(pi.JurisdictionOfInc),
		},
	}
	if o.Issuer.CIK == "" {
		o.Issuer.CIK = entry.CIK
	}
	if o.Issuer.EntityType == "Other" && clean(pi.EntityTypeOtherDesc) != "" {
		o.Issuer.EntityType = "Other: " + clean(pi.EntityTypeOtherDesc)
	}
	if y, err := strconv.Atoi(strings.TrimSpace(pi.YearOfInc.Value)); err == nil && y > 1600 && y < 3000 {
		o.Issuer.YearOfInc = y
	}
	for _, n := range pi.PreviousNames {
		if n = clean(n); n != "" && !strings.EqualFold(n, "None") {
			o.Issuer.PreviousNames = append(o.Issuer.PreviousNames, n)
		}
	}
	o.FilingURL = FilingIndexURL(base, entry.CIK, entry.Accession)

	od := d.Offering
	o.IndustryGroup = clean(od.IndustryGroup.Type)
	o.FundType = clean(od.IndustryGroup.FundType)
	o.RevenueRange = clean(od.RevenueRange)
	for _, x := range od.Exemptions {
		if x = clean(x); x != "" {
			o.Exemptions = append(o.Exemptions, x)
		}
	}
	s := od.Securities
	for _, f := range []struct {
		v, name string
	}{
		{s.Equity, "equity"}, {s.Debt, "debt"}, {s.Option, "option"}, {s.ToBeAcquired, "security_to_be_acquired"},
		{s.Pooled, "pooled_fund"}, {s.TenantInCommon, "tenant_in_common"}, {s.MineralProperty, "mineral_property"},
		{s.Other, "other"},
	} {
		if isTrue(f.v) {
			o.Securities = append(o.Securities, f.name)
		}
	}
	o.OtherDescription = clean(s.OtherDescription)
	o.BusinessCombination = isTrue(od.BusinessCombination)

	a := od.Amounts
	if v, ok, indef := amount(a.TotalOffering); ok {
		o.TotalOffering = &v
	} else {
		o.OfferingIndefinite = indef
	}
	if v, ok, _ := amount(a.TotalSold); ok {
		o.TotalSold = &v
	}
	if v, ok, indef := amount(a.TotalRemain); ok {
		o.TotalRemaining = &v
	} else {
		o.RemainingIndefinite = indef
	}
	if v, ok, _ := amount(od.MinimumInvestment); ok {
		o.MinimumInvestment = &v
	}
	if v, ok, _ := amount(od.Investors.AlreadyInvested); ok {
		o.InvestorCount = &v
	}

	o.FirstSaleYetToOccur = isTrue(od.YetToOccur)
	if day, ok := isoDate(od.FirstSale); ok && !o.FirstSaleYetToOccur {
		o.FirstSale = day
	}
	o.IsAmendment = isTrue(od.IsAmendment) || o.FormType == FormDA
	if p := strings.TrimSpace(od.PreviousAcc); ValidAccession(p) {
		o.PreviousAccession = p
	}
	switch {
	case !o.IsAmendment:
		o.Original, o.OriginalMethod = o.Accession, OriginalSelf
	case o.PreviousAccession != "":
		o.Original, o.OriginalMethod = o.PreviousAccession, OriginalPrevious
	default:
		o.Original, o.OriginalMethod = o.Accession, OriginalUnknown
	}

	for _, p := range d.RelatedPersons {
		rp := RelatedPerson{
			First: clean(p.First), Middle: clean(p.Middle), Last: clean(p.Last),
			Clarification: clean(p.Clarification), City: clean(p.Address.City),
			State: strings.ToUpper(clean(p.Address.StateOrCountry)),
		}
		var parts []string
		for _, n := range []string{rp.First, rp.Middle, rp.Last} {
			// Entities named as promoters are filed with firstName "N/A".
			if n != "" && !strings.EqualFold(n, "N/A") && !strings.EqualFold(n, "none") {
				parts = append(parts, n)
			}
		}
		rp.Name = strings.Join(parts, " ")
		for _, r := range p.Relationships {
			if r = clean(r); r != "" {
				rp.Relationships = append(rp.Relationships, r)
			}
		}
		if rp.Name != "" {
			o.RelatedPersons = append(o.RelatedPersons, rp)
		}
	}
	classify(o)
	return o
}

// clean collapses runs of white space and trims.
func clean(s string) string {
	return strings.Join(strings.Fields(s), " ")
}

// isoDate accepts YYYY-MM-DD (the specification's xs:date), tolerating a
// time zone suffix.
func isoDate(s string) (string, bool) {
	s = strings.TrimSpace(s)
	if len(s) < 10 {
		return "", false
	}
	d := s[:10]
	if _, err := parseDay(d); err != nil {
		return "", false
	}
	return d, true
}
