package sec

import (
	"errors"
	"testing"
	"time"

	"github.com/prospectorhq/prospector/sec/sectest"
)

func TestParseFormIndexFixture(t *testing.T) {
	b, ok := sectest.Fixture("/Archives/edgar/daily-index/2026/QTR2/form.20260504.idx")
	if !ok {
		t.Fatal("fixture missing")
	}
	es, skipped, err := ParseFormIndex(b)
	if err != nil || skipped != 0 || len(es) != 9 {
		t.Fatalf("ParseFormIndex: %d entries, %d skipped, %v", len(es), skipped, err)
	}
	fund := es[6]
	want := IndexEntry{FormType: "D", CompanyName: "Quiet Harbor Ventures Fund II, L.P.", CIK: "1900002", DateFiled: "2026-05-04",
		FileName: "edgar/data/1900002/0001900002-26-000001.txt", Accession: "0001900002-26-000001"}
	if fund != want {
		t.Errorf("entry = %+v, want %+v", fund, want)
	}
	if es[8].FormType != "SC 13G/A" || es[8].CompanyName != "Orchard Lane Capital Partners LP" {
		t.Errorf("form type with a space: %+v", es[8])
	}
	var wanted []string
	for _, e := range es {
		if Wanted(e.FormType) {
			wanted = append(wanted, e.FormType+" "+e.Accession)
		}
	}
	if len(wanted) != 6 {
		t.Errorf("wanted = %q", wanted)
	}
}

func TestParseFormIndexLayouts(t *testing.T) {
	doc := "Description:           Daily Index of EDGAR Dissemination Feed by Form Type\r\n" +
		"Last Data Received:    Jul 10, 2026\r\n\r\n" +
		"Form Type   Company Name                                                  CIK         Date Filed  File Name\r\n" +
		"---------------------------------------------------------------------------------------------\r\n" +
		// Recent files widen the form column past its header.
		"8-K/A            Harrowgate Mills Inc.                                         1900201     20260710    edgar/data/1900201/0001900201-26-000004.txt\r\n" +
		// The full index writes dates with dashes and pads CIKs.
		"D           Tamsin & Crowe Holdings  LLC           0001900202  2026-07-10  edgar/data/1900202/0001900202-26-000001.txt\r\n" +
		"not a row at all\r\n" +
		"D           No Accession Co                        1900203     20260710    edgar/data/1900203/broken.txt\r\n" +
		"\r\n"
	es, skipped, err := ParseFormIndex([]byte(doc))
	if err != nil || skipped != 2 || len(es) != 2 {
		t.Fatalf("%d entries, %d skipped, %v", len(es), skipped, err)
	}
	if es[0].FormType != "8-K/A" || es[0].CompanyName != "Harrowgate Mills Inc." || es[0].DateFiled != "2026-07-10" {
		t.Errorf("wide column: %+v", es[0])
	}
	// Double spaces inside a name stay with the name.
	if es[1].CompanyName != "Tamsin & Crowe Holdings  LLC" || es[1].CIK != "1900202" || es[1].DateFiled != "2026-07-10" {
		t.Errorf("full index layout: %+v", es[1])
	}
	if _, _, err := ParseFormIndex([]byte("<html>Not Found</html>")); !errors.Is(err, ErrNotIndex) {
		t.Errorf("non-index: %v", err)
	}
}

func TestDailyIndexURLAndDays(t *testing.T) {
	for day, want := range map[string]string{
		"2026-01-02": "https://www.sec.gov/Archives/edgar/daily-index/2026/QTR1/form.20260102.idx",
		"2026-05-04": "https://www.sec.gov/Archives/edgar/daily-index/2026/QTR2/form.20260504.idx",
		"2026-09-30": "https://www.sec.gov/Archives/edgar/daily-index/2026/QTR3/form.20260930.idx",
		"2026-12-31": "https://www.sec.gov/Archives/edgar/daily-index/2026/QTR4/form.20261231.idx",
	} {
		d, err := time.Parse(time.DateOnly, day)
		if err != nil {
			t.Fatal(err)
		}
		if got := DailyIndexURL(DefaultBaseURL+"/", d); got != want {
			t.Errorf("DailyIndexURL(%s) = %s", day, got)
		}
	}
	since := time.Date(2026, 5, 1, 15, 0, 0, 0, time.UTC) // a Friday
	until := time.Date(2026, 5, 5, 1, 0, 0, 0, time.UTC)  // the next Tuesday
	var got []string
	for _, d := range IndexDays(since, until) {
		got = append(got, d.Format(time.DateOnly))
	}
	if len(got) != 3 || got[0] != "2026-05-01" || got[1] != "2026-05-04" || got[2] != "2026-05-05" {
		t.Errorf("IndexDays = %v", got)
	}
	if len(IndexDays(until, since)) != 0 {
		t.Error("reversed range yields days")
	}
}

func TestAccessionHelpers(t *testing.T) {
	if NormalizeCIK("0001900001") != "1900001" || NormalizeCIK("0") != "" || NormalizeCIK("12a") != "" || PadCIK("42") != "0000000042" {
		t.Error("CIK normalisation")
	}
	if !ValidAccession("0001900001-26-000001") || ValidAccession("000190000126000001") || ValidAccession("0001900001-26-00000x") {
		t.Error("ValidAccession")
	}
	if got := FilingIndexURL("https://www.sec.gov", "0001900001", "0001900001-26-000001"); got !=
		"https://www.sec.gov/Archives/edgar/data/1900001/000190000126000001/0001900001-26-000001-index.htm" {
		t.Errorf("FilingIndexURL = %s", got)
	}
	if got := SubmissionsURL("https://data.sec.gov", "1900001"); got != "https://data.sec.gov/submissions/CIK0001900001.json" {
		t.Errorf("SubmissionsURL = %s", got)
	}
}
