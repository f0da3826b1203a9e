package taxonomy

import (
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
)

// The two role buckets of the contract's contact items.
const (
	RoleDecisionMaker = "decision_maker"
	RoleInfluencer    = "influencer"
)

// TitleInfo is what a job title says about its holder.
type TitleInfo struct {
	Level    string // one of JobLevels(), "" if the title is empty
	Function string // one of JobFunctions(), "" when none applies
	Role     string // RoleDecisionMaker or RoleInfluencer
}

// ParseTitle reads a free-text job title. Matching is case-insensitive and
// works on words: spaces, commas, slashes, "&", hyphens, parentheses, "|"
// and dashes separate them, dots inside abbreviations are dropped ("V.P.",
// "Sr.", "Dir."), and "@", a standalone "at" or "to" end the title, since
// what follows names an employer ("VP Sales at Acme") or a boss ("Assistant
// to the CEO"; "go-to-market" excepted), and so does "office of" ("Office
// of the CEO").
//
// Level: the most senior signal anywhere in the title wins, in the order
// Founder, CXO, VP, Director, Head, Manager, IC, so "CEO & Co-Founder" is
// Founder and "Sr. Director" is Director.
//   - Founder: founder, co-founder, cofounder, entrepreneur, proprietor, and
//     owner unless it is a role's owner ("Product Owner" is IC); but not a
//     founder's associate or office, nor "founding engineer".
//   - CXO: CEO, CTO, CFO, COO, CMO, CRO, CPO, CIO, CISO, CDO, CCO, CHRO and
//     kin, "chief ... officer", president (not vice president), chair,
//     C-level, C-suite, managing director and managing partner.
//   - VP: VP, vice president, SVP, EVP, AVP, RVP, GVP.
//   - Director: director, "dir.", general manager, GM, and partner when it
//     is the person's rank ("Partner", "General Partner", "Partner, Deloitte")
//     rather than the object of the job ("Talent Acquisition Partner",
//     "Partner Manager", which count towards Partnerships instead).
//   - Head: head, chief of staff, "... in chief".
//   - Manager: manager, mgr, supervisor, and abbreviations of a manager
//     title (PM, PMM, TPM, CSM, BDM).
//   - IC: any other non-empty title, lead, principal, staff, senior and
//     "chief architect"-like titles included.
//
// Function: when several functions are named, the first in this order
// wins: RevOps, Revenue, Sales, Marketing, Growth, People, Finance,
// Customer Success, Partnerships, Product, Engineering, Operations. So
// "Product Marketing Manager" is Marketing, "Sales Engineer" Sales,
// "Technical Recruiter" People and "Founder & CTO" Engineering. Two-word
// phrases are read before single words: "sales operations", "marketing
// operations" and "revenue operations" are RevOps, "account executive" and
// "business development" Sales, "account manager" Customer Success,
// "revenue accounting" Finance, "product engineer" Engineering. A title
// naming no function (CEO, Founder, Chief of Staff) has Function "".
//
// Role is RoleOf(Level). Placeholders such as "N/A" or "none" count as empty.
func ParseTitle(title string) TitleInfo {
	var t titleWords
	t.split(title)
	vocab := titleVocab()
	if t.count == 0 || vocab[string(t.buf[:t.n])].kind == kindPlaceholder {
		return TitleInfo{Role: RoleInfluencer}
	}
	lv, fn := levelNone, fnNone
	take := func(w titleWord) {
		if w.level != levelNone && (lv == levelNone || w.level < lv) {
			lv = w.level
		}
		if w.fn != fnNone && (fn == fnNone || w.fn < fn) {
			fn = w.fn
		}
	}
scan:
	for i := 0; i < t.count; i++ {
		if i+1 < t.count && !t.hard[i+1] {
			if w, ok := vocab[string(t.span(i, i+1))]; ok {
				if w.kind == kindStop {
					break scan
				}
				take(w)
				i++
				continue
			}
		}
		w := vocab[string(t.word(i))]
		prev, next := t.prev(vocab, i), t.next(vocab, i)
		switch w.kind {
		case kindStop:
			break scan
		case kindFounder:
			if next.flags&flagFounderRole == 0 {
				take(w)
			}
		case kindOwner:
			if prev.flags&flagOwnerRole == 0 {
				take(w)
			}
		case kindPartner:
			rank := t.hard[i] || prev.flags&flagPartnerRank != 0
			if next.level != levelNone || next.fn != fnNone || next.flags&flagPartnerRole != 0 {
				rank = false
			}
			if rank {
				take(titleWord{level: levelDirector})
			} else {
				take(titleWord{fn: fnPartnerships})
			}
		case kindChief:
			switch {
			case i+1 < t.count && !t.hard[i+1] && string(t.word(i+1)) == "of",
				i > 0 && !t.hard[i] && string(t.word(i-1)) == "in":
				take(titleWord{level: levelHead})
			case next.flags&flagChiefIC == 0:
				take(w)
			}
		default:
			take(w)
		}
	}
	if lv == levelNone {
		lv = levelIC
	}
	level := levelNames[lv]
	return TitleInfo{Level: level, Function: functionNames[fn], Role: RoleOf(level)}
}

// RoleOf returns RoleDecisionMaker for the levels that sign or own a
// budget (Founder, CXO, VP, Director, Head) and RoleInfluencer for the
// rest, an unknown or empty level included.
func RoleOf(level string) string {
	switch level {
	case "Founder", "CXO", "VP", "Director", "Head":
		return RoleDecisionMaker
	}
	return RoleInfluencer
}

// NormalizeJobLevel returns the JobLevels value s names, matched without
// regard to case or spacing, also accepting "C-level", "C-suite" or "chief" for CXO,
// "vice president" for VP, "co-founder" for Founder and "individual
// contributor" for IC. It returns ("", false) for anything else.
func NormalizeJobLevel(s string) (string, bool) {
	k := lookupKey(s)
	for _, l := range JobLevels() {
		if strings.ToLower(l) == k {
			return l, true
		}
	}
	switch k {
	case "c-level", "c level", "c-suite", "c suite", "csuite", "chief":
		return "CXO", true
	case "vice president":
		return "VP", true
	case "co-founder", "cofounder", "co founder":
		return "Founder", true
	case "individual contributor":
		return "IC", true
	}
	return "", false
}

// NormalizeJobFunction returns the JobFunctions value s names, matched
// without regard to case or spacing, also accepting common shorthands:
// "revenue operations" and "rev ops" (RevOps), "hr" and "human resources"
// (People), "cs" (Customer Success), "eng" (Engineering), "bizdev" and
// "business development" (Sales), "alliances" and "partners"
// (Partnerships). It returns ("", false) for anything else.
func NormalizeJobFunction(s string) (string, bool) {
	k := lookupKey(s)
	for _, f := range JobFunctions() {
		if strings.ToLower(f) == k {
			return f, true
		}
	}
	switch k {
	case "revenue operations", "rev ops", "rev-ops", "sales operations":
		return "RevOps", true
	case "hr", "human resources", "people operations", "talent":
		return "People", true
	case "cs", "customersuccess", "customer-success":
		return "Customer Success", true
	case "eng", "r&d", "software engineering":
		return "Engineering", true
	case "bizdev", "biz dev", "bd", "business development":
		return "Sales", true
	case "partnership", "partners", "alliances", "channel":
		return "Partnerships", true
	case "ops":
		return "Operations", true
	case "product management":
		return "Product", true
	case "accounting":
		return "Finance", true
	}
	return "", false
}

// lookupKey is s trimmed, lower-cased and single-spaced.
func lookupKey(s string) string {
	return strings.ToLower(strings.Join(strings.Fields(s), " "))
}

// titleWords is a title split into lower-case words, kept in a fixed
// buffer so parsing two million titles does not allocate. Words are joined
// by single spaces, so a two-word phrase is a substring of buf too.
type titleWords struct {
	buf        [titleMaxBytes]byte
	n          int
	start, end [titleMaxWords]uint8
	hard       [titleMaxWords]bool // a hard separator (or the title's start) precedes the word
	count      int
}

// Titles longer than this are headlines; their first words are enough.
const (
	titleMaxBytes = 160
	titleMaxWords = 24
)

func (t *titleWords) word(i int) []byte    { return t.buf[t.start[i]:t.end[i]] }
func (t *titleWords) span(i, j int) []byte { return t.buf[t.start[i]:t.end[j]] }

// prev and next return the vocabulary entry of a neighbouring word joined
// to word i by a soft separator, or the zero entry.
func (t *titleWords) prev(vocab map[string]titleWord, i int) titleWord {
	if i == 0 || t.hard[i] {
		return titleWord{}
	}
	return vocab[string(t.word(i-1))]
}

func (t *titleWords) next(vocab map[string]titleWord, i int) titleWord {
	if i+1 >= t.count || t.hard[i+1] {
		return titleWord{}
	}
	return vocab[string(t.word(i+1))]
}

// split fills t from s; see ParseTitle for what separates words.
func (t *titleWords) split(s string) {
	inWord, hard, dotted := false, true, false
	endWord := func() {
		if inWord {
			t.end[t.count] = uint8(t.n)
			t.count++
			inWord, dotted = false, false
		}
	}
	// add appends p to the current word, starting one if needed; it reports
	// false when the buffer is full.
	add := func(p ...byte) bool {
		if !inWord {
			if t.count == titleMaxWords || t.n+1+len(p) > titleMaxBytes {
				return false
			}
			if t.n > 0 {
				t.buf[t.n] = ' '
				t.n++
			}
			t.start[t.count], t.hard[t.count] = uint8(t.n), hard
			inWord, hard = true, false
		}
		if t.n+len(p) > titleMaxBytes {
			return false
		}
		t.n += copy(t.buf[t.n:], p)
		return true
	}
	letterAt := func(i int) bool {
		return i < len(s) && (s[i]|0x20 >= 'a' && s[i]|0x20 <= 'z')
	}
	for i := 0; i < len(s); {
		c := s[i]
		if c >= utf8.RuneSelf {
			r, size := utf8.DecodeRuneInString(s[i:])
			i += size
			switch {
			case r == '\u2018' || r == '\u2019':
			case r == '\u2010' || r == '\u2011' || unicode.IsSpace(r):
				endWord()
			case unicode.IsLetter(r) || unicode.IsDigit(r):
				var b [utf8.UTFMax]byte
				if !add(b[:utf8.EncodeRune(b[:], unicode.ToLower(r))]...) {
					endWord()
					return
				}
			default:
				endWord()
				hard = true
			}
			continue
		}
		i++
		switch {
		case c >= 'A' && c <= 'Z':
			c += 'a' - 'A'
			fallthrough
		case c >= 'a' && c <= 'z' || c >= '0' && c <= '9':
			if !add(c) {
				endWord()
				return
			}
		case c == '\'' || c == '`':
		case c == '.':
			// "v.p." is one word, "sr.director" two.
			if inWord && letterAt(i) && (dotted || t.n-int(t.start[t.count]) == 1) {
				dotted = true
				continue
			}
			endWord()
		case c == '&' && inWord && t.n-int(t.start[t.count]) <= 2 && letterAt(i):
			add(c) // "r&d", "fp&a", "m&a"
		case c == '@':
			endWord()
			return
		case c == ' ' || c == '\t' || c == '_' || c == '-' && inWord:
			endWord()
		default:
			endWord()
			hard = true
		}
	}
	endWord()
}

// level is a JobLevels index plus one, so smaller is more senior and the
// zero value means "no signal".
type level uint8

const (
	levelNone level = iota
	levelFounder
	levelCXO
	levelVP
	levelDirector
	levelHead
	levelManager
	levelIC
)

var levelNames = [...]string{"", "Founder", "CXO", "VP", "Director", "Head", "Manager", "IC"}

// function is ParseTitle's function priority: smaller wins.
type function uint8

const (
	fnNone function = iota
	fnRevOps
	fnRevenue
	fnSales
	fnMarketing
	fnGrowth
	fnPeople
	fnFinance
	fnCustomerSuccess
	fnPartnerships
	fnProduct
	fnEngineering
	fnOperations
)

var functionNames = [...]string{"", "RevOps", "Revenue", "Sales", "Marketing", "Growth", "People",
	"Finance", "Customer Success", "Partnerships", "Product", "Engineering", "Operations"}

// wordKind marks the words whose meaning depends on their neighbours.
type wordKind uint8

const (
	kindPlain       wordKind = iota
	kindFounder              // unless a founder's associate or office
	kindOwner                // unless a role's owner
	kindPartner              // a rank, or the object of the job
	kindChief                // CXO, Head in "chief of" and "in chief", nothing before an IC noun
	kindStop                 // "at", "to", "office of": the rest is an employer or a boss
	kindPlaceholder          // a whole title that means "no title"
)

// Flags a word lends to a kind word next to it.
const (
	flagFounderRole = 1 << iota // after founder: "founder's associate"
	flagOwnerRole               // before owner: "product owner"
	flagPartnerRank             // before partner: "general partner"
	flagPartnerRole             // after partner: "partner programs"
	flagChiefIC                 // after chief: "chief architect"
)

// titleWord is what one word or two-word phrase contributes.
type titleWord struct {
	level level
	fn    function
	kind  wordKind
	flags uint8
}

// Word tables: comma-separated words or two-word phrases per signal.
var (
	titleLevelWords = [...]struct {
		level level
		words string
	}{
		{levelFounder, "founder,founders,cofounder,cofounders,owner,owners,coowner,entrepreneur,solopreneur,proprietor"},
		{levelCXO, "chief,ceo,cto,cfo,coo,cmo,cro,cpo,cio,ciso,cdo,cco,chro,cso,cao,cbo,cgo,cxo,cpto,cdao," +
			"caio,clo,cbdo,president,chairman,chairwoman,chairperson,chair,c level,c suite,clevel,csuite," +
			"managing director,managing partner"},
		{levelVP, "vp,vps,svp,evp,avp,rvp,gvp,vicepresident,vice president,vice presidents"},
		{levelDirector, "director,directors,dir,directeur,directora,gm,general manager,account director"},
		{levelHead, "head,heads"},
		{levelManager, "manager,managers,mgr,mngr,supervisor,pm,gpm,pmm,tpm,csm,bdm,account manager," +
			"account managers"},
	}
	titleFunctionWords = [...]struct {
		fn    function
		words string
	}{
		{fnRevOps, "revops,salesops,marops,rev ops,revenue operations,revenue ops,sales operations," +
			"sales ops,marketing operations,marketing ops,cs ops,success operations,success ops,gtm operations," +
			"gtm ops"},
		{fnRevenue, "revenue,cro,monetization,monetisation"},
		{fnSales, "sales,ae,aes,sdr,sdrs,bdr,bdrs,bdm,bd,bizdev,presales,salesperson,salesman," +
			"saleswoman,salespeople,seller,sellers,selling,commercial,territory,cbdo,account executive," +
			"account executives,business development,pre sales,key account,key accounts,account director," +
			"new business"},
		{fnMarketing, "marketing,marketer,marketers,marketeer,mktg,cmo,pmm,brand,branding,content,demand," +
			"seo,sem,ppc,communications,communication,comms,pr,creative,copywriter,copywriting,advertising," +
			"media,abm,lifecycle,graphic,events,event,community,campaign,campaigns,public relations," +
			"market research,social media,lead generation"},
		{fnGrowth, "growth,cgo,user acquisition,customer acquisition"},
		{fnPeople, "hr,hrbp,hris,people,peopleops,talent,recruiter,recruiters,recruiting,recruitment,chro," +
			"sourcer,headhunter,compensation,benefits,payroll,learning,l&d,diversity,dei,employee," +
			"human resources,human resource"},
		{fnFinance, "finance,financial,cfo,accounting,accountant,accountants,controller,comptroller," +
			"treasury,treasurer,fp&a,fpa,tax,audit,auditor,bookkeeper,bookkeeping,actuary,actuarial," +
			"billing,finops,underwriter,underwriting,investor relations,accounts payable," +
			"accounts receivable,revenue accountant,revenue accounting,revenue recognition,revenue cycle"},
		{fnCustomerSuccess, "customer,customers,client,clients,support,csm,cs,cx,onboarding," +
			"implementation,success,renewal,renewals,tam,account manager,account managers,account management"},
		{fnPartnerships, "partnership,partnerships,alliance,alliances,channel,channels,ecosystem," +
			"ecosystems,reseller,resellers,affiliate,affiliates"},
		{fnProduct, "product,products,cpo,cpto,pm,gpm,ux,ui,design,designer,designers,user research"},
		{fnEngineering, "engineer,engineers,engineering,eng,developer,developers,dev,devs,software,cto," +
			"cio,ciso,cdo,cdao,caio,devops,devsecops,secops,mlops,dataops,sre,architect,architecture," +
			"scientist,data,database,dba,it,security,cybersecurity,infosec,qa,qe,sdet,technical," +
			"technology,tech,programmer,programming,coder,infrastructure,cloud,backend,frontend,fullstack," +
			"full stack,ml,ai,systems,sysadmin,network,networking,firmware,hardware,analytics,tpm,r&d," +
			"information,machine learning,deep learning,it support,quality assurance,product engineer," +
			"product engineering,design engineer"},
		{fnOperations, "operations,operational,ops,coo,operating,supply,logistics,procurement,purchasing," +
			"facilities,facility,fulfillment,fulfilment,warehouse,manufacturing,production,sourcing,bizops," +
			"office,quality,plant,inventory"},
	}
	titleKindWords = [...]struct {
		kind  wordKind
		words string
	}{
		{kindFounder, "founder,founders,cofounder,cofounders"},
		{kindOwner, "owner,owners,coowner"},
		{kindPartner, "partner,partners"},
		{kindChief, "chief"},
		{kindStop, "at,to,office of"},
		{kindPlaceholder, "n a,na,none,null,nil,unknown,tbd,tba,undefined"},
	}
	titleFlagWords = [...]struct {
		flag  uint8
		words string
	}{
		{flagFounderRole, "associate,associates,office,assistant"},
		{flagOwnerRole, "product,process,service,data,budget,system,systems,platform,feature,content," +
			"application,app,risk,control,technical,solution,release,project,program,account,test," +
			"quality,asset,policy,domain,p&l"},
		{flagPartnerRank, "general,senior,sr,snr,founding,equity,venture,operating,executive,associate," +
			"name,junior,jr,salaried,limited,deputy,investment"},
		{flagPartnerRole, "account,accounts,development,program,programs,programme,relations," +
			"relationship,lead,executive,specialist,solutions,enablement,integrations,integration," +
			"experience,strategy,coordinator,analyst,representative,rep,team,associate"},
		{flagChiefIC, "architect,engineer,scientist,economist,editor,accountant,pilot,designer," +
			"evangelist,technologist,nurse,estimator,inspector,investigator"},
	}
)

// titleVocab merges the word tables into one lookup, built on first use.
// "go to" is an entry with no signal so that "go-to-market" does not stop
// the scan, and "e learning" so that e-learning is not People.
var titleVocab = sync.OnceValue(func() map[string]titleWord {
	m := make(map[string]titleWord, 600)
	each := func(words string, f func(w *titleWord)) {
		for _, s := range strings.Split(words, ",") {
			w := m[s]
			f(&w)
			m[s] = w
		}
	}
	for _, e := range titleLevelWords {
		each(e.words, func(w *titleWord) { w.level = e.level })
	}
	for _, e := range titleFunctionWords {
		each(e.words, func(w *titleWord) { w.fn = e.fn })
	}
	for _, e := range titleKindWords {
		each(e.words, func(w *titleWord) { w.kind = e.kind })
	}
	for _, e := range titleFlagWords {
		each(e.words, func(w *titleWord) { w.flags |= e.flag })
	}
	each("go to,e learning", func(*titleWord) {})
	return m
})
