package api

import (
	"context"
	"fmt"
	"strings"

	"github.com/prospectorhq/prospector"
	"github.com/prospectorhq/prospector/taxonomy"
)

// companyItem is the contract's Company item.
type companyItem struct {
	ID            string  `json:"id"`
	Name          string  `json:"name"`
	Domain        string  `json:"domain"`
	Website       string  `json:"website"`
	Industry      string  `json:"industry"`
	Location      *string `json:"location"`
	EmployeeSize  *string `json:"employee_size"`
	EmployeeCount *int64  `json:"employee_count"`
}

// personItem is the contract's Person item.
type personItem struct {
	ID         string   `json:"id"`
	Name       string   `json:"name"`
	Title      *string  `json:"title"`
	Company    *string  `json:"company"`
	NetworkURL *string  `json:"network_url"`
	Location   *string  `json:"location"`
	Score      *float64 `json:"score"`
}

// orNull maps "" to null, for the fields the contract says may be null.
func orNull(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

func newCompanyItem(c *prospector.Company) companyItem {
	return companyItem{ID: c.PublicID(), Name: c.Name, Domain: c.Domain, Website: c.Website, Industry: c.Industry,
		Location: orNull(place(c.City, c.Region, c.CountryCode)), EmployeeSize: orNull(c.EmployeeRange), EmployeeCount: c.EmployeeCount}
}

func newPersonItem(p *prospector.Person) personItem {
	return personItem{ID: p.PublicID(), Name: p.FullName, Title: orNull(p.Title), Company: orNull(p.CompanyName),
		NetworkURL: orNull(p.NetworkURL), Location: orNull(place(p.City, p.Region, p.CountryCode)), Score: p.Score}
}

// companyItems returns the items of ids in their order: cards from the
// searcher, and from the store for rows the searcher has not seen yet. A
// row deleted since the index saw it is left out.
func (s *Server) companyItems(ctx context.Context, ids []int64) ([]companyItem, error) {
	return items(ctx, ids, s.searcher.CompanyCards, s.store.CompanyCards,
		func(c *prospector.Company) int64 { return c.ID }, newCompanyItem)
}

func (s *Server) personItems(ctx context.Context, ids []int64) ([]personItem, error) {
	return items(ctx, ids, s.searcher.PersonCards, s.store.PersonCards,
		func(p *prospector.Person) int64 { return p.ID }, newPersonItem)
}

func items[R any, I any](ctx context.Context, ids []int64, cached func([]int64) []*R,
	stored func(context.Context, []int64) ([]*R, error), idOf func(*R) int64, item func(*R) I) ([]I, error) {
	byID := make(map[int64]*R, len(ids))
	for _, r := range cached(ids) {
		byID[idOf(r)] = r
	}
	if len(byID) < len(ids) {
		var missing []int64
		for _, id := range ids {
			if byID[id] == nil {
				missing = append(missing, id)
			}
		}
		rows, err := stored(ctx, missing)
		if err != nil {
			return nil, fmt.Errorf("fetch result rows: %w", err)
		}
		for _, r := range rows {
			byID[idOf(r)] = r
		}
	}
	out := make([]I, 0, len(ids))
	for _, id := range ids {
		if r := byID[id]; r != nil {
			out = append(out, item(r))
		}
	}
	return out, nil
}

// place renders "City, Region, Country" with the country's English name,
// leaving out unknown parts; "" when nothing is known.
func place(city, region, countryCode string) string {
	var parts []string
	for _, s := range []string{city, region, taxonomy.CountryName(countryCode)} {
		if s != "" {
			parts = append(parts, s)
		}
	}
	return strings.Join(parts, ", ")
}
