package console_test

import (
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"regexp"
	"strconv"
	"testing"
)

// BenchmarkPages measures the heaviest pages server-side (handler only,
// no network), on serve's demo scale by default (2,000 companies, 20,000
// people); PROSPECTOR_CONSOLE_BENCH_PEOPLE sets another (companies are a
// tenth). B/page is the size of the page's HTML.
func BenchmarkPages(b *testing.B) {
	people := 20000
	if v, err := strconv.Atoi(os.Getenv("PROSPECTOR_CONSOLE_BENCH_PEOPLE")); err == nil && v > 0 {
		people = v
	}
	e := newEnvScale(b, people/10, people)
	br := e.browser()
	br.signIn()
	id := br.createRadar(url.Values{"signals_to_track": {"hiring", "funding"}})
	u, _ := url.Parse(e.server.URL)
	cookies := br.client.Jar.Cookies(u)
	search := br.get("/search?kind=companies&industry=Software+Development")
	company := regexp.MustCompile(`href="(/companies/[^"]+)"`).FindStringSubmatch(search.body)[1]
	handler := e.server.Config.Handler
	for _, pg := range []struct{ name, path string }{
		{"sign-in", "/sign-in"},
		{"search-companies", "/search?kind=companies&industry=Software+Development"},
		{"search-people", "/search?kind=people&titles=engineer&location=US"},
		{"company", company},
		{"radar", "/radars/" + id},
		{"leads", "/leads?radar=" + id},
		{"insights", "/insights?days=90"},
		{"account", "/account"},
	} {
		b.Run(pg.name, func(b *testing.B) {
			size := 0
			for b.Loop() {
				req := httptest.NewRequest(http.MethodGet, pg.path, nil)
				for _, c := range cookies {
					req.AddCookie(c)
				}
				w := httptest.NewRecorder()
				handler.ServeHTTP(w, req)
				if w.Code != http.StatusOK {
					b.Fatalf("%s: %d", pg.path, w.Code)
				}
				size = w.Body.Len()
			}
			b.ReportMetric(float64(size), "B/page")
		})
	}
}
