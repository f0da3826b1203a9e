package news

var (
	launchVerbs = join(forms("launch"), forms("unveil"), forms("introduce"), forms("debut"), forms("release"),
		[]string{"introducing", "rolls out", "rolled out", "roll out", "rolling out", "to roll out",
			"announces general availability of", "general availability of", "makes ~ generally available",
			"make ~ generally available", "now supports", "now offers", "ships"})
	// launchNoun marks "launch" used as a noun ("product launch event").
	launchNoun = words(`a an the its their product upcoming official big biggest soft successful global for
		latest next recent first`)
	// launchVeto are objects that make a launch no product.
	launchVeto = words(`route routes search campaign campaigns applications investigation probe inquiry review
		appeal bid offer tender fund event webinar podcast operations partnership integration ipo lawsuit
		legal action`)
	// filler words say nothing about what was launched ("our biggest release yet").
	filler      = words(`yet today now soon here again early later globally worldwide this week month year`)
	selectVerbs = join(forms("select"), forms("deploy"), forms("adopt"), []string{"chooses", "choose", "chose",
		"chosen", "choosing", "picks", "pick", "picked", "picking", "goes live with", "go live with",
		"standardizes on", "standardises on"})
	contractVerbs = join(forms("sign"), forms("land"), forms("secure"), []string{"inks", "inked", "wins", "won",
		"win", "awarded", "clinches", "clinched", "bags", "bagged", "adds", "added", "adding", "extends", "renews"})
	otherDeals = words(`partnership partner partners merger merge acquisition acquire buy funding financing
		investment alliance collaboration integration`)
)

func (c *Classifier) productRules() []*rule {
	return []*rule{
		// Acme launches Flow 2.0.
		{cat: Launches, phrases: launchVerbs, prio: 40, conf: .8,
			check: allOf(prevNot(launchNoun), launchObject, not(objHas(launchVeto)))},
		// Acme is developing a battery.
		{cat: IsDeveloping, phrases: []string{"is developing", "developing", "develops", "develop", "to develop",
			"working on", "works on", "work on", "is building", "building", "in development", "early development of",
			"development of", "begins clinical trial", "clinical trial of", "clinical trial", "trials", "trialling",
			"trialing", "tests", "testing", "teases", "prototype", "prototypes", "pilots", "piloting"},
			prio: 45, conf: .75, check: launchObject},
		// Acme integrates with Beta; Beta adds Acme integration.
		{cat: IntegratesWith, phrases: join(with(forms("integrate"), "with", "into", "~ with"),
			with(forms("connect"), "to", "with"), []string{"integration with", "integrations with",
				"adds support for", "add support for", "added support for", "now available on", "available on"}),
			prio: 56, conf: .85, counter: true, check: anyOf(objName, premodName),
			as: map[role]string{roleObj: IntegratesWith, roleWith: IntegratesWith, rolePremod: IntegratesWith,
				roleIn: IntegratesWith, roleTo: IntegratesWith}},
		{cat: IntegratesWith, phrases: []string{"integration", "integrations"}, noun: true, prio: 56, conf: .8,
			counter: true, as: map[role]string{rolePremod: IntegratesWith, roleWith: IntegratesWith}},
		// Acme partners with Beta; Acme and Beta form an alliance.
		{cat: PartnersWith, phrases: join(with(forms("partner"), "with", ""), with(forms("collaborate"), "with", ""),
			[]string{"teams up with", "team up with", "teamed up with", "teaming up with", "teams up", "team up",
				"joins forces with", "join forces with", "joined forces with", "joining forces with"}),
			prio: 56, conf: .9, counter: true,
			as: map[role]string{roleObj: PartnersWith, roleWith: PartnersWith}},
		{cat: PartnersWith, phrases: []string{"partnership", "partnerships", "alliance", "collaboration",
			"joint venture"}, noun: true, prio: 56, conf: .85, counter: true,
			as: map[role]string{roleObj: PartnersWith, roleWith: PartnersWith, rolePremod: PartnersWith}},
		{cat: PartnersWith, phrases: []string{"as partner", "as strategic partner", "as a partner",
			"as its partner", "as preferred partner"}, prio: 60, conf: .85, counter: true,
			as: map[role]string{roleBy: PartnersWith, roleObj: PartnersWith}},
		// Beta selects Acme: Acme has a new client.
		{cat: "", phrases: selectVerbs, prio: 58, conf: .85, passive: true, counter: true,
			as: map[role]string{roleObj: SignsNewClient, rolePoss: SignsNewClient}, check: anyOf(objName, isPassive)},
		// Acme wins a contract; signs a deal with Beta; adds Beta as a customer.
		{cat: SignsNewClient, phrases: contractVerbs, prio: 58, conf: .85, counter: true,
			check: allOf(nextHas(7, clientNouns), not(clauseHas(otherDeals)))},
		// Acme rivals Beta; Acme vs. Beta; a challenger to Beta.
		{cat: IdentifiedAsCompetitorOf, phrases: []string{"rival to", "rival of", "rivals", "rival in",
			"challenger to", "competitor to", "competitor of", "competes with", "compete with", "competing with",
			"takes on", "take on", "taking on", "vs", "versus", "alternative to", "head-to-head with",
			"challenges", "rivalry with"},
			prio: 45, conf: .75, counter: true, check: objName,
			as: map[role]string{roleObj: IdentifiedAsCompetitorOf, roleIn: IdentifiedAsCompetitorOf,
				roleWith: IdentifiedAsCompetitorOf, roleTo: IdentifiedAsCompetitorOf}},
		{cat: IdentifiedAsCompetitorOf, phrases: []string{"rival", "competitor", "challenger"}, noun: true,
			prio: 45, conf: .7, counter: true, check: allOf(objName, notOtherEvent),
			as: map[role]string{roleObj: IdentifiedAsCompetitorOf, rolePremod: IdentifiedAsCompetitorOf}},
	}
}

// launchObject accepts a launch with something launched: a name, or a
// word that is not filler.
func launchObject(c *Classifier, m *match) bool {
	from, end := m.gap()
	if end <= from {
		from, end = m.te, objEnd(m.s, m.te)
	}
	for k := from; k < end; k++ {
		t := &m.s.toks[k]
		if m.s.entAt[k] >= 0 || (!t.punct && !filler.has(t.w) && !c.lex.function.has(t.w)) {
			return true
		}
	}
	return false
}

// notOtherEvent refuses a rival named in passing: "Acme's rival Beta
// raises $20M" is news about Beta.
func notOtherEvent(c *Classifier, m *match) bool {
	objs := c.objectsOf(m)
	if len(objs) == 0 {
		return true
	}
	for k := m.s.ents[objs[0]].end; k < len(m.s.toks); k++ {
		if m.s.entAt[k] < 0 && !m.s.toks[k].punct && !m.s.toks[k].cap && c.isTrigger(m.s.toks[k].w) {
			return false
		}
	}
	return true
}
