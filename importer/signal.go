package importer

import (
	"github.com/prospectorhq/prospector"
)

// signalRef is a parsed signal whose company and person references are
// still to resolve.
type signalRef struct {
	signal *prospector.Signal
	person string // the person's natural key, "" for a company signal
}

func parseSignal(r record) (*signalRef, error) {
	s := &prospector.Signal{}
	var err error
	get := func(dst *string, names ...string) {
		if err == nil {
			*dst, err = r.str(names...)
		}
	}
	var domain, personURL, personID string
	get(&s.ExternalID, "id", "external_id", "signal_id")
	get(&s.Type, "type", "signal_type")
	get(&domain, "company_domain", "domain")
	get(&personURL, "person_network_url", "network_url", "lead_network_url", "person_linkedin_url")
	get(&personID, "person_id", "lead_id")
	get(&s.Title, "title", "headline")
	get(&s.Detail, "detail", "details", "description")
	get(&s.SourceURL, "source_url", "url")
	if err != nil {
		return nil, err
	}
	if err := required("id", s.ExternalID); err != nil {
		return nil, err
	}
	if !prospector.ValidSignalType(s.Type) {
		return nil, badLine("type: %q is not a signal type", s.Type)
	}
	if domain != "" {
		if s.CompanyDomain = prospector.NormalizeDomain(domain); s.CompanyDomain == "" {
			return nil, badLine("company_domain: %q is not a domain", domain)
		}
	}
	ref := &signalRef{signal: s}
	switch {
	case personURL != "":
		u := prospector.NormalizeProfileURL(personURL)
		if u == "" {
			return nil, badLine("person_network_url: %q is not a profile URL", personURL)
		}
		ref.person = (&prospector.Person{NetworkURL: u}).NaturalKey()
	case personID != "":
		ref.person = (&prospector.Person{ExternalID: personID}).NaturalKey()
	}
	if s.CompanyDomain == "" && ref.person == "" {
		return nil, badLine("company_domain or a person: a signal must concern a company or a person")
	}
	detected, err := r.timestamp("detected_at", "date", "timestamp")
	if err != nil {
		return nil, err
	}
	if detected == nil {
		return nil, badLine("detected_at: required")
	}
	s.DetectedAt = *detected
	if s.Score, err = r.number("score"); err != nil {
		return nil, err
	}
	return ref, nil
}
