package prospector

import (
	"slices"
	"strings"
	"time"
)

// Bounds of what a filing keeps.
const (
	maxFilingPeople   = 200  // a Form D lists a few dozen related persons at most
	maxFilingUnparsed = 10   // as package sec keeps
	maxUnparsedBytes  = 2000 // sec keeps 1,000 characters
	maxFilingSignals  = 100
	maxFilingText     = 2000
)

// Normalize cleans what a filing keeps: the issuer's facts, people's
// text trimmed and bounded, at most 200 people and 10 unparsed texts,
// and, for a skipped filing, no event or signals.
func (f *SECFiling) Normalize() {
	f.Issuer.Normalize()
	f.Skip = cleanText(f.Skip, maxIssuerText)
	if f.Skip != "" {
		f.Financing, f.Signals = nil, nil
	}
	if len(f.People) > maxFilingPeople {
		f.People = f.People[:maxFilingPeople]
	}
	for i := range f.People {
		p := &f.People[i]
		p.Name, p.Title = cleanText(p.Name, maxIssuerText), cleanText(p.Title, maxIssuerText)
		p.City, p.State = cleanText(p.City, maxIssuerText), cleanText(p.State, 8)
		p.Note = cleanText(p.Note, maxFilingText)
	}
	if len(f.Unparsed) > maxFilingUnparsed {
		f.Unparsed = f.Unparsed[:maxFilingUnparsed]
	}
	for i, u := range f.Unparsed {
		f.Unparsed[i] = cleanText(u, maxUnparsedBytes)
	}
	f.ProcessedAt = f.ProcessedAt.UTC().Truncate(time.Microsecond)
}

// Validate returns an EINVALID naming the first field of a filing that
// cannot be stored: a malformed accession, form, date or URL, a kind that
// does not fit the form, an issuer or match that is not one, a Form D
// without its event, a signal of an unknown type or without an id, a
// person without a name, or text holding a NUL or invalid UTF-8
// (anywhere, the event and signals included).
func (f *SECFiling) Validate() error {
	if !validAccession(f.Accession) {
		return Errorf(EINVALID, "accession: %q is not an accession number (0001234567-26-000123)", f.Accession)
	}
	switch {
	case f.Form == "D" || f.Form == "D/A":
		if f.Kind != FilingFinancing {
			return Errorf(EINVALID, "kind: a Form %s is a %s filing, not %q", f.Form, FilingFinancing, f.Kind)
		}
	case f.Form == "8-K" || f.Form == "8-K/A":
		if f.Kind != FilingExecutive {
			return Errorf(EINVALID, "kind: a Form %s is an %s filing, not %q", f.Form, FilingExecutive, f.Kind)
		}
	default:
		return Errorf(EINVALID, "form: %q is not D, D/A, 8-K or 8-K/A", f.Form)
	}
	if _, err := time.Parse(time.DateOnly, f.Filed); err != nil {
		return Errorf(EINVALID, "filed: %q is not a date (YYYY-MM-DD)", f.Filed)
	}
	if err := checkWebURL("url", f.URL); err != nil {
		return err
	}
	if err := CheckText("skip", f.Skip); err != nil {
		return err
	}
	if err := f.Issuer.validate(); err != nil {
		return err
	}
	if err := f.Match.Validate(); err != nil {
		return err
	}
	if f.Kind == FilingFinancing && f.Skip == "" && f.Financing == nil {
		return Errorf(EINVALID, "financing: a Form D that is not skipped needs its event")
	}
	if f.Kind == FilingExecutive && f.Financing != nil {
		return Errorf(EINVALID, "financing: an 8-K has no financing event")
	}
	if f.Kind == FilingFinancing && len(f.Signals) > 0 {
		return Errorf(EINVALID, "signals: a Form D's signal is derived from its event")
	}
	if f.Financing != nil {
		if err := validateFinancing(f.Financing); err != nil {
			return err
		}
	}
	if len(f.Signals) > maxFilingSignals {
		return Errorf(EINVALID, "signals: more than %d", maxFilingSignals)
	}
	for _, s := range f.Signals {
		if err := validateSourceSignal(s); err != nil {
			return err
		}
	}
	for _, p := range f.People {
		if p.Role != PersonRelated && p.Role != PersonExecutive {
			return Errorf(EINVALID, "people.role: %q is not a role", p.Role)
		}
		if strings.TrimSpace(p.Name) == "" {
			return Errorf(EINVALID, "people.name: required")
		}
		for _, t := range []struct{ name, v string }{{"people.name", p.Name}, {"people.title", p.Title},
			{"people.action", p.Action}, {"people.effective_date", p.EffectiveDate}, {"people.city", p.City},
			{"people.state", p.State}, {"people.note", p.Note}, {"people.signal_id", p.SignalID}} {
			if err := CheckText(t.name, t.v); err != nil {
				return err
			}
		}
	}
	for _, u := range f.Unparsed {
		if err := CheckText("unparsed", u); err != nil {
			return err
		}
	}
	if o := f.Offering; o != nil {
		if err := CheckText("offering", strings.Join(append(append([]string{o.IndustryGroup, o.FundType, o.FirstSale,
			o.Original, o.OriginalMethod}, o.Securities...), o.Exemptions...), " ")); err != nil {
			return err
		}
	}
	return nil
}

func validAccession(s string) bool {
	if len(s) != 20 || s[10] != '-' || s[13] != '-' {
		return false
	}
	for i := 0; i < len(s); i++ {
		if i != 10 && i != 13 && (s[i] < '0' || s[i] > '9') {
			return false
		}
	}
	return true
}

// validateFinancing checks a source's financing event: an id, and text
// the stores take.
func validateFinancing(e *FinancingEvent) error {
	if e.ExternalID == "" {
		return Errorf(EINVALID, "financing.id: required")
	}
	fields := []struct{ name, v string }{{"financing.id", e.ExternalID}, {"financing.event_type", e.EventType},
		{"financing.financing_type", e.FinancingType}, {"financing.financing_type_normalized", e.FinancingTypeNormalized},
		{"financing.amount", e.Amount}, {"financing.effective_date", e.EffectiveDate},
		{"financing.categories", strings.Join(e.Categories, " ")}}
	for _, u := range e.SourceURLs {
		fields = append(fields, struct{ name, v string }{"financing.source_urls", u})
	}
	for _, inv := range e.Investors {
		fields = append(fields, struct{ name, v string }{"financing.investors", inv.ID + " " + inv.Name})
	}
	for _, f := range fields {
		if err := CheckText(f.name, f.v); err != nil {
			return err
		}
	}
	return nil
}

// validateSourceSignal checks a signal a source made: a known type, an
// id, and text the stores take.
func validateSourceSignal(s *Signal) error {
	if s == nil || s.ExternalID == "" {
		return Errorf(EINVALID, "signals.id: required")
	}
	if !ValidSignalType(s.Type) {
		return Errorf(EINVALID, "signals.type: %q is not a signal type", s.Type)
	}
	for _, f := range []struct{ name, v string }{{"signals.id", s.ExternalID}, {"signals.title", s.Title},
		{"signals.detail", s.Detail}, {"signals.source_url", s.SourceURL}} {
		if err := CheckText(f.name, f.v); err != nil {
			return err
		}
	}
	return nil
}

// FilingAfter reports whether filing a (filed on aFiled) comes after
// filing b: by filing date, then accession number, which grows within a
// filer agent's day.
func FilingAfter(aFiled, aAccession, bFiled, bAccession string) bool {
	if aFiled != bFiled {
		return aFiled > bFiled
	}
	return aAccession > bAccession
}

// Outputs returns the financing event and the signals the filing writes
// for the company (companyID, domain). stored is the event already kept
// under the filing's event key (nil when none), and latest whether this
// filing comes after (FilingAfter) every other applied filing of that
// offering: see MergeFinancing. The filing is not changed.
func (f *SECFiling) Outputs(companyID int64, domain string, stored *FinancingEvent, latest bool) (*FinancingEvent, []*Signal) {
	if !f.HasOutput() {
		return nil, nil
	}
	var (
		event *FinancingEvent
		out   []*Signal
	)
	if f.Financing != nil {
		in := *f.Financing
		in.CompanyID, in.CompanyDomain = companyID, domain
		event = MergeFinancing(stored, &in, latest)
		out = append(out, FundingSignal(event, "SEC Form D of "+f.Issuer.Name))
	}
	for _, s := range f.Signals {
		c := *s
		id := companyID
		c.CompanyID, c.CompanyDomain, c.PersonID = &id, domain, nil
		out = append(out, &c)
	}
	return event, out
}

// MergeFinancing returns the event to store when a filing's event
// incoming meets the event stored under the same key (an amendment and
// its original). The figures (type, amount, date of first sale,
// categories) are those of the latest filing of the offering, so an
// amendment processed before its original keeps its amended amount;
// found_at is the earliest, the original's filing date, so an amended
// financing does not reappear as new; source URLs accumulate, the
// stored ones first. The company is incoming's.
func MergeFinancing(stored, incoming *FinancingEvent, latest bool) *FinancingEvent {
	e := *incoming
	e.Categories = slices.Clone(incoming.Categories)
	e.SourceURLs = slices.Clone(incoming.SourceURLs)
	if stored == nil {
		return &e
	}
	e.ID = stored.ID
	if !latest {
		e.EventType, e.Categories = stored.EventType, slices.Clone(stored.Categories)
		e.FinancingType, e.FinancingTypeNormalized = stored.FinancingType, stored.FinancingTypeNormalized
		e.Amount, e.AmountNormalized, e.EffectiveDate = stored.Amount, stored.AmountNormalized, stored.EffectiveDate
		e.Investors = stored.Investors
	}
	if !stored.FoundAt.IsZero() && stored.FoundAt.Before(e.FoundAt) {
		e.FoundAt = stored.FoundAt
	}
	urls := slices.Clone(stored.SourceURLs)
	for _, u := range incoming.SourceURLs {
		if !slices.Contains(urls, u) {
			urls = append(urls, u)
		}
	}
	e.SourceURLs = urls
	return &e
}

// FundingSignal is the funding_announcement signal of a financing event:
// the same ExternalID (so applying the event again, or an amendment,
// updates it instead of adding one), the title "Raised $4,000,000:
// Equity (Form D, Rule 506(b))", a detail naming where it was reported
// (via), the event's first source URL (the original notice) and its
// found time.
func FundingSignal(e *FinancingEvent, via string) *Signal {
	what := e.FinancingType
	if what == "" {
		what = "financing"
	}
	title := "Financing reported: " + what
	if e.Amount != "" {
		title = "Raised " + e.Amount + ": " + what
	}
	detail := "Funding: " + title
	if e.EffectiveDate != "" {
		detail += ", first sale " + e.EffectiveDate
	}
	if via != "" {
		detail += " (" + via + ")"
	}
	s := &Signal{ExternalID: e.ExternalID, Type: "funding_announcement", CompanyDomain: e.CompanyDomain,
		Title: truncateText(title, maxIssuerText), Detail: truncateText(detail, maxFilingText), DetectedAt: e.FoundAt}
	if e.CompanyID != 0 {
		id := e.CompanyID
		s.CompanyID = &id
	}
	if len(e.SourceURLs) > 0 {
		s.SourceURL = e.SourceURLs[0]
	}
	return s
}
