package sec

import (
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/prospectorhq/prospector"
)

// Normalised financing types of Form D offerings. Form D says what kind
// of security was sold, never the round (seed, Series A), so these are
// the security kinds; see classify for the mapping.
const (
	FinancingSAFE                = "safe"
	FinancingConvertibleNote     = "convertible_note"
	FinancingEquity              = "equity"
	FinancingDebt                = "debt_financing"
	FinancingOption              = "option"
	FinancingBusinessCombination = "business_combination"
	FinancingOther               = "other"
)

var financingNames = map[string]string{
	FinancingSAFE:                "SAFE",
	FinancingConvertibleNote:     "Convertible Note",
	FinancingEquity:              "Equity",
	FinancingDebt:                "Debt",
	FinancingOption:              "Options or Warrants",
	FinancingBusinessCombination: "Business Combination",
	FinancingOther:               "Other",
}

// exemptionNames spell out Form D item 6 codes.
var exemptionNames = map[string]string{
	"04": "Rule 504(b)(1)", "04.1": "Rule 504(b)(1)(i)", "04.2": "Rule 504(b)(1)(ii)", "04.3": "Rule 504(b)(1)(iii)",
	"05": "Rule 505", "06": "Rule 506", "06b": "Rule 506(b)", "06c": "Rule 506(c)",
	"46": "Section 4(6)", "4a5": "Section 4(a)(5)",
}

// ExemptionName spells out a Form D exemption code ("06b" is "Rule
// 506(b)", "3C.7" is "Investment Company Act Section 3(c)(7)"); an
// unknown code is returned as it is.
func ExemptionName(code string) string {
	if n, ok := exemptionNames[code]; ok {
		return n
	}
	if code == "3C" {
		return "Investment Company Act Section 3(c)"
	}
	if n, ok := strings.CutPrefix(code, "3C."); ok {
		return "Investment Company Act Section 3(c)(" + n + ")"
	}
	return code
}

var (
	safeRe        = regexp.MustCompile(`(?i)\bSAFEs?\b|simple agreements? for future equity`)
	convertibleRe = regexp.MustCompile(`(?i)\bconvertible\b`)
)

// nonVentureGroups are industry groups whose equity offerings are not
// venture financings: real estate vehicles, banks and insurers.
var nonVentureGroups = map[string]bool{
	"Commercial": true, "Construction": true, "REITS and Finance": true, "Residential": true,
	"Other Real Estate": true, "Commercial Banking": true, "Insurance": true, "Investing": true,
	"Investment Banking": true, "Other Banking and Financial Services": true,
}

// classify decides whether the offering is skipped and maps its
// securities and exemptions to a financing type, in this order:
//
//   - Pooled investment fund (industry group), pooled fund interests
//     offered, or the private-fund exclusions 3(c), 3(c)(1), 3(c)(7)
//     claimed: skipped, with the reason.
//   - Made in connection with a business combination: business_combination.
//   - "Other" described as a SAFE: safe; as convertible: convertible_note.
//   - Equity offered (with or without options, warrants or debt): equity.
//   - Debt offered: debt_financing.
//   - Options or securities to be acquired on their exercise: option.
//   - Anything else (tenant-in-common, mineral property, other): other.
//
// The text type names the kind and the Securities Act exemptions claimed:
// "Equity (Form D, Rule 506(b))". The category is venture for equity,
// SAFE and convertible notes of companies outside real estate, banking
// and insurance, other for the rest.
func classify(o *Offering) {
	has := func(s string) bool { return slices.Contains(o.Securities, s) }
	switch {
	case o.IndustryGroup == "Pooled Investment Fund":
		o.Skip = "pooled investment fund"
		if o.FundType != "" {
			o.Skip += " (" + o.FundType + ")"
		}
	case has("pooled_fund"):
		o.Skip = "pooled investment fund interests offered"
	default:
		for _, x := range o.Exemptions {
			if x == "3C" || x == "3C.1" || x == "3C.7" {
				o.Skip = "private fund: claims " + ExemptionName(x)
				break
			}
		}
	}
	kind := FinancingOther
	switch {
	case o.BusinessCombination:
		kind = FinancingBusinessCombination
	case has("other") && safeRe.MatchString(o.OtherDescription):
		kind = FinancingSAFE
	case has("other") && convertibleRe.MatchString(o.OtherDescription):
		kind = FinancingConvertibleNote
	case has("equity"):
		kind = FinancingEquity
	case has("debt"):
		kind = FinancingDebt
	case has("option") || has("security_to_be_acquired"):
		kind = FinancingOption
	}
	var rules []string
	for _, x := range o.Exemptions {
		if !strings.HasPrefix(x, "3C") {
			rules = append(rules, ExemptionName(x))
		}
	}
	name := financingNames[kind]
	if kind == FinancingOther && o.OtherDescription != "" {
		name += ": " + truncate(o.OtherDescription, 80)
	}
	if len(rules) > 0 {
		o.FinancingType = name + " (Form D, " + strings.Join(rules, ", ") + ")"
	} else {
		o.FinancingType = name + " (Form D)"
	}
	o.FinancingTypeNormalized = kind
	o.Category = "other"
	if (kind == FinancingEquity || kind == FinancingSAFE || kind == FinancingConvertibleNote) && !nonVentureGroups[o.IndustryGroup] {
		o.Category = "venture"
	}
}

// EventKey is the financing event's natural key for the offering that
// began with filing originalAccession of issuer cik: every amendment of
// the offering maps to it.
func EventKey(cik, originalAccession string) string {
	return "sec-formd-" + NormalizeCIK(cik) + "-" + originalAccession
}

// Event maps the offering to a financing event of no company yet (the
// caller resolves the issuer and sets CompanyID and CompanyDomain). It
// returns nil for a skipped offering. The amount is totalAmountSold, and
// null when nothing has been sold yet; effective_date is the date of
// first sale; found_at the filing date; source_urls the original
// notice's index page then this filing's.
func (o *Offering) Event(base string) *prospector.FinancingEvent {
	if o.Skip != "" {
		return nil
	}
	orig := o.Original
	if orig == "" {
		orig = o.Accession
	}
	e := &prospector.FinancingEvent{
		ExternalID:              EventKey(o.Issuer.CIK, orig),
		EventType:               "financing_event",
		Categories:              []string{o.Category},
		FinancingType:           o.FinancingType,
		FinancingTypeNormalized: o.FinancingTypeNormalized,
		EffectiveDate:           o.FirstSale,
		Investors:               []prospector.Investor{},
	}
	if o.TotalSold != nil && *o.TotalSold > 0 {
		e.Amount = "$" + groupThousands(*o.TotalSold)
		v := float64(*o.TotalSold)
		e.AmountNormalized = &v
	}
	if t, err := parseDay(o.Filed); err == nil {
		e.FoundAt = t
	}
	if orig != o.Accession {
		e.SourceURLs = append(e.SourceURLs, FilingIndexURL(base, o.Issuer.CIK, orig))
	}
	e.SourceURLs = append(e.SourceURLs, o.FilingURL)
	return e
}

// groupThousands writes 2500000 as 2,500,000.
func groupThousands(n int64) string {
	s := strconv.FormatInt(n, 10)
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	return b.String()
}

func parseDay(s string) (time.Time, error) {
	return time.Parse(time.DateOnly, s)
}

// truncate cuts s to at most n bytes on a rune boundary, marking the cut.
func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := n
	for cut > 0 && !utf8RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}

func utf8RuneStart(b byte) bool { return b&0xC0 != 0x80 }
