package news

var (
	awardVerbs = join(forms("receive"), forms("earn"), []string{"wins", "win", "won", "winning", "takes home",
		"took home", "take home", "scoops", "scooped", "honored with", "honoured with", "honored", "honoured",
		"awarded", "named winner of", "named winner", "winner of", "picks up", "picked up", "bags", "bagged",
		"clinches", "clinched", "collects"})
	notAward = words(`contract contracts deal deals approval funding grant financing order tender seed series
		round`)
	issueNouns = []string{"data breach", "breach", "breaches", "hit by", "outage", "outages", "recall", "recalls",
		"recalled", "fined", "fines", "fine", "probe", "probes", "investigation", "under investigation",
		"vulnerability", "vulnerabilities", "security incident", "cyberattack", "cyber attack", "ransomware",
		"hack", "hacked", "accused of", "charged with", "dispute", "disputes", "issues", "problems", "glitch",
		"backlash", "scrutiny", "allegations", "antitrust", "class action", "class-action", "sanctioned",
		"penalty", "penalized", "strike"}
	eventPhrases = join(with(forms("exhibit"), "at"), with(forms("present"), "at", "~ at"),
		with(forms("speak"), "at"), with(forms("participate"), "in", "at"), with(forms("showcase"), "~ at"),
		with(forms("attend"), ""), with(forms("host"), "~ conference", "~ summit", "~ forum"),
		[]string{"to speak at", "spoke at", "keynote", "keynotes", "to keynote", "deliver keynote at",
			"delivers keynote at", "joins panel at", "join panel at", "panel at", "meet ~ at", "join ~ at",
			"visit ~ at", "see ~ at", "at booth", "booth", "will be at"})
)

func (c *Classifier) standingRules() []*rule {
	return []*rule{
		// Acme wins the Innovation Award.
		{cat: ReceivesAward, phrases: awardVerbs, prio: 58, conf: .85, people: true,
			check: allOf(wordsNext(8, awardNouns), not(nextHas(8, notAward)))},
		// Acme named a Leader; recognized as a Great Place to Work; ranked No. 3.
		{cat: RecognizedAs, phrases: []string{"named a", "named an", "named as", "named one of", "named to",
			"named among", "named in", "recognized as", "recognised as", "recognized for", "recognised for",
			"recognized in", "recognised in", "recognized by", "recognised by", "recognized among", "ranked",
			"ranks", "ranked among", "included in", "listed in", "listed among", "earns spot on", "earns place on",
			"earns a spot on", "earns a place on", "makes ~ list", "tops ~ list", "honored as", "certified as"},
			prio: 60, conf: .85},
		// Acme sues Beta; Beta sued by Acme; Acme files a lawsuit against Beta.
		{cat: FilesSuitAgainst, phrases: join(forms("sue"), forms("countersue"), []string{"files ~ lawsuit",
			"filed ~ lawsuit", "files ~ suit", "filed ~ suit", "files ~ complaint", "filed ~ complaint",
			"lawsuit against", "suit against", "complaint against", "legal action against", "action against",
			"litigation against", "takes ~ to court", "took ~ to court", "taking ~ to court", "brings ~ suit"}),
			prio: 60, conf: .9, passive: true, counter: true,
			as: map[role]string{roleObj: HasIssuesWith, roleAgainst: HasIssuesWith}},
		// "Tallis founders respond to Wrenfield lawsuit": the name before is the plaintiff.
		{cat: HasIssuesWith, phrases: []string{"lawsuit", "suit", "legal action"}, noun: true, prio: 60, conf: .75,
			counter: true, check: premodName, as: map[role]string{rolePremod: FilesSuitAgainst}},
		// Acme hit by a data breach; regulator fines Acme.
		{cat: HasIssuesWith, phrases: issueNouns, noun: true, prio: 50, conf: .8, counter: true,
			as: map[role]string{roleObj: HasIssuesWith, roleIn: HasIssuesWith, rolePremod: HasIssuesWith,
				roleAgainst: HasIssuesWith}},
		{cat: HasIssuesWith, phrases: join(forms("settle"), forms("ground")), prio: 50, conf: .75, counter: true,
			as:    map[role]string{roleWith: HasIssuesWith},
			check: nextHas(4, words(`dispute lawsuit suit claims case charges fleet planes aircraft`))},
		// Acme to exhibit at Automate Expo; Acme CEO to speak at a summit.
		{cat: AttendsEvent, phrases: eventPhrases, prio: 48, conf: .8, people: true,
			as: map[role]string{roleObj: AttendsEvent}, check: eventNamed},
	}
}

// eventNamed accepts a trigger with an event named in its sentence: a
// name holding an event word, or any name after "at" or the trigger.
func eventNamed(c *Classifier, m *match) bool {
	return c.eventOf(m) != ""
}
