package console_test

import (
	"context"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/prospectorhq/prospector"
)

var (
	totalRE = regexp.MustCompile(`class="count" role="status">([0-9,]+) results?\.`)
	nextRE  = regexp.MustCompile(`href="(/search\?[^"]*)" rel="next"`)
	rowRE   = regexp.MustCompile(`<tr><td>`)
)

// The search page says how many results match, and that number is what
// walking every page shows, on every page; it is the index's own count.
func TestSearchShowsTheResultCount(t *testing.T) {
	e := newEnv(t)
	b := e.signedIn()
	for _, tc := range []struct {
		path  string
		count func() (int, error)
	}{
		{"/search?kind=people&titles=engineer,manager,director", func() (int, error) {
			return e.index.CountPeople(context.Background(), prospector.PersonQuery{Titles: []string{"engineer", "manager", "director"}})
		}},
		{"/search?kind=companies&location=WORLD", func() (int, error) {
			return e.index.CountCompanies(context.Background(), prospector.CompanyQuery{})
		}},
	} {
		want, err := tc.count()
		if err != nil {
			t.Fatal(err)
		}
		if want <= 25 {
			t.Fatalf("%s: %d matches, too few to page", tc.path, want)
		}
		rows, pages, path := 0, 0, tc.path
		for path != "" {
			p := b.get(path)
			m := totalRE.FindStringSubmatch(p.body)
			if p.status != http.StatusOK || m == nil {
				t.Fatalf("GET %s: %d, no total in %q", path, p.status, regexp.MustCompile(`class="count"[^<]*`).FindString(p.body))
			}
			if n, _ := strconv.Atoi(strings.ReplaceAll(m[1], ",", "")); n != want {
				t.Fatalf("GET %s says %s results, the index counts %d", path, m[1], want)
			}
			rows += len(rowRE.FindAllString(p.body, -1))
			pages++
			path = ""
			if n := nextRE.FindStringSubmatch(p.body); n != nil {
				path = strings.ReplaceAll(n[1], "&amp;", "&")
			}
		}
		if rows != want || pages < 2 {
			t.Fatalf("%s: %d pages held %d rows, the page said %d", tc.path, pages, rows, want)
		}
	}
	if p := b.get("/search?kind=companies&industry=Insurance&keywords=zzzz"); !strings.Contains(p.body, "No companies match these filters.") {
		t.Fatalf("no match: %s", regexp.MustCompile(`class="count"[^<]*`).FindString(p.body))
	}
}
