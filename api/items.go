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

// companyItems fetches the rows of ids and returns their items in the
// order of ids. A row deleted since the index saw it is left out.
func (s *Server) companyItems(ctx context.Context, ids []int64) ([]companyItem, error) {
	byID := make(map[int64]*prospector.Company, len(ids))
	for _, c := range s.searcher.CompanyCards(ids) {
		byID[c.ID] = c
	}
	if len(byID) < len(ids) {
		var missing []int64
		for _, id := range ids {
			if byID[id] == nil {
				missing = append(missing, id)
			}
		}
		rows, err := s.store.CompanyCards(ctx, missing)
		if err != nil {
			return nil, fmt.Errorf("fetch companies: %w", err)
		}
		for _, c := range rows {
			byID[c.ID] = c
		}
	}
	out := make([]companyItem, 0, len(ids))
	for _, id := range ids {
		if c := byID[id]; c != nil {
			out = append(out, newCompanyItem(c))
		}
	}
	return out, nil
}

func (s *Server) personItems(ctx context.Context, ids []int64) ([]personItem, error) {
	byID := make(map[int64]*prospector.Person, len(ids))
	for _, p := range s.searcher.PersonCards(ids) {
		byID[p.ID] = p
	}
	if len(byID) < len(ids) {
		var missing []int64
		for _, id := range ids {
			if byID[id] == nil {
				missing = append(missing, id)
			}
		}
		rows, err := s.store.PersonCards(ctx, missing)
		if err != nil {
			return nil, fmt.Errorf("fetch people: %w", err)
		}
		for _, p := range rows {
			byID[p.ID] = p
		}
	}
	out := make([]personItem, 0, len(ids))
	for _, id := range ids {
		if p := byID[id]; p != nil {
			out = append(out, newPersonItem(p))
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
