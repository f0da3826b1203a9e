package sec

import (
	"context"
	"strings"
	"testing"

	"github.com/prospectorhq/prospector/sec/sectest"
)

// BenchmarkParseFormD500 parses 500 generated Form D documents into
// offerings and financing events per iteration.
func BenchmarkParseFormD500(b *testing.B) {
	srv := sectest.New()
	defer srv.Close()
	issuers := srv.GenerateFormDs(sectest.DefaultDay, 500, 1)
	docs := make([][]byte, len(issuers))
	entries := make([]IndexEntry, len(issuers))
	size := 0
	for i, is := range issuers {
		docs[i], _ = srv.File("/Archives/edgar/data/" + is.CIK + "/" + strings.ReplaceAll(is.Accession, "-", "") + "/primary_doc.xml")
		entries[i] = IndexEntry{FormType: "D", CIK: is.CIK, Accession: is.Accession, DateFiled: "2026-05-04"}
		size += len(docs[i])
	}
	b.SetBytes(int64(size))
	b.ReportAllocs()
	for b.Loop() {
		for i, d := range docs {
			doc, err := ParseFormDDoc(d)
			if err != nil {
				b.Fatal(err)
			}
			if NewOffering(doc, entries[i], DefaultBaseURL).Event(DefaultBaseURL) == nil {
				b.Fatal("no event")
			}
		}
	}
}

// BenchmarkItem502 reads the fixture 8-K: HTML to text, section, rules.
func BenchmarkItem502(b *testing.B) {
	doc, _ := sectest.Fixture("/Archives/edgar/data/1900003/000190000326000007/nwan-20260430.htm")
	b.SetBytes(int64(len(doc)))
	b.ReportAllocs()
	for b.Loop() {
		if _, c, _ := ParseItem502(DocumentText(doc), "u"); len(c) != 4 {
			b.Fatal(len(c))
		}
	}
}

// BenchmarkFormDDayAtFairAccessPace reads a day's index listing 500
// generated Form D notices and every notice's document through the
// client at the default pace (9.5 requests/s): the fetch-and-parse part
// of the "500 filings in 60 s". It takes about 53 s.
func BenchmarkFormDDayAtFairAccessPace(b *testing.B) {
	srv := sectest.New()
	defer srv.Close()
	srv.GenerateFormDs(sectest.DefaultDay, 500, 1)
	c, err := NewClient(&sectest.Fetcher{UserAgent: testUA}, Options{ContactEmail: "ops@prospector.example", BaseURL: srv.URL, DataURL: srv.URL})
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	for b.Loop() {
		es, ok, err := c.DailyIndex(ctx, sectest.DefaultDay)
		if err != nil || !ok {
			b.Fatal(ok, err)
		}
		events := 0
		for _, e := range es {
			if !strings.HasPrefix(e.Accession, "000191") {
				continue // the built-in filings
			}
			o, err := c.FormD(ctx, e)
			if err != nil {
				b.Fatal(err)
			}
			if o.Event(c.BaseURL()) != nil {
				events++
			}
		}
		if events != 500 {
			b.Fatalf("%d events", events)
		}
	}
	b.ReportMetric(float64(srv.MaxPerSecond()), "max-req/s")
}
