package boards

import (
	"context"
	"fmt"
	"testing"

	"github.com/prospectorhq/prospector"
	"github.com/prospectorhq/prospector/boards/boardtest"
	"github.com/prospectorhq/prospector/taxonomy"
)

// parsers reads a body as each kind does, for the fuzzers and benchmarks.
var parsers = map[string]func(Ref, []byte) ([]Posting, error){
	KindGreenhouse: func(r Ref, b []byte) ([]Posting, error) { p, _, err := parseGreenhouse(r, b); return p, err },
	KindLever:      parseLever,
	KindAshby:      parseAshby,
	KindWorkable:   func(r Ref, b []byte) ([]Posting, error) { p, _, err := parseWorkable(r, b); return p, err },
	KindSmartRecruiters: func(r Ref, b []byte) ([]Posting, error) {
		c := newCollector(r, 0)
		var total int
		_, _, err := parseSmartRecruitersPage(r, b, c, &total)
		return c.out, err
	},
	KindRecruitee: func(r Ref, b []byte) ([]Posting, error) { p, _, err := parseRecruitee(r, b); return p, err },
	KindPersonio:  parsePersonio,
}

// checkPostings holds for whatever a parser accepts.
func checkPostings(t *testing.T, kind string, ps []Posting) {
	seen := map[string]bool{}
	for _, p := range ps {
		if p.ExternalID == "" || p.Title == "" || seen[p.ExternalID] || p.Source != kind {
			t.Fatalf("bad posting %+v", p)
		}
		seen[p.ExternalID] = true
		if p.ContentHash != p.Hash() {
			t.Fatalf("hash of %+v", p)
		}
		if p.CountryCode != "" && taxonomy.CountryName(p.CountryCode) == "" {
			t.Fatalf("country %q of %+v", p.CountryCode, p)
		}
	}
}

func fuzzParser(f *testing.F, kind string, extra ...string) {
	f.Add(boardtest.Fixture(kind))
	for _, s := range extra {
		f.Add([]byte(s))
	}
	parse := parsers[kind]
	f.Fuzz(func(t *testing.T, body []byte) {
		ps, err := parse(Ref{Kind: kind, Token: "fuzz"}, body)
		if err == nil {
			checkPostings(t, kind, ps)
		}
	})
}

func FuzzParseGreenhouse(f *testing.F) {
	fuzzParser(f, KindGreenhouse, `{"jobs":[{"id":1,"title":"x","offices":[{"location":"Remote"}]}]}`, `{"jobs":null}`)
}

func FuzzParseLever(f *testing.F) {
	fuzzParser(f, KindLever, `[{"id":"a","text":"b","country":"zz","createdAt":-1}]`, `[]`)
}

func FuzzParseAshby(f *testing.F) {
	fuzzParser(f, KindAshby, `{"jobs":[{"id":"a","title":"b","isListed":false}]}`)
}

func FuzzParseWorkable(f *testing.F) {
	fuzzParser(f, KindWorkable, `{"name":"x","jobs":[{"shortcode":"A","title":"b","locations":[{"hidden":true}]}]}`)
}

func FuzzParseSmartRecruiters(f *testing.F) {
	fuzzParser(f, KindSmartRecruiters, `{"totalFound":1,"content":[{"id":"1","name":"x","location":{"country":"xx"}}]}`)
}

func FuzzParseRecruitee(f *testing.F) {
	fuzzParser(f, KindRecruitee, `{"offers":[{"id":1,"title":"x","published_at":"2026-01-01 00:00:00 UTC"}]}`)
}

func FuzzParsePersonio(f *testing.F) {
	fuzzParser(f, KindPersonio, `<workzag-jobs><position><id>1</id><name>x</name></position></workzag-jobs>`, `<workzag-jobs/>`)
}

// boardBodies returns what a board of n generated postings answers, one
// body per page.
func boardBodies(tb testing.TB, kind string, n int) [][]byte {
	srv := boardtest.NewServer()
	defer srv.Close()
	if err := srv.AddGenerated(kind, "benchco", "Benchco Inc", n, 1); err != nil {
		tb.Fatal(err)
	}
	urls := map[string][]string{
		KindGreenhouse: {"/greenhouse/v1/boards/benchco/jobs"}, KindLever: {"/lever/v0/postings/benchco"},
		KindAshby: {"/ashby/posting-api/job-board/benchco"}, KindWorkable: {"/workable/api/v1/widget/accounts/benchco"},
		KindRecruitee: {"/recruitee/benchco/api/offers/"}, KindPersonio: {"/personio/benchco/xml"},
	}
	for off := 0; off < n; off += srPageSize {
		urls[KindSmartRecruiters] = append(urls[KindSmartRecruiters],
			fmt.Sprintf("/smartrecruiters/v1/companies/benchco/postings?offset=%d&limit=%d", off, srPageSize))
	}
	var out [][]byte
	f := &boardtest.Fetcher{}
	for _, u := range urls[kind] {
		resp, err := f.Fetch(context.Background(), prospector.FetchRequest{URL: srv.URL + u})
		if err != nil || resp.Status != 200 {
			tb.Fatalf("%s: %v %v", u, resp, err)
		}
		out = append(out, resp.Body)
	}
	return out
}

// BenchmarkParse200 parses a board of 200 postings per kind: decoding,
// normalising (title taxonomy, country, remote) and hashing.
func BenchmarkParse200(b *testing.B) {
	for _, kind := range Kinds() {
		b.Run(kind, func(b *testing.B) {
			bodies := boardBodies(b, kind, 200)
			size := 0
			for _, body := range bodies {
				size += len(body)
			}
			b.SetBytes(int64(size))
			b.ReportAllocs()
			ref := Ref{Kind: kind, Token: "benchco"}
			for b.Loop() {
				n := 0
				for _, body := range bodies {
					ps, err := parsers[kind](ref, body)
					if err != nil {
						b.Fatal(err)
					}
					n += len(ps)
				}
				if n != 200 {
					b.Fatalf("%d postings", n)
				}
			}
		})
	}
}

func TestBoardBodiesHold200(t *testing.T) {
	for _, kind := range Kinds() {
		n := 0
		for _, body := range boardBodies(t, kind, 200) {
			ps, err := parsers[kind](Ref{Kind: kind, Token: "benchco"}, body)
			if err != nil {
				t.Fatal(err)
			}
			checkPostings(t, kind, ps)
			n += len(ps)
		}
		if n != 200 {
			t.Errorf("%s: %d postings", kind, n)
		}
	}
}
