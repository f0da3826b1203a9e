package console

import (
	"encoding/json"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/prospectorhq/prospector/account"
	"github.com/prospectorhq/prospector/discovery"
	"github.com/prospectorhq/prospector/wire"
)

// searchPageSize is how many results a search page shows.
const searchPageSize = 25

type searchData struct {
	Kind   string // companies or people
	Form   url.Values
	Values *account.FieldValues
	// Searched is false on the empty form: no filter given yet.
	Searched  bool
	Companies []wire.Company
	People    []wire.Person
	// Total is how many results match, over every page.
	Total int
	// From and To number the results shown (from 1); Next links to the
	// page after, First back to the first page ("" when there is none).
	From, To    int
	Next, First string
}

// Results is the total as words: "1 result", "12,345 results".
func (d *searchData) Results() string {
	digits := strconv.Itoa(d.Total)
	var b strings.Builder
	for i, r := range digits {
		if i > 0 && (len(digits)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(r)
	}
	if d.Total == 1 {
		return b.String() + " result"
	}
	return b.String() + " results"
}

// Count is how many results the page shows.
func (d *searchData) Count() int { return len(d.Companies) + len(d.People) }

// search: GET /search, people or companies with the filters of
// meta/field-values, a page at a time behind the workflow's cursors.
func (c *Console) search(w http.ResponseWriter, r *http.Request) error {
	q := r.URL.Query()
	d := &searchData{Kind: q.Get("kind"), Form: q, Values: c.flows.Account.FieldValues()}
	if d.Kind != "people" {
		d.Kind = "companies"
	}
	p := &page{Title: "Search", Nav: "search", Data: d}
	if !hasFilter(q) {
		return c.render(w, r, http.StatusOK, "search", p)
	}
	d.Searched = true
	limit := searchPageSize
	var cursor *string
	if v := q.Get("cursor"); v != "" {
		cursor = &v
	}
	start, _ := strconv.Atoi(q.Get("start"))
	start = max(start, 0)
	var pg discovery.Pagination
	if d.Kind == "companies" {
		req := &discovery.CompaniesRequest{Industry: opt(q.Get("industry")), EmployeeSize: opt(q.Get("employee_size")),
			Location: opt(q.Get("location")), Keywords: list(q.Get("keywords")), MaxResults: &limit, Cursor: cursor}
		res, err := c.flows.Discovery.Companies(r.Context(), req)
		if err != nil {
			return c.formError(w, r, "search", p, err)
		}
		d.Companies, pg = res.Items, res.Pagination
		if d.Total, err = c.flows.Discovery.CountCompanies(r.Context(), req); err != nil {
			return err
		}
	} else {
		req := &discovery.PeopleRequest{Titles: list(q.Get("titles")), Industry: opt(q.Get("industry")),
			Location: opt(q.Get("location")), CompanySize: opt(q.Get("employee_size")), MaxResults: &limit, Cursor: cursor}
		if lv, fn := q["job_level"], q["job_function"]; len(lv) > 0 || len(fn) > 0 {
			// People is an anonymous struct: made by decoding, then filled.
			_ = json.Unmarshal([]byte(`{"people":{}}`), req)
			req.People.JobLevel, req.People.JobFunction = nonEmpty(lv), nonEmpty(fn)
		}
		res, err := c.flows.Discovery.People(r.Context(), req)
		if err != nil {
			return c.formError(w, r, "search", p, err)
		}
		d.People, pg = res.Items, res.Pagination
		if d.Total, err = c.flows.Discovery.CountPeople(r.Context(), req); err != nil {
			return err
		}
	}
	d.From, d.To = start+1, start+d.Count()
	// The count is a second read of the index: rows synced in between
	// could make it fall short of what the pages already showed.
	d.Total = max(d.Total, d.To)
	if d.Count() == 0 {
		d.From = 0
	}
	if pg.HasMore && pg.NextCursor != nil {
		next := cloneValues(q)
		next.Set("cursor", *pg.NextCursor)
		next.Set("start", strconv.Itoa(start+d.Count()))
		d.Next = "/search?" + next.Encode()
	}
	if cursor != nil {
		first := cloneValues(q)
		first.Del("cursor")
		first.Del("start")
		d.First = "/search?" + first.Encode()
	}
	return c.render(w, r, http.StatusOK, "search", p)
}

// formError renders the page again with a validation error's message
// (naming the field, as the API's does) and its status; other errors go
// to the error page.
func (c *Console) formError(w http.ResponseWriter, r *http.Request, name string, p *page, err error) error {
	if s := statusOf(err); s == http.StatusBadRequest || s == http.StatusNotFound {
		p.Error = errMessage(err)
		return c.render(w, r, s, name, p)
	}
	return err
}

var searchFilters = []string{"industry", "employee_size", "location", "keywords", "titles", "job_level", "job_function"}

func hasFilter(q url.Values) bool {
	for _, f := range searchFilters {
		for _, v := range q[f] {
			if strings.TrimSpace(v) != "" {
				return true
			}
		}
	}
	return false
}

// opt is a form value as an optional field: nil when blank.
func opt(v string) *string {
	v = strings.TrimSpace(v)
	if v == "" {
		return nil
	}
	return &v
}

// list splits a form's comma- or line-separated values.
func list(v string) []string {
	var out []string
	for _, f := range strings.FieldsFunc(v, func(r rune) bool { return r == ',' || r == '\n' || r == '\r' }) {
		if f = strings.TrimSpace(f); f != "" {
			out = append(out, f)
		}
	}
	return out
}

func nonEmpty(vs []string) []string {
	var out []string
	for _, v := range vs {
		if v = strings.TrimSpace(v); v != "" {
			out = append(out, v)
		}
	}
	return out
}

func cloneValues(q url.Values) url.Values {
	out := url.Values{}
	for k, v := range q {
		out[k] = append([]string(nil), v...)
	}
	return out
}
