package demo

import (
	"strings"

	"github.com/prospectorhq/prospector"
)

const (
	newsLaunches = iota
	newsPartners
	newsIntegrates
	newsHires
	newsExpands
	newsAward
	newsHeadcount
	newsAcquires
	newsPublic
)

var newsCategories = []string{"launches", "partners_with", "integrates_with", "hires", "expands_offices_to",
	"receives_award", "increases_headcount_by", "acquires", "goes_public"}

var (
	newsWeights      = newWeights(25, 18, 14, 14, 8, 8, 7, 4, 0)
	newsWeightsLarge = newWeights(25, 18, 14, 14, 8, 8, 7, 6, 2)
)

// newsEvents returns 0 to 3 news events, 1.5 on average.
func (g *generator) newsEvents(p *plan) []*prospector.NewsEvent {
	n := g.r.IntN(4)
	out := make([]*prospector.NewsEvent, n)
	for i := range out {
		out[i] = g.newsEvent(p)
	}
	return out
}

func (g *generator) newsEvent(p *plan) *prospector.NewsEvent {
	r := g.r
	g.newsSeq++
	w := newsWeights
	if p.size >= 1000 {
		w = newsWeightsLarge
	}
	cat := w.pick(r)
	e := &prospector.NewsEvent{
		ExternalID:    "demo-news-" + itoa(g.newsSeq),
		CompanyID:     *p.id,
		CompanyDomain: p.c.Domain,
		EventType:     "news_event",
		Categories:    []string{newsCategories[cat]},
		FoundAt:       recent(r, g.now),
	}
	if chance(r, 0.9) {
		e.EffectiveDate = day(e.FoundAt.AddDate(0, 0, -r.IntN(14)))
	}
	a := &e.Attributes
	a.Confidence = ptr(round2(0.5 + 0.5*r.Float64()))
	name := p.c.Name
	speaker := pick(r, firstNames).display + " " + pick(r, lastNames).display
	speakerTitle := pick(r, leaderRoles)
	var summary, quote string
	switch cat {
	case newsLaunches:
		product := p.brand + " " + pick(r, productWords)
		release := pick(r, productReleases)
		full := product
		if release == "new version" {
			v := itoa(between(r, 2, 6)) + ".0"
			full += " " + v
			a.ProductData.ReleaseVersion = ptr(v)
		}
		a.Product = ptr(full)
		a.ProductData.FullText = ptr(full)
		a.ProductData.Name = ptr(product)
		a.ProductData.ReleaseType = ptr(release)
		a.ProductData.FuzzyMatch = ptr(false)
		a.ProductTags = g.keywords(p.industry)[:2]
		summary = name + " launches " + full + " to extend its " + bare(pick(r, p.industry.products)) +
			" for " + pick(r, p.industry.audiences) + "."
		quote = full + " is the biggest release in our history"
	case newsIntegrates:
		v := pick(r, vendors)
		a.Product = ptr(v.name)
		a.ProductData.FullText = ptr(v.name + " " + v.category + " integration")
		a.ProductData.Name = ptr(v.name)
		a.ProductData.FuzzyMatch = ptr(chance(r, 0.3))
		a.ProductTags = []string{strings.ToLower(v.category)}
		summary = name + " integrates with " + v.name + " so customers can sync their " + v.category + " data."
		quote = "Our customers asked for a native " + v.name + " integration, and now they have one"
	case newsPartners:
		partner := randomCompanyName(r)
		summary = name + " partners with " + partner + " to bring " + bare(pick(r, p.industry.products)) +
			" to " + pick(r, p.industry.audiences) + "."
		quote = "Together with " + partner + " we can reach far more customers"
	case newsHires:
		job := pick(r, leaderRoles)
		a.JobTitle = ptr(job)
		a.JobTitleTags = titleTags(job)
		if chance(r, 0.7) {
			a.Contact = ptr(speaker)
			summary = name + " hires " + speaker + " as " + job + "."
			quote = "I joined " + name + " because the market is ready for what we build"
			speakerTitle = job
		} else {
			summary = name + " appoints a new " + job + "."
			quote = "Strengthening our leadership team is a priority this year"
		}
	case newsExpands:
		pl := randomPlace(r)
		a.Location = ptr(pl.label())
		ld := prospector.LocationData{City: ptr(pl.city.name), Country: ptr(pl.country.name), CountryCode: ptr(pl.country.code)}
		if pl.city.region != "" {
			ld.State = ptr(pl.city.region)
		}
		a.LocationData = []prospector.LocationData{ld}
		summary = name + " opens a new office in " + pl.city.name + "."
		quote = pl.city.name + " gives us access to great talent and customers"
	case newsAward:
		award := pick(r, awards)
		pub := pick(r, publishers)
		a.Award = ptr(award)
		a.Recognition = ptr(pub + " " + itoa(e.FoundAt.Year()) + " " + award)
		summary = name + " is recognized in " + pub + "'s " + itoa(e.FoundAt.Year()) + " " + award + "."
		quote = "This recognition belongs to our whole team"
	case newsHeadcount:
		n := int64(between(r, 10, int(max(20, min(p.size/5, 2000)))))
		a.Headcount = ptr(n)
		summary = name + " plans to add " + itoa(int(n)) + " jobs in " + p.c.City + " over the next year."
		quote = "We are hiring across every team"
	case newsAcquires:
		target := randomCompanyName(r)
		summary = name + " acquires " + target + ", a " + randomPlace(r).city.name + "-based startup."
		quote = target + " brings a team and technology we have admired for years"
	case newsPublic:
		summary = name + " files for an initial public offering."
		quote = "Going public is a milestone for our customers and employees"
	}
	if a.Contact == nil && chance(r, 0.15) {
		a.Contact = ptr(speaker)
	}
	a.Summary = ptr(summary)
	a.ArticleSentence = ptr("\"" + quote + ",\" said " + speaker + ", " + speakerTitle + " at " + name + ".")
	a.Normalize()
	return e
}

// bare drops a leading article: "a CRM" is "CRM".
func bare(s string) string {
	s = strings.TrimPrefix(s, "a ")
	return strings.TrimPrefix(s, "an ")
}

// titleTags are a title's lowercase words without the small ones:
// "VP of Sales" is [vp sales].
func titleTags(t string) []string {
	var out []string
	for _, w := range strings.Fields(strings.ToLower(t)) {
		if w != "of" && w != "and" && w != "&" {
			out = append(out, w)
		}
	}
	return out
}
