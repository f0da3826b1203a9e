package boardtest

import (
	"encoding/json"
	"encoding/xml"
	"fmt"
	"html"
	"math/rand/v2"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// Job is a posting to add to a board, in no vendor's format; the server
// writes it in the board's.
type Job struct {
	ID          string // the vendor id; "" takes the server's next one
	Title       string
	Department  string
	Location    string
	CountryCode string // ISO alpha-2, for the formats with a structured country
	Remote      bool
	PostedAt    time.Time // zero: 2026-10-01
	// Description is the posting's text, paragraphs separated by blank
	// lines; empty writes a one-line stub.
	Description string
}

type personioPosition struct {
	XMLName    xml.Name `xml:"position"`
	ID         string   `xml:"id"`
	Subcompany string   `xml:"subcompany,omitempty"`
	Office     string   `xml:"office"`
	Additional []string `xml:"additionalOffices>office,omitempty"`
	Department string   `xml:"department"`
	Category   string   `xml:"recruitingCategory,omitempty"`
	Name       string   `xml:"name"`
	Desc       struct {
		Inner string `xml:",innerxml"`
	} `xml:"jobDescriptions"`
	EmploymentType string `xml:"employmentType"`
	Seniority      string `xml:"seniority,omitempty"`
	Schedule       string `xml:"schedule"`
	Years          string `xml:"yearsOfExperience,omitempty"`
	Keywords       string `xml:"keywords,omitempty"`
	Occupation     string `xml:"occupation,omitempty"`
	OccupationCat  string `xml:"occupationCategory,omitempty"`
	CreatedAt      string `xml:"createdAt"`
}

// item writes j as a posting of board b in its vendor's format; j.ID must
// be set.
func (k *kind) item(b *board, j Job) []byte {
	posted := j.PostedAt
	if posted.IsZero() {
		posted = time.Date(2026, 10, 1, 9, 0, 0, 0, time.UTC)
	}
	tok := url.PathEscape(b.token)
	desc, plain := "<p>Generated posting for tests.</p>", "Generated posting for tests."
	if j.Description != "" {
		plain = j.Description
		desc = "<p>" + strings.ReplaceAll(html.EscapeString(j.Description), "\n\n", "</p><p>") + "</p>"
	}
	var v any
	switch k.name {
	case "greenhouse":
		id, _ := strconv.ParseInt(j.ID, 10, 64)
		v = map[string]any{
			"id": id, "internal_job_id": id + 1, "title": j.Title, "updated_at": posted.Format(time.RFC3339),
			"first_published": posted.Format(time.RFC3339), "requisition_id": "", "company_name": b.company,
			"location": map[string]any{"name": j.Location}, "metadata": nil, "data_compliance": []any{},
			"absolute_url": "https://boards.greenhouse.io/" + tok + "/jobs/" + j.ID, "content": html.EscapeString(desc),
			"departments": []any{map[string]any{"id": 1, "name": j.Department, "child_ids": []any{}, "parent_id": nil}},
			"offices":     []any{},
		}
	case "lever":
		workplace := "on-site"
		if j.Remote {
			workplace = "remote"
		}
		host := "jobs.lever.co"
		if b.endpoint == "lever-eu" {
			host = "jobs.eu.lever.co"
		}
		var country any
		if j.CountryCode != "" {
			country = j.CountryCode
		}
		v = map[string]any{
			"id": j.ID, "text": j.Title, "country": country, "workplaceType": workplace, "createdAt": posted.UnixMilli(),
			"categories":  map[string]any{"location": j.Location, "department": j.Department, "team": j.Department, "commitment": "Full-time"},
			"description": desc, "descriptionPlain": plain, "lists": []any{},
			"hostedUrl": "https://" + host + "/" + tok + "/" + j.ID, "applyUrl": "https://" + host + "/" + tok + "/" + j.ID + "/apply",
		}
	case "ashby":
		workplace := "OnSite"
		if j.Remote {
			workplace = "Remote"
		}
		v = map[string]any{
			"id": j.ID, "title": j.Title, "department": j.Department, "team": j.Department, "employmentType": "FullTime",
			"location": j.Location, "secondaryLocations": []any{}, "publishedAt": posted.Format("2006-01-02T15:04:05.000+00:00"),
			"isListed": true, "isRemote": j.Remote, "workplaceType": workplace,
			"address":         map[string]any{"postalAddress": map[string]any{"addressCountry": j.CountryCode}},
			"jobUrl":          "https://jobs.ashbyhq.com/" + tok + "/" + j.ID,
			"applyUrl":        "https://jobs.ashbyhq.com/" + tok + "/" + j.ID + "/application",
			"descriptionHtml": desc, "descriptionPlain": plain,
		}
	case "workable":
		v = map[string]any{
			"title": j.Title, "shortcode": j.ID, "code": "", "employment_type": "Full-time", "telecommuting": j.Remote,
			"department": j.Department, "url": "https://apply.workable.com/j/" + j.ID, "shortlink": "https://apply.workable.com/j/" + j.ID,
			"application_url": "https://apply.workable.com/j/" + j.ID + "/apply", "published_on": posted.Format("2006-01-02"),
			"created_at": posted.Format("2006-01-02"), "city": j.Location, "state": "", "country": "",
			"locations": []any{map[string]any{"city": j.Location, "region": "", "country": "", "countryCode": j.CountryCode, "hidden": false}},
		}
	case "smartrecruiters":
		v = map[string]any{
			"id": j.ID, "name": j.Title, "uuid": j.ID, "refNumber": "REF" + j.ID,
			"company":      map[string]any{"identifier": b.token, "name": b.company},
			"releasedDate": posted.Format("2006-01-02T15:04:05.000Z"),
			"location":     map[string]any{"city": j.Location, "country": strings.ToLower(j.CountryCode), "remote": j.Remote, "fullLocation": j.Location},
			"department":   map[string]any{"id": "1", "label": j.Department},
			"visibility":   "PUBLIC", "ref": "https://api.smartrecruiters.com/v1/companies/" + tok + "/postings/" + j.ID,
		}
	case "recruitee":
		id, _ := strconv.ParseInt(j.ID, 10, 64)
		slug := strings.ToLower(strings.Join(strings.Fields(j.Title), "-"))
		v = map[string]any{
			"id": id, "slug": slug, "title": j.Title, "status": "published", "department": j.Department,
			"location": j.Location, "country_code": j.CountryCode, "remote": j.Remote, "hybrid": false, "on_site": !j.Remote,
			"careers_url": "https://" + b.token + ".recruitee.com/o/" + slug, "company_name": b.company,
			"published_at": posted.UTC().Format("2006-01-02 15:04:05 UTC"), "created_at": posted.UTC().Format("2006-01-02 15:04:05 UTC"),
			"description": desc,
		}
	case "personio":
		p := personioPosition{ID: j.ID, Office: j.Location, Department: j.Department, Name: j.Title,
			EmploymentType: "permanent", Schedule: "full-time", CreatedAt: posted.Format(time.RFC3339)}
		p.Desc.Inner = "<jobDescription><name>Your tasks</name><value><![CDATA[" + desc + "]]></value></jobDescription>"
		out, _ := xml.Marshal(p)
		return out
	}
	out, _ := json.Marshal(v)
	return out
}

// newID returns the next id in the kind's style: numbers for Greenhouse,
// SmartRecruiters, Recruitee and Personio, UUID-like strings for Lever and
// Ashby, ten-character shortcodes for Workable.
func (k *kind) newID(n uint64) string {
	switch k.name {
	case "lever", "ashby":
		return fmt.Sprintf("%08x-%04x-4%03x-8%03x-%012x", n, n&0xffff, n&0xfff, (n>>12)&0xfff, n*2654435761)
	case "workable":
		return fmt.Sprintf("%010X", n*2654435761%0xffffffffff)
	}
	return strconv.FormatUint(n, 10)
}

// GenerateJobs returns n generated postings, the same for the same seed:
// B2B titles (a seniority and a role), departments, and locations across
// a dozen countries, some remote. IDs are left for the server to pick.
func GenerateJobs(n int, seed uint64) []Job {
	rng := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	seniority := []string{"", "Senior ", "Staff ", "Lead ", "Principal ", "Junior ", "Head of ", "Director of "}
	roles := []struct{ title, dept string }{
		{"Backend Engineer", "Engineering"}, {"Frontend Engineer", "Engineering"}, {"Data Engineer", "Engineering"},
		{"Account Executive", "Sales"}, {"Sales Development Representative", "Sales"}, {"Product Manager", "Product"},
		{"Product Designer", "Design"}, {"Marketing Manager", "Marketing"}, {"Content Strategist", "Marketing"},
		{"Customer Success Manager", "Customer Success"}, {"Support Specialist", "Customer Success"},
		{"Financial Analyst", "Finance"}, {"Recruiter", "People"}, {"Operations Analyst", "Operations"},
		{"Solutions Engineer", "Sales"}, {"Security Engineer", "Engineering"},
	}
	places := []struct {
		loc, code string
		remote    bool
	}{
		{"San Francisco, CA", "US", false}, {"New York, NY", "US", false}, {"Remote - US", "US", true},
		{"Berlin, Germany", "DE", false}, {"London, United Kingdom", "GB", false}, {"Toronto, ON", "CA", false},
		{"Amsterdam, Netherlands", "NL", false}, {"Paris, France", "FR", false}, {"Remote", "", true},
		{"Sydney, NSW", "AU", false}, {"Bengaluru, India", "IN", false}, {"Madrid, Spain", "ES", false},
		{"Singapore", "SG", false}, {"Remote - Germany", "DE", true},
	}
	jobs := make([]Job, n)
	base := time.Date(2026, 9, 1, 9, 0, 0, 0, time.UTC)
	for i := range jobs {
		role := roles[rng.IntN(len(roles))]
		place := places[rng.IntN(len(places))]
		title := seniority[rng.IntN(len(seniority))]
		if strings.HasSuffix(title, " of ") {
			title += role.dept // "Head of Sales", not "Head of Account Executive"
		} else {
			title += role.title
		}
		jobs[i] = Job{
			Title: title, Department: role.dept, Location: place.loc, CountryCode: place.code, Remote: place.remote,
			PostedAt: base.Add(time.Duration(rng.IntN(60*24)) * time.Hour),
		}
	}
	return jobs
}

// GenerateDescription returns about size bytes of a posting's text from
// seed: paragraphs of sentences such as real postings carry (what the
// role is, what the team does, requirements, benefits), in words drawn
// from a fixed list.
func GenerateDescription(size int, seed uint64) string {
	rng := rand.New(rand.NewPCG(seed, seed^0x2545f4914f6cdd1d))
	openers := []string{"You will", "In this role you will", "Our team will count on you to", "Together with us you will",
		"We are looking for someone to", "As part of the team you will"}
	verbs := []string{"build", "own", "shape", "improve", "scale", "design", "lead", "support", "measure", "ship"}
	objects := []string{"the customer onboarding experience", "our data platform", "pipeline reviews with account teams",
		"the roadmap for reporting", "integrations with partner systems", "a culture of written decisions",
		"the tools our support team relies on", "quarterly planning across regions", "pricing experiments",
		"hiring for a growing team"}
	tails := []string{"with a small, senior team.", "across three time zones.", "from the first draft to production.",
		"with a focus on what customers notice.", "alongside product and engineering.", "in a remote-first company."}
	var b strings.Builder
	for b.Len() < size {
		if b.Len() > 0 {
			b.WriteString("\n\n")
		}
		for range 3 + rng.IntN(3) {
			if b.Len() > 0 && !strings.HasSuffix(b.String(), "\n\n") {
				b.WriteByte(' ')
			}
			b.WriteString(openers[rng.IntN(len(openers))] + " " + verbs[rng.IntN(len(verbs))] + " " +
				objects[rng.IntN(len(objects))] + " " + tails[rng.IntN(len(tails))])
		}
	}
	return b.String()
}
