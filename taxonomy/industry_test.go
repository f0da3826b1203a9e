package taxonomy

import (
	"slices"
	"strings"
	"testing"
)

func TestIndustries(t *testing.T) {
	got := Industries()
	if len(got) < 150 {
		t.Errorf("Industries() has %d labels, want at least 150", len(got))
	}
	if !slices.IsSorted(got) {
		t.Error("Industries() is not sorted")
	}
	if len(slices.Compact(slices.Clone(got))) != len(got) {
		t.Error("Industries() has duplicates")
	}
	for _, want := range []string{
		"Banking", "Software Development", "Financial Services", "Insurance",
		"Business Consulting and Services", "Retail", "Manufacturing", "Hospitals and Health Care",
		"Education", "Real Estate", "IT Services and IT Consulting", "Technology, Information and Internet",
		"Renewable Energy Semiconductor Manufacturing", "Semiconductor Manufacturing",
		"Venture Capital and Private Equity Principals", "Insurance Agencies and Brokerages",
	} {
		if !slices.Contains(got, want) {
			t.Errorf("Industries() lacks %q", want)
		}
	}
	// Retired V1 names are accepted as input but never listed.
	for _, v1 := range []string{"Computer Software", "Automotive", "Cosmetics", "Wine and Spirits",
		"Import and Export", "Building Materials", "Renewable Energy"} {
		if slices.Contains(got, v1) {
			t.Errorf("Industries() lists the V1 name %q", v1)
		}
	}
	got[0] = "mutated"
	if Industries()[0] == "mutated" {
		t.Error("Industries() shares its backing array")
	}
}

func TestNormalizeIndustry(t *testing.T) {
	tests := []struct{ in, want string }{
		// The contract's alias table, and its case-insensitive spellings.
		{"banking", "Banking"},
		{"saas", "Software Development"},
		{"software", "Software Development"},
		{"fintech", "Financial Services"},
		{"finance", "Financial Services"},
		{"insurance", "Insurance"},
		{"consulting", "Business Consulting and Services"},
		{"retail", "Retail"},
		{"manufacturing", "Manufacturing"},
		{"healthcare", "Hospitals and Health Care"},
		{"education", "Education"},
		{"real_estate", "Real Estate"},
		{"real estate", "Real Estate"},
		{"SaaS", "Software Development"},
		{"  FinTech ", "Financial Services"},
		{"Real_Estate", "Real Estate"},
		{"HEALTHCARE", "Hospitals and Health Care"},
		// Canonical labels in any case and spacing.
		{"software development", "Software Development"},
		{"IT SERVICES AND IT CONSULTING", "IT Services and IT Consulting"},
		{"  Technology,   Information and  Internet ", "Technology, Information and Internet"},
		{"venture capital and private equity principals", "Venture Capital and Private Equity Principals"},
		{"Renewable Energy Semiconductor Manufacturing", "Renewable Energy Semiconductor Manufacturing"},
		{"Staffing & Recruiting", "Staffing and Recruiting"},
		{"Architecture & Planning", "Architecture and Planning"},
		// Legacy V1 names.
		{"Computer Software", "Software Development"},
		{"Information Technology and Services", "IT Services and IT Consulting"},
		{"Information Technology & Services", "IT Services and IT Consulting"},
		{"Internet", "Technology, Information and Internet"},
		{"Marketing and Advertising", "Advertising Services"},
		{"Marketing & Advertising", "Advertising Services"},
		{"Hospital & Health Care", "Hospitals and Health Care"},
		{"Financial Services", "Financial Services"},
		{"Management Consulting", "Business Consulting and Services"},
		{"Computer & Network Security", "Computer and Network Security"},
		{"Higher Education", "Higher Education"},
		{"Staffing and Recruiting", "Staffing and Recruiting"},
		{"Real Estate", "Real Estate"},
		{"Human Resources", "Human Resources Services"},
		{"Automotive", "Motor Vehicle Manufacturing"},
		{"Cosmetics", "Personal Care Product Manufacturing"},
		{"Wine and Spirits", "Beverage Manufacturing"},
		{"Import and Export", "Wholesale Import and Export"},
		{"Building Materials", "Wholesale Building Materials"},
		{"Renewables & Environment", "Renewable Energy Semiconductor Manufacturing"},
		{"computer software", "Software Development"},
	}
	for _, tt := range tests {
		if got, ok := NormalizeIndustry(tt.in); !ok || got != tt.want {
			t.Errorf("NormalizeIndustry(%q) = %q, %v; want %q", tt.in, got, ok, tt.want)
		}
	}
	for _, l := range Industries() {
		for _, in := range []string{l, strings.ToUpper(l), strings.ToLower(l), " " + l + "  "} {
			if got, ok := NormalizeIndustry(in); !ok || got != l {
				t.Errorf("NormalizeIndustry(%q) = %q, %v; want %q", in, got, ok, l)
			}
		}
	}
	for _, in := range []string{"", "  ", "crypto", "softwares", "real-estate!", "Renewable Energy", "banking and"} {
		if got, ok := NormalizeIndustry(in); ok || got != "" {
			t.Errorf("NormalizeIndustry(%q) = %q, %v; want not found", in, got, ok)
		}
	}
}

// TestIndustryTables checks every alias and legacy name points at a listed
// label, so a typo in a table cannot produce an unlisted industry.
func TestIndustryTables(t *testing.T) {
	for _, a := range industryAliases {
		if !slices.Contains(industryLabels[:], a[1]) {
			t.Errorf("alias %q -> %q: not a listed label", a[0], a[1])
		}
	}
	for _, l := range industryLegacy {
		if !slices.Contains(industryLabels[:], l[1]) {
			t.Errorf("legacy %q -> %q: not a listed label", l[0], l[1])
		}
		if slices.Contains(industryLabels[:], l[0]) {
			t.Errorf("legacy %q is itself a listed label", l[0])
		}
	}
}
