package demo

// industry is one canonical industry label with the words its companies
// are named and described with.
type industry struct {
	label     string
	weight    float64
	nouns     []string // second word of company names; one word each
	keywords  []string // lowercase
	products  []string // "builds <product> for <audience>"
	audiences []string
	revenue   float64 // USD per employee per year
}

var industries = []industry{
	{"Software Development", 18,
		[]string{"Software", "Labs", "Systems", "Cloud", "Stack", "Apps", "Logic", "Works", "Code", "Platform", "AI", "HQ", "Sync", "Ops", "Base", "Suite"},
		[]string{"saas", "crm", "api", "devtools", "b2b software", "workflow automation", "cloud", "erp", "collaboration", "ai", "sales engagement", "product analytics"},
		[]string{"workflow automation software", "a CRM", "developer tooling", "an API platform", "scheduling software", "a sales engagement platform", "AI assistants"},
		[]string{"mid-market sales teams", "engineering teams", "finance teams", "small businesses", "enterprise IT", "revenue teams"}, 180_000},
	{"IT Services and IT Consulting", 12,
		[]string{"Consulting", "Solutions", "Technologies", "Digital", "Integrations", "Tech", "Infotech", "IT", "Services", "Consultants"},
		[]string{"it consulting", "managed services", "cloud migration", "digital transformation", "systems integration", "outsourcing", "devops", "erp implementation"},
		[]string{"managed IT services", "cloud migration programmes", "ERP implementations", "custom software development", "24/7 infrastructure support"},
		[]string{"mid-sized enterprises", "public sector agencies", "retailers", "healthcare providers", "manufacturers"}, 120_000},
	{"Financial Services", 5,
		[]string{"Financial", "Capital", "Pay", "Wealth", "Finance", "Money"},
		[]string{"payments", "fintech", "lending", "wealth management", "compliance", "invoicing", "expense management", "treasury"},
		[]string{"payment infrastructure", "small-business lending", "wealth management tools", "expense management software", "treasury automation"},
		[]string{"online merchants", "independent advisors", "CFOs", "small businesses", "marketplaces"}, 300_000},
	{"Banking", 1.5,
		[]string{"Bank", "Trust", "Savings", "Bancorp"},
		[]string{"banking", "deposits", "commercial lending", "mortgages", "digital banking", "treasury"},
		[]string{"commercial banking", "digital banking", "mortgage lending", "treasury services"},
		[]string{"local businesses", "families", "startups", "agricultural businesses"}, 350_000},
	{"Insurance", 2,
		[]string{"Insurance", "Assurance", "Mutual", "Cover", "Underwriters"},
		[]string{"insurtech", "claims", "underwriting", "risk", "commercial insurance", "cyber insurance"},
		[]string{"commercial insurance", "cyber insurance", "claims automation", "embedded insurance"},
		[]string{"small businesses", "fleet operators", "homeowners", "technology companies"}, 400_000},
	{"Business Consulting and Services", 6,
		[]string{"Advisors", "Consulting", "Group", "Partners", "Associates", "Strategy"},
		[]string{"strategy", "operations consulting", "change management", "outsourcing", "process improvement", "revops consulting", "go-to-market"},
		[]string{"go-to-market strategy", "operations consulting", "revenue operations advisory", "change management programmes"},
		[]string{"growth-stage companies", "private equity portfolios", "family businesses", "B2B software companies"}, 150_000},
	{"Retail", 3,
		[]string{"Goods", "Supply", "Outfitters", "Market", "Store", "Brands"},
		[]string{"ecommerce", "retail", "omnichannel", "d2c", "consumer goods", "loyalty", "point of sale"},
		[]string{"outdoor gear", "home goods", "sustainable apparel", "specialty foods", "consumer electronics"},
		[]string{"shoppers online and in store", "outdoor enthusiasts", "young families", "home cooks"}, 200_000},
	{"Manufacturing", 4,
		[]string{"Manufacturing", "Industries", "Robotics", "Machines", "Components", "Fabrication", "Materials"},
		[]string{"industrial automation", "robotics", "supply chain", "iot", "quality control", "cnc machining", "industry 4.0"},
		[]string{"industrial robots", "precision components", "packaging machinery", "advanced materials", "sensor assemblies"},
		[]string{"automotive suppliers", "food producers", "aerospace programmes", "electronics makers"}, 250_000},
	{"Hospitals and Health Care", 4,
		[]string{"Health", "Care", "Medical", "Clinics", "Healthcare", "Wellness"},
		[]string{"healthcare", "telehealth", "patient engagement", "ehr", "clinical operations", "primary care", "behavioral health"},
		[]string{"virtual primary care", "outpatient clinics", "patient engagement tools", "home health services", "behavioral health programmes"},
		[]string{"employers", "health systems", "patients", "seniors"}, 120_000},
	{"Education", 2,
		[]string{"Academy", "Learning", "Institute", "School"},
		[]string{"education", "k-12", "higher education", "tutoring", "curriculum", "student success"},
		[]string{"tutoring programmes", "curriculum tools", "career education", "language courses"},
		[]string{"students", "school districts", "universities", "adult learners"}, 80_000},
	{"Real Estate", 2,
		[]string{"Properties", "Realty", "Estates", "Homes", "Spaces"},
		[]string{"proptech", "commercial real estate", "property management", "leasing", "coworking"},
		[]string{"flexible office space", "property management services", "commercial leasing", "residential development"},
		[]string{"growing teams", "landlords", "investors", "tenants"}, 300_000},
	{"Marketing Services", 4,
		[]string{"Marketing", "Media", "Growth", "Creative", "Studio"},
		[]string{"marketing", "seo", "content marketing", "demand generation", "email marketing", "marketing automation", "abm"},
		[]string{"demand generation programmes", "SEO and content marketing", "account-based marketing", "marketing automation services"},
		[]string{"B2B software companies", "professional services firms", "ecommerce brands", "startups"}, 110_000},
	{"Advertising Services", 2,
		[]string{"Ads", "Advertising", "Creative", "Media"},
		[]string{"adtech", "programmatic", "media buying", "brand strategy", "performance marketing"},
		[]string{"programmatic advertising", "media buying", "brand campaigns", "performance marketing"},
		[]string{"consumer brands", "app developers", "retailers", "agencies"}, 130_000},
	{"Staffing and Recruiting", 3,
		[]string{"Talent", "Staffing", "Recruiting", "Search", "People"},
		[]string{"recruiting", "staffing", "talent acquisition", "hr tech", "executive search", "rpo"},
		[]string{"technical recruiting", "executive search", "contract staffing", "recruitment process outsourcing"},
		[]string{"high-growth startups", "enterprise HR teams", "engineering leaders", "healthcare employers"}, 90_000},
	{"Computer and Network Security", 3.5,
		[]string{"Security", "Defense", "Shield", "Cyber", "Guard", "Secure"},
		[]string{"cybersecurity", "zero trust", "siem", "identity", "threat detection", "soc 2", "endpoint security"},
		[]string{"threat detection", "identity and access management", "cloud security posture management", "compliance automation"},
		[]string{"security teams", "regulated industries", "cloud-native companies", "IT departments"}, 200_000},
	{"Technology, Information and Internet", 6,
		[]string{"Technologies", "Networks", "Online", "Interactive", "Web", "Digital"},
		[]string{"internet", "consumer apps", "ai", "platform", "mobile", "search", "online community"},
		[]string{"consumer apps", "online communities", "AI-powered search", "creator tools", "mobile platforms"},
		[]string{"creators", "consumers", "online communities", "developers"}, 250_000},
	{"Biotechnology Research", 2,
		[]string{"Bio", "Therapeutics", "Biosciences", "Genomics", "Biologics"},
		[]string{"biotech", "drug discovery", "genomics", "clinical trials", "life sciences", "protein engineering"},
		[]string{"antibody therapeutics", "genomic diagnostics", "cell therapies", "drug discovery platforms"},
		[]string{"pharmaceutical partners", "research hospitals", "patients with rare diseases"}, 150_000},
	{"Telecommunications", 1.5,
		[]string{"Telecom", "Communications", "Connect", "Wireless", "Fiber"},
		[]string{"telecom", "5g", "connectivity", "voip", "fiber", "unified communications"},
		[]string{"fiber connectivity", "business VoIP", "private 5G networks", "unified communications"},
		[]string{"enterprises", "rural communities", "contact centres", "carriers"}, 400_000},
	{"Transportation, Logistics, Supply Chain and Storage", 3,
		[]string{"Logistics", "Freight", "Shipping", "Transport", "Fleet", "Cargo"},
		[]string{"logistics", "freight", "supply chain", "last-mile delivery", "warehousing", "fleet management", "3pl"},
		[]string{"freight brokerage", "last-mile delivery", "warehousing and fulfilment", "fleet management software"},
		[]string{"shippers", "ecommerce brands", "manufacturers", "grocers"}, 180_000},
	{"Construction", 2,
		[]string{"Construction", "Builders", "Building", "Contractors"},
		[]string{"construction", "contech", "project management", "infrastructure", "general contracting"},
		[]string{"commercial construction", "modular building", "infrastructure projects", "construction management"},
		[]string{"developers", "municipalities", "hospital systems", "schools"}, 220_000},
	{"E-Learning Providers", 2,
		[]string{"Courses", "Learning", "Academy", "Skills"},
		[]string{"edtech", "e-learning", "lms", "online courses", "corporate training", "upskilling"},
		[]string{"online courses", "a learning management system", "corporate training", "sales enablement content"},
		[]string{"enterprise L&D teams", "professionals", "sales teams", "universities"}, 120_000},
	{"Venture Capital and Private Equity Principals", 1,
		[]string{"Capital", "Ventures", "Equity", "Investments"},
		[]string{"venture capital", "private equity", "seed investing", "growth equity", "b2b"},
		[]string{"seed and Series A capital", "growth equity", "buyout capital"},
		[]string{"B2B software founders", "climate startups", "fintech founders", "healthcare companies"}, 600_000},
	{"Data Infrastructure and Analytics", 5,
		[]string{"Analytics", "Data", "Insights", "Metrics", "Intelligence"},
		[]string{"data warehouse", "analytics", "etl", "business intelligence", "data pipelines", "machine learning", "data quality"},
		[]string{"data pipelines", "a business intelligence platform", "data quality monitoring", "real-time analytics", "a feature store"},
		[]string{"data teams", "analysts", "revenue operations teams", "product teams"}, 200_000},
	{"Internet Marketplace Platforms", 2,
		[]string{"Marketplace", "Exchange", "Hub", "Bazaar"},
		[]string{"marketplace", "two-sided marketplace", "ecommerce", "b2b marketplace", "gig economy"},
		[]string{"a B2B marketplace", "a freelance marketplace", "an equipment rental marketplace", "a wholesale marketplace"},
		[]string{"independent retailers", "freelancers", "contractors", "restaurants"}, 220_000},
	{"Medical Equipment Manufacturing", 1.5,
		[]string{"Devices", "Diagnostics", "Instruments", "Medtech", "Surgical"},
		[]string{"medical devices", "diagnostics", "medtech", "fda", "imaging", "wearables"},
		[]string{"point-of-care diagnostics", "surgical instruments", "wearable monitors", "imaging systems"},
		[]string{"hospitals", "clinics", "home care patients", "surgeons"}, 260_000},
}

// nouns is every industry noun once; nounIndex[industry][k] is the
// position in nouns of industries[industry].nouns[k], so a domain's
// (brand, noun) pair can be counted whichever industry chose it.
var nouns, nounIndex = func() ([]string, [][]int) {
	var all []string
	at := map[string]int{}
	index := make([][]int, len(industries))
	for i, ind := range industries {
		for _, n := range ind.nouns {
			k, ok := at[n]
			if !ok {
				k = len(all)
				at[n] = k
				all = append(all, n)
			}
			index[i] = append(index[i], k)
		}
	}
	return all, index
}()

var industryWeights = func() weights {
	ws := make([]float64, len(industries))
	for i, ind := range industries {
		ws[i] = ind.weight
	}
	return newWeights(ws...)
}()
