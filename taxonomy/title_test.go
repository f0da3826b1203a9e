package taxonomy

import (
	"slices"
	"strings"
	"testing"
)

func TestParseTitle(t *testing.T) {
	const dm, inf = RoleDecisionMaker, RoleInfluencer
	tests := []struct {
		title, level, function, role string
	}{
		// The examples the brief and the decisions record pin down.
		{"VP of Sales", "VP", "Sales", dm},
		{"Head of RevOps", "Head", "RevOps", dm},
		{"Co-founder & CEO", "Founder", "", dm},
		{"Senior Software Engineer", "IC", "Engineering", inf},
		{"Chief Revenue Officer", "CXO", "Revenue", dm},
		{"VP, Revenue Operations", "VP", "RevOps", dm},
		{"Director of Demand Generation", "Director", "Marketing", dm},
		{"Head of Growth", "Head", "Growth", dm},
		{"Account Executive", "IC", "Sales", inf},
		{"SDR", "IC", "Sales", inf},
		{"Customer Success Manager", "Manager", "Customer Success", inf},
		{"Talent Acquisition Partner", "IC", "People", inf},
		{"CFO", "CXO", "Finance", dm},
		{"Engineering Manager", "Manager", "Engineering", inf},
		{"Product Marketing Manager", "Manager", "Marketing", inf},
		{"Group Product Manager", "Manager", "Product", inf},
		{"Sr. Director, Partnerships", "Director", "Partnerships", dm},
		{"Founder", "Founder", "", dm},
		{"Chief of Staff", "Head", "", dm},
		{"", "", "", inf},

		// Multi-role titles: the most senior level, the first function.
		{"CEO & Co-Founder", "Founder", "", dm},
		{"Founder / CTO", "Founder", "Engineering", dm},
		{"Founder & CTO", "Founder", "Engineering", dm},
		{"VP Sales & Marketing", "VP", "Sales", dm},
		{"Head of Sales EMEA", "Head", "Sales", dm},
		{"Director, Revenue Operations (RevOps)", "Director", "RevOps", dm},
		{"Chief Technology Officer & Co-founder", "Founder", "Engineering", dm},
		{"Co-Founder & Chief Product Officer", "Founder", "Product", dm},
		{"CEO | Founder | Investor", "Founder", "", dm},
		{"President & COO", "CXO", "Operations", dm},
		{"CEO & CTO", "CXO", "Engineering", dm},
		{"Partner & CFO", "CXO", "Finance", dm},
		{"Founder and Managing Director", "Founder", "", dm},
		{"Head of Product & Engineering", "Head", "Product", dm},
		{"Director of Sales and Marketing", "Director", "Sales", dm},
		{"Marketing & Sales Director", "Director", "Sales", dm},
		{"VP Finance & Operations", "VP", "Finance", dm},
		{"Head of Customer Success & Support", "Head", "Customer Success", dm},

		// Founders and owners.
		{"Cofounder", "Founder", "", dm},
		{"Co founder and CEO", "Founder", "", dm},
		{"Entrepreneur", "Founder", "", dm},
		{"Owner", "Founder", "", dm},
		{"Business Owner", "Founder", "", dm},
		{"Co-Owner & Operator", "Founder", "", dm},
		{"Owner/Operator", "Founder", "", dm},
		{"Product Owner", "IC", "Product", inf},
		{"Process Owner, Finance", "IC", "Finance", inf},
		{"Founder's Associate", "IC", "", inf},
		{"Founding Engineer", "IC", "Engineering", inf},

		// C-suite.
		{"ceo", "CXO", "", dm},
		{"Chief Executive Officer", "CXO", "", dm},
		{"President", "CXO", "", dm},
		{"Managing Director", "CXO", "", dm},
		{"Managing Director, Investment Banking", "CXO", "", dm},
		{"Chairman of the Board", "CXO", "", dm},
		{"Vice Chairman", "CXO", "", dm},
		{"Deputy CEO", "CXO", "", dm},
		{"C-Level Executive", "CXO", "", dm},
		{"EVP & Chief Financial Officer", "CXO", "Finance", dm},
		{"Chief Product Officer", "CXO", "Product", dm},
		{"CPO", "CXO", "Product", dm},
		{"CTO", "CXO", "Engineering", dm},
		{"CISO", "CXO", "Engineering", dm},
		{"Chief Information Security Officer", "CXO", "Engineering", dm},
		{"Chief Data Officer", "CXO", "Engineering", dm},
		{"CMO", "CXO", "Marketing", dm},
		{"Chief Marketing Officer", "CXO", "Marketing", dm},
		{"CRO", "CXO", "Revenue", dm},
		{"Chief Commercial Officer", "CXO", "Sales", dm},
		{"Chief Growth Officer", "CXO", "Growth", dm},
		{"Chief People Officer", "CXO", "People", dm},
		{"CHRO", "CXO", "People", dm},
		{"Chief Human Resources Officer", "CXO", "People", dm},
		{"COO", "CXO", "Operations", dm},
		{"Chief Operating Officer", "CXO", "Operations", dm},
		{"Chief Customer Officer", "CXO", "Customer Success", dm},

		// Vice presidents.
		{"Vice President of Marketing", "VP", "Marketing", dm},
		{"Vice-President, Engineering", "VP", "Engineering", dm},
		{"VICE PRESIDENT, SALES", "VP", "Sales", dm},
		{"vp sales", "VP", "Sales", dm},
		{"SVP Global Sales", "VP", "Sales", dm},
		{"S.V.P. Marketing", "VP", "Marketing", dm},
		{"AVP, Finance", "VP", "Finance", dm},
		{"V.P. Customer Success", "VP", "Customer Success", dm},
		{"Senior Vice President, Global Operations", "VP", "Operations", dm},
		{"Regional Vice President", "VP", "", dm},
		{"RVP Sales", "VP", "Sales", dm},
		{"Group Vice President", "VP", "", dm},
		{"VP Revenue", "VP", "Revenue", dm},
		{"VP Talent", "VP", "People", dm},
		{"VP Customer Success", "VP", "Customer Success", dm},
		{"VP, Partnerships", "VP", "Partnerships", dm},

		// Directors, partners, general managers.
		{"Director", "Director", "", dm},
		{"Dir. of Marketing", "Director", "Marketing", dm},
		{"Sr.Director Engineering", "Director", "Engineering", dm},
		{"Director – Sales", "Director", "Sales", dm},
		{"Director, Customer Success", "Director", "Customer Success", dm},
		{"Director of Business Development", "Director", "Sales", dm},
		{"Director of Channel Sales", "Director", "Sales", dm},
		{"Director of Strategic Alliances", "Director", "Partnerships", dm},
		{"Director of IT Operations", "Director", "Engineering", dm},
		{"Director of FP&A", "Director", "Finance", dm},
		{"Director of Product Management", "Director", "Product", dm},
		{"Associate Director, Marketing", "Director", "Marketing", dm},
		{"Executive Director", "Director", "", dm},
		{"Field Marketing Director", "Director", "Marketing", dm},
		{"Supply Chain Director", "Director", "Operations", dm},
		{"Information Technology Director", "Director", "Engineering", dm},
		{"Account Director", "Director", "Sales", dm},
		{"M&A Director", "Director", "", dm},
		{"Directeur Commercial", "Director", "Sales", dm},
		{"Partner", "Director", "", dm},
		{"General Partner", "Director", "", dm},
		{"Founding Partner", "Director", "", dm},
		{"Venture Partner", "Director", "", dm},
		{"Partner, Deloitte Consulting", "Director", "", dm},
		{"Managing Partner", "CXO", "", dm},
		{"General Manager", "Director", "", dm},
		{"General Manager, APAC", "Director", "", dm},

		// Heads.
		{"Head", "Head", "", dm},
		{"Head of Sales — EMEA", "Head", "Sales", dm},
		{"Head of Design", "Head", "Product", dm},
		{"Head of Communications", "Head", "Marketing", dm},
		{"Head of Logistics", "Head", "Operations", dm},
		{"Head of People", "Head", "People", dm},
		{"Head of Business Development", "Head", "Sales", dm},
		{"Head of Customer Experience", "Head", "Customer Success", dm},
		{"Head of Partnerships & Alliances", "Head", "Partnerships", dm},
		{"Head of Ecosystem", "Head", "Partnerships", dm},
		{"Head of Data", "Head", "Engineering", dm},
		{"Head of IT", "Head", "Engineering", dm},
		{"Head of Go-to-Market", "Head", "", dm},
		{"Editor-in-Chief", "Head", "", dm},
		{"Chief of Staff to the CTO", "Head", "", dm},

		// Managers.
		{"Manager", "Manager", "", inf},
		{"Mgr, Sales Ops", "Manager", "RevOps", inf},
		{"Sales Ops Manager", "Manager", "RevOps", inf},
		{"Marketing Operations Manager", "Manager", "RevOps", inf},
		{"RevOps Manager", "Manager", "RevOps", inf},
		{"Customer Success Operations Manager", "Manager", "RevOps", inf},
		{"Regional Sales Manager", "Manager", "Sales", inf},
		{"Key Account Manager", "Manager", "Sales", inf},
		{"Channel Sales Manager", "Manager", "Sales", inf},
		{"Sales Enablement Manager", "Manager", "Sales", inf},
		{"Account Manager", "Manager", "Customer Success", inf},
		{"Technical Account Manager", "Manager", "Customer Success", inf},
		{"Implementation Manager", "Manager", "Customer Success", inf},
		{"CSM", "Manager", "Customer Success", inf},
		{"Content Marketing Manager", "Manager", "Marketing", inf},
		{"Growth Marketing Manager", "Manager", "Marketing", inf},
		{"Customer Marketing Manager", "Manager", "Marketing", inf},
		{"Partner Marketing Manager", "Manager", "Marketing", inf},
		{"Brand Manager", "Manager", "Marketing", inf},
		{"PR Manager", "Manager", "Marketing", inf},
		{"Demand Gen Manager", "Manager", "Marketing", inf},
		{"Events Manager", "Manager", "Marketing", inf},
		{"Community Manager", "Manager", "Marketing", inf},
		{"Growth Product Manager", "Manager", "Growth", inf},
		{"Associate Product Manager", "Manager", "Product", inf},
		{"Sr. Product Manager", "Manager", "Product", inf},
		{"Principal Product Manager", "Manager", "Product", inf},
		{"Senior PM", "Manager", "Product", inf},
		{"Partner Manager", "Manager", "Partnerships", inf},
		{"Senior Partner Manager, EMEA", "Manager", "Partnerships", inf},
		{"Channel Partner Manager", "Manager", "Partnerships", inf},
		{"Affiliate Manager", "Manager", "Partnerships", inf},
		{"HR Manager", "Manager", "People", inf},
		{"People Operations Manager", "Manager", "People", inf},
		{"Learning & Development Manager", "Manager", "People", inf},
		{"Tax Manager", "Manager", "Finance", inf},
		{"IT Manager", "Manager", "Engineering", inf},
		{"Operations Manager", "Manager", "Operations", inf},
		{"Office Manager", "Manager", "Operations", inf},
		{"Quality Manager", "Manager", "Operations", inf},
		{"Production Manager", "Manager", "Operations", inf},
		{"Warehouse Supervisor", "Manager", "Operations", inf},
		{"Team Supervisor", "Manager", "", inf},
		{"Country Manager", "Manager", "", inf},
		{"Store Manager", "Manager", "", inf},
		{"Assistant Manager", "Manager", "", inf},

		// Individual contributors.
		{"Sales Engineer", "IC", "Sales", inf},
		{"Business Development Representative", "IC", "Sales", inf},
		{"BDR", "IC", "Sales", inf},
		{"Sales Development Representative", "IC", "Sales", inf},
		{"Enterprise Account Executive", "IC", "Sales", inf},
		{"Mid-Market AE", "IC", "Sales", inf},
		{"Inside Sales Representative", "IC", "Sales", inf},
		{"Sales Operations Analyst", "IC", "RevOps", inf},
		{"Revenue Operations Lead", "IC", "RevOps", inf},
		{"Revenue Accountant", "IC", "Finance", inf},
		{"SEO Specialist", "IC", "Marketing", inf},
		{"Social Media Coordinator", "IC", "Marketing", inf},
		{"Content Writer", "IC", "Marketing", inf},
		{"Copywriter", "IC", "Marketing", inf},
		{"Marketing Intern", "IC", "Marketing", inf},
		{"Product Designer", "IC", "Product", inf},
		{"UX/UI Designer", "IC", "Product", inf},
		{"Lead Product Designer", "IC", "Product", inf},
		{"UX Researcher", "IC", "Product", inf},
		{"Staff Software Engineer", "IC", "Engineering", inf},
		{"Principal Engineer", "IC", "Engineering", inf},
		{"Lead Data Scientist", "IC", "Engineering", inf},
		{"Tech Lead", "IC", "Engineering", inf},
		{"Software Engineering Intern", "IC", "Engineering", inf},
		{"Jr. Developer", "IC", "Engineering", inf},
		{"Software Developer", "IC", "Engineering", inf},
		{"Frontend Developer", "IC", "Engineering", inf},
		{"Full-Stack Developer", "IC", "Engineering", inf},
		{"DevOps Engineer", "IC", "Engineering", inf},
		{"Site Reliability Engineer (SRE)", "IC", "Engineering", inf},
		{"Machine Learning Engineer", "IC", "Engineering", inf},
		{"Security Engineer", "IC", "Engineering", inf},
		{"QA Analyst", "IC", "Engineering", inf},
		{"Quality Assurance Engineer", "IC", "Engineering", inf},
		{"Data Analyst", "IC", "Engineering", inf},
		{"Network Administrator", "IC", "Engineering", inf},
		{"IT Support Technician", "IC", "Engineering", inf},
		{"Product Engineer", "IC", "Engineering", inf},
		{"R&D Engineer", "IC", "Engineering", inf},
		{"Solutions Architect", "IC", "Engineering", inf},
		{"Chief Architect", "IC", "Engineering", inf},
		{"Support Engineer", "IC", "Customer Success", inf},
		{"Customer Support Specialist", "IC", "Customer Success", inf},
		{"Onboarding Specialist", "IC", "Customer Success", inf},
		{"Team Lead, Customer Support", "IC", "Customer Success", inf},
		{"Client Partner", "IC", "Customer Success", inf},
		{"Recruiter", "IC", "People", inf},
		{"Technical Recruiter", "IC", "People", inf},
		{"Engineering Recruiter", "IC", "People", inf},
		{"IT Recruiter", "IC", "People", inf},
		{"HR Business Partner", "IC", "People", inf},
		{"Payroll Specialist", "IC", "People", inf},
		{"Controller", "IC", "Finance", inf},
		{"Financial Controller", "IC", "Finance", inf},
		{"Staff Accountant", "IC", "Finance", inf},
		{"Accounts Payable Specialist", "IC", "Finance", inf},
		{"Finance Business Partner", "IC", "Finance", inf},
		{"Procurement Specialist", "IC", "Operations", inf},
		{"Business Operations Associate", "IC", "Operations", inf},
		{"Principal", "IC", "", inf},
		{"Executive Assistant", "IC", "", inf},
		{"Executive Assistant to the CEO", "IC", "", inf},
		{"Assistant to the VP of Sales", "IC", "", inf},
		{"Board Member", "IC", "", inf},
		{"Advisor", "IC", "", inf},
		{"Investor", "IC", "", inf},
		{"Consultant", "IC", "", inf},
		{"Student", "IC", "", inf},
		{"Gerente de Ventas", "IC", "", inf},

		// Employers after "at" or "@" do not leak into the title.
		{"VP Sales at Acme Growth", "VP", "Sales", dm},
		{"Founder @ Growthly | ex-Google", "Founder", "", dm},
		{"Engineer at Sales Labs", "IC", "Engineering", inf},
		{"Office of the CEO", "IC", "", inf},
		{"Chief of Staff, Office of the CEO", "Head", "", dm},

		// Placeholders and noise.
		{"n/a", "", "", inf},
		{"None", "", "", inf},
		{"   ", "", "", inf},
		{" - ", "", "", inf},
		{"🚀 Founder 🚀", "Founder", "", dm},
		{"  head   OF   sales  ", "Head", "Sales", dm},
	}
	for _, tt := range tests {
		t.Run(tt.title, func(t *testing.T) {
			got := ParseTitle(tt.title)
			want := TitleInfo{Level: tt.level, Function: tt.function, Role: tt.role}
			if got != want {
				t.Errorf("ParseTitle(%q) = %+v, want %+v", tt.title, got, want)
			}
		})
	}
	if len(tests) < 120 {
		t.Fatalf("only %d title shapes; keep at least 120", len(tests))
	}
}

// TestParseTitleValues checks every answer is one of the published enums,
// whatever the input, including titles longer than the parser's buffer.
func TestParseTitleValues(t *testing.T) {
	long := strings.Repeat("Senior Principal Staff Lead ", 20) + "VP Sales"
	for _, title := range []string{long, strings.Repeat("x", 500), "a.b.c.d.e", "&&&", "Ünïcödé Dïrector", "r&d&x"} {
		got := ParseTitle(title)
		if got.Level != "" && !slices.Contains(JobLevels(), got.Level) {
			t.Errorf("ParseTitle(%q).Level = %q", title, got.Level)
		}
		if got.Function != "" && !slices.Contains(JobFunctions(), got.Function) {
			t.Errorf("ParseTitle(%q).Function = %q", title, got.Function)
		}
		if got.Role != RoleOf(got.Level) {
			t.Errorf("ParseTitle(%q).Role = %q, want %q", title, got.Role, RoleOf(got.Level))
		}
	}
}

// TestTitleVocabulary keeps the word tables honest: a word may carry one
// level and one function, never two of either.
func TestTitleVocabulary(t *testing.T) {
	levels, functions := map[string]level{}, map[string]function{}
	for _, e := range titleLevelWords {
		for _, w := range strings.Split(e.words, ",") {
			if old, ok := levels[w]; ok {
				t.Errorf("%q is in level tables %s and %s", w, levelNames[old], levelNames[e.level])
			}
			levels[w] = e.level
		}
	}
	for _, e := range titleFunctionWords {
		for _, w := range strings.Split(e.words, ",") {
			if old, ok := functions[w]; ok {
				t.Errorf("%q is in function tables %s and %s", w, functionNames[old], functionNames[e.fn])
			}
			functions[w] = e.fn
		}
	}
	if len(functionNames)-1 != len(JobFunctions()) || len(levelNames)-1 != len(JobLevels()) {
		t.Fatal("levelNames or functionNames out of step with enum.go")
	}
	for _, f := range functionNames[1:] {
		if !slices.Contains(JobFunctions(), f) {
			t.Errorf("function %q is not in JobFunctions", f)
		}
	}
	for i, l := range JobLevels() {
		if levelNames[i+1] != l {
			t.Errorf("levelNames[%d] = %q, want %q", i+1, levelNames[i+1], l)
		}
	}
}

func TestRoleOf(t *testing.T) {
	for _, l := range []string{"Founder", "CXO", "VP", "Director", "Head"} {
		if got := RoleOf(l); got != RoleDecisionMaker {
			t.Errorf("RoleOf(%q) = %q", l, got)
		}
	}
	for _, l := range []string{"Manager", "IC", "", "vp", "Intern"} {
		if got := RoleOf(l); got != RoleInfluencer {
			t.Errorf("RoleOf(%q) = %q", l, got)
		}
	}
}

func TestNormalizeJobLevel(t *testing.T) {
	tests := map[string]string{
		"founder": "Founder", "FOUNDER": "Founder", "Co-Founder": "Founder",
		"cxo": "CXO", "C-Level": "CXO", "c-suite": "CXO", "C Suite": "CXO",
		"vp": "VP", "Vice  President": "VP", "director": "Director", " head ": "Head",
		"MANAGER": "Manager", "ic": "IC", "Individual Contributor": "IC",
	}
	for in, want := range tests {
		if got, ok := NormalizeJobLevel(in); !ok || got != want {
			t.Errorf("NormalizeJobLevel(%q) = %q, %v; want %q", in, got, ok, want)
		}
	}
	for _, l := range JobLevels() {
		if got, ok := NormalizeJobLevel(l); !ok || got != l {
			t.Errorf("NormalizeJobLevel(%q) = %q, %v", l, got, ok)
		}
	}
	for _, in := range []string{"", "senior", "boss", "vice"} {
		if got, ok := NormalizeJobLevel(in); ok {
			t.Errorf("NormalizeJobLevel(%q) = %q, want not found", in, got)
		}
	}
}

func TestNormalizeJobFunction(t *testing.T) {
	tests := map[string]string{
		"sales": "Sales", "MARKETING": "Marketing", "revops": "RevOps", "Revenue Operations": "RevOps",
		"hr": "People", "Human Resources": "People", "customer success": "Customer Success",
		"CS": "Customer Success", "eng": "Engineering", "engineering": "Engineering",
		"bizdev": "Sales", "Business Development": "Sales", "partnerships": "Partnerships",
		"alliances": "Partnerships", "growth": "Growth", "revenue": "Revenue", "finance": "Finance",
		"product": "Product", "operations": "Operations", " people ": "People",
	}
	for in, want := range tests {
		if got, ok := NormalizeJobFunction(in); !ok || got != want {
			t.Errorf("NormalizeJobFunction(%q) = %q, %v; want %q", in, got, ok, want)
		}
	}
	for _, f := range JobFunctions() {
		if got, ok := NormalizeJobFunction(f); !ok || got != f {
			t.Errorf("NormalizeJobFunction(%q) = %q, %v", f, got, ok)
		}
	}
	for _, in := range []string{"", "legal", "design", "it"} {
		if got, ok := NormalizeJobFunction(in); ok {
			t.Errorf("NormalizeJobFunction(%q) = %q, want not found", in, got)
		}
	}
}

// benchTitles is a mix of the shapes imports see.
var benchTitles = []string{
	"VP of Sales", "Senior Software Engineer", "Co-founder & CEO", "Customer Success Manager",
	"Director, Revenue Operations (RevOps)", "Head of Growth", "Account Executive", "Sr. Director, Partnerships",
	"Talent Acquisition Partner", "Product Marketing Manager", "Founder @ Growthly | ex-Google",
	"Chief Revenue Officer", "Staff Data Scientist, Machine Learning Platform", "", "Marketing Intern",
}

func BenchmarkParseTitle(b *testing.B) {
	b.ReportAllocs()
	ParseTitle("warm the vocabulary")
	i := 0
	for b.Loop() {
		ParseTitle(benchTitles[i%len(benchTitles)])
		i++
	}
}
