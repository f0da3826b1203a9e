package importer

import (
	"context"
	"fmt"
	"slices"

	"github.com/prospectorhq/prospector"
)

func flushCompanies(ctx context.Context, _ Store, w prospector.Bulk, batch []pending, _ func(int, error)) (prospector.UpsertResult, error) {
	cs := make([]*prospector.Company, len(batch))
	for i, p := range batch {
		cs[i] = p.item.(*prospector.Company)
	}
	return w.UpsertCompanies(ctx, cs)
}

// distinct sorts keys and drops repeats: a batch names the same company
// once per person, and each repeat cost the store another index probe.
func distinct(keys []string) []string {
	slices.Sort(keys)
	return slices.Compact(keys)
}

// linkPeople links each person to a stored company, by domain first and
// then by company profile URL; a person whose company is unknown is kept
// without the link.
func linkPeople(ctx context.Context, st Store, batch []pending) error {
	var domains, urls []string
	for _, p := range batch {
		ref := p.item.(*personRef)
		if ref.person.CompanyDomain != "" {
			domains = append(domains, ref.person.CompanyDomain)
		}
		if ref.companyNetwork != "" {
			urls = append(urls, ref.companyNetwork)
		}
	}
	byDomain, err := st.CompanyIDsByDomain(ctx, distinct(domains))
	if err != nil {
		return fmt.Errorf("import people: %w", err)
	}
	byURL, err := st.CompanyIDsByNetworkURL(ctx, distinct(urls))
	if err != nil {
		return fmt.Errorf("import people: %w", err)
	}
	for _, p := range batch {
		ref := p.item.(*personRef)
		if id, ok := byDomain[ref.person.CompanyDomain]; ok {
			ref.person.CompanyID = &id
		} else if id, ok := byURL[ref.companyNetwork]; ok {
			ref.person.CompanyID = &id
		}
	}
	return nil
}

// flushPeople writes people linkPeople has linked.
func flushPeople(ctx context.Context, _ Store, w prospector.Bulk, batch []pending, _ func(int, error)) (prospector.UpsertResult, error) {
	ps := make([]*prospector.Person, len(batch))
	for i, p := range batch {
		ps[i] = p.item.(*personRef).person
	}
	return w.UpsertPeople(ctx, ps)
}

// flushSignals resolves each signal's company and person. A reference to
// a company or person that is not stored rejects the line: the signal
// would point at nothing.
func flushSignals(ctx context.Context, st Store, w prospector.Bulk, batch []pending, reject func(int, error)) (prospector.UpsertResult, error) {
	var domains, keys []string
	for _, p := range batch {
		ref := p.item.(*signalRef)
		if ref.signal.CompanyDomain != "" {
			domains = append(domains, ref.signal.CompanyDomain)
		}
		if ref.person != "" {
			keys = append(keys, ref.person)
		}
	}
	companies, err := st.CompanyIDsByDomain(ctx, distinct(domains))
	if err != nil {
		return prospector.UpsertResult{}, fmt.Errorf("import signals: %w", err)
	}
	people, err := st.PersonIDsByKey(ctx, distinct(keys))
	if err != nil {
		return prospector.UpsertResult{}, fmt.Errorf("import signals: %w", err)
	}
	var ss []*prospector.Signal
	var needCompany []*prospector.Signal
	for _, p := range batch {
		ref := p.item.(*signalRef)
		s := ref.signal
		if s.CompanyDomain != "" {
			id, ok := companies[s.CompanyDomain]
			if !ok {
				reject(p.line, badLine("company_domain: no company %q is stored (import companies first)", s.CompanyDomain))
				continue
			}
			s.CompanyID = &id
		}
		if ref.person != "" {
			id, ok := people[ref.person]
			if !ok {
				reject(p.line, badLine("person: no person %q is stored (import people first)", personLabel(ref.person)))
				continue
			}
			s.PersonID, s.PersonKey = &id, ref.person
			if s.CompanyID == nil {
				needCompany = append(needCompany, s)
			}
		}
		ss = append(ss, s)
	}
	if err := fillPersonCompanies(ctx, st, needCompany); err != nil {
		return prospector.UpsertResult{}, err
	}
	return w.UpsertSignals(ctx, ss)
}

// fillPersonCompanies gives person signals without a company domain the
// person's current company, so they show up under the company too.
func fillPersonCompanies(ctx context.Context, st Store, ss []*prospector.Signal) error {
	if len(ss) == 0 {
		return nil
	}
	ids := make([]int64, len(ss))
	for i, s := range ss {
		ids[i] = *s.PersonID
	}
	people, err := st.PeopleByID(ctx, ids)
	if err != nil {
		return fmt.Errorf("import signals: %w", err)
	}
	byID := make(map[int64]*prospector.Person, len(people))
	for _, p := range people {
		byID[p.ID] = p
	}
	for _, s := range ss {
		if p := byID[*s.PersonID]; p != nil && p.CompanyID != nil {
			s.CompanyID, s.CompanyDomain = p.CompanyID, p.CompanyDomain
		}
	}
	return nil
}

// personLabel shows a natural key as the caller wrote it: the URL or id.
func personLabel(key string) string {
	_, v, _ := cutKey(key)
	return v
}

// resolveEventCompanies maps each event's company domain to its id and
// rejects events of unknown companies; keep reports which to write.
func resolveEventCompanies(ctx context.Context, st Store, batch []pending, domainOf func(any) string,
	set func(any, int64), reject func(int, error)) ([]any, error) {
	domains := make([]string, len(batch))
	for i, p := range batch {
		domains[i] = domainOf(p.item)
	}
	ids, err := st.CompanyIDsByDomain(ctx, distinct(domains))
	if err != nil {
		return nil, fmt.Errorf("import events: %w", err)
	}
	var keep []any
	for _, p := range batch {
		id, ok := ids[domainOf(p.item)]
		if !ok {
			reject(p.line, badLine("company_domain: no company %q is stored (import companies first)", domainOf(p.item)))
			continue
		}
		set(p.item, id)
		keep = append(keep, p.item)
	}
	return keep, nil
}

func flushNews(ctx context.Context, st Store, w prospector.Bulk, batch []pending, reject func(int, error)) (prospector.UpsertResult, error) {
	keep, err := resolveEventCompanies(ctx, st, batch,
		func(v any) string { return v.(*prospector.NewsEvent).CompanyDomain },
		func(v any, id int64) { v.(*prospector.NewsEvent).CompanyID = id }, reject)
	if err != nil {
		return prospector.UpsertResult{}, err
	}
	es := make([]*prospector.NewsEvent, len(keep))
	for i, v := range keep {
		es[i] = v.(*prospector.NewsEvent)
	}
	return w.UpsertNewsEvents(ctx, es)
}

func flushFinancing(ctx context.Context, st Store, w prospector.Bulk, batch []pending, reject func(int, error)) (prospector.UpsertResult, error) {
	keep, err := resolveEventCompanies(ctx, st, batch,
		func(v any) string { return v.(*prospector.FinancingEvent).CompanyDomain },
		func(v any, id int64) { v.(*prospector.FinancingEvent).CompanyID = id }, reject)
	if err != nil {
		return prospector.UpsertResult{}, err
	}
	es := make([]*prospector.FinancingEvent, len(keep))
	for i, v := range keep {
		es[i] = v.(*prospector.FinancingEvent)
	}
	return w.UpsertFinancingEvents(ctx, es)
}
