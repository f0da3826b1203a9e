package news

import "strings"

// wordSet is a set of lower-case words.
type wordSet map[string]struct{}

func words(s string) wordSet {
	m := wordSet{}
	for _, w := range strings.Fields(s) {
		m[w] = struct{}{}
	}
	return m
}

func (s wordSet) has(w string) bool { _, ok := s[w]; return ok }

// The word lists the rules share. They are built once by newLexicon and
// only read afterwards, so one Classifier serves many goroutines.
type lexicon struct {
	// aux are the words between a subject and its verb that say nothing
	// about who acts: auxiliaries, light verbs, pronouns, adverbs.
	aux wordSet
	// future marks a planned event when it comes before the trigger.
	future wordSet
	// notName are capitalised words that start no company name at the
	// start of a sentence or in a Title Case headline.
	notName wordSet
	// titleCore are the words a job title needs; titleWord the words it may hold.
	titleCore, titleWord wordSet
	// legal are company-form suffixes dropped from names.
	legal wordSet
	// orgWord are words that make a capitalised run a company, not a person.
	orgWord wordSet
	// eventWord, awardWord name events and awards.
	eventWord, awardWord wordSet
	// months and weekdays are capitalised but name no company.
	calendar wordSet
	// function words never open or close an entity.
	function wordSet
	// neverName are capitalised words that never start a name: exchanges,
	// regulators, honorifics, "Series" of a funding round.
	neverName wordSet
}

func newLexicon() *lexicon {
	return &lexicon{
		aux: words(`to will would could may might has have had is are was were be been being now also
			officially reportedly formally finally quietly plans plan planning set agrees agreed agree expected
			announces announced announce announcing said says say confirms confirmed confirm it they he she its their
			as that which who today seeks aims looks intends wants poised prepares preparing moves inks signs
			completes completed complete finalizes finalises closes makes made takes forms enters launches unveils
			reveals formally successfully reportedly in talks officially just newly soon then first`),
		future: words(`to will would plans plan planning set agrees agree expected seeks aims intends poised prepares
			preparing considering considers talks could may might eyes mulls proposes proposed pending`),
		notName: words(`a an the big new former critical class market webinar recipe opinion analysis analysts
			should what how why when where who is are can will five four three two ten top meet join introducing
			announcing welcoming welcome backed our we we've we're we'll update news report exclusive breaking
			watch video podcast interview inside behind after before layoffs regulator regulators inside
			merger acquisition deal deals funding lawsuit recall breach outage this that these those here there
			startup startups shares stock stocks tech why's it's investors customers`),
		titleCore: words(`ceo cfo cto coo cmo cro cpo cio ciso chro cso cdo cco cpto clo cao president chairman
			chairwoman chair chairperson officer vp svp evp avp head director counsel founder co-founder cofounder
			scientist engineer pilot editor-in-chief treasurer secretary executive`),
		titleWord: words(`ceo cfo cto coo cmo cro cpo cio ciso chro cso cdo cco cpto clo cao president chairman
			chairwoman chair chairperson chief officer executive vp svp evp avp vice head director directors board
			counsel general founder co-founder cofounder managing scientist engineer pilot editor-in-chief editor
			treasurer secretary technology financial finance operating operations marketing revenue product products
			information security scientific science medical people human resources legal sales engineering data
			digital strategy growth customer success commercial business development design research
			communications brand compliance risk investment experience talent innovation transformation nursing
			creative content of and & senior global international regional deputy interim acting executive
			technical administrative accounting analytics ai platform partnerships corporate chief-executive
			non-executive independent lead principal`),
		legal: words(`inc inc. incorporated llc l.l.c ltd ltd. limited corp corp. corporation co co. plc gmbh ag sa s.a
			nv n.v bv b.v oy ab as asa spa s.p.a srl sarl lp l.p llp pty`),
		orgWord: words(`inc llc ltd corp corporation co plc gmbh ag group holdings partners capital ventures labs
			bank bancorp systems software technologies technology health healthcare bio pharma pharmaceuticals
			therapeutics networks cloud data analytics ai media press foods brands motors energy power oil gas air
			airlines airways telecom communications security payments insurance mutual savings credit fund funds
			hospital care clinic university council county city department ministry agency authority port
			breweries brewing water logistics robotics automation solutions services industries international global
			acquisition design studio studios vision hosting pay ledger retail stores markets exchange
			broadcasting publishing news cars bros diagnostics bakery jet one crm ehr`),
		eventWord: words(`expo summit conference forum week world congress show fair festival meetup convention
			symposium days con ces mwc connect`),
		awardWord: words(`award awards prize prizes medal medals trophy honor honour honors honours`),
		calendar: words(`monday tuesday wednesday thursday friday saturday sunday january february march april may
			june july august september october november december jan feb mar apr jun jul aug sep sept oct nov dec
			q1 q2 q3 q4`),
		neverName: words(`series ipo ipos spac nyse nasdaq lse tsx asx ftc sec fda doj cma fca ema dr mr mrs ms
			prof sir dame`),
		function: words(`a an the of and & in on at for to with by from as or but into onto over under after
			before amid via per vs vs. versus its their his her our your this that these those`),
	}
}
