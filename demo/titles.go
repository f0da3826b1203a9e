package demo

// Levels and functions in the taxonomy's order (taxonomy.JobLevels and
// taxonomy.JobFunctions); the demo writes titles only and leaves the
// write path to derive level and function from them.
const (
	lvFounder = iota
	lvCXO
	lvVP
	lvDirector
	lvHead
	lvManager
	lvIC
	numLevels
)

const (
	fnSales = iota
	fnMarketing
	fnGrowth
	fnRevenue
	fnOperations
	fnRevOps
	fnProduct
	fnEngineering
	fnPeople
	fnFinance
	fnCustomerSuccess
	fnPartnerships
	numFunctions
)

// levelWeights is the pyramid below the founders.
var levelWeights = newWeights(0, 2.5, 5, 8, 6, 20, 58.5)

var functionWeights = newWeights(20, 12, 4, 3, 8, 4, 8, 22, 6, 6, 8, 3)

var founderTitles = []string{"Founder", "Co-founder", "Founder & CEO", "Co-founder & CEO", "Founder & Managing Director"}

// founderByFunction adds the function-specific founder titles.
var founderByFunction = [numFunctions][]string{
	fnSales:           {"Co-founder & Chief Revenue Officer", "Co-founder, Sales"},
	fnMarketing:       {"Co-founder & CMO"},
	fnGrowth:          {"Co-founder, Growth"},
	fnOperations:      {"Co-founder & COO"},
	fnProduct:         {"Co-founder & CPO", "Co-founder & Head of Product"},
	fnEngineering:     {"Co-founder & CTO", "Founder & CTO"},
	fnFinance:         {"Co-founder & CFO"},
	fnPartnerships:    {"Co-founder, Partnerships"},
	fnCustomerSuccess: {"Co-founder & Chief Customer Officer"},
}

// titles[level][function] are the title shapes below Founder.
var titles = [numLevels][numFunctions][]string{
	lvCXO: {
		fnSales:           {"Chief Sales Officer", "Chief Commercial Officer"},
		fnMarketing:       {"Chief Marketing Officer", "CMO"},
		fnGrowth:          {"Chief Growth Officer"},
		fnRevenue:         {"Chief Revenue Officer", "CRO"},
		fnOperations:      {"Chief Operating Officer", "COO", "Chief Executive Officer", "CEO"},
		fnRevOps:          {"Chief Revenue Operations Officer"},
		fnProduct:         {"Chief Product Officer", "CPO"},
		fnEngineering:     {"Chief Technology Officer", "CTO", "Chief Information Officer"},
		fnPeople:          {"Chief People Officer", "Chief Human Resources Officer"},
		fnFinance:         {"Chief Financial Officer", "CFO"},
		fnCustomerSuccess: {"Chief Customer Officer"},
		fnPartnerships:    {"Chief Partnerships Officer", "Chief Alliances Officer"},
	},
	lvVP: {
		fnSales:           {"VP of Sales", "VP Sales", "Vice President of Sales", "SVP of Sales", "VP of Sales, EMEA", "VP of Enterprise Sales"},
		fnMarketing:       {"VP of Marketing", "VP Marketing", "Vice President of Marketing", "VP of Demand Generation"},
		fnGrowth:          {"VP of Growth", "VP Growth"},
		fnRevenue:         {"VP of Revenue", "SVP of Revenue"},
		fnOperations:      {"VP of Operations", "VP Business Operations"},
		fnRevOps:          {"VP of Revenue Operations", "VP RevOps", "VP of Sales Operations"},
		fnProduct:         {"VP of Product", "VP Product Management"},
		fnEngineering:     {"VP of Engineering", "VP Engineering", "Vice President of Engineering"},
		fnPeople:          {"VP of People", "VP of Talent", "VP Human Resources"},
		fnFinance:         {"VP of Finance", "VP Finance & Accounting"},
		fnCustomerSuccess: {"VP of Customer Success", "VP Customer Experience"},
		fnPartnerships:    {"VP of Partnerships", "VP of Strategic Partnerships", "VP Alliances"},
	},
	lvDirector: {
		fnSales:           {"Director of Sales", "Sales Director", "Regional Sales Director", "Director of Enterprise Sales"},
		fnMarketing:       {"Director of Marketing", "Director of Demand Generation", "Director of Product Marketing", "Marketing Director"},
		fnGrowth:          {"Director of Growth", "Growth Director"},
		fnRevenue:         {"Director of Revenue", "Revenue Director"},
		fnOperations:      {"Director of Operations", "Operations Director"},
		fnRevOps:          {"Director of Revenue Operations", "Director of Sales Operations", "RevOps Director"},
		fnProduct:         {"Director of Product Management", "Director of Product", "Product Director"},
		fnEngineering:     {"Director of Engineering", "Engineering Director", "Director of Platform Engineering"},
		fnPeople:          {"Director of Talent Acquisition", "Director of People", "HR Director"},
		fnFinance:         {"Finance Director", "Director of Finance", "Director of FP&A"},
		fnCustomerSuccess: {"Director of Customer Success", "Customer Success Director", "Director of Support"},
		fnPartnerships:    {"Director of Partnerships", "Director of Alliances", "Channel Partnerships Director"},
	},
	lvHead: {
		fnSales:           {"Head of Sales", "Head of Enterprise Sales"},
		fnMarketing:       {"Head of Marketing", "Head of Content"},
		fnGrowth:          {"Head of Growth"},
		fnRevenue:         {"Head of Revenue"},
		fnOperations:      {"Head of Operations", "Head of Business Operations"},
		fnRevOps:          {"Head of RevOps", "Head of Revenue Operations"},
		fnProduct:         {"Head of Product", "Head of Design"},
		fnEngineering:     {"Head of Engineering", "Head of Data", "Head of Infrastructure"},
		fnPeople:          {"Head of People", "Head of Talent"},
		fnFinance:         {"Head of Finance"},
		fnCustomerSuccess: {"Head of Customer Success", "Head of Support"},
		fnPartnerships:    {"Head of Partnerships", "Head of Alliances"},
	},
	lvManager: {
		fnSales:           {"Sales Manager", "Regional Sales Manager", "Inside Sales Manager", "SDR Manager"},
		fnMarketing:       {"Marketing Manager", "Product Marketing Manager", "Content Marketing Manager", "Demand Generation Manager"},
		fnGrowth:          {"Growth Manager"},
		fnRevenue:         {"Revenue Manager"},
		fnOperations:      {"Operations Manager", "Business Operations Manager"},
		fnRevOps:          {"Revenue Operations Manager", "Sales Operations Manager"},
		fnProduct:         {"Product Manager", "Senior Product Manager", "Group Product Manager"},
		fnEngineering:     {"Engineering Manager", "Software Engineering Manager"},
		fnPeople:          {"HR Manager", "Talent Acquisition Manager", "People Operations Manager"},
		fnFinance:         {"Finance Manager", "Accounting Manager", "Payroll Manager"},
		fnCustomerSuccess: {"Customer Success Manager", "Support Manager", "Account Manager"},
		fnPartnerships:    {"Partner Manager", "Channel Partner Manager", "Partnerships Manager"},
	},
	lvIC: {
		fnSales:           {"Account Executive", "Senior Account Executive", "Enterprise Account Executive", "Sales Development Representative", "Business Development Representative", "Inside Sales Representative"},
		fnMarketing:       {"Marketing Specialist", "Content Strategist", "Demand Generation Specialist", "Marketing Coordinator", "SEO Specialist"},
		fnGrowth:          {"Growth Analyst", "Growth Specialist"},
		fnRevenue:         {"Revenue Analyst", "Revenue Strategy Analyst", "Revenue Specialist"},
		fnOperations:      {"Operations Analyst", "Business Operations Associate", "Operations Specialist"},
		fnRevOps:          {"Revenue Operations Analyst", "Sales Operations Analyst", "Sales Operations Specialist", "RevOps Specialist"},
		fnProduct:         {"Product Designer", "Product Analyst", "UX Researcher", "Product Owner"},
		fnEngineering:     {"Software Engineer", "Senior Software Engineer", "Staff Engineer", "Backend Engineer", "Frontend Developer", "Data Engineer", "DevOps Engineer", "Site Reliability Engineer", "Machine Learning Engineer"},
		fnPeople:          {"Talent Acquisition Partner", "Recruiter", "Technical Recruiter", "HR Business Partner", "People Operations Specialist"},
		fnFinance:         {"Financial Analyst", "Accountant", "Senior Accountant", "FP&A Analyst"},
		fnCustomerSuccess: {"Customer Success Specialist", "Customer Support Specialist", "Implementation Specialist", "Onboarding Specialist"},
		fnPartnerships:    {"Partnerships Associate", "Alliances Specialist", "Channel Partnerships Associate"},
	},
}

// role is a hiring headline's job: "Hiring 3 Account Executives".
type role struct{ one, many string }

var hiringRoles = []role{
	{"Account Executive", "Account Executives"}, {"Sales Development Representative", "Sales Development Representatives"},
	{"Enterprise Account Executive", "Enterprise Account Executives"}, {"Senior Software Engineer", "Senior Software Engineers"},
	{"Software Engineer", "Software Engineers"}, {"Customer Success Manager", "Customer Success Managers"},
	{"Data Engineer", "Data Engineers"}, {"Product Designer", "Product Designers"}, {"Solutions Engineer", "Solutions Engineers"},
	{"Product Manager", "Product Managers"}, {"Marketing Manager", "Marketing Managers"}, {"Recruiter", "Recruiters"},
	{"Revenue Operations Analyst", "Revenue Operations Analysts"}, {"Site Reliability Engineer", "Site Reliability Engineers"},
	{"Financial Analyst", "Financial Analysts"}, {"Partner Manager", "Partner Managers"}, {"Support Specialist", "Support Specialists"},
}

// leaderRoles are hired one at a time.
var leaderRoles = []string{
	"VP of Sales", "Head of RevOps", "VP of Marketing", "Head of Growth", "Chief Revenue Officer", "VP of Engineering",
	"Head of Customer Success", "Director of Demand Generation", "Head of Partnerships", "Chief Financial Officer",
	"Head of People", "VP of Product", "Engineering Manager", "Head of Sales",
}

// article is "a" or "an" for s.
func article(s string) string {
	if s != "" && (s[0] == 'A' || s[0] == 'E' || s[0] == 'I' || s[0] == 'O' || s[0] == 'U') {
		return "an"
	}
	return "a"
}
