package techdetect

import (
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/prospectorhq/prospector/website"
)

// homepage100KB grows the fixture homepage (HubSpot, Stripe, GTM) to
// about 100 KB with the blocks of a marketing site.
func homepage100KB(tb testing.TB) Input {
	tb.Helper()
	home, err := os.ReadFile(filepath.Join("..", "website", "testdata", "quillfeather-home.html"))
	if err != nil {
		tb.Fatal(err)
	}
	head, tail, _ := strings.Cut(string(home), "</main>")
	var b strings.Builder
	b.WriteString(head)
	for i := 0; b.Len() < 100<<10; i++ {
		fmt.Fprintf(&b, `<section class="card card-%d"><h3>Feature %d</h3>
<p>Pickers spend less time walking: routes are planned per order wave, and every arm reports its
status to the floor manager's dashboard. <a href="/features/%d">Read more about feature %d</a></p>
<img src="/img/feature-%d.webp" alt="Feature %d" loading="lazy">
<script>window.dataLayer=window.dataLayer||[];dataLayer.push({event:"card_view",card:%d});</script>
</section>
`, i, i, i, i, i, i, i)
	}
	b.WriteString("</main>" + tail)
	header := http.Header{
		"Content-Type": {"text/html; charset=utf-8"},
		"Server":       {"cloudflare"},
		"Cf-Ray":       {"8a1b2c3d4e5f6a7b-CDG"},
		"Set-Cookie":   {"__cf_bm=fixture; Path=/", "hubspotutk=abc; Path=/"},
	}
	p, err := website.Analyze("https://www.quillfeather.example/", header, []byte(b.String()), website.Limits{})
	if err != nil {
		tb.Fatal(err)
	}
	return Input{URL: "https://www.quillfeather.example/", Header: header, Page: p}
}

// BenchmarkDetect100KB is one detection over a 100 KB homepage with the
// built-in rules (page analysis excluded: website has its own benchmark).
func BenchmarkDetect100KB(b *testing.B) {
	d := builtinDetector(b)
	in := homepage100KB(b)
	b.SetBytes(int64(len(in.Page.HTML)))
	b.ReportAllocs()
	for b.Loop() {
		if len(d.Detect(in)) < 4 {
			b.Fatal("expected detections")
		}
	}
}

// syntheticRules makes n technologies shaped like a large operator file:
// each with a script URL, an inline-script and an HTML pattern on its
// own vendor name, a header and a meta generator.
func syntheticRules(n int) string {
	var b strings.Builder
	b.WriteString("{")
	for i := 0; i < n; i++ {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, `"Vendor %d": {"cats": [1], "website": "https://vendor%d.test",
		  "scriptSrc": "cdn\\.vendor%d\\.test/v(\\d+)/loader\\.js\\;version:\\1",
		  "scripts": "vendor%dSettings\\s*=\\s*\\{",
		  "html": ["<div[^>]+class=\"vendor%d-widget", "<iframe[^>]+src=\"https://embed\\.vendor%d\\.test/"],
		  "headers": {"X-Vendor%d": ""}, "meta": {"generator": "^Vendor%d ?(\\d+)?\\;version:\\1"}}`, i, i, i, i, i, i, i, i)
	}
	b.WriteString("}")
	return b.String()
}

// BenchmarkDetect100KBLargeRuleset adds 3,000 synthetic technologies
// (about 18,000 patterns) to the built-ins: the scale of a full
// community fingerprint set loaded with --fingerprints.
func BenchmarkDetect100KBLargeRuleset(b *testing.B) {
	rs, err := Builtin()
	if err != nil {
		b.Fatal(err)
	}
	extra, err := Parse("synthetic.json", []byte(syntheticRules(3000)))
	if err != nil {
		b.Fatal(err)
	}
	rs.Merge(extra)
	d := detector(b, rs)
	in := homepage100KB(b)
	b.SetBytes(int64(len(in.Page.HTML)))
	b.ReportAllocs()
	for b.Loop() {
		d.Detect(in)
	}
}

// BenchmarkLoadBuiltin is the one-off cost of parsing and compiling the
// built-in rules.
func BenchmarkLoadBuiltin(b *testing.B) {
	for b.Loop() {
		if _, err := Load(); err != nil {
			b.Fatal(err)
		}
	}
}
