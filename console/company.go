package console

import (
	"net/http"
	"strconv"

	"github.com/prospectorhq/prospector/contacts"
	"github.com/prospectorhq/prospector/signals"
	"github.com/prospectorhq/prospector/sources"
	"github.com/prospectorhq/prospector/wire"
)

// companyPeople is how many people a company page lists at a time.
const companyPeople = 25

type companyData struct {
	Company      *wire.Company
	People       *contacts.EmployeePage
	PrevPage     int
	Signals      []wire.Signal
	News         []wire.News
	Financing    []wire.Financing
	Openings     []sources.OpeningItem
	Technologies []sources.TechnologyItem
}

// company: GET /companies/{domain}, a company's profile, people and
// the timeline of what was seen about it, each item with its source.
func (c *Console) company(w http.ResponseWriter, r *http.Request) error {
	ctx, domain := r.Context(), r.PathValue("domain")
	co, err := c.flows.Signals.Profile(ctx, "company:"+domain)
	if err != nil {
		return err
	}
	d := &companyData{Company: co}
	n := companyPeople
	pageNo, _ := strconv.Atoi(r.URL.Query().Get("people_page"))
	pageNo = max(pageNo, 1)
	if d.People, err = c.flows.Contacts.EmployeeFinder(ctx, &contacts.EmployeeFinderRequest{
		CompanyDomain: &co.Domain, MaxResults: &n, Page: &pageNo}); err != nil {
		return err
	}
	d.PrevPage = pageNo - 1
	if d.Signals, err = c.flows.Signals.Company(ctx, "company:"+co.Domain); err != nil {
		return err
	}
	news, err := c.flows.Signals.News(ctx, signals.NewsRequest{CompanyDomain: co.Domain, Limit: "20"})
	if err != nil {
		return err
	}
	d.News = news.Items
	fin, err := c.flows.Signals.Financing(ctx, signals.FinancingRequest{CompanyDomain: co.Domain, Limit: "20"})
	if err != nil {
		return err
	}
	d.Financing = fin.Items
	jobs, err := c.flows.Sources.JobOpenings(ctx, sources.OpeningsRequest{CompanyDomain: co.Domain, Limit: "20"})
	if err != nil {
		return err
	}
	d.Openings = jobs.Items
	tech, err := c.flows.Sources.Technologies(ctx, co.Domain)
	if err != nil {
		return err
	}
	d.Technologies = tech.Items
	return c.render(w, r, http.StatusOK, "company", &page{Title: co.Name, Nav: "search", Data: d})
}
