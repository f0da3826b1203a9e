package sources

import (
	"context"
	"errors"
	"time"

	"github.com/prospectorhq/prospector"
)

// ReadStore is what the read side of the sources needs.
type ReadStore interface {
	CompanyByDomain(ctx context.Context, domain string) (*prospector.Company, error)
	JobOpenings(ctx context.Context, f prospector.JobOpeningFilter) ([]*prospector.JobOpening, error)
	Technologies(ctx context.Context, companyID int64, all bool) ([]*prospector.Technology, error)
}

// Reader answers what the sources found, for the API (GET
// /signals/job-openings and /signals/technologies) and any other front
// end: it checks a request given as text, reads, and returns the
// answer's shape (docs/decisions.md, "Sources").
type Reader struct {
	Store ReadStore
}

// Bounds of a job openings request: those of the contract's event
// endpoints.
const (
	MaxOpeningsLimit     = 50
	DefaultOpeningsLimit = 10
	MaxOpeningsPage      = 10000
)

// OpeningsRequest asks for a page of a company's job openings; every
// field is the text of a query parameter ("" when absent).
type OpeningsRequest struct {
	CompanyDomain string `json:"company_domain"`
	ActiveOnly    string `json:"active_only"` // "true" or "false"
	Since         string `json:"since"`       // YYYY-MM-DD (UTC) or RFC 3339: first seen at or after
	Page          string `json:"page"`
	Limit         string `json:"limit"`
}

// TechnologiesRequest names the company whose technologies to read.
type TechnologiesRequest struct {
	CompanyDomain string `json:"company_domain"`
}

// OpeningsPage is a page of a company's job openings, newest first.
type OpeningsPage struct {
	CompanyDomain string        `json:"company_domain"`
	Type          string        `json:"type"` // "job_openings"
	Count         int           `json:"count"`
	Items         []OpeningItem `json:"items"`
}

// TechnologiesPage is the technologies a company's website uses now.
type TechnologiesPage struct {
	CompanyDomain string           `json:"company_domain"`
	Type          string           `json:"type"` // "technologies"
	Count         int              `json:"count"`
	Items         []TechnologyItem `json:"items"`
}

// JobOpenings returns a page of the openings of the company req names.
// It returns an EINVALID naming the parameter when one is malformed or
// out of bounds (all are checked before the company is looked up), and
// an ENOTFOUND when the data holds no such company.
func (rd *Reader) JobOpenings(ctx context.Context, req OpeningsRequest) (*OpeningsPage, error) {
	domain, err := companyDomain(req.CompanyDomain)
	if err != nil {
		return nil, err
	}
	f := prospector.JobOpeningFilter{}
	if f.ActiveOnly, err = boolean("active_only", req.ActiveOnly); err != nil {
		return nil, err
	}
	if f.Since, err = since("since", req.Since); err != nil {
		return nil, err
	}
	page, err := integer("page", req.Page, 1, MaxOpeningsPage, 1)
	if err != nil {
		return nil, err
	}
	if f.Limit, err = integer("limit", req.Limit, 1, MaxOpeningsLimit, DefaultOpeningsLimit); err != nil {
		return nil, err
	}
	f.Offset = (page - 1) * f.Limit
	co, err := rd.company(ctx, domain)
	if err != nil {
		return nil, err
	}
	f.CompanyID = co.ID
	os, err := rd.Store.JobOpenings(ctx, f)
	if err != nil {
		return nil, err
	}
	out := &OpeningsPage{CompanyDomain: co.Domain, Type: "job_openings", Count: len(os), Items: make([]OpeningItem, 0, len(os))}
	for _, o := range os {
		out.Items = append(out.Items, NewOpeningItem(co.Domain, o))
	}
	return out, nil
}

// Technologies returns the technologies a company's website uses now
// (active: detected in two crawls in a row and not removed since), by
// name. It returns an EINVALID naming company_domain when it is missing
// or malformed, and an ENOTFOUND when the data holds no such company.
func (rd *Reader) Technologies(ctx context.Context, companyDomainParam string) (*TechnologiesPage, error) {
	domain, err := companyDomain(companyDomainParam)
	if err != nil {
		return nil, err
	}
	co, err := rd.company(ctx, domain)
	if err != nil {
		return nil, err
	}
	ts, err := rd.Store.Technologies(ctx, co.ID, false)
	if err != nil {
		return nil, err
	}
	out := &TechnologiesPage{CompanyDomain: co.Domain, Type: "technologies", Count: len(ts), Items: make([]TechnologyItem, 0, len(ts))}
	for _, t := range ts {
		out.Items = append(out.Items, NewTechnologyItem(t))
	}
	return out, nil
}

func (rd *Reader) company(ctx context.Context, domain string) (*prospector.Company, error) {
	co, err := rd.Store.CompanyByDomain(ctx, domain)
	if errors.Is(err, prospector.ErrNotFound) {
		return nil, prospector.Errorf(prospector.ENOTFOUND, "company data unavailable for company_domain %s", domain)
	}
	return co, err
}

// timestampLayout is the API's time format: UTC, milliseconds.
const timestampLayout = "2006-01-02T15:04:05.000Z"

func stamp(t time.Time) string { return t.UTC().Format(timestampLayout) }

func stampPtr(t *time.Time) *string {
	if t == nil {
		return nil
	}
	s := stamp(*t)
	return &s
}

func orNull(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}
