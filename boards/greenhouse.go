package boards

import (
	"context"
	"encoding/json"
	"net/url"
	"strconv"
	"strings"

	"github.com/prospectorhq/prospector"
	"github.com/prospectorhq/prospector/taxonomy"
)

// greenhouse reads the Job Board API: GET {base}/v1/boards/{token}/jobs
// ?content=true (content=true is what adds departments and offices; it
// also adds each description, which is not kept). Jobs carry company_name;
// when none does (an empty board) the name comes from GET
// {base}/v1/boards/{token}. An unknown board answers 404.
type greenhouse struct{ r *Registry }

func (a *greenhouse) Kind() string { return KindGreenhouse }

type greenhouseJobs struct {
	Jobs []struct {
		ID       int64  `json:"id"`
		Title    string `json:"title"`
		Updated  string `json:"updated_at"`
		First    string `json:"first_published"`
		Company  string `json:"company_name"`
		URL      string `json:"absolute_url"`
		Location struct {
			Name string `json:"name"`
		} `json:"location"`
		Departments []struct {
			Name string `json:"name"`
		} `json:"departments"`
		Offices []struct {
			Name     string `json:"name"`
			Location string `json:"location"`
		} `json:"offices"`
	} `json:"jobs"`
}

func (a *greenhouse) List(ctx context.Context, f prospector.Fetcher, ref Ref, v Validators) (*Listing, error) {
	ref, err := checkRef(ref, KindGreenhouse)
	if err != nil {
		return nil, err
	}
	jobsURL := a.r.pathURL(ref, "/v1/boards/"+url.PathEscape(ref.Token)+"/jobs?content=true")
	resp, err := get(ctx, f, ref, jobsURL, v, "application/json", false)
	if err != nil {
		return nil, err
	}
	l := &Listing{Ref: ref, Validators: nextValidators(resp, v), Requests: 1}
	if resp.NotModified {
		l.NotModified = true
		return l, nil
	}
	postings, company, err := parseGreenhouse(ref, resp.Body)
	if err != nil {
		return nil, err
	}
	l.Postings, l.Company = postings, company
	if company == "" {
		// The board's own name; a failure here leaves Company empty rather
		// than losing the postings.
		l.Requests++
		if name, err := a.boardName(ctx, f, ref); err == nil {
			l.Company = name
		}
	}
	return l, nil
}

func (a *greenhouse) boardName(ctx context.Context, f prospector.Fetcher, ref Ref) (string, error) {
	resp, err := get(ctx, f, ref, a.r.pathURL(ref, "/v1/boards/"+url.PathEscape(ref.Token)), Validators{}, "application/json", false)
	if err != nil {
		return "", err
	}
	var board struct {
		Name string `json:"name"`
	}
	if err := json.Unmarshal(resp.Body, &board); err != nil {
		return "", malformed(ref, err)
	}
	return strings.TrimSpace(board.Name), nil
}

// parseGreenhouse reads a jobs answer: the postings and the company name
// the first job carrying one gives.
func parseGreenhouse(ref Ref, body []byte) ([]Posting, string, error) {
	var doc greenhouseJobs
	if err := json.Unmarshal(body, &doc); err != nil {
		return nil, "", malformed(ref, err)
	}
	c := newCollector(ref, len(doc.Jobs))
	company := ""
	for _, j := range doc.Jobs {
		if company == "" {
			company = strings.TrimSpace(j.Company)
		}
		p := Posting{
			Title: j.Title, URL: j.URL, Location: j.Location.Name,
			PostedAt: parseTime(j.First), UpdatedAt: parseTime(j.Updated),
		}
		if j.ID != 0 {
			p.ExternalID = strconv.FormatInt(j.ID, 10)
		}
		for _, d := range j.Departments {
			if p.Department = strings.TrimSpace(d.Name); p.Department != "" {
				break
			}
		}
		// The offices say where when the location text does not: their
		// locations are full ("New York, NY, United States").
		var offices []string
		remote := false
		for _, o := range j.Offices {
			offices = append(offices, o.Location)
			remote = remote || RemoteText(o.Name) || RemoteText(o.Location)
		}
		if p.Location == "" && len(j.Offices) > 0 {
			p.Location = joinNonEmpty(j.Offices[0].Location, j.Offices[0].Name)
		}
		country := ""
		if _, ok := taxonomy.LocationCountry(p.Location); !ok && len(offices) > 0 {
			country, _ = taxonomy.LocationCountry(strings.Join(offices, "; "))
		}
		c.add(p, country, remote)
	}
	return c.out, company, nil
}
