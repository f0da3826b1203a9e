package demo

import (
	"math"
	"math/rand/v2"
	"strings"

	"github.com/prospectorhq/prospector"
	"github.com/prospectorhq/prospector/email"
)

// plan is one company of the current chunk with what its people, signals
// and events are generated from.
type plan struct {
	c        *prospector.Company
	id       *int64 // the ID the sink filled, shared by every reference
	people   int
	size     int64
	founded  int
	industry *industry
	place    place
	brand    string
	label    string // the domain without ".example"
	pattern  email.Pattern
}

// sampleSize draws a log-normal headcount in [2, 50000] from the sizes
// stream; its median is about 40.
func sampleSize(s *rand.Rand) int64 {
	x := math.Round(math.Exp(3.7 + 1.7*s.NormFloat64()))
	return int64(min(max(x, 2), 50_000))
}

// peopleWeight is a company's share of the people: sub-linear in
// headcount so that small companies still get a founder or two.
func peopleWeight(size int64) float64 { return math.Pow(float64(size), 0.6) }

// assign gives the next company its people: the running total follows
// the cumulative weight, so exactly cfg.People are handed out and the
// last company takes the rounding rest.
func (g *generator) assign(size int64) int {
	g.cumWeight += peopleWeight(size)
	g.companySeq++
	target := g.cfg.People
	if g.companySeq < g.cfg.Companies && g.totalWeight > 0 {
		target = min(int(math.Floor(float64(g.cfg.People)*g.cumWeight/g.totalWeight+0.5)), g.cfg.People)
	}
	n := max(target-g.assigned, 0)
	g.assigned += n
	return n
}

var rangeBounds = []int64{10, 50, 200, 500, 1000, 5000, 10000}
var rangeLabels = []string{"1-10", "11-50", "51-200", "201-500", "501-1000", "1001-5000", "5001-10000", "10001+"}

// employeeRange is the taxonomy bucket of a headcount.
func employeeRange(n int64) string {
	for i, b := range rangeBounds {
		if n <= b {
			return rangeLabels[i]
		}
	}
	return rangeLabels[len(rangeLabels)-1]
}

// baseYear is the latest founding year.
const baseYear = 2024

// company fills p with the next company: its headcount from the sizes
// stream (raised when the weights hand it more people than that), its
// people count, and everything else from the main stream. Domains are
// unique: the nth company to draw a (brand, noun) pair gets "-n".
func (g *generator) company(p *plan) {
	r := g.r
	size := sampleSize(g.sizes)
	p.people = g.assign(size)
	if int64(p.people) > size {
		size = int64(p.people) + r.Int64N(int64(p.people)/5+1)
	}
	p.size = size

	ii := industryWeights.pick(r)
	p.industry = &industries[ii]
	ni := r.IntN(len(p.industry.nouns))
	h, t := r.IntN(len(brandHeads)), r.IntN(len(brandTails))
	noun := p.industry.nouns[ni]
	p.brand = brandHeads[h] + brandTails[t]
	p.label = strings.ToLower(p.brand) + "-" + strings.ToLower(noun)
	key := (h*len(brandTails)+t)*len(nouns) + nounIndex[ii][ni]
	g.domainUses[key]++
	if n := g.domainUses[key]; n > 1 {
		p.label += "-" + itoa(int(n))
	}

	country := randomCountry(r)
	p.place = place{country, country.randomCity(r)}
	name := p.brand + " " + noun
	if len(country.legal) > 0 && chance(r, 0.2) {
		name += " " + pick(r, country.legal)
	}

	maxAge := 6 + 10*math.Log10(float64(size))
	p.founded = max(baseYear-int(math.Pow(r.Float64(), 1.3)*maxAge), 1950)

	c := &prospector.Company{
		Name:          name,
		Domain:        p.label + ".example",
		Industry:      p.industry.label,
		City:          p.place.city.name,
		Region:        p.place.city.region,
		CountryCode:   country.code,
		EmployeeCount: ptr(size),
		EmployeeRange: employeeRange(size),
		Founded:       ptr(int64(p.founded)),
	}
	c.Website = "https://www." + c.Domain
	c.Description = g.description(p, name)
	c.Keywords = g.companyKeywords(p)
	if !chance(r, 0.2) {
		rev := significant(float64(size)*p.industry.revenue*math.Exp(0.5*r.NormFloat64()), 2)
		c.RevenueUSD = ptr(int64(math.Round(rev)))
	}
	if chance(r, 0.9) {
		c.NetworkURL = "https://network.example/company/" + p.label
	}
	if size >= 1000 && chance(r, 0.7) { // the public ones, about 2%
		c.Ticker = strings.ToUpper(brandHeads[h][:1] + brandTails[t][:1] + noun[:1] + brandHeads[h][1:2])
	}
	p.pattern = g.emailPattern(size)
	p.c = c
}

var describeVerbs = []string{"builds", "provides", "offers", "develops", "delivers"}

func (g *generator) description(p *plan, name string) string {
	r := g.r
	ind := p.industry
	s := name + " " + pick(r, describeVerbs) + " " + pick(r, ind.products) + " for " + pick(r, ind.audiences) + "."
	if chance(r, 0.6) {
		s += " Founded in " + itoa(p.founded) + " and based in " + p.place.city.name +
			", it serves customers across " + market(p.place.country.code) + "."
	}
	return s
}

func market(code string) string {
	switch code {
	case "US", "CA":
		return "North America"
	case "MX", "BR":
		return "Latin America"
	case "SG", "AU", "IN", "ID", "JP":
		return "Asia-Pacific"
	case "AE", "IL":
		return "the Middle East and Europe"
	default:
		return "Europe"
	}
}

// keywords picks 3 to 8 distinct keywords of the industry.
func (g *generator) keywords(ind *industry) []string {
	r := g.r
	n := min(between(r, 3, 8), len(ind.keywords))
	var idx [16]int
	for i := range ind.keywords {
		idx[i] = i
	}
	out := make([]string, n, n+1)
	for i := range n {
		j := i + r.IntN(len(ind.keywords)-i)
		idx[i], idx[j] = idx[j], idx[i]
		out[i] = ind.keywords[idx[i]]
	}
	return out
}

// companyKeywords adds a market keyword to the industry's.
func (g *generator) companyKeywords(p *plan) []string {
	kw := g.keywords(p.industry)
	switch {
	case len(kw) == 8:
	case p.size <= 50 && chance(g.r, 0.4):
		kw = append(kw, "smb")
	case p.size >= 1000 && chance(g.r, 0.6):
		kw = append(kw, "enterprise")
	case chance(g.r, 0.2):
		kw = append(kw, "b2b")
	}
	return kw
}
