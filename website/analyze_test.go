package website

import (
	"net/http"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"golang.org/x/text/encoding/japanese"
)

func analyzeFile(t testing.TB, name, pageURL string, header http.Header) *Page {
	t.Helper()
	body, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	p, err := Analyze(pageURL, header, body, Limits{})
	if err != nil {
		t.Fatalf("Analyze(%s): %v", name, err)
	}
	return p
}

func linkURLs(ls []Link) []string {
	var out []string
	for _, l := range ls {
		out = append(out, l.URL)
	}
	return out
}

func TestAnalyzeHomepage(t *testing.T) {
	p := analyzeFile(t, "quillfeather-home.html", "https://www.quillfeather.example/", http.Header{"Content-Type": {"text/html; charset=utf-8"}})

	if p.Title != "Quillfeather Robotics — Warehouse automation" {
		t.Errorf("Title = %q", p.Title)
	}
	if p.Charset != "utf-8" || p.Truncated {
		t.Errorf("Charset = %q, Truncated = %v", p.Charset, p.Truncated)
	}
	t.Run("links resolved, deduplicated, only http(s), no fragments", func(t *testing.T) {
		want := []string{
			"https://www.quillfeather.example/",
			"https://www.quillfeather.example/product",
			"https://www.quillfeather.example/customers",
			"https://www.quillfeather.example/blog/",
			"https://www.quillfeather.example/company/careers",
			"https://www.quillfeather.example/contact",
			"https://www.quillfeather.example/blog/hiring-for-robotics-ops",
			"https://boards.greenhouse.io/quillfeather",
			"https://careers.quillfeather.example/",
			"https://social.test/quillfeather",
			"https://www.quillfeather.example/legal/privacy",
		}
		if got := linkURLs(p.Links); !reflect.DeepEqual(got, want) {
			t.Errorf("Links =\n%q\nwant\n%q", got, want)
		}
		// The logo link has no text: the image's alt names it.
		if p.Links[0].Text != "Quillfeather" {
			t.Errorf("logo link text = %q", p.Links[0].Text)
		}
		if p.Links[7].Text != "See all open roles" {
			t.Errorf("greenhouse link text = %q", p.Links[7].Text)
		}
	})
	t.Run("scripts and iframes", func(t *testing.T) {
		wantSrcs := []string{
			"https://www.quillfeather.example/assets/app.4f2a9c.js",
			"https://js.stripe.com/v3/",
			"https://js.hs-scripts.com/4815162.js",
		}
		if !reflect.DeepEqual(p.ScriptSrcs, wantSrcs) {
			t.Errorf("ScriptSrcs = %q", p.ScriptSrcs)
		}
		wantFrames := []string{
			"https://player.video.test/embed/quillfeather-tour",
			// Inside <noscript>: a crawler sees what a browser without
			// scripting sees.
			"https://www.googletagmanager.com/ns.html?id=GTM-QF12345",
		}
		if !reflect.DeepEqual(p.IFrames, wantFrames) {
			t.Errorf("IFrames = %q", p.IFrames)
		}
		if len(p.Scripts) != 2 || p.Scripts[0].Type != "application/ld+json" ||
			!strings.Contains(p.Scripts[1].Body, "Stripe('pk_test_fixture')") {
			t.Errorf("Scripts = %+v", p.Scripts)
		}
	})
	t.Run("meta", func(t *testing.T) {
		if got := p.MetaContent("OG:TITLE"); !reflect.DeepEqual(got, []string{"Quillfeather Robotics"}) {
			t.Errorf("og:title = %q", got)
		}
		if got := p.MetaContent("x-ua-compatible"); !reflect.DeepEqual(got, []string{"IE=edge"}) {
			t.Errorf("x-ua-compatible = %q", got)
		}
		if m := p.Meta[0]; m.Attr != "http-equiv" {
			t.Errorf("first meta = %+v", m)
		}
	})
	t.Run("feeds", func(t *testing.T) {
		want := []Feed{
			{URL: "https://www.quillfeather.example/blog/feed.xml", Type: "application/rss+xml", Title: "Quillfeather blog"},
			{URL: "https://quillfeather.example/press/atom.xml", Type: "application/atom+xml", Title: "Press releases"},
		}
		if !reflect.DeepEqual(p.Feeds, want) {
			t.Errorf("Feeds = %+v", p.Feeds)
		}
	})
	t.Run("careers candidates", func(t *testing.T) {
		if len(p.Careers) < 2 {
			t.Fatalf("Careers = %+v", p.Careers)
		}
		top := []string{p.Careers[0].URL, p.Careers[1].URL}
		want := []string{"https://www.quillfeather.example/company/careers", "https://careers.quillfeather.example/"}
		if !reflect.DeepEqual(top, want) {
			t.Errorf("top careers = %q (all %+v)", top, p.Careers)
		}
		for _, c := range p.Careers {
			if strings.Contains(c.URL, "greenhouse") || strings.Contains(c.URL, "social.test") {
				t.Errorf("off-site candidate %+v", c)
			}
			if c.URL == "https://www.quillfeather.example/blog/hiring-for-robotics-ops" && c.Score >= p.Careers[1].Score {
				t.Errorf("blog post ranked as high as a careers page: %+v", c)
			}
		}
	})
	if !strings.Contains(p.HTML, "hs-script-loader") {
		t.Error("HTML does not hold the document")
	}
}

func TestAnalyzeBrokenHTML(t *testing.T) {
	p := analyzeFile(t, "broken.html", "http://brokenridge.test/", nil)
	// <title> runs to the end of the document when unclosed, as in a
	// browser; the title is then the whole (collapsed, bounded) rest.
	if !strings.HasPrefix(p.Title, "Brokenridge Logistics") {
		t.Errorf("Title = %q", p.Title)
	}
	if len([]rune(p.Title)) > maxTextRunes {
		t.Errorf("Title not bounded: %d runes", len([]rune(p.Title)))
	}
}

func TestAnalyzeBrokenBody(t *testing.T) {
	// Same markup with the title closed, so the body is tokenized.
	body, err := os.ReadFile(filepath.Join("testdata", "broken.html"))
	if err != nil {
		t.Fatal(err)
	}
	body = []byte(strings.Replace(string(body), "Logistics\n", "Logistics</title>\n", 1))
	p, err := Analyze("http://brokenridge.test/", nil, body, Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if p.Title != "Brokenridge Logistics" {
		t.Errorf("Title = %q", p.Title)
	}
	if p.BaseURL != "https://www.brokenridge.test/en/" {
		t.Errorf("BaseURL = %q", p.BaseURL)
	}
	want := []string{
		"https://www.brokenridge.test/en/jobs",
		"https://www.brokenridge.test/about",
		"https://brokenridge.test/stellenangebote/",
		"https://apply.workable.test/brokenridge/",
	}
	if got := linkURLs(p.Links); !reflect.DeepEqual(got, want) {
		t.Errorf("Links = %q", got)
	}
	if p.Links[1].Text != "About us" {
		t.Errorf("empty anchor should take its title: %q", p.Links[1].Text)
	}
	if got := p.MetaContent("generator"); !reflect.DeepEqual(got, []string{"SiteMaker"}) {
		t.Errorf("generator = %q", got)
	}
	// Text and path both say so for /stellenangebote/; only the path and
	// a word of the text for /jobs.
	if len(p.Careers) != 2 || p.Careers[0].URL != want[2] || p.Careers[1].URL != want[0] {
		t.Errorf("Careers = %+v", p.Careers)
	}
	if !reflect.DeepEqual(p.ScriptSrcs, []string{"https://cdn.example/lib.js"}) {
		t.Errorf("ScriptSrcs = %q", p.ScriptSrcs)
	}
}

func TestAnalyzeCharsets(t *testing.T) {
	t.Run("meta charset latin-1", func(t *testing.T) {
		p := analyzeFile(t, "etoile-latin1.html", "https://etoile.example/", http.Header{"Content-Type": {"text/html"}})
		if p.Title != "Boulangerie Étoile - Pâtisserie à Lyon" {
			t.Errorf("Title = %q", p.Title)
		}
		if p.Charset != "windows-1252" {
			t.Errorf("Charset = %q", p.Charset)
		}
		if len(p.Careers) != 2 || p.Careers[0].Text != "Carrières" || p.Careers[1].URL != "https://etoile.example/emplois" {
			t.Errorf("Careers = %+v", p.Careers)
		}
		if p.Careers[0].URL != "https://etoile.example/carri%C3%A8res" {
			t.Errorf("non-ASCII path should be percent-encoded UTF-8: %q", p.Careers[0].URL)
		}
	})
	t.Run("content-type header shift_jis", func(t *testing.T) {
		src := "<html><head><title>採用情報 - 株式会社ミナト</title></head><body><a href=\"/recruit\">採用情報</a></body></html>"
		body, err := japanese.ShiftJIS.NewEncoder().Bytes([]byte(src))
		if err != nil {
			t.Fatal(err)
		}
		p, err := Analyze("https://minato.example/", http.Header{"Content-Type": {"text/html; charset=Shift_JIS"}}, body, Limits{})
		if err != nil {
			t.Fatal(err)
		}
		if p.Title != "採用情報 - 株式会社ミナト" || p.Charset != "shift_jis" || p.Links[0].Text != "採用情報" {
			t.Errorf("Title = %q, Charset = %q, Links = %+v", p.Title, p.Charset, p.Links)
		}
		if len(p.Careers) != 1 || p.Careers[0].URL != "https://minato.example/recruit" {
			t.Errorf("Careers = %+v", p.Careers)
		}
	})
	t.Run("invalid utf-8 is replaced", func(t *testing.T) {
		p, err := Analyze("https://x.example/", http.Header{"Content-Type": {"text/html; charset=utf-8"}},
			[]byte("<title>ok \xff\xfe here</title>"), Limits{})
		if err != nil {
			t.Fatal(err)
		}
		if p.Title != "ok \uFFFD here" {
			t.Errorf("Title = %q", p.Title)
		}
	})
}

func TestAnalyzeLimits(t *testing.T) {
	var b strings.Builder
	b.WriteString("<html><body>")
	for i := 0; i < 500; i++ {
		b.WriteString(`<a href="/p/`)
		b.WriteString(strings.Repeat("x", i%7))
		b.WriteString(`">x</a><script>`)
		b.WriteString(strings.Repeat("var a=1;", 100))
		b.WriteString(`</script>`)
	}
	body := []byte(b.String())
	lim := Limits{MaxBytes: len(body) / 2, MaxLinks: 3, MaxScriptBytes: 100, MaxScriptsBytes: 450, MaxCareers: 1}
	p, err := Analyze("https://limits.example/", nil, body, lim)
	if err != nil {
		t.Fatal(err)
	}
	if !p.Truncated || len(p.HTML) != len(body)/2 {
		t.Errorf("Truncated = %v, len(HTML) = %d", p.Truncated, len(p.HTML))
	}
	if len(p.Links) != 3 {
		t.Errorf("len(Links) = %d, want 3", len(p.Links))
	}
	total := 0
	for _, s := range p.Scripts {
		if len(s.Body) > 100 || !s.Truncated {
			t.Errorf("script not cut: %d bytes, truncated %v", len(s.Body), s.Truncated)
		}
		total += len(s.Body)
	}
	if total > 450 || len(p.Scripts) != 5 {
		t.Errorf("scripts total %d bytes in %d scripts", total, len(p.Scripts))
	}
}

func TestAnalyzeRejectsNonHTTPPageURL(t *testing.T) {
	for _, u := range []string{"", "/relative", "ftp://files.example/", "https://", "::"} {
		if _, err := Analyze(u, nil, []byte("<a href=x>x</a>"), Limits{}); err == nil {
			t.Errorf("Analyze(%q) succeeded", u)
		}
	}
}

func TestCareersStayOnSite(t *testing.T) {
	body := []byte(`<a href="http://10.0.0.1/careers">Careers</a><a href="http://127.0.0.2/jobs">Jobs</a>
	<a href="https://acme.example.com/careers">Careers</a><a href="/careers">Careers</a>`)
	p, err := Analyze("http://127.0.0.1:8080/", nil, body, Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Careers) != 1 || p.Careers[0].URL != "http://127.0.0.1:8080/careers" {
		t.Errorf("Careers = %+v", p.Careers)
	}
	// Subdomains of one registrable domain are one site; another domain
	// is not, whatever its path says.
	p, err = Analyze("https://www.acme.example/", nil, []byte(`<a href="https://jobs.acme.example/">Jobs</a>
	<a href="https://acme.example.org/careers">Careers</a><a href="https://other.example/careers">Careers</a>`), Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Careers) != 1 || p.Careers[0].URL != "https://jobs.acme.example/" {
		t.Errorf("Careers = %+v", p.Careers)
	}
}
