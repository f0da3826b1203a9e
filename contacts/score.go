package contacts

import (
	"context"
	"fmt"
	"math"
	"time"

	"github.com/prospectorhq/prospector"
	"github.com/prospectorhq/prospector/taxonomy"
	"github.com/prospectorhq/prospector/wire"
)

// seniorityScore is the base of a contact's score by job level: how
// likely the person decides on a purchase (docs/decisions.md).
var seniorityScore = map[string]float64{
	"Founder": 90, "CXO": 85, "VP": 75, "Director": 65, "Head": 60, "Manager": 45, "IC": 30,
}

// contactScore is 0..100: the seniority base (20 for an unknown level)
// plus 10 when the title matches a title the caller asked for.
func contactScore(p *prospector.Person, titleMatch bool) float64 {
	s, ok := seniorityScore[p.JobLevel]
	if !ok {
		s = 20
	}
	if titleMatch {
		s += 10
	}
	return math.Min(s, 100)
}

// contacts turns person ids into Contact items in the ids' order. The
// ids in matched get the title-match bonus.
func (s *Service) contacts(ctx context.Context, co *prospector.Company, ids []int64, matched map[int64]bool) ([]wire.Contact, error) {
	out := make([]wire.Contact, 0, len(ids))
	if len(ids) == 0 {
		return out, nil
	}
	rows, err := s.Store.PeopleByID(ctx, ids)
	if err != nil {
		return nil, fmt.Errorf("contacts: read people: %w", err)
	}
	byID := make(map[int64]*prospector.Person, len(rows))
	for _, p := range rows {
		byID[p.ID] = p
	}
	hook, err := s.companyHook(ctx, co)
	if err != nil {
		return nil, err
	}
	for _, id := range ids {
		p := byID[id]
		if p == nil {
			continue // deleted since the index saw it
		}
		company := p.CompanyName
		if company == "" {
			company = co.Name
		}
		role := taxonomy.RoleOf(p.JobLevel)
		score := contactScore(p, matched[id])
		out = append(out, wire.Contact{
			ID: p.PublicID(), Name: p.FullName, Title: p.Title, Company: company, Role: role,
			NetworkURL: wire.OrNull(p.NetworkURL), Email: wire.OrNull(p.Email),
			Location: wire.OrNull(wire.Place(p.City, p.Region, p.CountryCode)), Score: &score,
			OutreachAngle: outreachAngle(hook, role, p.JobFunction),
		})
	}
	return out, nil
}

// recentWindow is how far back a company event still makes a good
// opening line.
const recentWindow = 90 * 24 * time.Hour

// companyHook is the opening of every outreach angle at the company: its
// freshest funding, hiring, news or technology signal of the last 90
// days, or "" when there is none.
func (s *Service) companyHook(ctx context.Context, co *prospector.Company) (string, error) {
	// The newest event of each kind is read and its age checked here: a
	// time bound in the query would cost more than the row.
	since := s.now().Add(-recentWindow)
	fin, err := s.Store.FinancingEvents(ctx, prospector.EventFilter{CompanyID: co.ID, Limit: 1})
	if err != nil {
		return "", fmt.Errorf("contacts: read financing events: %w", err)
	}
	if len(fin) > 0 && fin[0].FoundAt.After(since) {
		e := fin[0]
		what := e.FinancingType
		if what == "" {
			what = "a financing round"
		}
		if e.Amount != "" {
			what += " of " + e.Amount
		}
		return fmt.Sprintf("%s just raised %s, so budgets are being set now", co.Name, what), nil
	}
	// Newest first, from the search index: the read reaches past the
	// window for any company but the noisiest, whose older triggers
	// matter least.
	sigs, err := s.Catalog.CompanySignals(ctx, []int64{co.ID}, 50)
	if err != nil {
		return "", fmt.Errorf("contacts: read signals: %w", err)
	}
	best := map[string]*prospector.Signal{}
	for _, sg := range sigs {
		if sg.DetectedAt.After(since) && best[sg.Type] == nil {
			best[sg.Type] = sg
		}
	}
	if sg := best["funding_announcement"]; sg != nil {
		return fmt.Sprintf("%s announced funding (%s), so budgets are being set now", co.Name, sg.Title), nil
	}
	if sg := best["company_hiring"]; sg != nil {
		return fmt.Sprintf("%s is hiring (%s), so the team is growing and processes are changing", co.Name, sg.Title), nil
	}
	news, err := s.Store.NewsEvents(ctx, prospector.EventFilter{CompanyID: co.ID, Limit: 1})
	if err != nil {
		return "", fmt.Errorf("contacts: read news events: %w", err)
	}
	if len(news) > 0 && news[0].FoundAt.After(since) {
		what := news[0].EventType
		if sum := news[0].Attributes.Summary; sum != nil && *sum != "" {
			what = *sum
		}
		return fmt.Sprintf("%s was in the news (%s), a timely reason to reach out", co.Name, what), nil
	}
	if sg := best["tech_changes"]; sg != nil {
		return fmt.Sprintf("%s changed its stack (%s), so tooling is being reconsidered", co.Name, sg.Title), nil
	}
	return "", nil
}

// functionValue is what a person of each job function cares about.
var functionValue = map[string]string{
	"Sales":            "more qualified pipeline for the sales team",
	"Marketing":        "turning campaign spend into pipeline",
	"Growth":           "finding and scaling the next growth channel",
	"Revenue":          "a more predictable revenue forecast",
	"Operations":       "taking manual work out of operations",
	"RevOps":           "clean go-to-market data and fewer tools to glue together",
	"Product":          "shipping what customers ask for sooner",
	"Engineering":      "saving engineering time on undifferentiated work",
	"People":           "hiring and keeping great people",
	"Finance":          "lower cost and a sharper forecast",
	"Customer Success": "less churn and more expansion revenue",
	"Partnerships":     "opening a partner channel that sells",
}

// outreachAngle suggests how to open with one contact: the company's
// trigger (or none), what the person's function cares about, and an ask
// that fits their role (docs/decisions.md).
func outreachAngle(hook, role, function string) string {
	value, ok := functionValue[function]
	if !ok {
		value = "a problem their team already has"
	}
	ask := "offer a short, useful resource and ask who owns the decision"
	if role == taxonomy.RoleDecisionMaker {
		ask = "lead with the business case and ask for a 15-minute call"
	}
	if hook == "" {
		return fmt.Sprintf("No recent trigger: open with %s; %s.", value, ask)
	}
	return fmt.Sprintf("%s: tie it to %s; %s.", hook, value, ask)
}
