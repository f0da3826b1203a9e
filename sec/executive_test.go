package sec

import (
	"reflect"
	"strings"
	"testing"

	"github.com/prospectorhq/prospector/sec/sectest"
)

// change is the part of an ExecutiveChange a table states.
type change struct{ name, title, action, date string }

func changesOf(cs []ExecutiveChange) []change {
	out := []change{}
	for _, c := range cs {
		out = append(out, change{c.Name, c.Title, c.Action, c.EffectiveDate})
	}
	return out
}

func TestExtractChanges(t *testing.T) {
	for _, tc := range []struct {
		text     string
		want     []change
		unparsed int
	}{
		{"On May 1, 2026, the Board appointed Jane Roe as Chief Financial Officer.",
			[]change{{"Jane Roe", "Chief Financial Officer", "appointed", "2026-05-01"}}, 0},
		{"John Doe notified the Company of his decision to retire as Chief Operating Officer, effective June 30, 2026.",
			[]change{{"John Doe", "Chief Operating Officer", "retired", "2026-06-30"}}, 0},
		// A decision announced is not effective on the day it is told.
		{"On April 2, 2026, John Doe notified the Company of his decision to retire as Chief Operating Officer.",
			[]change{{"John Doe", "Chief Operating Officer", "retired", ""}}, 0},
		{"On March 3, 2026, Mary Major resigned from the Board of Directors.",
			[]change{{"Mary Major", "Director", "departed", "2026-03-03"}}, 0},
		{"Mary Major and Richard Miles resigned from the Board of Directors, effective immediately.",
			[]change{{"Mary Major", "Director", "departed", ""}, {"Richard Miles", "Director", "departed", ""}}, 0},
		{"On May 1, 2026, the Board appointed Jane Roe as Chief Financial Officer and John Smith as Chief Operating Officer, effective May 15, 2026.",
			[]change{{"Jane Roe", "Chief Financial Officer", "appointed", "2026-05-15"}, {"John Smith", "Chief Operating Officer", "appointed", "2026-05-15"}}, 0},
		{"Effective April 1, 2026, Carlos Núñez was promoted to President.",
			[]change{{"Carlos Núñez", "President", "promoted", "2026-04-01"}}, 0},
		{"The Company's Chief Executive Officer, Aldous Penhaligon, tendered his resignation as Chief Executive Officer.",
			[]change{{"Aldous Penhaligon", "Chief Executive Officer", "departed", ""}}, 0},
		{"On May 2, 2026, the Board accepted the resignation of Luther Quill as Chief Technology Officer, effective May 9, 2026.",
			[]change{{"Luther Quill", "Chief Technology Officer", "departed", "2026-05-09"}}, 0},
		{"The Board of Directors of Acme Robotics, Inc. appointed Dr. Imelda Marchbanks, 58, to serve as the Company's Chief Medical Officer, effective as of May 10, 2026.",
			[]change{{"Imelda Marchbanks", "Chief Medical Officer", "appointed", "2026-05-10"}}, 0},
		{"On May 1, 2026, the Company terminated the employment of Harlan Oakes as Executive Vice President, Sales.",
			[]change{{"Harlan Oakes", "Executive Vice President, Sales", "departed", "2026-05-01"}}, 0},
		{"Henrietta Vance informed the Board that she will not stand for re-election as a director at the 2026 annual meeting.",
			[]change{{"Henrietta Vance", "Director", "departed", ""}}, 0},
		{"On June 2, 2026, the stockholders elected Orla Fenwick-Hayes and Piet van der Berg to the Board of Directors.",
			[]change{{"Orla Fenwick-Hayes", "Director", "elected", "2026-06-02"}, {"Piet van der Berg", "Director", "elected", "2026-06-02"}}, 0},
		// A follow-up sentence dates the change it refers to.
		{"Cornelius Abernathy notified the Board of his intention to retire as Chief Executive Officer. His retirement will be effective December 31, 2026.",
			[]change{{"Cornelius Abernathy", "Chief Executive Officer", "retired", "2026-12-31"}}, 0},
		// "Mr. Doe" is the Doe named before, never a new person.
		{"On May 1, 2026, John Doe resigned as Treasurer. Mr. Doe will remain as a consultant.",
			[]change{{"John Doe", "Treasurer", "departed", "2026-05-01"}}, 0},
		// Phrasings the rules do not know are kept, not guessed.
		{"The Company announced a leadership transition whereby its founder will step down later this year.",
			[]change{}, 1},
		{"Mr. Quimby will step down as Chief Executive Officer.", []change{}, 1},
		// Boilerplate and compensation-only sections are no change.
		{"There are no family relationships between Ms. Roe and any director. There are no arrangements or understandings pursuant to which she was appointed.",
			[]change{}, 0},
		{"On May 1, 2026, the Compensation Committee approved the 2026 annual bonus targets of the named executive officers.",
			[]change{}, 0},
	} {
		got, rest := extractChanges(tc.text)
		if g := changesOf(got); !reflect.DeepEqual(g, tc.want) {
			t.Errorf("%q\n got %+v\nwant %+v", tc.text, g, tc.want)
		}
		if len(rest) != tc.unparsed {
			t.Errorf("%q: %d unparsed %q, want %d", tc.text, len(rest), rest, tc.unparsed)
		}
	}
}

func TestCleanTitle(t *testing.T) {
	for in, want := range map[string]string{
		"the Company's Chief Financial Officer, effective May 1":  "Chief Financial Officer",
		"Chief Financial Officer of the Company":                  "Chief Financial Officer",
		"President and Chief Executive Officer":                   "President and Chief Executive Officer",
		"the Board of Directors":                                  "Director",
		"a member of the Company's Board of Directors":            "Director",
		"an independent director":                                 "Director",
		"Executive Vice President, General Counsel and Secretary": "Executive Vice President, General Counsel and Secretary",
		"previously announced":                                    "",
		"Director of Sales":                                       "Director of Sales",
		"a director of the Company, effective May 1":              "Director",
		"Vice President of Finance and Treasurer":                 "Vice President of Finance and Treasurer",
		"2026": "",
	} {
		if got := cleanTitle(in); got != want {
			t.Errorf("cleanTitle(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestSentences(t *testing.T) {
	got := sentences("Mr. J. Doe of Acme Corp. resigned. Ms. Roe was named CFO on Jan. 5, 2026. Done!\nNext paragraph")
	want := []string{"Mr. J. Doe of Acme Corp. resigned.", "Ms. Roe was named CFO on Jan. 5, 2026.", "Done!", "Next paragraph"}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("sentences = %q, want %q", got, want)
	}
}

func TestParseTextDate(t *testing.T) {
	for in, want := range map[string]string{
		"May 1, 2026": "2026-05-01", "Sept. 3, 2026": "2026-09-03", "December 31st, 2026": "2026-12-31",
		"5/1/2026": "2026-05-01", "Feb 30, 2026": "",
	} {
		if got := parseTextDate(in); got != want {
			t.Errorf("parseTextDate(%q) = %q, want %q", in, got, want)
		}
	}
}

// The fixture 8-K: an inline XBRL document whose item caption runs into
// its number ("Item 5.02Departure"), with captions, boilerplate and a
// press release mention the rules must not read as changes.
func TestParseItem502Fixture(t *testing.T) {
	b, ok := sectest.Fixture("/Archives/edgar/data/1900003/000190000326000007/nwan-20260430.htm")
	if !ok {
		t.Fatal("fixture missing")
	}
	section, changes, unparsed := ParseItem502(DocumentText(b), "https://www.sec.gov/x-index.htm")
	if !strings.HasPrefix(section, "Retirement of Chief Financial Officer") || strings.Contains(section, "Item 9.01") {
		t.Errorf("section = %q", section)
	}
	want := []change{
		{"Gideon Farraday", "Chief Financial Officer", "retired", "2026-06-30"},
		{"Anneliese Okonkwo-Barrett", "Chief Financial Officer", "appointed", "2026-07-01"},
		{"Thaddeus Whitcombe", "Director", "elected", "2026-05-01"},
		{"Rosalind Veerkamp", "Director", "departed", "2026-04-29"},
	}
	if got := changesOf(changes); !reflect.DeepEqual(got, want) {
		t.Errorf("changes\n got %+v\nwant %+v", got, want)
	}
	if len(unparsed) != 0 {
		t.Errorf("unparsed = %+v", unparsed)
	}
	if strings.Contains(DocumentText(b), "Appointed Board Resigned") {
		t.Error("hidden inline XBRL header read as text")
	}
}

func TestItem502SectionAbsentAndUnparsedBound(t *testing.T) {
	if s, c, u := ParseItem502("Item 2.02 Results of Operations.\nRevenue grew.", "u"); s != "" || c != nil || u != nil {
		t.Errorf("no 5.02: got %q %v %v", s, c, u)
	}
	long := "Item 5.02 Departure of Directors or Certain Officers.\nThe Board said that " +
		strings.Repeat("a new executive will be appointed later ", 100) + "."
	_, _, u := ParseItem502(long, "https://www.sec.gov/f-index.htm")
	if len(u) != 1 || len(u[0].Text) > maxUnparsedChars+len("…") || u[0].FilingURL != "https://www.sec.gov/f-index.htm" {
		t.Fatalf("unparsed = %d entries, first %d bytes", len(u), len(u[0].Text))
	}
}

func TestPlainTextDocument(t *testing.T) {
	doc := "<DOCUMENT>\n<TYPE>8-K\n<TEXT>\nITEM 5.02. DEPARTURE OF DIRECTORS OR CERTAIN OFFICERS\n\n" +
		"On May 3, 2026, Wendeline Crabtree resigned as Chief Accounting Officer.\n\nITEM 9.01. EXHIBITS\n</TEXT>\n</DOCUMENT>\n"
	_, c, _ := ParseItem502(DocumentText([]byte(doc)), "u")
	want := []change{{"Wendeline Crabtree", "Chief Accounting Officer", "departed", "2026-05-03"}}
	if got := changesOf(c); !reflect.DeepEqual(got, want) {
		t.Fatalf("got %+v, want %+v", got, want)
	}
}

func TestChangeKeysAndSignals(t *testing.T) {
	r := &ExecutiveReport{
		CIK: "1900003", Company: "Northwind Analytics Inc", FormType: "8-K", Filed: "2026-05-04",
		FilingURL: "https://www.sec.gov/Archives/edgar/data/1900003/000190000326000007/0001900003-26-000007-index.htm",
		Changes: []ExecutiveChange{
			{Name: "Anneliese Okonkwo-Barrett", Title: "Chief Financial Officer", Action: "appointed", EffectiveDate: "2026-07-01", Sentence: "s1"},
			{Name: "Gideon Farraday", Title: "Chief Financial Officer", Action: "retired", Sentence: "s2"},
		},
	}
	sigs := r.Signals()
	if len(sigs) != 2 {
		t.Fatalf("%d signals", len(sigs))
	}
	s := sigs[0]
	if s.Type != "job_change" || s.Title != "Anneliese Okonkwo-Barrett appointed Chief Financial Officer" ||
		s.SourceURL != r.FilingURL || s.DetectedAt.Format("2006-01-02") != "2026-05-04" ||
		s.ExternalID != "sec-8k-1900003-anneliese-okonkwo-barrett-appointed-2026-07-01" {
		t.Errorf("signal = %+v", s)
	}
	if sigs[1].Title != "Gideon Farraday retired as Chief Financial Officer" || sigs[1].ExternalID != "sec-8k-1900003-gideon-farraday-retired-2026" {
		t.Errorf("signal = %+v", sigs[1])
	}
	// An 8-K/A restating the change keys the same.
	amended := ExecutiveChange{Name: "ANNELIESE Okonkwo-Barrett", Action: "appointed", EffectiveDate: "2026-07-01"}
	if amended.Key("0001900003", "2026-05-20") != sigs[0].ExternalID {
		t.Error("amendment key differs")
	}
	if slug("José Núñez") != "jose-nunez" {
		t.Errorf("slug = %q", slug("José Núñez"))
	}
}
