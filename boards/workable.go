package boards

import (
	"context"
	"encoding/json"
	"net/url"
	"strings"

	"github.com/prospectorhq/prospector"
)

// workable reads the careers widget API: GET
// {base}/api/v1/widget/accounts/{subdomain}, the account's name and every
// published job. A job is known by its shortcode. An unknown account
// answers 404.
type workable struct{ r *Registry }

func (a *workable) Kind() string { return KindWorkable }

type workableAccount struct {
	Name string `json:"name"`
	Jobs []struct {
		Title         string `json:"title"`
		Shortcode     string `json:"shortcode"`
		Department    string `json:"department"`
		URL           string `json:"url"`
		Shortlink     string `json:"shortlink"`
		Telecommuting bool   `json:"telecommuting"`
		PublishedOn   string `json:"published_on"`
		CreatedAt     string `json:"created_at"`
		City          string `json:"city"`
		State         string `json:"state"`
		Country       string `json:"country"`
		Locations     []struct {
			City        string `json:"city"`
			Region      string `json:"region"`
			Country     string `json:"country"`
			CountryCode string `json:"countryCode"`
			Hidden      bool   `json:"hidden"`
		} `json:"locations"`
	} `json:"jobs"`
}

func (a *workable) List(ctx context.Context, f prospector.Fetcher, ref Ref, v Validators) (*Listing, error) {
	ref, err := checkRef(ref, KindWorkable)
	if err != nil {
		return nil, err
	}
	u := a.r.pathURL(ref, "/api/v1/widget/accounts/"+url.PathEscape(ref.Token))
	resp, err := get(ctx, f, ref, u, v, "application/json", false)
	if err != nil {
		return nil, err
	}
	l := &Listing{Ref: ref, Validators: nextValidators(resp, v), Requests: 1}
	if resp.NotModified {
		l.NotModified = true
		return l, nil
	}
	if l.Postings, l.Company, err = parseWorkable(ref, resp.Body); err != nil {
		return nil, err
	}
	return l, nil
}

func parseWorkable(ref Ref, body []byte) ([]Posting, string, error) {
	var doc workableAccount
	if err := json.Unmarshal(body, &doc); err != nil {
		return nil, "", malformed(ref, err)
	}
	c := newCollector(ref, len(doc.Jobs))
	for _, j := range doc.Jobs {
		city, state, country, code := j.City, j.State, j.Country, ""
		for _, loc := range j.Locations {
			if !loc.Hidden {
				city, state, country, code = loc.City, loc.Region, loc.Country, loc.CountryCode
				break
			}
		}
		if code == "" {
			code = country
		}
		posted := j.PublishedOn
		if posted == "" {
			posted = j.CreatedAt
		}
		link := j.URL
		if link == "" {
			link = j.Shortlink
		}
		c.add(Posting{
			ExternalID: j.Shortcode, Title: j.Title, Department: j.Department,
			Location: joinNonEmpty(city, state, country), URL: link, PostedAt: parseTime(posted),
		}, code, j.Telecommuting)
	}
	return c.out, strings.TrimSpace(doc.Name), nil
}
