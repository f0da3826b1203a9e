package news

import "testing"

func TestMoney(t *testing.T) {
	cases := []struct {
		text, amount string
		value        float64
	}{
		{"raised $25M on Monday", "$25M", 25e6},
		{"a €1.2 billion deal", "€1.2 billion", 1.2e9},
		{"gets USD 300,000 from angels", "USD 300,000", 300000},
		{"£3.5m in debt", "£3.5m", 3.5e6},
		{"$2.1B takeover", "$2.1B", 2.1e9},
		{"5 million euros for the plant", "5 million euros", 5e6},
		{"EUR 40m facility", "EUR 40m", 40e6},
		{"$750k pre-seed", "$750k", 750e3},
		{"a $120 million round", "$120 million", 120e6},
		{"300 jobs and 20% of staff", "", 0},
		{"the 2026 edition", "", 0},
		{"$ alone", "", 0},
	}
	for _, tc := range cases {
		toks := tokenize(tc.text, nil)
		m, ok := firstMoney(toks, 0, len(toks))
		got := ""
		if ok {
			got = tc.text[toks[m.start].start:toks[m.end-1].end]
		}
		if got != tc.amount || (ok && m.value != tc.value) {
			t.Errorf("%q: got %q %v, want %q %v", tc.text, got, m.value, tc.amount, tc.value)
		}
	}
}

func TestFinancingType(t *testing.T) {
	cases := []struct{ text, raw, norm string }{
		{"a $30M Series B led by Beta", "Series B", "series_b"},
		{"its series a round", "series a round", "series_a"},
		{"$4M seed round", "seed round", "seed"},
		{"€2M pre-seed funding", "pre-seed funding", "pre_seed"},
		{"in angel funding", "angel funding", "angel"},
		{"a $25M credit facility", "credit facility", "debt"},
		{"£3m debt financing", "debt financing", "debt"},
		{"a $2M convertible note", "convertible note", "convertible_note"},
		{"a $1M grant from the state", "grant", "grant"},
		{"$75M in growth funding", "growth funding", "growth_equity"},
		{"a bridge round", "bridge round", "bridge"},
		{"equity crowdfunding campaign", "crowdfunding", "equity_crowdfunding"},
		{"a TV series about founders", "", ""},
	}
	for _, tc := range cases {
		toks := tokenize(tc.text, nil)
		f, ok := firstFinancing(toks, 0, len(toks))
		raw := ""
		if ok {
			raw = tc.text[toks[f.start].start:toks[f.end-1].end]
		}
		if raw != tc.raw || f.normalized != tc.norm {
			t.Errorf("%q: got %q %q, want %q %q", tc.text, raw, f.normalized, tc.raw, tc.norm)
		}
	}
}

// Attributes read from whole headlines.
func TestAttributes(t *testing.T) {
	c := NewClassifier()
	cases := []struct {
		headline string
		cat      string
		check    func(a Attributes) bool
	}{
		{"Acme hires Dana Orbell as Chief Revenue Officer", Hires,
			func(a Attributes) bool { return a.JobTitle == "Chief Revenue Officer" && a.Contact == "Dana Orbell" }},
		{"Acme CFO Priya Nandakumar steps down", Leaves,
			func(a Attributes) bool { return a.JobTitle == "CFO" && a.Contact == "Priya Nandakumar" }},
		{"Acme promotes Li Wen to VP of Engineering", Promotes,
			func(a Attributes) bool { return a.JobTitle == "VP of Engineering" && a.Contact == "Li Wen" }},
		{"Acme lays off 340 employees", DecreasesHeadcountBy, func(a Attributes) bool { return a.Headcount == 340 }},
		{"Acme to cut 12% of its workforce", DecreasesHeadcountBy, func(a Attributes) bool { return a.Headcount == 0 }},
		{"Acme to hire 2,500 workers in Texas", IncreasesHeadcountBy,
			func(a Attributes) bool { return a.Headcount == 2500 && a.Location == "Texas" }},
		{"Acme opens new office in Lisbon", ExpandsOfficesTo, func(a Attributes) bool { return a.Location == "Lisbon" }},
		{"Acme expands its Denver office", ExpandsOfficesIn, func(a Attributes) bool { return a.Location == "Denver" }},
		{"Acme launches Gripper 3.1 for warehouses", Launches,
			func(a Attributes) bool { return a.Product == "Gripper 3.1" && a.ProductVersion == "3.1" }},
		{"Acme wins 2026 Robotics Excellence Award at RoboCon", ReceivesAward,
			func(a Attributes) bool { return a.Award == "2026 Robotics Excellence Award" }},
		{"Acme to exhibit at Warehouse Automation Expo 2026", AttendsEvent,
			func(a Attributes) bool { return a.Event == "Warehouse Automation Expo 2026" }},
		{"Acme raises €8m seed round", ReceivesFinancing, func(a Attributes) bool {
			return a.Amount == "€8m" && a.AmountNormalized == 8e6 && a.FinancingType == "seed round" &&
				a.FinancingTypeNormalized == "seed"
		}},
		{"Critical vulnerability CVE-2026-1234 found in Acme gateway", HasIssuesWith,
			func(a Attributes) bool { return a.Vulnerability == "CVE-2026-1234" }},
	}
	for _, tc := range cases {
		r := c.Classify(Input{Company: Company{Name: "Acme"}, Headline: tc.headline})
		if r.Category != tc.cat || !tc.check(r.Attributes) {
			t.Errorf("%q: got %s %+v", tc.headline, r.Category, r.Attributes)
		}
	}
}

func TestLocationData(t *testing.T) {
	if country, code, ok := locationData("Japan"); !ok || code != "JP" || country != "Japan" {
		t.Errorf("Japan: %q %q %v", country, code, ok)
	}
	if _, _, ok := locationData("Lisbon"); ok {
		t.Error("a city resolved to a country")
	}
}

func TestSentences(t *testing.T) {
	got := sentences("Acme raised $2.5M. Dr. Roe said the U.S. team grows! What next? more")
	want := []string{"Acme raised $2.5M.", "Dr. Roe said the U.S. team grows!", "What next? more"}
	if len(got) != len(want) {
		t.Fatalf("got %q", got)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("sentence %d: got %q, want %q", i, got[i], want[i])
		}
	}
}
