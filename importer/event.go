package importer

import (
	"github.com/prospectorhq/prospector"
)

// parseNewsEvent reads a news event. Attributes come from an "attributes"
// object (JSON, or JSON text in CSV) with flat columns for the common
// scalar members laid over it.
func parseNewsEvent(r record) (*prospector.NewsEvent, error) {
	e := &prospector.NewsEvent{}
	var err error
	if e.ExternalID, err = r.str("id", "external_id", "event_id"); err != nil {
		return nil, err
	}
	if err := required("id", e.ExternalID); err != nil {
		return nil, err
	}
	if e.CompanyDomain, err = companyDomainOf(r); err != nil {
		return nil, err
	}
	if e.EventType, err = r.str("event_type"); err != nil {
		return nil, err
	}
	if e.EventType == "" {
		e.EventType = "news_event"
	}
	if e.Categories, err = r.list("categories", "category"); err != nil {
		return nil, err
	}
	if e.EffectiveDate, err = r.date("effective_date"); err != nil {
		return nil, err
	}
	found, err := r.timestamp("found_at")
	if err != nil {
		return nil, err
	}
	if found == nil {
		return nil, badLine("found_at: required")
	}
	e.FoundAt = *found
	if _, err := r.decodeInto(&e.Attributes, "attributes"); err != nil {
		return nil, err
	}
	a := &e.Attributes
	for _, f := range []struct {
		dst  **string
		name string
	}{{&a.Summary, "summary"}, {&a.ArticleSentence, "article_sentence"}, {&a.Product, "product"},
		{&a.Location, "location"}, {&a.Amount, "amount"}, {&a.JobTitle, "job_title"}, {&a.Award, "award"},
		{&a.Event, "event"}, {&a.Division, "division"}, {&a.Contact, "contact"}} {
		s, err := r.str(f.name)
		if err != nil {
			return nil, err
		}
		if s != "" {
			*f.dst = optional(s)
		}
	}
	if c, err := r.number("confidence"); err != nil {
		return nil, err
	} else if c != nil {
		if *c < 0 || *c > 1 {
			return nil, badLine("confidence: must be between 0 and 1")
		}
		a.Confidence = c
	}
	if h, err := r.integer("headcount"); err != nil {
		return nil, err
	} else if h != nil {
		a.Headcount = h
	}
	a.Normalize()
	return e, nil
}

func parseFinancingEvent(r record) (*prospector.FinancingEvent, error) {
	e := &prospector.FinancingEvent{}
	var err error
	get := func(dst *string, names ...string) {
		if err == nil {
			*dst, err = r.str(names...)
		}
	}
	get(&e.ExternalID, "id", "external_id", "event_id")
	get(&e.EventType, "event_type")
	get(&e.FinancingType, "financing_type", "round", "funding_type")
	get(&e.FinancingTypeNormalized, "financing_type_normalized")
	get(&e.Amount, "amount")
	if err != nil {
		return nil, err
	}
	if err := required("id", e.ExternalID); err != nil {
		return nil, err
	}
	if e.CompanyDomain, err = companyDomainOf(r); err != nil {
		return nil, err
	}
	if e.EventType == "" {
		e.EventType = "financing_event"
	}
	if e.Categories, err = r.list("categories", "category"); err != nil {
		return nil, err
	}
	if e.AmountNormalized, err = r.number("amount_normalized", "amount_usd"); err != nil {
		return nil, err
	}
	if e.EffectiveDate, err = r.date("effective_date", "announced_on"); err != nil {
		return nil, err
	}
	found, err := r.timestamp("found_at", "first_seen_at")
	if err != nil {
		return nil, err
	}
	if found == nil {
		return nil, badLine("found_at: required")
	}
	e.FoundAt = *found
	if e.SourceURLs, err = r.list("source_urls", "source_url"); err != nil {
		return nil, err
	}
	if _, err := r.decodeInto(&e.Investors, "investors"); err != nil {
		// CSV may also list investor names separated by ";".
		names, lerr := r.list("investors")
		if lerr != nil || len(names) == 0 {
			return nil, err
		}
		e.Investors = nil
		for _, n := range names {
			e.Investors = append(e.Investors, prospector.Investor{ID: "investor:" + n, Name: n})
		}
	}
	for i, inv := range e.Investors {
		if inv.Name == "" {
			return nil, badLine("investors[%d].name: required", i)
		}
		if inv.ID == "" {
			e.Investors[i].ID = "investor:" + inv.Name
		}
	}
	return e, nil
}

func companyDomainOf(r record) (string, error) {
	raw, err := r.str("company_domain", "domain")
	if err != nil {
		return "", err
	}
	if err := required("company_domain", raw); err != nil {
		return "", err
	}
	d := prospector.NormalizeDomain(raw)
	if d == "" {
		return "", badLine("company_domain: %q is not a domain", raw)
	}
	return d, nil
}
