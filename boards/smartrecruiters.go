package boards

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"strings"

	"github.com/prospectorhq/prospector"
)

// smartRecruiters reads the Posting API: GET
// {base}/v1/companies/{id}/postings?offset=N&limit=100, page after page
// until totalFound postings are read (at most srMaxPages pages). Postings
// carry the company's name. The list gives no public link, so the
// posting's URL is built as jobs.smartrecruiters.com/{id}/{postingId}, the
// vendor's public page. The real API answers an unknown company with an
// empty list, so such a board reads as empty, not as not found.
//
// Only the first page is asked conditionally, and validators are handed on
// only for a board that fits in one page: an edit on a later page would
// not change the first one.
type smartRecruiters struct{ r *Registry }

const (
	srPageSize = 100
	srMaxPages = 100
)

func (a *smartRecruiters) Kind() string { return KindSmartRecruiters }

type srPage struct {
	Offset     int `json:"offset"`
	Limit      int `json:"limit"`
	TotalFound int `json:"totalFound"`
	Content    []struct {
		ID       string `json:"id"`
		Name     string `json:"name"`
		Released string `json:"releasedDate"`
		Company  struct {
			Identifier string `json:"identifier"`
			Name       string `json:"name"`
		} `json:"company"`
		Location struct {
			City         string `json:"city"`
			Region       string `json:"region"`
			Country      string `json:"country"`
			Remote       bool   `json:"remote"`
			FullLocation string `json:"fullLocation"`
		} `json:"location"`
		Department struct {
			Label string `json:"label"`
		} `json:"department"`
	} `json:"content"`
}

func (a *smartRecruiters) List(ctx context.Context, f prospector.Fetcher, ref Ref, v Validators) (*Listing, error) {
	ref, err := checkRef(ref, KindSmartRecruiters)
	if err != nil {
		return nil, err
	}
	l := &Listing{Ref: ref}
	c := newCollector(ref, srPageSize)
	total := 0
	for page, offset := 0, 0; page < srMaxPages; page++ {
		u := a.r.pathURL(ref, fmt.Sprintf("/v1/companies/%s/postings?offset=%d&limit=%d", url.PathEscape(ref.Token), offset, srPageSize))
		sent := Validators{}
		if page == 0 {
			sent = v
		}
		resp, err := get(ctx, f, ref, u, sent, "application/json", false)
		if err != nil {
			return nil, err
		}
		l.Requests++
		if page == 0 {
			l.Validators = nextValidators(resp, v)
			if resp.NotModified {
				l.NotModified = true
				return l, nil
			}
		}
		n, company, err := parseSmartRecruitersPage(ref, resp.Body, c, &total)
		if err != nil {
			return nil, err
		}
		if l.Company == "" {
			l.Company = company
		}
		offset += n
		if n == 0 || offset >= total {
			break
		}
	}
	if total > srPageSize {
		l.Validators = Validators{}
	}
	l.Postings = c.out
	return l, nil
}

// parseSmartRecruitersPage adds one page's postings to c and returns how
// many the page held, and the company name. total is set from the page.
func parseSmartRecruitersPage(ref Ref, body []byte, c *collector, total *int) (int, string, error) {
	var doc srPage
	if err := json.Unmarshal(body, &doc); err != nil {
		return 0, "", malformed(ref, err)
	}
	*total = doc.TotalFound
	company := ""
	for _, j := range doc.Content {
		if company == "" {
			company = strings.TrimSpace(j.Company.Name)
		}
		id := j.Company.Identifier
		if id == "" {
			id = ref.Token
		}
		loc := j.Location.FullLocation
		if loc == "" {
			loc = joinNonEmpty(j.Location.City, j.Location.Region, countryName(j.Location.Country))
		}
		link := ""
		if j.ID != "" {
			link = "https://jobs.smartrecruiters.com/" + url.PathEscape(id) + "/" + url.PathEscape(j.ID)
		}
		c.add(Posting{
			ExternalID: j.ID, Title: j.Name, Department: j.Department.Label, Location: loc,
			URL: link, PostedAt: parseTime(j.Released),
		}, j.Location.Country, j.Location.Remote)
	}
	return len(doc.Content), company, nil
}
