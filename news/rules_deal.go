package news

// Words the deal rules look for around their triggers.
var (
	acquirable = words(`startup startups firm firms company companies rival rivals competitor competitors maker
		makers provider providers developer developers chain chains operator operators specialist specialists
		platform platforms group business businesses unit units division divisions arm brand brands stations
		station subsidiary portfolio assets operations lab labs studio agency`)
	stakeWords    = words(`stake stakes shares holding`)
	sellable      = union(businessNouns, physicalAssets, stakeWords)
	sellVerbs     = words(`sell sells sold selling divest divests divested offload offloads offloaded`)
	vehicles      = words(`aircraft planes jets trucks vehicles ships vessels buses trains turbines locomotives`)
	roundWords    = words(`round series seed pre-seed funding financing investment raise`)
	exchangeWords = words(`nasdaq nyse exchange lse tsx asx euronext aim market bourse`)
	ipoBefore     = words(`files filed filing for prices priced pricing launches launched launch completes
		completed announces announced debut sets set upsized upsizes upsize blockbuster plans planned
		postpones postponed delays delayed`)
	ipoPlan = words(`files filed filing submits submitted confidentially registration plans planned`)
)

// acquireVerbs are the verbs of buying a company.
var acquireVerbs = join(forms("acquire"), forms("purchase"), []string{"buy", "buys", "bought", "buying",
	"snaps up", "snapped up", "snap up", "scoops up", "scooped up", "scoop up", "picks up", "picked up",
	"takes over", "took over", "take over", "taking over"})

// financingVerbs are the verbs of raising money; they need an amount or a
// financing word after them ("raises prices" is no round).
var financingVerbs = join(forms("raise"), forms("secure"), forms("close"), forms("receive"), forms("obtain"),
	forms("attract"), forms("complete"), forms("announce"), forms("land"),
	[]string{"nets", "netted", "bags", "bagged", "bag", "gets", "get", "got", "pulls in", "pulled in",
		"rakes in", "raked in", "snags", "snagged", "scores", "scored", "wins", "won", "awarded", "picks up",
		"picked up", "nabs", "nabbed"})

func (c *Classifier) dealRules() []*rule {
	return []*rule{
		// Acme acquires Beta; Beta acquired by Acme; Acme buys Beta's unit.
		{cat: Acquires, phrases: acquireVerbs, prio: 60, conf: .9, passive: true, counter: true,
			as: map[role]string{rolePoss: SellsAssetsTo, roleFrom: SellsAssetsTo},
			check: anyOf(isPassive,
				allOf(anyOf(objName, objHas(acquirable)), not(objHas(stakeWords)), not(objHas(physicalAssets))))},
		// Acme's acquisition of Beta; Beta's acquisition by Acme; the Quince acquisition.
		{cat: Acquires, phrases: []string{"acquisition", "takeover", "buyout", "acquisitions"}, noun: true,
			prio: 60, conf: .85, counter: true, as: map[role]string{roleBy: Acquires}},
		// Beta sold to Acme: Beta is what was sold.
		{cat: "", of: Acquires, phrases: []string{"sold to", "sells itself to"}, prio: 61, conf: .85, counter: true,
			as: map[role]string{roleObj: Acquires}},
		// Acme sells its unit to Beta.
		{cat: SellsAssetsTo, phrases: join([]string{"sell", "sells", "sold", "selling"}, []string{"to sell"}),
			prio: 62, conf: .85, counter: true, prefer: "to", as: map[role]string{roleTo: Acquires},
			check: allOf(objHas(sellable), notQuantity)},
		{cat: SellsAssetsTo, phrases: join(forms("divest"), forms("offload"), []string{"divestiture of",
			"divestment of", "divestiture", "sale of", "disposal of", "sells off", "sold off", "spins off",
			"spun off", "carves out", "carved out"}),
			prio: 62, conf: .85, counter: true, prefer: "to", as: map[role]string{roleTo: Acquires}},
		// Acme takes a stake in Beta.
		{cat: InvestsInto, phrases: []string{"stake in", "stakes in", "stake of"}, prio: 70, conf: .85, counter: true,
			as: map[role]string{roleObj: ReceivesFinancing}, check: notAfterSale},
		// Acme invests $50M in a new plant; buys a building; orders aircraft.
		{cat: InvestsIntoAssets, phrases: join(with(forms("invest"), "in", "~ in"), []string{"investment in",
			"investments in", "commits ~ to", "commit ~ to", "committed ~ to", "spends ~ on", "spend ~ on",
			"spent ~ on", "spending ~ on"}),
			prio: 72, conf: .8, check: objHas(investAssetNouns)},
		{cat: InvestsIntoAssets, phrases: acquireVerbs, prio: 72, conf: .85, counter: true, prefer: "from",
			as: map[role]string{roleFrom: SellsAssetsTo}, check: objHas(physicalAssets)},
		{cat: InvestsIntoAssets, phrases: join(forms("order"), []string{"places order for"}), prio: 72, conf: .8,
			check: objHas(vehicles)},
		// Acme invests in Beta; backs Beta; leads Beta's round; Beta's round led by Acme.
		{cat: InvestsInto, phrases: join(with(forms("invest"), "in", "~ in"), []string{"investment in",
			"investments in", "co-invests in", "backs", "back", "backed", "backing"}),
			prio: 70, conf: .85, passive: true, counter: true,
			as:    map[role]string{roleObj: ReceivesFinancing, roleIn: ReceivesFinancing},
			check: allOf(anyOf(objName, isPassive), not(objHas(investAssetNouns)))},
		{cat: InvestsInto, phrases: join(with(forms("participate"), "in"), []string{"leads", "led", "lead",
			"leading", "co-leads", "co-led", "co-lead"}),
			prio: 70, conf: .85, passive: true, counter: true,
			as:    map[role]string{roleObj: ReceivesFinancing, roleIn: ReceivesFinancing},
			check: anyOf(nextHas(8, roundWords), allOf(isPassive, clauseHas(financingNouns)))},
		{cat: InvestsInto, phrases: []string{"fund to"}, prio: 70, conf: .75,
			check: nextHas(1, words(`back invest support finance fund`))},
		// Acme raises $25M; closes its Series B.
		{cat: ReceivesFinancing, phrases: financingVerbs, prio: 60, conf: .9, counter: true, counterAny: true,
			check: allOf(anyOf(moneyNext(4), nextHas(6, financingNouns)), not(nextHas(6, clientNouns)), notFund)},
		// "$12.5 million Series A", "Gripwell funding".
		{cat: ReceivesFinancing, phrases: []string{"series", "seed", "pre-seed", "funding", "financing", "round"},
			noun: true, prio: 59, conf: .8, counter: true, counterAny: true,
			as: map[role]string{rolePremod: ReceivesFinancing}, check: allOf(anyOf(moneyBefore, premodName), notFund)},
		// Going public.
		{cat: GoesPublic, phrases: []string{"ipo", "ipos"}, prio: 90, conf: .9, plan: ipoPlan,
			check: anyOf(prevIn(ipoBefore), nextHas(1, words(`on at price pricing filing prospectus`)))},
		{cat: GoesPublic, phrases: []string{"initial public offering", "goes public", "go public", "going public",
			"went public", "gone public", "direct listing", "draft registration", "begins trading on",
			"began trading on", "starts trading on", "started trading on", "debuts on", "debuted on", "debut on",
			"stock market debut", "market debut", "trading debut", "nyse debut", "nasdaq debut", "spac",
			"blank-check", "files to go public", "rings ~ bell"},
			prio: 90, conf: .9, plan: ipoPlan},
		{cat: GoesPublic, phrases: []string{"lists on", "listed on", "to list on", "listing on", "floats on",
			"float on", "listing", "listings"}, prio: 90, conf: .85, plan: ipoPlan,
			check: anyOf(wordsNext(4, exchangeWords), prevIn(words(`u.s us public direct stock nasdaq nyse`)))},
		// Acme merges with Beta; Acme and Beta to merge; merger of Acme and Beta.
		{cat: MergesWith, phrases: join(with(forms("merge"), "with", ""), forms("combine"),
			with(forms("combine"), "with"), []string{"combination with"}),
			prio: 62, conf: .9, counter: true, plan: words(`talks agree agrees proposed pending`),
			as: map[role]string{roleObj: MergesWith, roleWith: MergesWith}},
		{cat: MergesWith, phrases: []string{"merger", "mergers"}, noun: true, prio: 62, conf: .85, counter: true,
			plan: words(`talks agree agrees proposed pending`),
			as:   map[role]string{roleObj: MergesWith, roleWith: MergesWith, rolePremod: MergesWith}},
	}
}

// union returns the words of all sets.
func union(sets ...wordSet) wordSet {
	out := wordSet{}
	for _, s := range sets {
		for w := range s {
			out[w] = struct{}{}
		}
	}
	return out
}

// notAfterSale refuses a stake that is being sold ("sells its stake in").
func notAfterSale(c *Classifier, m *match) bool {
	for k := m.ts - 1; k >= 0 && k >= m.ts-4; k-- {
		if sellVerbs.has(m.s.toks[k].w) {
			return false
		}
	}
	return true
}

// notQuantity refuses an object counted in units: "sells 2 million units"
// is trade, not a sale of assets.
func notQuantity(c *Classifier, m *match) bool {
	end := objEnd(m.s, m.te)
	for k := m.te; k < end; k++ {
		t := &m.s.toks[k]
		if t.num && !t.punct && (k+1 >= len(m.s.toks) || m.s.toks[k+1].w != "%") && (k == 0 || !m.s.toks[k-1].isCurrency()) {
			return false
		}
	}
	return true
}

// notFund refuses an amount that is a fund's ("closes $400M third fund").
func notFund(c *Classifier, m *match) bool {
	end := min(m.te+6, clauseEnd(m.s, m.te))
	for k := m.ts; k < end; k++ {
		if w := m.s.toks[k].w; (w == "fund" || w == "funds") && !m.s.toks[k].punct && m.s.entAt[k] < 0 {
			return false
		}
	}
	return true
}

// moneyBefore accepts an amount just before the trigger ("$25M Series A").
func moneyBefore(c *Classifier, m *match) bool {
	_, ok := firstMoney(m.s.toks, max(0, m.ts-4), m.ts)
	return ok
}

// premodName accepts a name just before a noun trigger.
func premodName(c *Classifier, m *match) bool {
	return m.ts > 0 && m.s.entAt[m.ts-1] >= 0 && !m.s.ents[m.s.entAt[m.ts-1]].poss
}

// isPassive accepts a trigger read in the passive.
func isPassive(c *Classifier, m *match) bool { return m.passive }

// prevIn accepts when one of the three words before the trigger is in set.
func prevIn(set wordSet) check {
	return func(c *Classifier, m *match) bool {
		for k := max(0, m.ts-3); k < m.ts; k++ {
			if set.has(m.s.toks[k].w) {
				return true
			}
		}
		return false
	}
}
