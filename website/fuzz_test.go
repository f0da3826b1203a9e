package website

import (
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"testing"
	"unicode/utf8"
)

// FuzzAnalyze feeds arbitrary bytes and content types to Analyze and
// checks that it neither panics nor breaks the promises callers rely on:
// absolute http(s) URLs without fragments, bounded lists, valid UTF-8.
func FuzzAnalyze(f *testing.F) {
	files, err := filepath.Glob(filepath.Join("testdata", "*.html"))
	if err != nil {
		f.Fatal(err)
	}
	for _, name := range files {
		b, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b, "text/html")
	}
	f.Add([]byte("<a href=//\x00bad>x</a><base href=javascript:alert(1)><script>"), "text/html; charset=utf-16le")
	f.Add([]byte("\xfe\xff\x00<\x00a"), "")
	f.Add([]byte("<noscript><a href=/careers>Careers</a></noscript><svg><title>x</title></svg>"), "text/html; charset=bogus")

	lim := Limits{MaxBytes: 64 << 10, MaxLinks: 50, MaxScriptBytes: 1 << 10, MaxScriptsBytes: 4 << 10, MaxCareers: 3}
	f.Fuzz(func(t *testing.T, body []byte, contentType string) {
		p, err := Analyze("https://fuzz.example/a/b?c=d", http.Header{"Content-Type": {contentType}}, body, lim)
		if err != nil {
			t.Fatalf("Analyze: %v", err)
		}
		check := func(kind, s string) {
			u, err := url.Parse(s)
			if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.Fragment != "" {
				t.Errorf("%s %q is not an absolute http(s) URL without fragment", kind, s)
			}
		}
		for _, l := range p.Links {
			check("link", l.URL)
			if !utf8.ValidString(l.Text) || len([]rune(l.Text)) > maxTextRunes {
				t.Errorf("link text %q", l.Text)
			}
		}
		for _, s := range p.IFrames {
			check("iframe", s)
		}
		for _, s := range p.ScriptSrcs {
			check("script", s)
		}
		for _, fd := range p.Feeds {
			check("feed", fd.URL)
		}
		for _, c := range p.Careers {
			check("careers", c.URL)
			if siteOf(mustHost(c.URL)) != "fuzz.example" {
				t.Errorf("careers candidate %q is off-site", c.URL)
			}
		}
		if len(p.Links) > lim.MaxLinks || len(p.Careers) > lim.MaxCareers {
			t.Errorf("lists over their limits: %d links, %d careers", len(p.Links), len(p.Careers))
		}
		total := 0
		for _, s := range p.Scripts {
			total += len(s.Body)
		}
		if total > lim.MaxScriptsBytes {
			t.Errorf("scripts hold %d bytes", total)
		}
		if !utf8.ValidString(p.Title) || !utf8.ValidString(p.HTML) {
			t.Errorf("invalid UTF-8 in title or HTML")
		}
	})
}

func mustHost(s string) string {
	u, err := url.Parse(s)
	if err != nil {
		return ""
	}
	return u.Hostname()
}
