package demo

import (
	"math"
	"strconv"
	"strings"

	"github.com/prospectorhq/prospector"
)

// round is a kind of financing with its usual size in USD.
type round struct {
	name, normalized, category string
	lo, hi                     float64
}

var rounds = []round{
	{"Seed", "seed", "venture", 0.5e6, 4e6},
	{"Series A", "series_a", "venture", 5e6, 20e6},
	{"Series B", "series_b", "venture", 15e6, 60e6},
	{"Series C", "series_c", "venture", 40e6, 150e6},
	{"Debt Financing", "debt_financing", "other", 5e6, 100e6},
	{"Grant", "grant", "other", 0.1e6, 2e6},
}

var (
	roundsSmall = newWeights(60, 25, 0, 0, 0, 15)
	roundsMid   = newWeights(10, 30, 35, 10, 10, 5)
	roundsLarge = newWeights(0, 5, 15, 30, 50, 0)
)

// usdPer is the USD value of one unit of a currency.
var usdPer = map[string]float64{"$": 1, "€": 1.08, "£": 1.27}

// financings returns a company's funding rounds: about one company in
// three, younger ones more often.
func (g *generator) financings(p *plan) []*prospector.FinancingEvent {
	r := g.r
	age := baseYear - p.founded
	prob := 0.12
	switch {
	case age <= 5:
		prob = 0.5
	case age <= 12:
		prob = 0.3
	}
	if !chance(r, prob) {
		return nil
	}
	n := 1
	if chance(r, 0.1) {
		n = 2
	}
	out := make([]*prospector.FinancingEvent, n)
	for i := range out {
		out[i] = g.financing(p)
	}
	return out
}

func (g *generator) financing(p *plan) *prospector.FinancingEvent {
	r := g.r
	g.financingSeq++
	w := roundsLarge
	switch {
	case p.size <= 50:
		w = roundsSmall
	case p.size <= 500:
		w = roundsMid
	}
	rd := rounds[w.pick(r)]
	e := &prospector.FinancingEvent{
		ExternalID:              "demo-financing-" + itoa(g.financingSeq),
		CompanyID:               *p.id,
		CompanyDomain:           p.c.Domain,
		EventType:               "financing_event",
		Categories:              []string{rd.category},
		FinancingType:           rd.name,
		FinancingTypeNormalized: rd.normalized,
		FoundAt:                 recent(r, g.now),
	}
	if chance(r, 0.9) {
		e.EffectiveDate = day(e.FoundAt.AddDate(0, 0, -r.IntN(10)))
	}
	slug := rd.normalized
	if chance(r, 0.9) {
		cur := p.place.country.currency
		usd := math.Exp(math.Log(rd.lo) + r.Float64()*(math.Log(rd.hi)-math.Log(rd.lo)))
		local := significant(usd/usdPer[cur], 2)
		e.Amount = formatAmount(cur, local)
		e.AmountNormalized = ptr(math.Round(local * usdPer[cur]))
		slug = foldSlug(e.Amount) + "-" + slug
	}
	e.SourceURLs = []string{"https://news.example/articles/" + p.label + "-raises-" + strings.ReplaceAll(slug, "_", "-")}
	if chance(r, 0.5) {
		e.SourceURLs = append(e.SourceURLs, "https://news.example/funding/"+hex8(scramble(uint32(g.financingSeq)^g.salt)))
	}
	e.Investors = g.investors()
	return e
}

// formatAmount is "$12M", "€4.5M" or "£800K".
func formatAmount(cur string, v float64) string {
	if v >= 1e6 {
		return cur + strconv.FormatFloat(math.Round(v/1e5)/10, 'f', -1, 64) + "M"
	}
	return cur + strconv.FormatFloat(math.Round(v/1e3), 'f', -1, 64) + "K"
}

var investorCountWeights = newWeights(30, 35, 25, 10)

// investors picks 1 to 4 distinct funds. A few hundred funds are
// prolific, so the same names recur across rounds.
func (g *generator) investors() []prospector.Investor {
	r := g.r
	n := 1 + investorCountWeights.pick(r)
	out := make([]prospector.Investor, 0, n)
	for try := 0; len(out) < n && try < 20; try++ {
		inv := investor(int(math.Pow(r.Float64(), 2.5) * 600))
		dup := false
		for _, o := range out {
			dup = dup || o.ID == inv.ID
		}
		if !dup {
			out = append(out, inv)
		}
	}
	return out
}

// investor is fund j of a virtual pool, spread over the name tables by
// a bijection mod the pool size.
func investor(j int) prospector.Investor {
	size := len(investorFirst) * len(investorSecond) * len(investorKind)
	m := (j*7919 + 13) % size
	first := investorFirst[m%len(investorFirst)]
	second := investorSecond[m/len(investorFirst)%len(investorSecond)]
	kind := investorKind[m/(len(investorFirst)*len(investorSecond))]
	name := first + " " + second + " " + kind
	if strings.Contains(first, " ") || m/len(investorFirst)%len(investorSecond) < 3 {
		name = first + " " + kind
	}
	slug := foldSlug(name)
	return prospector.Investor{ID: "investor-" + slug, Name: name, Domain: ptr(slug + ".example")}
}
