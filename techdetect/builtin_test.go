package techdetect

import (
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestBuiltinRulesAreComplete(t *testing.T) {
	rs, err := Builtin()
	if err != nil {
		t.Fatal(err)
	}
	if n := len(rs.Technologies); n < 60 {
		t.Errorf("%d built-in technologies, want at least 60", n)
	}
	if len(rs.Stats.Skipped) > 0 || len(rs.Stats.Unsupported) > 0 || len(rs.Stats.Overridden) > 0 {
		t.Errorf("built-in rules should load clean: skipped %+v, unsupported %v, overridden %v",
			rs.Stats.Skipped, rs.Stats.Unsupported, rs.Stats.Overridden)
	}
	for name, tech := range rs.Technologies {
		if len(tech.Cats) == 0 || !strings.HasPrefix(tech.Website, "https://") || tech.Description == "" {
			t.Errorf("%s: needs categories, an https website and a description: %+v", name, tech)
		}
		for _, c := range tech.Cats {
			if rs.Categories[c] == "" {
				t.Errorf("%s: category %d has no name", name, c)
			}
		}
		for _, ref := range append(append([]Ref{}, tech.Implies...), tech.Excludes...) {
			if rs.Technologies[ref.Name] == nil {
				t.Errorf("%s refers to unknown technology %q", name, ref.Name)
			}
		}
		if tech.patternCount() == 0 {
			t.Errorf("%s has no pattern", name)
		}
	}
}

type positive struct {
	Tech      string            `json:"tech"`
	HTML      string            `json:"html"`
	Headers   map[string]string `json:"headers"`
	SetCookie []string          `json:"set_cookie"`
	URL       string            `json:"url"`
	Version   string            `json:"version"`
}

// TestBuiltinPositives checks every built-in technology against snippets
// written from each vendor's documented embed code: each must be found
// by its own patterns (not only implied), with evidence.
func TestBuiltinPositives(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("testdata", "positives.json"))
	if err != nil {
		t.Fatal(err)
	}
	var cases []positive
	if err := json.Unmarshal(data, &cases); err != nil {
		t.Fatal(err)
	}
	d := builtinDetector(t)
	covered := make(map[string]bool)
	for i, c := range cases {
		covered[c.Tech] = true
		header := http.Header{}
		for k, v := range c.Headers {
			header.Set(k, v)
		}
		for _, sc := range c.SetCookie {
			header.Add("Set-Cookie", sc)
		}
		pageURL := c.URL
		if pageURL == "" {
			pageURL = "https://www.quillfeather.example/"
		}
		html := "<!DOCTYPE html><html><head><title>Fixture</title></head><body>" + c.HTML + "</body></html>"
		got := byName(d.Detect(input(t, pageURL, html, header)))
		det, ok := got[c.Tech]
		if !ok {
			t.Errorf("case %d: %s not detected; got %v", i, c.Tech, keys(got))
			continue
		}
		if det.Implied || len(det.Evidence) == 0 || det.Evidence[0].Kind == "implies" {
			t.Errorf("case %d: %s found only by implication: %+v", i, c.Tech, det)
		}
		if c.Version != "" && det.Version != c.Version {
			t.Errorf("case %d: %s version = %q, want %q", i, c.Tech, det.Version, c.Version)
		}
	}
	for _, info := range d.Technologies() {
		if !covered[info.Name] {
			t.Errorf("built-in %s has no positive fixture in testdata/positives.json", info.Name)
		}
	}
}

// TestBuiltinNeutralPage runs every built-in rule against a page that
// names many products in its text, class names and code samples but
// embeds none of them.
func TestBuiltinNeutralPage(t *testing.T) {
	html, err := os.ReadFile(filepath.Join("testdata", "neutral.html"))
	if err != nil {
		t.Fatal(err)
	}
	header := http.Header{
		"Content-Type":  {"text/html; charset=utf-8"},
		"Cache-Control": {"public, max-age=300"},
		"Set-Cookie":    {"sessionid=fixture123; Path=/; HttpOnly; Secure", "csrftoken=abc; Path=/"},
		"X-Request-Id":  {"0f1e2d3c"},
	}
	got := builtinDetector(t).Detect(input(t, "https://larkspur.test/", string(html), header))
	if len(got) > 0 {
		for _, d := range got {
			t.Errorf("false positive %s: %+v", d.Name, d.Evidence)
		}
	}
}

// TestHomepageHubSpotAndStripe is the homepage: HubSpot and
// Stripe scripts yield both technologies with their evidence.
func TestHomepageHubSpotAndStripe(t *testing.T) {
	html, err := os.ReadFile(filepath.Join("..", "website", "testdata", "quillfeather-home.html"))
	if err != nil {
		t.Fatal(err)
	}
	got := byName(builtinDetector(t).Detect(input(t, "https://www.quillfeather.example/", string(html), nil)))
	hs, ok := got["HubSpot"]
	if !ok {
		t.Fatalf("HubSpot not detected: %v", keys(got))
	}
	if e := hs.Evidence[0]; e.Kind != "scriptSrc" || e.Key != "https://js.hs-scripts.com/4815162.js" || e.Match != "js.hs-scripts.com/4815162.js" {
		t.Errorf("HubSpot evidence = %+v", hs.Evidence)
	}
	if hs.Confidence != 100 || hs.Categories[0].Name != "Marketing automation" {
		t.Errorf("HubSpot = %+v", hs)
	}
	st, ok := got["Stripe"]
	if !ok {
		t.Fatalf("Stripe not detected: %v", keys(got))
	}
	if st.Version != "3" || st.Evidence[0].Kind != "scriptSrc" || st.Evidence[0].Key != "https://js.stripe.com/v3/" {
		t.Errorf("Stripe = %+v", st)
	}
	if len(st.Evidence) != 2 || st.Evidence[1].Kind != "scripts" || st.Evidence[1].Key != "inline script 2" ||
		st.Evidence[1].Match != "Stripe('pk_test_" {
		t.Errorf("Stripe inline evidence = %+v", st.Evidence)
	}
	// The GTM iframe sits in <noscript>; it is evidence too.
	if gtm, ok := got["Google Tag Manager"]; !ok || gtm.Evidence[0].Kind != "html" {
		t.Errorf("Google Tag Manager = %+v", gtm)
	}
}

func keys(m map[string]Detection) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}
