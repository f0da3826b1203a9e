package contacts

import (
	"context"
	"fmt"

	"github.com/prospectorhq/prospector"
	"github.com/prospectorhq/prospector/input"
	"github.com/prospectorhq/prospector/wire"
)

// maxTiers and maxRoleLen bound a waterfall-icp cascade.
const (
	maxTiers   = 10
	maxRoleLen = 100
)

// WaterfallTier is one tier of a cascade: a role and the titles (and
// places) that fill it.
type WaterfallTier struct {
	Role          *string  `json:"role"`
	IncludeTitles []string `json:"include_titles"`
	ExcludeTitles []string `json:"exclude_titles"`
	Locations     []string `json:"locations"`
}

// WaterfallRequest is POST /contacts/waterfall-icp's body: a company and
// a cascade of tiers, tried in order until one matches.
type WaterfallRequest struct {
	CompanyDomain     *string          `json:"company_domain"`
	CompanyNetworkURL *string          `json:"company_network_url"`
	MaxResults        *int             `json:"max_results"`
	Cascade           *[]WaterfallTier `json:"cascade"`
}

// WaterfallEntry is how one tier went.
type WaterfallEntry struct {
	Tier        int    `json:"tier"`
	Role        string `json:"role"`
	Status      string `json:"status"`
	ResultCount int    `json:"result_count"`
	// Evaluated is false for the tiers after the matched one: the search
	// stopped before them (docs/decisions.md).
	Evaluated bool `json:"evaluated"`
}

// WaterfallResult is the cascade's answer: the matched tier's contacts
// and every tier's outcome.
type WaterfallResult struct {
	Matched     bool             `json:"matched"`
	MatchedTier *int             `json:"matched_tier"`
	MatchedRole *string          `json:"matched_role"`
	Items       []wire.Contact   `json:"items"`
	Waterfall   []WaterfallEntry `json:"waterfall"`
}

type tierQuery struct {
	role string
	q    prospector.PersonQuery
}

// Waterfall tries the tiers in order and returns the contacts of the
// first that matches anyone at the company; the tiers after it are not
// evaluated. Errors as Find.
func (s *Service) Waterfall(ctx context.Context, req *WaterfallRequest) (*WaterfallResult, error) {
	limit, err := input.Bounded("max_results", req.MaxResults, 1, 25, 3)
	if err != nil {
		return nil, err
	}
	tiers, err := cascade(req.Cascade)
	if err != nil {
		return nil, err
	}
	co, err := s.company(ctx, "company_domain", req.CompanyDomain,
		[]string{"company_network_url"}, req.CompanyNetworkURL)
	if err != nil {
		return nil, err
	}
	res := &WaterfallResult{Items: []wire.Contact{}, Waterfall: make([]WaterfallEntry, 0, len(tiers))}
	for i, t := range tiers {
		e := WaterfallEntry{Tier: i + 1, Role: t.role, Status: "not_matched"}
		if !res.Matched {
			e.Evaluated = true
			ids, err := s.Index.CompanyPeople(ctx, co.ID, t.q)
			if err != nil {
				return nil, err
			}
			e.ResultCount = len(ids)
			if len(ids) > 0 {
				ids = ids[:min(limit, len(ids))]
				matched := make(map[int64]bool, len(ids))
				for _, id := range ids {
					matched[id] = true
				}
				if res.Items, err = s.contacts(ctx, co, ids, matched); err != nil {
					return nil, err
				}
				e.Status, res.Matched = "matched", true
				res.MatchedTier, res.MatchedRole = &e.Tier, &t.role
			}
		}
		res.Waterfall = append(res.Waterfall, e)
	}
	return res, nil
}

// cascade validates the tiers, naming the first bad field.
func cascade(c *[]WaterfallTier) ([]tierQuery, error) {
	if c == nil {
		return nil, input.Errorf("cascade", "required: an array of 1 to %d tiers", maxTiers)
	}
	if len(*c) < 1 || len(*c) > maxTiers {
		return nil, input.Errorf("cascade", "must hold 1 to %d tiers", maxTiers)
	}
	out := make([]tierQuery, 0, len(*c))
	for i, t := range *c {
		field := func(name string) string { return fmt.Sprintf("cascade[%d].%s", i, name) }
		role := input.Str(t.Role)
		if role == "" {
			return nil, input.Errorf(field("role"), "required: a role label such as decision_maker")
		}
		if err := input.Len(field("role"), role, maxRoleLen); err != nil {
			return nil, err
		}
		var q prospector.PersonQuery
		var err error
		if q.Titles, err = input.List(field("include_titles"), t.IncludeTitles); err != nil {
			return nil, err
		}
		if len(q.Titles) == 0 {
			return nil, input.Errorf(field("include_titles"), "required: at least one title")
		}
		if q.ExcludeTitles, err = input.List(field("exclude_titles"), t.ExcludeTitles); err != nil {
			return nil, err
		}
		if q.Locations, err = input.Places(field("locations"), t.Locations); err != nil {
			return nil, err
		}
		out = append(out, tierQuery{role: role, q: q})
	}
	return out, nil
}
