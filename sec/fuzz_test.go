package sec

import (
	"testing"

	"github.com/prospectorhq/prospector/sec/sectest"
)

func fixture(f *testing.F, path string) []byte {
	b, ok := sectest.Fixture(path)
	if !ok {
		f.Fatalf("fixture %s missing", path)
	}
	return b
}

func FuzzParseFormIndex(f *testing.F) {
	f.Add(fixture(f, "/Archives/edgar/daily-index/2026/QTR2/form.20260504.idx"))
	f.Add([]byte("Form Type   Company Name   CIK   Date Filed  File Name\n---\nD  A  1  20260101  a/0000000001-26-000001.txt\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		es, skipped, err := ParseFormIndex(b)
		if err != nil && (es != nil || skipped != 0) {
			t.Fatal("entries with an error")
		}
		for _, e := range es {
			if NormalizeCIK(e.CIK) != e.CIK || !ValidAccession(e.Accession) || e.FormType == "" || e.CompanyName == "" {
				t.Fatalf("bad entry %+v", e)
			}
		}
	})
}

func FuzzParseFormD(f *testing.F) {
	for _, p := range []string{
		"/Archives/edgar/data/1900001/000190000126000001/primary_doc.xml",
		"/Archives/edgar/data/1900001/000190000126000002/primary_doc.xml",
		"/Archives/edgar/data/1900002/000190000226000001/primary_doc.xml",
	} {
		f.Add(fixture(f, p))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		d, err := ParseFormDDoc(b)
		if err != nil {
			return
		}
		o := NewOffering(d, IndexEntry{CIK: "1900001", Accession: "0001900001-26-000001", DateFiled: "2026-05-04"}, DefaultBaseURL)
		ResolveOriginal(o, &Submissions{Filings: []SubmissionFiling{{Accession: "0001900001-26-000001", Form: "D", FileNumber: "021-1"}}})
		if e := o.Event(DefaultBaseURL); e != nil && (e.ExternalID == "" || len(e.SourceURLs) == 0) {
			t.Fatalf("event without key or source: %+v", e)
		}
		_ = o.Facts(nil)
	})
}

func FuzzParseItem502(f *testing.F) {
	f.Add(fixture(f, "/Archives/edgar/data/1900003/000190000326000007/nwan-20260430.htm"))
	f.Add([]byte("Item 5.02 Departure.\nOn May 1, 2026, the Board appointed Jane Roe, age 40, as Chief Financial Officer and John Smith as COO."))
	f.Add([]byte("ITEM 5.02\nMr. Doe, Jr. and Ms. Roe resigned from the Board. Her resignation is effective 5/1/2026."))
	f.Fuzz(func(t *testing.T, b []byte) {
		_, changes, unparsed := ParseItem502(DocumentText(b), "u")
		for _, c := range changes {
			if c.Name == "" || c.Action == "" {
				t.Fatalf("change without name or action: %+v", c)
			}
		}
		if len(unparsed) > maxUnparsed {
			t.Fatalf("%d unparsed", len(unparsed))
		}
		for _, u := range unparsed {
			if len(u.Text) > maxUnparsedChars+len("…") {
				t.Fatalf("unparsed text of %d bytes", len(u.Text))
			}
		}
	})
}

func FuzzParseFilingIndexAndSubmissions(f *testing.F) {
	f.Add(fixture(f, "/Archives/edgar/data/1900003/000190000326000007/0001900003-26-000007-index.htm"))
	f.Add(fixture(f, "/submissions/CIK0001900001.json"))
	f.Fuzz(func(t *testing.T, b []byte) {
		if fi, err := ParseFilingIndex(b, "https://www.sec.gov/Archives/edgar/data/1/0/x-index.htm"); err == nil {
			fi.Main("8-K")
			fi.formDXML()
		}
		if s, err := ParseSubmissions(b); err == nil && (s.CIK == "" || s.Name == "") {
			t.Fatal("record without cik or name")
		}
	})
}
