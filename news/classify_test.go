package news

import "testing"

// The traps of subject and object: the same headline read for each of the
// two companies it names.
func TestClassifySubjectObject(t *testing.T) {
	c := NewClassifier()
	cases := []struct {
		company, headline string
		cat, objectOf     string
		object            string
	}{
		{"Acme", "Acme acquires Beta", Acquires, "", "Beta"},
		{"Beta", "Acme acquires Beta", "", Acquires, "Acme"},
		{"Acme", "Acme acquired by Beta", "", Acquires, "Beta"},
		{"Beta", "Acme acquired by Beta", Acquires, "", "Acme"},
		{"Acme", "Beta to buy Acme for $40 million", "", Acquires, "Beta"},
		{"Beta", "Beta to buy Acme for $40 million", Acquires, "", "Acme"},
		{"Acme", "Beta completes acquisition of Acme", "", Acquires, "Beta"},
		{"Acme", "Acme agrees to be acquired by Beta", "", Acquires, "Beta"},
		{"Acme", "Acme's acquisition by Beta closes", "", Acquires, "Beta"},
		{"Beta", "Acme's acquisition by Beta closes", Acquires, "", "Acme"},
		{"Acme", "Acme sold to Beta for $1B", "", Acquires, "Beta"},
		{"Beta", "Acme sold to Beta for $1B", Acquires, "", "Acme"},
		{"Acme", "Acme sells its robotics unit to Beta", SellsAssetsTo, "", "Beta"},
		{"Beta", "Acme sells its robotics unit to Beta", Acquires, "", "Acme"},
		{"Acme", "Beta buys Acme's robotics unit", SellsAssetsTo, "", "Beta"},
		{"Acme", "Beta Capital invests $10M in Acme", ReceivesFinancing, "", "Beta Capital"},
		{"Beta Capital", "Beta Capital invests $10M in Acme", InvestsInto, "", "Acme"},
		{"Acme", "Acme raises $10M Series A led by Beta Capital", ReceivesFinancing, "", "Beta Capital"},
		{"Beta Capital", "Acme raises $10M Series A led by Beta Capital", InvestsInto, "", "Acme"},
		{"Acme", "Beta sues Acme over patents", HasIssuesWith, "", "Beta"},
		{"Beta", "Beta sues Acme over patents", FilesSuitAgainst, "", "Acme"},
		{"Acme", "Acme sued by Beta", HasIssuesWith, "", "Beta"},
		{"Acme", "Beta selects Acme for payroll", SignsNewClient, "", "Beta"},
		{"Beta", "Beta selects Acme for payroll", "", "", ""},
		{"Acme", "Acme and Beta to merge", MergesWith, "", "Beta"},
		{"Beta", "Acme and Beta to merge", MergesWith, "", "Acme"},
		{"Acme", "Beta partners with Acme", PartnersWith, "", "Beta"},
		{"Acme", "Jane Roe leaves Acme to join Beta", Leaves, "", ""},
		{"Beta", "Jane Roe leaves Acme to join Beta", Hires, "", ""},
		{"Acme", "Gamma raises $3M seed round", "", "", ""},
		{"Carrow Care", "Carrow Hospital acquires Beta", "", "", ""},
		// Wire labels before the headline are no part of it.
		{"Acme", "UPDATE 2-Beta to buy Acme in $2 bln deal", "", Acquires, "Beta"},
		{"Acme", "BRIEF-Acme says it signs supply deal with Beta", SignsNewClient, "", "Beta"},
		// Money comes from investors, not from the object of "secures".
		{"Acme", "Acme Secures $30 Million in Series B Funding to Scale Platform", ReceivesFinancing, "", ""},
	}
	for _, tc := range cases {
		r := c.Classify(Input{Company: Company{Name: tc.company}, Headline: tc.headline})
		if r.Category != tc.cat || r.ObjectOf != tc.objectOf || r.Object != tc.object {
			t.Errorf("%s | %q: got (%q, of %q, object %q), want (%q, of %q, object %q)", tc.company, tc.headline,
				r.Category, r.ObjectOf, r.Object, tc.cat, tc.objectOf, tc.object)
		}
	}
}

// Words that look like triggers but say nothing of the kind.
func TestClassifyNegatives(t *testing.T) {
	c := NewClassifier()
	for _, h := range []string{
		"Acme raises prices for enterprise plans",
		"Acme raises questions about new tariffs",
		"Acme cuts prices on its starter kit",
		"Acme cuts ties with reseller",
		"Acme retires its legacy API",
		"Acme closes the gap with market leaders",
		"Acme sells 2 million units in holiday quarter",
		"Analysts upgrade Acme to buy",
		"Why Acme could be the next big thing",
		"How Acme grew to 1,000 customers",
		"Acme joins the push for open standards",
		"Acme reports record revenue of $80M",
		"Acme to hold annual meeting on June 3",
	} {
		r := c.Classify(Input{Company: Company{Name: "Acme"}, Headline: h})
		if r.Category != "" {
			t.Errorf("%q: got %s, want none", h, r.Category)
		}
	}
}

func TestClassifyNames(t *testing.T) {
	c := NewClassifier()
	cases := []struct {
		co       Company
		headline string
		own      bool
		cat      string
	}{
		{Company{Name: "Acme Robotics, Inc."}, "Acme Robotics Inc. acquires Beta Systems", false, Acquires},
		{Company{Name: "Acme Robotics"}, "Acme buys Beta Systems", false, Acquires},
		{Company{Name: "Acme Robotics International", Aliases: []string{"AcmeBot"}}, "AcmeBot launches Gripper 2", false, Launches},
		{Company{Name: "Acme Robotics"}, "Acme Robotics To Acquire Beta Systems For $5M", false, Acquires},
		{Company{Name: "Acme Robotics"}, "ACME ROBOTICS ACQUIRES BETA SYSTEMS", false, Acquires},
		{Company{Name: "Acme Robotics"}, "We're excited to announce our $12M Series A", true, ReceivesFinancing},
		{Company{Name: "Acme Robotics"}, "Introducing Gripper 3.0", true, Launches},
		{Company{Name: "Acme Robotics"}, "Introducing Gripper 3.0", false, ""},
	}
	for _, tc := range cases {
		r := c.Classify(Input{Company: tc.co, Headline: tc.headline, Own: tc.own})
		if r.Category != tc.cat {
			t.Errorf("%q for %s (own %v): got %q, want %q", tc.headline, tc.co.Name, tc.own, r.Category, tc.cat)
		}
	}
}

// A headline that says nothing sends the classifier to the summary, and
// the summary fills what the headline leaves out.
func TestClassifySummary(t *testing.T) {
	c := NewClassifier()
	r := c.Classify(Input{Company: Company{Name: "Acme"}, Headline: "A big week for Acme",
		Summary: "Acme said on Monday it had raised $15 million in a Series B round. The money will fund hiring."})
	if r.Category != ReceivesFinancing || !r.FromSummary || r.Attributes.AmountNormalized != 15e6 ||
		r.Attributes.FinancingTypeNormalized != "series_b" {
		t.Errorf("got %+v", r)
	}
	r = c.Classify(Input{Company: Company{Name: "Acme"}, Headline: "Acme wins state contract",
		Summary: "The state awarded Acme a $2.5 million contract for road sensors."})
	if r.Category != SignsNewClient || r.FromSummary || r.Attributes.Amount != "$2.5 million" {
		t.Errorf("got %+v", r)
	}
	// A headline where the company is bought decides: the summary is not read.
	r = c.Classify(Input{Company: Company{Name: "Acme"}, Headline: "Acme acquired by Beta",
		Summary: "Acme raised $20M last year."})
	if r.Category != "" || r.ObjectOf != Acquires {
		t.Errorf("got %+v", r)
	}
}

func TestClassifyPlanningAndConfidence(t *testing.T) {
	c := NewClassifier()
	for _, tc := range []struct {
		headline string
		planning bool
	}{
		{"Acme to acquire Beta", true},
		{"Acme plans to open 12 stores in Texas", true},
		{"Acme in talks to merge with Beta", true},
		{"Acme files for IPO", true},
		{"Acme acquires Beta", false},
		{"Acme opened 12 stores in Texas", false},
		{"Acme will close its Paris office next year", true},
	} {
		r := c.Classify(Input{Company: Company{Name: "Acme"}, Headline: tc.headline})
		if r.Category == "" || r.Planning != tc.planning {
			t.Errorf("%q: category %q planning %v, want planning %v", tc.headline, r.Category, r.Planning, tc.planning)
		}
		if r.Confidence <= 0 || r.Confidence > 1 {
			t.Errorf("%q: confidence %v", tc.headline, r.Confidence)
		}
	}
	head := c.Classify(Input{Company: Company{Name: "Acme"}, Headline: "Acme acquires Beta"})
	sum := c.Classify(Input{Company: Company{Name: "Acme"}, Headline: "News", Summary: "Acme acquires Beta."})
	if sum.Confidence >= head.Confidence {
		t.Errorf("a summary match (%v) should be less sure than a headline match (%v)", sum.Confidence, head.Confidence)
	}
}

// One Classifier serves many goroutines with the answers it gives one.
func TestClassifyConcurrent(t *testing.T) {
	c := NewClassifier()
	set := loadLabelled(t)
	want := make([]Result, len(set))
	for i, l := range set {
		want[i] = c.Classify(Input{Company: Company{Name: l.Company}, Headline: l.Headline, Summary: l.Summary, Own: l.Own})
	}
	errs := make(chan string, 4*len(set))
	done := make(chan struct{})
	for g := 0; g < 4; g++ {
		go func() {
			defer func() { done <- struct{}{} }()
			for i, l := range set {
				r := c.Classify(Input{Company: Company{Name: l.Company}, Headline: l.Headline, Summary: l.Summary, Own: l.Own})
				if r != want[i] {
					errs <- l.Headline
				}
			}
		}()
	}
	for g := 0; g < 4; g++ {
		<-done
	}
	close(errs)
	for h := range errs {
		t.Errorf("another answer in a goroutine: %q", h)
	}
}
