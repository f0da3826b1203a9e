package demo

import (
	"math/rand/v2"

	"github.com/prospectorhq/prospector"
	"github.com/prospectorhq/prospector/email"
)

// demoPatterns are the address patterns companies use, in the order of
// the weights: every company uses one for all its known addresses.
var demoPatterns = []email.Pattern{email.FirstDotLast, email.FLast, email.First, email.FirstL,
	email.FirstUnderLast, email.LastF, email.FDotLast}

var (
	patternWeights      = newWeights(40, 20, 10, 8, 7, 5, 10)
	patternWeightsLarge = newWeights(40, 20, 0, 8, 7, 5, 10) // "first" only fits small teams
)

func (g *generator) emailPattern(size int64) email.Pattern {
	if size <= 50 {
		return demoPatterns[patternWeights.pick(g.r)]
	}
	return demoPatterns[patternWeightsLarge.pick(g.r)]
}

// emailSlots is the size of the table that keeps a company's known
// addresses unique: a stamp per hash slot, so it is never cleared. A
// slot already stamped (a namesake or a hash collision) leaves the
// address unknown.
const emailSlots = 1 << 17

func (g *generator) person(p *plan, k int) *prospector.Person {
	r := g.r
	g.personSeq++
	first, last := pick(r, firstNames), pick(r, lastNames)
	per := &prospector.Person{
		ExternalID:    "demo-person-" + itoa(g.personSeq),
		FullName:      first.display + " " + last.display,
		FirstName:     first.display,
		LastName:      last.display,
		Title:         g.title(p, k),
		CompanyID:     p.id,
		CompanyName:   p.c.Name,
		CompanyDomain: p.c.Domain,
	}
	if chance(r, 0.95) {
		per.NetworkURL = "https://network.example/in/" + first.slug + "-" + last.slug + "-" +
			hex8(scramble(uint32(g.personSeq)^g.salt))
	}
	pl := p.place
	switch x := r.Float64(); {
	case x < 0.10:
		pl.city = pl.country.randomCity(r)
	case x < 0.15:
		pl = randomPlace(r)
	}
	per.City, per.Region, per.CountryCode = pl.city.name, pl.city.region, pl.country.code
	if chance(r, 0.3) {
		local := p.pattern.Local(first.email, last.email)
		if slot := fnv32(local) % emailSlots; g.emailSeen[slot] != g.emailStamp {
			g.emailSeen[slot] = g.emailStamp
			per.Email = local + "@" + p.c.Domain
		}
	}
	if chance(r, 0.1) {
		per.Phone = phone(r, pl.country.code)
	}
	return per
}

// title picks the k-th person's title: the first ones at small
// companies are often founders, the rest follow the level pyramid.
func (g *generator) title(p *plan, k int) string {
	r := g.r
	fn := functionWeights.pick(r)
	var founder float64
	switch {
	case k == 0 && p.size <= 50:
		founder = 0.85
	case k == 0 && p.size <= 200:
		founder = 0.6
	case k == 0 && p.size <= 1000:
		founder = 0.25
	case k == 0:
		founder = 0.08
	case k == 1 && p.size <= 50:
		founder = 0.4
	case k == 1 && p.size <= 200:
		founder = 0.2
	case k == 2 && p.size <= 50:
		founder = 0.1
	}
	if chance(r, founder) {
		specific := founderByFunction[fn]
		if k == 0 && (len(specific) == 0 || chance(r, 0.6)) {
			return pick(r, founderTitles)
		}
		if len(specific) == 0 {
			return "Co-founder"
		}
		return pick(r, specific)
	}
	return pick(r, titles[levelWeights.pick(r)][fn])
}

// anyTitle is a title below Founder, for previous jobs and hires.
func anyTitle(r *rand.Rand) string {
	return pick(r, titles[levelWeights.pick(r)][functionWeights.pick(r)])
}

var areaCodes = map[string][]string{
	"US": {"212", "415", "512", "617", "206", "312", "303", "404", "310", "305", "919", "615"},
	"CA": {"416", "604", "514", "613", "403"},
}

// phone is a number from a range reserved for fiction: 555-01xx in
// North America, Ofcom's drama range in the UK, ACMA's in Australia.
// Elsewhere it is a North American fictional number.
func phone(r *rand.Rand, code string) string {
	two := func() string { return itoa(r.IntN(10)) + itoa(r.IntN(10)) }
	switch code {
	case "GB":
		return "+44 20 7946 0" + itoa(r.IntN(10)) + two()
	case "AU":
		return "+61 2 5550 " + two() + two()
	case "CA":
		return "+1 " + pick(r, areaCodes["CA"]) + " 555 01" + two()
	default:
		return "+1 " + pick(r, areaCodes["US"]) + " 555 01" + two()
	}
}

// fnv32 is FNV-1a without the allocation of hash/fnv.
func fnv32(s string) uint32 {
	h := uint32(2166136261)
	for i := 0; i < len(s); i++ {
		h ^= uint32(s[i])
		h *= 16777619
	}
	return h
}
