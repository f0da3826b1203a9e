package radar

import (
	"math"
	"time"

	"github.com/prospectorhq/prospector"
	"github.com/prospectorhq/prospector/taxonomy"
)

// The score of a signal for a lead, 0 to 100, is the sum of four
// components (docs/scoring.md):
//
//	signal type  0-35  how strongly the type says "buying now" (typeWeights)
//	recency      0-25  25 halved every 30 days since the signal was detected
//	title fit    0-25  seniority (0-10) + 15 when the title matches the radar's
//	                   titles (or, with no titles, the person decides budgets)
//	company fit  0-15  5 each for a known industry in the radar's industries,
//	                   a known headcount in its size range and a known
//	                   country in its geos (any industry or geo when the
//	                   radar names none)
const (
	maxRecency   = 25.0
	halfLifeDays = 30.0
	titleMatch   = 15.0
	fitPart      = 5.0
)

// typeWeights rank the types by how directly they signal intent: asking
// peers for a recommendation or raising money precede a purchase; a
// technology change or an event RSVP only hint at one.
var typeWeights = map[string]float64{
	"asking_for_recommendations": 35,
	"funding_announcement":       35,
	"company_hiring":             30,
	"job_change":                 30,
	"competitor_engagement":      30,
	"keyword_post":               25,
	"keyword_comment":            20,
	"influencer_engagement":      20,
	"event_rsvp":                 20,
	"tech_changes":               20,
}

// seniority is the first part of the title fit, by job level.
var seniority = map[string]float64{
	"Founder": 10, "CXO": 10, "VP": 9, "Director": 8, "Head": 7, "Manager": 5, "IC": 3,
}

// recency is maxRecency halved every halfLifeDays of age; a signal
// dated in the future counts as new.
func recency(detected, now time.Time) float64 {
	age := now.Sub(detected).Hours() / 24
	if age < 0 {
		age = 0
	}
	return maxRecency * math.Pow(0.5, age/halfLifeDays)
}

// round1 rounds to one decimal, so scores read cleanly and compare
// exactly across engines.
func round1(f float64) float64 { return math.Round(f*10) / 10 }

// scoreMatch scores signal s for person p found by radar m at company co
// (nil when unknown).
func scoreMatch(m *matcher, s *sigInfo, p *personInfo, co *companyInfo, now time.Time) prospector.ScoreBreakdown {
	b := prospector.ScoreBreakdown{Type: s.Type, SignalID: s.ID}
	b.SignalType = typeWeights[s.Type]
	b.Recency = round1(recency(s.DetectedAt, now))
	level := taxonomy.ParseTitle(p.card.Title).Level
	b.TitleFit = seniority[level]
	if len(m.titles) > 0 && anyIn(m.titles, p.titleWords) ||
		len(m.titles) == 0 && taxonomy.RoleOf(level) == taxonomy.RoleDecisionMaker {
		b.TitleFit += titleMatch
	}
	if co != nil {
		if co.industry != "" && (len(m.industries) == 0 || m.industries[co.industry]) {
			b.CompanyFit += fitPart
		}
		if lo, hi, ok := co.size(); ok && lo >= m.sizeMin && hi <= m.sizeMax {
			b.CompanyFit += fitPart
		}
	}
	if p.card.CountryCode != "" && (len(m.places) == 0 || m.inPlaces(p)) {
		b.CompanyFit += fitPart
	}
	b.Total = round1(min(100, b.SignalType+b.Recency+b.TitleFit+b.CompanyFit))
	return b
}
