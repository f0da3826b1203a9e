package boards

import (
	"context"
	"encoding/json"
	"net/url"

	"github.com/prospectorhq/prospector"
)

// lever reads the Postings API: GET {base}/v0/postings/{site}?mode=json,
// a JSON array of every published posting (no limit given, so no paging).
// Lever runs a global and an EU instance that know different sites: a ref
// without a region is asked on the global one first and, when that does
// not know the site, on the EU one; the Listing's Ref then says RegionEU.
// The API names no company.
type lever struct{ r *Registry }

func (a *lever) Kind() string { return KindLever }

type leverPosting struct {
	ID         string `json:"id"`
	Text       string `json:"text"`
	Country    string `json:"country"`
	HostedURL  string `json:"hostedUrl"`
	CreatedAt  int64  `json:"createdAt"`
	UpdatedAt  int64  `json:"updatedAt"`
	Workplace  string `json:"workplaceType"`
	Categories struct {
		Location   string `json:"location"`
		Department string `json:"department"`
		Team       string `json:"team"`
	} `json:"categories"`
}

func (a *lever) List(ctx context.Context, f prospector.Fetcher, ref Ref, v Validators) (*Listing, error) {
	ref, err := checkRef(ref, KindLever, RegionEU)
	if err != nil {
		return nil, err
	}
	return listEitherHost(ctx, f, ref, v, RegionEU, a.list)
}

func (a *lever) list(ctx context.Context, f prospector.Fetcher, ref Ref, v Validators) (*Listing, error) {
	u := a.r.pathURL(ref, "/v0/postings/"+url.PathEscape(ref.Token)+"?mode=json")
	resp, err := get(ctx, f, ref, u, v, "application/json", false)
	if err != nil {
		return nil, err
	}
	l := &Listing{Ref: ref, Validators: nextValidators(resp, v), Requests: 1}
	if resp.NotModified {
		l.NotModified = true
		return l, nil
	}
	l.Postings, err = parseLever(ref, resp.Body)
	if err != nil {
		return nil, err
	}
	return l, nil
}

func parseLever(ref Ref, body []byte) ([]Posting, error) {
	var doc []leverPosting
	if err := json.Unmarshal(body, &doc); err != nil {
		return nil, malformed(ref, err)
	}
	c := newCollector(ref, len(doc))
	for _, j := range doc {
		dept := j.Categories.Department
		if dept == "" {
			dept = j.Categories.Team
		}
		c.add(Posting{
			ExternalID: j.ID, Title: j.Text, Department: dept, Location: j.Categories.Location,
			URL: j.HostedURL, PostedAt: unixMillis(j.CreatedAt), UpdatedAt: unixMillis(j.UpdatedAt),
		}, j.Country, j.Workplace == "remote")
	}
	return c.out, nil
}
