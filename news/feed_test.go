package news

import (
	"errors"
	"os"
	"strings"
	"testing"
	"time"
)

func readFixture(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestParseFeedRSS(t *testing.T) {
	items, err := ParseFeed(readFixture(t, "feeds/rss2.xml"), "https://kestrel-payments.example/news/feed.xml")
	if err != nil {
		t.Fatal(err)
	}
	if len(items) != 3 {
		t.Fatalf("got %d items", len(items))
	}
	first := items[0]
	if first.Title != "Kestrel Payments raises $40M Series B led by Northgate Ventures" ||
		first.Link != "https://kestrel-payments.example/news/series-b" || first.GUID != "kp-2026-0412" ||
		!first.Published.Equal(time.Date(2026, 4, 14, 9, 30, 0, 0, time.UTC)) ||
		first.Source != "https://kestrel-payments.example/news/feed.xml" {
		t.Errorf("first item: %+v", first)
	}
	// HTML stripped, the script's text dropped.
	if first.Summary != "Kestrel Payments today announced a $40 million Series B round. The money will fund new markets." {
		t.Errorf("summary %q", first.Summary)
	}
	// A relative link resolves against the site; content:encoded stands in
	// for a missing description; the GUID falls back to the link.
	second := items[1]
	if second.Link != "https://kestrel-payments.example/news/almont-partnership" ||
		second.Summary != "Almont Bank customers will get instant virtual cards." {
		t.Errorf("second item: %+v", second)
	}
	if items[2].Summary != "A short guide for merchants & marketplaces." ||
		!items[2].Published.Equal(time.Date(2026, 4, 1, 6, 0, 0, 0, time.UTC)) {
		t.Errorf("third item: %+v", items[2])
	}
}

func TestParseFeedAtom(t *testing.T) {
	items, err := ParseFeed(readFixture(t, "feeds/atom.xml"), "https://wrenfield-software.example/blog/atom.xml")
	if err != nil {
		t.Fatal(err)
	}
	if len(items) != 2 {
		t.Fatalf("got %d items", len(items))
	}
	// xml:base decides the relative link; published wins over updated.
	if items[0].Link != "https://wrenfield-software.example/blog/insights-4" ||
		items[0].Summary != "AI forecasting for every revenue team." ||
		!items[0].Published.Equal(time.Date(2026, 5, 2, 10, 0, 0, 0, time.UTC)) {
		t.Errorf("first entry: %+v", items[0])
	}
	// Only updated: it stands for published, in UTC.
	if !items[1].Published.Equal(time.Date(2026, 4, 20, 6, 15, 0, 0, time.UTC)) ||
		items[1].Summary != "Our Berlin team doubles this year." {
		t.Errorf("second entry: %+v", items[1])
	}
}

func TestParseFeedJSONAndRDF(t *testing.T) {
	items, err := ParseFeed(readFixture(t, "feeds/feed.json"), "https://tidewell.example/feed.json")
	if err != nil || len(items) != 2 {
		t.Fatalf("json feed: %v %d", err, len(items))
	}
	if items[0].GUID != "tw-2026-07" || items[0].Summary != "The first opens in Austin in June." ||
		!items[0].Published.Equal(time.Date(2026, 3, 10, 17, 0, 0, 0, time.UTC)) {
		t.Errorf("json item: %+v", items[0])
	}
	items, err = ParseFeed(readFixture(t, "feeds/rdf.xml"), "https://northvale-bio.example/rss")
	if err != nil || len(items) != 1 || items[0].Published.IsZero() {
		t.Fatalf("rdf feed: %v %+v", err, items)
	}
}

// The usual broken feeds still give their entries.
func TestParseFeedBroken(t *testing.T) {
	items, err := ParseFeed(readFixture(t, "feeds/broken_entities.xml"), "https://halvard-foods.example/rss")
	if err != nil {
		t.Fatal(err)
	}
	if len(items) != 2 {
		t.Fatalf("got %d items, want the 2 with a title or link", len(items))
	}
	if !strings.Contains(items[0].Title, "Glenmoor Brands & partners") ||
		items[0].Link != "https://halvard-foods.example/news/desserts?ref=rss&utm=feed" ||
		items[0].Summary != "The deal — worth $310 million – closes in May." {
		t.Errorf("entities: %+v", items[0])
	}
	if !items[0].Published.IsZero() {
		t.Errorf("an unreadable date should be zero, got %v", items[0].Published)
	}
	if !items[1].Published.Equal(time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC)) {
		t.Errorf("a bare date: %v", items[1].Published)
	}

	items, err = ParseFeed(readFixture(t, "feeds/broken_truncated.xml"), "https://orrin-systems.example/rss")
	if err != nil || len(items) != 1 || items[0].Title != "Orrin Systems names Priya Sandoval VP of Sales" {
		t.Errorf("truncated: %v %+v", err, items)
	}
	items, err = ParseFeed(readFixture(t, "feeds/broken_bom_junk.xml"), "https://lumio.example/rss")
	if err != nil || len(items) != 1 || items[0].Title != "Lumio unveils Halo smart bulb" {
		t.Errorf("bom and junk: %v %+v", err, items)
	}
	items, err = ParseFeed(readFixture(t, "feeds/latin1.xml"), "https://cafe-nord.example/rss")
	if err != nil || len(items) != 1 || items[0].Title != "Café Nord opens new café in Tromsø" {
		t.Errorf("latin-1: %v %+v", err, items)
	}
}

func TestParseFeedNotAFeed(t *testing.T) {
	for _, body := range [][]byte{readFixture(t, "feeds/not_a_feed.html"), []byte(""), []byte("plain words")} {
		if _, err := ParseFeed(body, "https://example.test/feed"); !errors.Is(err, ErrNotFeed) {
			t.Errorf("%q: got %v, want ErrNotFeed", body, err)
		}
	}
	if _, err := ParseFeed([]byte("<rss version=\"2.0\"><channel><title>x"), "https://example.test/feed"); err == nil {
		t.Error("a feed with no complete entry and no end should fail")
	}
}

func TestPlainText(t *testing.T) {
	cases := map[string]string{
		"<p>Hello <b>world</b></p><p>again</p>":         "Hello world again",
		"a &amp; b &nbsp; c":                            "a & b c",
		"<style>p{}</style><script>x()</script>Visible": "Visible",
		"line<br>break":                                 "line break",
		"  spaced\n\t out  ":                            "spaced out",
		"<img src=x onerror=alert(1)>caption":           "caption",
		"unclosed <b>bold":                              "unclosed bold",
		"<![CDATA[ignored]]>kept":                       "kept",
	}
	for in, want := range cases {
		if got := plainText(in); got != want {
			t.Errorf("plainText(%q) = %q, want %q", in, got, want)
		}
	}
	long := strings.Repeat("word ", 400)
	if got := plainText(long); len([]rune(got)) > maxTextRunes+1 || !strings.HasSuffix(got, "…") {
		t.Errorf("a long text is not clipped: %d runes", len([]rune(got)))
	}
}
