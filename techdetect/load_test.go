package techdetect

import (
	"net/http"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func writeFile(t *testing.T, name, content string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestLoadOperatorFileOverridesAndMerges(t *testing.T) {
	// The operator's HubSpot rule replaces the built-in one entirely: the
	// built-in script pattern no longer fires, the operator's does.
	override := writeFile(t, "override.json", `{
	  "HubSpot": {"cats": [9001], "website": "https://hubspot.example", "scriptSrc": "hubspot-internal-proxy\\.test/tracker\\.js"},
	  "Acme Widget": {"cats": [9002], "website": "https://acme-widget.test", "scriptSrc": "cdn\\.acme-widget\\.test/w(\\d+)\\.js\\;version:\\1"}
	}`)
	cats := writeFile(t, "categories.json", `{"9001": {"name": "Internal proxy", "priority": 1}, "9002": {"name": "Widgets"}}`)
	later := writeFile(t, "later.json", `{"technologies": {"Acme Widget": {"cats": [9002], "website": "https://acme-widget.test", "html": "<div[^>]+data-acme-widget"}}}`)

	d, err := Load(override, cats, later)
	if err != nil {
		t.Fatal(err)
	}
	st := d.Stats()
	if !reflect.DeepEqual(st.Files, []string{"built-in", override, cats, later}) {
		t.Errorf("Files = %q", st.Files)
	}
	if len(st.Overridden) != 2 || !strings.HasPrefix(st.Overridden[0], "Acme Widget ("+override+" -> "+later) ||
		!strings.HasPrefix(st.Overridden[1], "HubSpot (built-in -> "+override) {
		t.Errorf("Overridden = %q", st.Overridden)
	}

	html := `<script src="https://js.hs-scripts.com/4815162.js"></script>
	<script src="https://hubspot-internal-proxy.test/tracker.js"></script>
	<script src="https://cdn.acme-widget.test/w2.js"></script>
	<div class="x" data-acme-widget="1"></div>
	<script src="https://js.stripe.com/v3/"></script>`
	got := byName(d.Detect(input(t, "https://quillfeather.example/", html, nil)))
	hs := got["HubSpot"]
	if len(hs.Evidence) != 1 || hs.Evidence[0].Key != "https://hubspot-internal-proxy.test/tracker.js" {
		t.Errorf("HubSpot should match only the operator's rule: %+v", hs)
	}
	if !reflect.DeepEqual(hs.Categories, []Category{{ID: 9001, Name: "Internal proxy"}}) {
		t.Errorf("HubSpot categories = %+v", hs.Categories)
	}
	// The later file's Acme Widget replaced the first one: html only.
	aw := got["Acme Widget"]
	if len(aw.Evidence) != 1 || aw.Evidence[0].Kind != "html" || aw.Version != "" {
		t.Errorf("Acme Widget = %+v", aw)
	}
	// Built-ins the operator did not touch still work.
	if _, ok := got["Stripe"]; !ok {
		t.Errorf("Stripe lost after merging: %v", names(d.Detect(input(t, "https://quillfeather.example/", html, nil))))
	}
}

func TestLoadCountsUnsupportedAndSkipped(t *testing.T) {
	rs := rules(t, "wappalyzer-like.json", `{
	  "Example": {
	    "cats": ["1"], "website": "https://example.test", "icon": "Example.svg", "cpe": "cpe:2.3:a:example", "saas": true,
	    "js": {"Example.version": "(.+)\\;version:\\1"},
	    "dom": {"#example": {"exists": ""}},
	    "dns": {"MX": ["example\\.test"]},
	    "css": "\\.example-class",
	    "robots": "Disallow: /example/",
	    "certIssuer": "Example CA",
	    "xhr": "api\\.example\\.test",
	    "html": ["<div class=\"example(?!-not)\"", "<(\\w+)>x</\\1>", "<p data-ok=\"example-ok\"", "<(unclosed"],
	    "scriptSrc": "example\\.js\\;confidence:abc"
	  },
	  "Other": {"cats": [2], "js": {"Other": ""}, "dom": ".other", "url": "^https://other\\.test/"}
	}`)
	want := map[string]int{"js": 2, "dom": 2, "dns": 1, "css": 1, "robots": 1, "certIssuer": 1, "xhr": 1}
	if !reflect.DeepEqual(rs.Stats.Unsupported, want) {
		t.Errorf("Unsupported = %v, want %v", rs.Stats.Unsupported, want)
	}
	by := rs.Stats.SkippedBy()
	if by[SkipLookaround] != 1 || by[SkipBackref] != 1 || by[SkipInvalid] != 1 || by[SkipBadTag] != 1 || len(rs.Stats.Skipped) != 4 {
		t.Errorf("Skipped = %+v", rs.Stats.Skipped)
	}
	for _, s := range rs.Stats.Skipped {
		if s.File != "wappalyzer-like.json" || s.Technology != "Example" || s.Pattern == "" {
			t.Errorf("skipped entry lacks its origin: %+v", s)
		}
	}
	ex := rs.Technologies["Example"]
	if len(ex.HTML) != 1 || ex.HTML[0].Source != `<p data-ok="example-ok"` || !reflect.DeepEqual(ex.Cats, []int{1}) {
		t.Errorf("Example kept %+v", ex)
	}
	if rs.Stats.Technologies != 2 || rs.Stats.Patterns != 2 {
		t.Errorf("Stats = %+v", rs.Stats)
	}
	// What remains still detects.
	got := detector(t, rs).Detect(input(t, "https://other.test/x", `<p data-ok="example-ok">`, nil))
	if !reflect.DeepEqual(names(got), []string{"Example", "Other"}) {
		t.Errorf("detections = %v", names(got))
	}
}

func TestLoadBadFiles(t *testing.T) {
	cases := []struct {
		name, content string
		want          []string // substrings of the error
	}{
		{"syntax.json", `{"Good": {"cats": [1]}, "Broken": {"cats": [1], "html": "<a" "x"}}`, []string{"syntax.json", `"Broken"`, "invalid JSON"}},
		{"missing-comma.json", `{"Good": {"cats": [1]} "Next": {}}`, []string{"missing-comma.json", `"Good"`}},
		{"cats.json", `{"Acme": {"cats": ["analytics"]}}`, []string{"cats.json", `technology "Acme"`, "cats", "category IDs"}},
		{"nocats.json", `{"Acme": {"website": "https://acme.test"}}`, []string{"nocats.json", `technology "Acme"`, "cats: missing"}},
		{"headers.json", `{"Acme": {"cats": [1], "headers": ["X-Acme"]}}`, []string{"headers.json", `technology "Acme"`, "headers", "object"}},
		{"website.json", `{"Acme": {"cats": [1], "website": 42}}`, []string{"website.json", `technology "Acme"`, "website", "want a string"}},
		{"meta.json", `{"Acme": {"cats": [1], "meta": {"generator": 7}}}`, []string{"meta.json", `technology "Acme"`, "meta: generator"}},
		{"implies.json", `{"Acme": {"cats": [1], "implies": "PHP\\;confidence:high"}}`, []string{"implies.json", `technology "Acme"`, "implies", "confidence"}},
		{"notobject.json", `{"Acme": "scriptSrc"}`, []string{"notobject.json", `technology "Acme"`, "want an object"}},
		{"array.json", `[{"cats": [1]}]`, []string{"array.json", "want an object"}},
		{"category.json", `{"categories": {"7": "Analytics"}}`, []string{"category.json", `category "7"`}},
		{"trailing.json", `{"Acme": {"cats": [1]}} {}`, []string{"trailing.json", "after the top-level object"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			path := writeFile(t, c.name, c.content)
			_, err := Load(path)
			if err == nil {
				t.Fatal("Load succeeded")
			}
			for _, w := range c.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not contain %q", err, w)
				}
			}
		})
	}
	if _, err := Load(filepath.Join(t.TempDir(), "absent.json")); err == nil || !strings.Contains(err.Error(), "absent.json") {
		t.Errorf("missing file: %v", err)
	}
}

func TestParseFormats(t *testing.T) {
	// Plain technologies object, wrapped object and categories file all
	// load; category IDs may be quoted; header and meta names fold case.
	plain := rules(t, "plain.json", `{"$schema": "ignored", "Acme": {"cats": ["7", 8], "headers": {"X-Acme-Version": "^(\\d+)$\\;version:\\1"}, "meta": {"Generator": ["^AcmeCMS$", "^Acme Site"]}}}`)
	wrapped := rules(t, "wrapped.json", `{"technologies": {"Beta": {"cats": [7], "cookies": {"beta_sess": ""}}}, "categories": {"7": {"name": "Widgets"}}}`)
	catsOnly := rules(t, "categories.json", `{"8": {"name": "Gadgets", "priority": 2, "groups": [3]}}`)
	rs := &Ruleset{}
	rs.Merge(plain)
	rs.Merge(wrapped)
	rs.Merge(catsOnly)
	d := detector(t, rs)
	in := input(t, "https://acme.test/", `<meta name="generator" content="Acme Site 2">`, http.Header{
		"X-Acme-Version": {"12"}, "Set-Cookie": {"beta_sess=secret-token-value; Path=/"},
	})
	got := byName(d.Detect(in))
	acme := got["Acme"]
	if acme.Version != "12" || !reflect.DeepEqual(acme.Categories, []Category{{7, "Widgets"}, {8, "Gadgets"}}) || len(acme.Evidence) != 2 {
		t.Errorf("Acme = %+v", acme)
	}
	if e := acme.Evidence[0]; e.Kind != "headers" || e.Key != "X-Acme-Version" || e.Match != "12" {
		t.Errorf("header evidence = %+v", e)
	}
	if e := acme.Evidence[1]; e.Kind != "meta" || e.Key != "generator" || e.Match != "Acme Site" {
		t.Errorf("meta evidence = %+v", e)
	}
	// A cookie's value is never copied into the evidence.
	beta := got["Beta"]
	if len(beta.Evidence) != 1 || beta.Evidence[0].Key != "beta_sess" || beta.Evidence[0].Match != "" {
		t.Errorf("Beta = %+v", beta)
	}
}

func TestNewRejectsEmptyRuleset(t *testing.T) {
	if _, err := New(rules(t, "empty.json", `{}`)); err == nil {
		t.Error("New accepted a rule set with no technology")
	}
}
