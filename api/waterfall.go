package api

import (
	"fmt"
	"net/http"

	"github.com/prospectorhq/prospector"
)

// maxTiers and maxRoleLen bound a waterfall-icp cascade.
const (
	maxTiers   = 10
	maxRoleLen = 100
)

type waterfallTier struct {
	Role          *string  `json:"role"`
	IncludeTitles []string `json:"include_titles"`
	ExcludeTitles []string `json:"exclude_titles"`
	Locations     []string `json:"locations"`
}

type waterfallRequest struct {
	CompanyDomain     *string          `json:"company_domain"`
	CompanyNetworkURL *string          `json:"company_network_url"`
	MaxResults        *int             `json:"max_results"`
	Cascade           *[]waterfallTier `json:"cascade"`
}

type waterfallEntry struct {
	Tier        int    `json:"tier"`
	Role        string `json:"role"`
	Status      string `json:"status"`
	ResultCount int    `json:"result_count"`
	// Evaluated is false for the tiers after the matched one: the search
	// stopped before them (docs/decisions.md).
	Evaluated bool `json:"evaluated"`
}

type waterfallResult struct {
	Matched     bool             `json:"matched"`
	MatchedTier *int             `json:"matched_tier"`
	MatchedRole *string          `json:"matched_role"`
	Items       []contactItem    `json:"items"`
	Waterfall   []waterfallEntry `json:"waterfall"`
}

type tierQuery struct {
	role string
	q    prospector.PersonQuery
}

// waterfallICP: POST /api/v1/contacts/waterfall-icp
func (s *Server) waterfallICP(w http.ResponseWriter, r *http.Request) error {
	var req waterfallRequest
	if err := decodeBody(w, r, &req); err != nil {
		return err
	}
	limit, err := bounded("max_results", req.MaxResults, 1, 25, 3)
	if err != nil {
		return err
	}
	tiers, err := cascade(req.Cascade)
	if err != nil {
		return err
	}
	co, err := s.companyRef(r.Context(), "company_domain", req.CompanyDomain,
		[]string{"company_network_url"}, req.CompanyNetworkURL)
	if err != nil {
		return err
	}
	res := waterfallResult{Items: []contactItem{}, Waterfall: make([]waterfallEntry, 0, len(tiers))}
	for i, t := range tiers {
		e := waterfallEntry{Tier: i + 1, Role: t.role, Status: "not_matched"}
		if !res.Matched {
			e.Evaluated = true
			ids, err := s.searcher.CompanyPeople(r.Context(), co.ID, t.q)
			if err != nil {
				return err
			}
			e.ResultCount = len(ids)
			if len(ids) > 0 {
				ids = ids[:min(limit, len(ids))]
				matched := make(map[int64]bool, len(ids))
				for _, id := range ids {
					matched[id] = true
				}
				if res.Items, err = s.contacts(r.Context(), co, ids, matched); err != nil {
					return err
				}
				e.Status, res.Matched = "matched", true
				res.MatchedTier, res.MatchedRole = &e.Tier, &t.role
			}
		}
		res.Waterfall = append(res.Waterfall, e)
	}
	writeData(w, res)
	return nil
}

// cascade validates the tiers, naming the first bad field.
func cascade(c *[]waterfallTier) ([]tierQuery, error) {
	if c == nil {
		return nil, filterErr("cascade", "required: an array of 1 to %d tiers", maxTiers)
	}
	if len(*c) < 1 || len(*c) > maxTiers {
		return nil, filterErr("cascade", "must hold 1 to %d tiers", maxTiers)
	}
	out := make([]tierQuery, 0, len(*c))
	for i, t := range *c {
		field := func(name string) string { return fmt.Sprintf("cascade[%d].%s", i, name) }
		role := str(t.Role)
		if role == "" {
			return nil, filterErr(field("role"), "required: a role label such as decision_maker")
		}
		if len(role) > maxRoleLen {
			return nil, filterErr(field("role"), "at most %d characters", maxRoleLen)
		}
		var q prospector.PersonQuery
		var err error
		if q.Titles, err = checkList(field("include_titles"), t.IncludeTitles); err != nil {
			return nil, err
		}
		if len(q.Titles) == 0 {
			return nil, filterErr(field("include_titles"), "required: at least one title")
		}
		if q.ExcludeTitles, err = checkList(field("exclude_titles"), t.ExcludeTitles); err != nil {
			return nil, err
		}
		if q.Locations, err = places(field("locations"), t.Locations); err != nil {
			return nil, err
		}
		out = append(out, tierQuery{role: role, q: q})
	}
	return out, nil
}
