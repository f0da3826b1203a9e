package news

import (
	"errors"
	"net/url"
	"strings"
	"testing"
	"time"
)

func TestGDELTURL(t *testing.T) {
	got, err := GDELTQuery{Name: "Kestrel Payments, Inc.", MaxRecords: 50, Timespan: "7d"}.URL()
	if err != nil {
		t.Fatal(err)
	}
	want := DefaultGDELTBaseURL + `?query=%22kestrel%20payments%22&mode=artlist&format=json&maxrecords=50` +
		`&timespan=7d&sort=datedesc`
	if got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	u, err := url.Parse(got)
	if err != nil || u.Query().Get("query") != `"kestrel payments"` {
		t.Errorf("query does not round-trip: %v %q", err, u.Query().Get("query"))
	}

	// Defaults, a base URL for tests, a language filter.
	got, err = GDELTQuery{BaseURL: "http://127.0.0.1:9009/api/v2/doc/doc", Name: "Tidewell", Language: "English"}.URL()
	if err != nil {
		t.Fatal(err)
	}
	u, err = url.Parse(got)
	if err != nil {
		t.Fatal(err)
	}
	q := u.Query()
	if u.Host != "127.0.0.1:9009" || q.Get("query") != `"tidewell" sourcelang:english` || q.Get("maxrecords") != "75" ||
		q.Get("timespan") != "1d" || q.Get("mode") != "artlist" || q.Get("format") != "json" {
		t.Errorf("got %s", got)
	}
}

// Names are quoted safely: GDELT's operators inside a name cannot escape
// the phrase.
func TestGDELTURLQuoting(t *testing.T) {
	for name, phrase := range map[string]string{
		`Marlow & Finch`:                 `"marlow finch"`,
		`Acme "Labs" (US)`:               `"acme labs us"`,
		`Beta: domain:evil.test OR x -y`: `"beta domain evil test or x y"`,
		`Café Nord GmbH`:                 `"café nord"`,
		`Zephyrine Air`:                  `"zephyrine air"`,
	} {
		got, err := GDELTQuery{Name: name}.URL()
		if err != nil {
			t.Errorf("%q: %v", name, err)
			continue
		}
		u, err := url.Parse(got)
		if err != nil {
			t.Fatal(err)
		}
		if q := u.Query().Get("query"); q != phrase {
			t.Errorf("%q: query %q, want %q", name, q, phrase)
		}
	}
}

func TestGDELTURLInvalid(t *testing.T) {
	for _, q := range []GDELTQuery{
		{Name: "AB"},
		{Name: "  ..  "},
		{Name: "Acme", MaxRecords: 251},
		{Name: "Acme", MaxRecords: -1},
		{Name: "Acme", Timespan: "10min"},
		{Name: "Acme", Timespan: "4m"},
		{Name: "Acme", Timespan: "yesterday"},
		{Name: "Acme", BaseURL: "ftp://gdelt.test/doc"},
		{Name: "Acme", BaseURL: "https://gdelt.test/doc?x=1"},
	} {
		if _, err := q.URL(); err == nil {
			t.Errorf("%+v: no error", q)
		}
	}
	for _, span := range []string{"15min", "24h", "24hours", "1w", "3m", "2months", "90d"} {
		if _, err := (GDELTQuery{Name: "Acme", Timespan: span}).URL(); err != nil {
			t.Errorf("timespan %s: %v", span, err)
		}
	}
}

func TestParseGDELT(t *testing.T) {
	items, err := ParseGDELT(readFixture(t, "gdelt/artlist.json"))
	if err != nil {
		t.Fatal(err)
	}
	if len(items) != 3 {
		t.Fatalf("got %d items, want 3 (one has no URL)", len(items))
	}
	a := items[0]
	if a.Title != "Kestrel Payments raises $40M Series B led by Northgate Ventures" ||
		a.Link != "https://metro-business-review.example/2026/04/14/kestrel-payments-series-b" || a.GUID != a.Link ||
		!a.Published.Equal(time.Date(2026, 4, 14, 10, 15, 0, 0, time.UTC)) || a.Source != "gdelt" ||
		a.Domain != "metro-business-review.example" || a.Language != "English" || a.SourceCountry != "United States" {
		t.Errorf("first article: %+v", a)
	}
	if items[2].Title != "Kestrel Payments ouvre un bureau à Paris" {
		t.Errorf("entities in titles: %q", items[2].Title)
	}
	items, err = ParseGDELT(readFixture(t, "gdelt/empty.json"))
	if err != nil || len(items) != 0 {
		t.Errorf("empty answer: %v %v", err, items)
	}
}

func TestParseGDELTRepairs(t *testing.T) {
	items, err := ParseGDELT(readFixture(t, "gdelt/broken.json"))
	if err != nil || len(items) != 1 {
		t.Fatalf("broken JSON: %v %v", err, items)
	}
	if items[0].Title != "Kestrel Payments hires CFO x27Mara Quillonx27" {
		t.Errorf("title %q", items[0].Title)
	}
}

func TestParseGDELTRefusals(t *testing.T) {
	for _, f := range []string{"gdelt/too_short.txt", "gdelt/rate_limit.html"} {
		_, err := ParseGDELT(readFixture(t, f))
		if !errors.Is(err, ErrGDELT) {
			t.Errorf("%s: got %v, want ErrGDELT", f, err)
		}
		if err != nil && !strings.Contains(err.Error(), "Please limit") && !strings.Contains(err.Error(), "too short") {
			t.Errorf("%s: the message is lost: %v", f, err)
		}
	}
	if _, err := ParseGDELT([]byte(`{"articles": [`)); err == nil || errors.Is(err, ErrGDELT) {
		t.Errorf("cut JSON: %v", err)
	}
}
