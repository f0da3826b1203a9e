package prospector

import (
	"cmp"
	"context"
	"fmt"
	"slices"
)

// IndexedRows are the rows the search index keeps in memory, read without
// a database round trip and as fresh as its search results. Each answer
// leaves out what the index has not taken in yet (a row written since
// its last sync): Catalog completes them from the store, and callers use
// Catalog rather than these directly.
type IndexedRows interface {
	// CompanyCards returns the card fields (as CompanyStore.CompanyCards)
	// of the companies with those ids that the index knows, in the order
	// of ids.
	CompanyCards(ids []int64) []*Company
	// PersonCards does the same for people (as PersonStore.PersonCards).
	PersonCards(ids []int64) []*Person
	// CompanyIDsByDomain resolves the normalised domains of the companies
	// the index knows (as CompanyStore.CompanyIDsByDomain).
	CompanyIDsByDomain(domains []string) map[string]int64
	// CompanySignals returns the newest perCompany signals of each of the
	// companies it knows (as SignalStore.SignalsByCompanies), ordered by
	// company id, then newest first; missing lists the ids it does not
	// know.
	CompanySignals(companyIDs []int64, perCompany int) (signals []*Signal, missing []int64)
	// PeopleVersion changes whenever the index takes in changed people,
	// so a cache of people read from the store can be keyed on it and be
	// as fresh as search results.
	PeopleVersion() uint64
}

// CatalogStore is what a Catalog reads from the store: the rows the
// index has not taken in yet.
type CatalogStore interface {
	CompanyCards(ctx context.Context, ids []int64) ([]*Company, error)
	PersonCards(ctx context.Context, ids []int64) ([]*Person, error)
	CompanyIDsByDomain(ctx context.Context, domains []string) (map[string]int64, error)
	SignalsByCompanies(ctx context.Context, companyIDs []int64, perCompany int) ([]*Signal, error)
}

// Catalog reads companies, people and their recent signals: from the
// search index, which holds them in memory, and from the store for what
// the index has not seen yet. It is the one place that completes the
// index by hand; every reader of cards, domains and company signals goes
// through it. The zero value is not usable: set both fields.
type Catalog struct {
	Index IndexedRows
	Store CatalogStore
}

// CompanyCards returns the cards of the companies with those ids, in the
// order of ids; an id neither the index nor the store has (deleted since
// it was indexed) is left out. It fails only when the store does.
func (c Catalog) CompanyCards(ctx context.Context, ids []int64) ([]*Company, error) {
	return complete(ctx, ids, c.Index.CompanyCards(ids), c.Store.CompanyCards, func(co *Company) int64 { return co.ID })
}

// PersonCards returns the cards of the people with those ids, as
// CompanyCards does.
func (c Catalog) PersonCards(ctx context.Context, ids []int64) ([]*Person, error) {
	return complete(ctx, ids, c.Index.PersonCards(ids), c.Store.PersonCards, func(p *Person) int64 { return p.ID })
}

// complete returns the rows of ids in their order: found (the index's,
// in the order of ids) and, for the ids missing from it, the store's.
func complete[T any](ctx context.Context, ids []int64, found []*T,
	stored func(context.Context, []int64) ([]*T, error), idOf func(*T) int64) ([]*T, error) {
	if len(found) == len(ids) {
		return found, nil // the usual case: no allocation, no round trip
	}
	var missing []int64
	j := 0
	for _, id := range ids {
		if j < len(found) && idOf(found[j]) == id {
			j++
			continue
		}
		missing = append(missing, id)
	}
	rows, err := stored(ctx, missing)
	if err != nil {
		return nil, fmt.Errorf("catalog: read rows the index has not seen: %w", err)
	}
	byID := make(map[int64]*T, len(found)+len(rows))
	for _, r := range found {
		byID[idOf(r)] = r
	}
	for _, r := range rows {
		byID[idOf(r)] = r
	}
	out := make([]*T, 0, len(byID))
	for _, id := range ids {
		if r := byID[id]; r != nil {
			out = append(out, r)
		}
	}
	return out, nil
}

// CompanyIDsByDomain resolves normalised domains to company ids, those
// the index does not know from the store; a domain nobody has is left
// out. It fails only when the store does.
func (c Catalog) CompanyIDsByDomain(ctx context.Context, domains []string) (map[string]int64, error) {
	ids := c.Index.CompanyIDsByDomain(domains)
	if len(ids) == len(domains) {
		return ids, nil
	}
	var rest []string
	for _, d := range domains {
		if _, ok := ids[d]; !ok {
			rest = append(rest, d)
		}
	}
	stored, err := c.Store.CompanyIDsByDomain(ctx, rest)
	if err != nil {
		return nil, fmt.Errorf("catalog: domains the index has not seen: %w", err)
	}
	for d, id := range stored {
		ids[d] = id
	}
	return ids, nil
}

// CompanySignals returns the newest perCompany signals of each company,
// ordered by company id, then newest first. It fails only when the store
// does.
func (c Catalog) CompanySignals(ctx context.Context, companyIDs []int64, perCompany int) ([]*Signal, error) {
	sigs, missing := c.Index.CompanySignals(companyIDs, perCompany)
	if len(missing) == 0 {
		return sigs, nil
	}
	stored, err := c.Store.SignalsByCompanies(ctx, missing, perCompany)
	if err != nil {
		return nil, fmt.Errorf("catalog: signals of companies the index has not seen: %w", err)
	}
	sigs = append(sigs, stored...)
	slices.SortStableFunc(sigs, func(a, b *Signal) int { return cmp.Compare(*a.CompanyID, *b.CompanyID) })
	return sigs, nil
}
