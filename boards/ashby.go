package boards

import (
	"context"
	"encoding/json"
	"net/url"

	"github.com/prospectorhq/prospector"
)

// ashby reads the public Job Postings API: GET
// {base}/posting-api/job-board/{name}, every published job in one answer
// under "jobs". Unlisted jobs (isListed false) are reachable only by their
// link and are left out. An unknown board answers 404. The API names no
// company.
type ashby struct{ r *Registry }

func (a *ashby) Kind() string { return KindAshby }

type ashbyJobs struct {
	Jobs []struct {
		ID         string `json:"id"`
		Title      string `json:"title"`
		Location   string `json:"location"`
		Department string `json:"department"`
		Team       string `json:"team"`
		IsListed   *bool  `json:"isListed"`
		IsRemote   bool   `json:"isRemote"`
		Workplace  string `json:"workplaceType"`
		Published  string `json:"publishedAt"`
		Updated    string `json:"updatedAt"`
		JobURL     string `json:"jobUrl"`
		Address    struct {
			Postal struct {
				Country string `json:"addressCountry"`
			} `json:"postalAddress"`
		} `json:"address"`
	} `json:"jobs"`
}

func (a *ashby) List(ctx context.Context, f prospector.Fetcher, ref Ref, v Validators) (*Listing, error) {
	ref, err := checkRef(ref, KindAshby)
	if err != nil {
		return nil, err
	}
	u := a.r.pathURL(ref, "/posting-api/job-board/"+url.PathEscape(ref.Token))
	resp, err := get(ctx, f, ref, u, v, "application/json", false)
	if err != nil {
		return nil, err
	}
	l := &Listing{Ref: ref, Validators: nextValidators(resp, v), Requests: 1}
	if resp.NotModified {
		l.NotModified = true
		return l, nil
	}
	if l.Postings, err = parseAshby(ref, resp.Body); err != nil {
		return nil, err
	}
	return l, nil
}

func parseAshby(ref Ref, body []byte) ([]Posting, error) {
	var doc ashbyJobs
	if err := json.Unmarshal(body, &doc); err != nil {
		return nil, malformed(ref, err)
	}
	c := newCollector(ref, len(doc.Jobs))
	for _, j := range doc.Jobs {
		if j.IsListed != nil && !*j.IsListed {
			continue
		}
		dept := j.Department
		if dept == "" {
			dept = j.Team
		}
		c.add(Posting{
			ExternalID: j.ID, Title: j.Title, Department: dept, Location: j.Location, URL: j.JobURL,
			PostedAt: parseTime(j.Published), UpdatedAt: parseTime(j.Updated),
		}, j.Address.Postal.Country, j.IsRemote || j.Workplace == "Remote")
	}
	return c.out, nil
}
