package boards

import (
	"context"
	"encoding/json"
	"strconv"
	"strings"

	"github.com/prospectorhq/prospector"
)

// recruitee reads the careers site API: GET
// https://{company}.recruitee.com/api/offers/, every published offer under
// "offers", each naming the company. An unknown company answers 404.
type recruitee struct{ r *Registry }

func (a *recruitee) Kind() string { return KindRecruitee }

type recruiteeOffers struct {
	Offers []struct {
		ID          int64  `json:"id"`
		Title       string `json:"title"`
		Department  string `json:"department"`
		Location    string `json:"location"`
		City        string `json:"city"`
		State       string `json:"state_name"`
		Country     string `json:"country"`
		CountryCode string `json:"country_code"`
		Remote      bool   `json:"remote"`
		CareersURL  string `json:"careers_url"`
		PublishedAt string `json:"published_at"`
		CreatedAt   string `json:"created_at"`
		UpdatedAt   string `json:"updated_at"`
		Company     string `json:"company_name"`
	} `json:"offers"`
}

func (a *recruitee) List(ctx context.Context, f prospector.Fetcher, ref Ref, v Validators) (*Listing, error) {
	ref, err := checkRef(ref, KindRecruitee)
	if err != nil {
		return nil, err
	}
	resp, err := get(ctx, f, ref, a.r.hostURL(ref)+"/api/offers/", v, "application/json", false)
	if err != nil {
		return nil, err
	}
	l := &Listing{Ref: ref, Validators: nextValidators(resp, v), Requests: 1}
	if resp.NotModified {
		l.NotModified = true
		return l, nil
	}
	if l.Postings, l.Company, err = parseRecruitee(ref, resp.Body); err != nil {
		return nil, err
	}
	return l, nil
}

func parseRecruitee(ref Ref, body []byte) ([]Posting, string, error) {
	var doc recruiteeOffers
	if err := json.Unmarshal(body, &doc); err != nil {
		return nil, "", malformed(ref, err)
	}
	c := newCollector(ref, len(doc.Offers))
	company := ""
	for _, o := range doc.Offers {
		if company == "" {
			company = strings.TrimSpace(o.Company)
		}
		loc := o.Location
		if loc == "" {
			loc = joinNonEmpty(o.City, o.State, o.Country)
		}
		posted := o.PublishedAt
		if posted == "" {
			posted = o.CreatedAt
		}
		p := Posting{
			Title: o.Title, Department: o.Department, Location: loc, URL: o.CareersURL,
			PostedAt: parseTime(posted), UpdatedAt: parseTime(o.UpdatedAt),
		}
		if o.ID != 0 {
			p.ExternalID = strconv.FormatInt(o.ID, 10)
		}
		country := o.CountryCode
		if country == "" {
			country = o.Country
		}
		c.add(p, country, o.Remote)
	}
	return c.out, company, nil
}
