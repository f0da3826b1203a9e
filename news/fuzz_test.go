package news

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzClassify feeds arbitrary headlines, summaries and names: no panic,
// and what comes back is well formed. go test -fuzz FuzzClassify -fuzztime 30s
func FuzzClassify(f *testing.F) {
	for _, l := range loadLabelled(f) {
		f.Add(l.Company, l.Headline, l.Summary, l.Own)
	}
	f.Add("", "", "", false)
	f.Add("A", "A's '' ' - : ; $ € 1,5 .. ~ \x00", "Dr. . . vs. U.S.", true)
	f.Add("Acme", "Acme raises $9999999999999999999999999999999999999999M", "", false)
	c := NewClassifier()
	f.Fuzz(func(t *testing.T, company, headline, summary string, own bool) {
		r := c.Classify(Input{Company: Company{Name: company, Aliases: []string{headline}}, Headline: headline,
			Summary: summary, Own: own})
		if r.Category != "" && !ValidCategory(r.Category) {
			t.Fatalf("category %q", r.Category)
		}
		if r.ObjectOf != "" && r.Category != "" {
			t.Fatalf("both a category and ObjectOf: %+v", r)
		}
		if r.Confidence < 0 || r.Confidence > 1 {
			t.Fatalf("confidence %v", r.Confidence)
		}
		text := headline + " " + summary
		for _, s := range []string{r.Object, r.Sentence, r.Attributes.Amount, r.Attributes.Product, r.Attributes.Location} {
			if s != "" && utf8.ValidString(text) && !strings.Contains(text, s) {
				t.Fatalf("%q is not from the text %q", s, text)
			}
		}
	})
}

// FuzzParseFeed feeds arbitrary bytes to the feed parser: an error or
// items with absolute http(s) links or none, never a panic.
func FuzzParseFeed(f *testing.F) {
	files, err := filepath.Glob("testdata/feeds/*")
	if err != nil {
		f.Fatal(err)
	}
	for _, name := range files {
		b, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Add([]byte("<rss><channel><item><title>x</title></item>"))
	f.Add([]byte(`{"version":"https://jsonfeed.org/version/1.1","items":[{"id":1}]}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		items, err := ParseFeed(b, "https://feed.example/rss")
		if err != nil {
			return
		}
		for _, it := range items {
			if it.Link != "" && !strings.HasPrefix(it.Link, "http://") && !strings.HasPrefix(it.Link, "https://") {
				t.Fatalf("link %q", it.Link)
			}
			if it.Title == "" && it.Link == "" {
				t.Fatal("an item with neither title nor link")
			}
		}
	})
}

// FuzzParseGDELT feeds arbitrary bytes to the GDELT parser.
func FuzzParseGDELT(f *testing.F) {
	files, err := filepath.Glob("testdata/gdelt/*")
	if err != nil {
		f.Fatal(err)
	}
	for _, name := range files {
		b, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		items, err := ParseGDELT(b)
		if err != nil {
			return
		}
		for _, it := range items {
			if !strings.HasPrefix(it.Link, "http://") && !strings.HasPrefix(it.Link, "https://") {
				t.Fatalf("link %q", it.Link)
			}
		}
	})
}

// FuzzGDELTURL checks that no name escapes the quoted phrase.
func FuzzGDELTURL(f *testing.F) {
	f.Add(`Acme "Labs" (US) OR domain:x`)
	f.Add("Café Nord GmbH")
	f.Fuzz(func(t *testing.T, name string) {
		u, err := GDELTQuery{Name: name}.URL()
		if err != nil {
			return
		}
		q := u[strings.Index(u, "?query=")+7 : strings.Index(u, "&mode=")]
		if strings.Count(q, "%22") != 2 || strings.ContainsAny(q, `"&#`) {
			t.Fatalf("query %q from %q", q, name)
		}
	})
}
