package demo

import (
	"math/rand/v2"
	"strings"

	"github.com/prospectorhq/prospector"
)

const (
	sigKeywordPost = iota
	sigKeywordComment
	sigCompetitor
	sigInfluencer
	sigRecommendation
	sigJobChange
	sigEventRSVP
)

var personSignalTypes = []string{"keyword_post", "keyword_comment", "competitor_engagement",
	"influencer_engagement", "asking_for_recommendations", "job_change", "event_rsvp"}

var personSignalWeights = newWeights(25, 20, 12, 12, 8, 13, 10)

// scoreRanges are the [lo, hi] scores of each signal type.
var scoreRanges = map[string][2]float64{
	"keyword_post": {35, 85}, "keyword_comment": {30, 75}, "competitor_engagement": {55, 90},
	"influencer_engagement": {25, 70}, "asking_for_recommendations": {70, 98}, "job_change": {60, 92},
	"event_rsvp": {30, 75}, "company_hiring": {40, 85}, "funding_announcement": {60, 95}, "tech_changes": {35, 80},
}

// newSignal numbers a signal and gives it a time and a score.
func (g *generator) newSignal(typ string, companyID *int64, domain string) *prospector.Signal {
	r := g.r
	g.signalSeq++
	sr := scoreRanges[typ]
	return &prospector.Signal{
		ExternalID:    "demo-signal-" + itoa(g.signalSeq),
		Type:          typ,
		CompanyID:     companyID,
		CompanyDomain: domain,
		DetectedAt:    recent(r, g.now),
		Score:         ptr(round1(sr[0] + r.Float64()*(sr[1]-sr[0]))),
	}
}

// personSignals gives about a quarter of the people one or two signals.
func (g *generator) personSignals(per *prospector.Person) {
	n := 0
	switch x := g.r.Float64(); {
	case x < 0.17:
		n = 1
	case x < 0.21:
		n = 2
	}
	for range n {
		g.signals = append(g.signals, g.personSignal(per))
	}
}

func (g *generator) personSignal(per *prospector.Person) *prospector.Signal {
	r := g.r
	kind := personSignalWeights.pick(r)
	s := g.newSignal(personSignalTypes[kind], per.CompanyID, per.CompanyDomain)
	s.PersonID = ptr(per.ID)
	s.PersonKey = per.NaturalKey()
	post := "https://news.example/posts/" + hex8(scramble(uint32(g.signalSeq)^g.salt^0x5f3759df))
	switch kind {
	case sigKeywordPost:
		topic := pick(r, topics)
		s.Title = "Posted about " + topic
		s.Detail = "Post on the professional network about " + topic + " drew " + itoa(between(r, 5, 400)) +
			" reactions and " + itoa(between(r, 0, 60)) + " comments."
		s.SourceURL = post
	case sigKeywordComment:
		topic := pick(r, topics)
		s.Title = "Commented on a post about " + topic
		t := anyTitle(r)
		s.Detail = "Replied in a thread started by " + article(t) + " " + t + " at " + randomCompanyName(r) + "."
		s.SourceURL = post + "#comment-" + itoa(between(r, 1, 80))
	case sigCompetitor:
		v := pick(r, vendors)
		s.Title = "Engaged with a post from " + v.name
		s.Detail = "Liked and commented on " + v.name + "'s post about its " + v.category + " roadmap."
		s.SourceURL = post
	case sigInfluencer:
		f, l := pick(r, firstNames), pick(r, lastNames)
		topic := pick(r, topics)
		s.Title = "Engaged with " + f.display + " " + l.display + "'s post on " + topic
		s.Detail = f.display + " " + l.display + ", " + pick(r, influencerRoles) + " followed by " +
			itoa(between(r, 5, 250)) + "K people, posted about " + topic + "; " + per.FirstName + " reacted and replied."
		s.SourceURL = post
	case sigRecommendation:
		ask := pick(r, recommendationAsks)
		s.Title = "Asked for recommendations for " + ask
		s.Detail = "Public post asking peers to recommend " + ask + " received " + itoa(between(r, 2, 90)) + " replies."
		s.SourceURL = post
	case sigJobChange:
		s.Title = "Started as " + per.Title + " at " + per.CompanyName
		years := between(r, 1, 9)
		s.Detail = "Previously " + anyTitle(r) + " at " + randomCompanyName(r) + " for " + itoa(years) + plural(years, " year", " years") + "."
		s.SourceURL = "https://news.example/people/" + hex8(scramble(uint32(g.signalSeq)^g.salt))
	case sigEventRSVP:
		name := pick(r, eventThemes) + " " + pick(r, eventKinds) + " " + itoa(s.DetectedAt.Year()+r.IntN(2))
		where := randomPlace(r).city.name
		s.Title = "RSVP'd to " + name + " in " + where
		s.Detail = "Registered as an attendee; the event takes place on " +
			s.DetectedAt.AddDate(0, 0, between(r, 7, 60)).Format("January 2, 2006") + "."
		s.SourceURL = "https://news.example/events/" + foldSlug(name+" "+where)
	}
	return s
}

var influencerRoles = []string{"a sales leader", "a RevOps advisor", "a growth marketer", "a founder and podcast host",
	"a customer success coach", "a B2B newsletter author"}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// randomCompanyName is a plausible other employer, not necessarily one
// generated.
func randomCompanyName(r *rand.Rand) string {
	ind := &industries[industryWeights.pick(r)]
	return pick(r, brandHeads) + pick(r, brandTails) + " " + pick(r, ind.nouns)
}

// companySignals adds hiring and technology signals; funding signals
// come with the financing events.
func (g *generator) companySignals(p *plan) {
	r := g.r
	n := []int{0, 1, 2, 3}[signalCountWeights.pick(r)]
	for range n {
		if chance(r, 0.6) {
			g.signals = append(g.signals, g.hiringSignal(p))
		} else {
			g.signals = append(g.signals, g.techSignal(p))
		}
	}
}

// signalCountWeights averages 1.7 hiring and technology signals a company.
var signalCountWeights = newWeights(12, 30, 36, 22)

func (g *generator) hiringSignal(p *plan) *prospector.Signal {
	r := g.r
	s := g.newSignal("company_hiring", p.id, p.c.Domain)
	where := p.c.City
	n := 1
	var job string
	if chance(r, 0.25) {
		job = pick(r, leaderRoles)
		s.Title = "Hiring " + article(job) + " " + job + " in " + where
	} else {
		role := pick(r, hiringRoles)
		n = 1 + int(float64(min(p.size, 2000))/400*r.Float64()) + r.IntN(3)
		job = role.many
		if n == 1 {
			job = article(role.one) + " " + role.one
			s.Title = "Hiring " + job + " in " + where
		} else {
			s.Title = "Hiring " + itoa(n) + " " + job + " in " + where
		}
	}
	s.Detail = itoa(n) + plural(n, " opening", " openings") + " posted on the careers page at " + p.c.Domain +
		" in the last 30 days; " + itoa(n+r.IntN(int(min(p.size/10, 200))+1)) + " open roles in total."
	s.SourceURL = "https://news.example/jobs/" + p.label + "-" + hex8(scramble(uint32(g.signalSeq)^g.salt))
	return s
}

func (g *generator) techSignal(p *plan) *prospector.Signal {
	r := g.r
	s := g.newSignal("tech_changes", p.id, p.c.Domain)
	var what string
	switch r.IntN(4) {
	case 0:
		what = pick(r, technologies)
		s.Title = "Adopted " + what
		s.Detail = "Job postings and engineering blog posts from " + p.c.Name + " mention " + what + " in production."
	case 1:
		from, to := pick(r, vendors), pick(r, vendors)
		if from == to {
			to = vendors[(indexOf(vendors, from)+1)%len(vendors)]
		}
		what = to.name
		s.Title = "Migrated from " + from.name + " to " + to.name
		s.Detail = "Site scripts on " + p.c.Domain + " show " + to.name + " replacing " + from.name + "."
	case 2:
		v := pick(r, vendors)
		what = v.name
		s.Title = "Started using " + v.name
		s.Detail = "Detected " + v.name + " (" + v.category + ") on " + p.c.Domain + "."
	default:
		v := pick(r, vendors)
		what = v.name
		s.Title = "Dropped " + v.name
		s.Detail = v.name + " (" + v.category + ") is no longer detected on " + p.c.Domain + "."
	}
	s.SourceURL = "https://news.example/tech/" + p.label + "/" + foldSlug(what)
	return s
}

func indexOf(vs []vendor, v vendor) int {
	for i, x := range vs {
		if x == v {
			return i
		}
	}
	return 0
}

// fundingSignal announces a financing event.
func (g *generator) fundingSignal(p *plan, e *prospector.FinancingEvent) *prospector.Signal {
	s := g.newSignal("funding_announcement", p.id, p.c.Domain)
	s.DetectedAt = e.FoundAt
	round := e.FinancingType
	if round == "Seed" {
		round = "Seed round"
	}
	switch {
	case e.FinancingType == "Debt Financing" && e.Amount == "":
		s.Title = "Secured debt financing (amount undisclosed)"
	case e.FinancingType == "Debt Financing":
		s.Title = "Secured " + e.Amount + " in debt financing"
	case e.FinancingType == "Grant" && e.Amount == "":
		s.Title = "Received a grant (amount undisclosed)"
	case e.FinancingType == "Grant":
		s.Title = "Received a " + e.Amount + " grant"
	case e.Amount == "":
		s.Title = "Raised a " + round + " (amount undisclosed)"
	default:
		s.Title = "Raised a " + e.Amount + " " + round
	}
	names := make([]string, len(e.Investors))
	for i, inv := range e.Investors {
		names[i] = inv.Name
	}
	s.Detail = "Led by " + names[0]
	if len(names) > 1 {
		s.Detail += " with participation from " + strings.Join(names[1:], ", ")
	}
	s.Detail += "; reported by " + pick(g.r, publishers) + "."
	s.SourceURL = e.SourceURLs[0]
	return s
}
