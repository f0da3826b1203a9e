package website

import (
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// page100KB builds a homepage of about 100 KB: the fixture homepage with
// its main section grown by blocks of links, text, images and scripts, the
// mix of a marketing site.
func page100KB(tb testing.TB) []byte {
	tb.Helper()
	home, err := os.ReadFile(filepath.Join("testdata", "quillfeather-home.html"))
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
	b.WriteString("</main>")
	b.WriteString(tail)
	return []byte(b.String())
}

// BenchmarkAnalyze100KB measures one analysis of a 100 KB homepage; the
// bytes/s figure is throughput over the raw page.
func BenchmarkAnalyze100KB(b *testing.B) {
	body := page100KB(b)
	header := http.Header{"Content-Type": {"text/html; charset=utf-8"}}
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Analyze("https://www.quillfeather.example/", header, body, Limits{}); err != nil {
			b.Fatal(err)
		}
	}
}
