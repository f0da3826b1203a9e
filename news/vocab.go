package news

// commonWords are everyday headline words. In a Title Case headline they
// are read as lower-case, so "Closes Its Chicago Office" names Chicago,
// not "Chicago Office".
var commonWords = words(`new first second third annual global local national regional user users company
	companies startup startups firm firms deal deals million billion thousand year years month months week
	plan plans growth market markets share shares stock stocks price prices customer customers product
	products platform platforms service services app apps tool tools report reports quarter revenue sales
	profit profits loss losses team teams former longtime more most biggest largest top up down out off
	its their multi-year five-year three-year all-stock cash stake unit division business brand portfolio
	assets patent patents office offices plant site center centre floor space line store stores branch
	clinic jobs workers employees staff engineers roles positions workforce headcount percent amid over
	under into onto after before about against among across through during without within major big small
	largest leading next latest early late strategic minority majority undisclosed record key official
	officially today week's years' all any some other another own group's talks bid offer agreement contract
	contracts order orders customer client clients partner partners partnership alliance venture ventures
	round funding financing investment investors investor backed led lead leads people member members board
	directors chief executive officer president vice head director founder co-founder general counsel
	annual conference summit expo forum event events award awards prize winner winners list ranking
	spot place best most-innovative innovative fastest-growing fastest growing great work workplaces
	women series seed pre-seed angel grant debt loan credit facility note convertible equity public
	offering listing exchange trading debut bell ipo spac merger acquisition takeover buyout sale
	divestiture lawsuit suit complaint court action class legal patent trademark infringement breach
	outage recall probe investigation fine fines dispute vulnerability incident attack ransomware
	safety audit fleet layoffs cuts jobs hiring spree expansion expands expanding opens opening closes
	closing shut shuts launches launch unveils introduces releases version update feature features
	integration integrations support native marketplace rival rivals competitor challenger alternative
	versus vs head-to-head people's customers' new-look flagship newest second-quarter third-quarter
	fourth-quarter first-quarter q1 q2 q3 q4 per cent larger bigger smaller operations presence hub
	headquarters hq warehouse factory facility lab campus data-center manufacturing production
	distribution assembly research development newest shareholders investors regulators analysts founders
	executives natively confidentially quietly formally finally regional trial clinical
	approved approve approves faces face form forms respond responds soar soars emerges emerge say says
	said hit hits rise rises fall falls jump jumps drop drops climb climbs slide slides gain gains lose
	loses warn warns help helps seek seeks eye eyes consider considers reject rejects confirm confirms deny
	denies celebrate celebrates hold holds outline outlines praise praises share shares reach reaches
	complete completes completed announce announces announced agree agrees agreed set sets eyes mulls
	weighs boost boosts extend extends renew renews pause pauses end ends start starts begin begins hire`)

// buildVocab gathers every word the rules read, with commonWords.
func (c *Classifier) buildVocab(rules []*rule, extra ...wordSet) {
	v := union(commonWords, c.lex.aux, c.lex.future, c.lex.notName, c.lex.titleWord, c.lex.function)
	for _, s := range extra {
		for w := range s {
			v[w] = struct{}{}
		}
	}
	for _, r := range rules {
		for _, p := range r.phrases {
			for w := range words(p) {
				if w != "~" {
					v[w] = struct{}{}
				}
			}
		}
	}
	c.vocab = v
}

// lowerCommon reads a Title Case sentence's common words as lower-case.
// A company word, an event word or an award word right after a name
// stays in it ("Ashgrove Partners", "Black Tarn Security Summit"), unless
// a trigger phrase of two or more words starts there ("Partners With").
func (c *Classifier) lowerCommon(s *sentence) {
	for i := range s.toks {
		t := &s.toks[i]
		if !t.cap || t.punct || !c.vocab.has(t.w) {
			continue
		}
		if i > 0 && s.toks[i-1].cap && !s.toks[i-1].punct &&
			(c.lex.orgWord.has(t.w) || c.lex.eventWord.has(t.w) || c.lex.awardWord.has(t.w)) &&
			!c.phraseAt(s, i) {
			continue
		}
		t.cap = false
	}
}

// phraseAt reports whether a trigger phrase of two or more words matches
// at token i.
func (c *Classifier) phraseAt(s *sentence, i int) bool {
	for _, p := range c.index[s.toks[i].w] {
		if len(p.words) > 1 && matchPhrase(s, i, p.words) > i {
			return true
		}
	}
	return false
}
