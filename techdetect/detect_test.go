package techdetect

import (
	"net/http"
	"reflect"
	"strings"
	"testing"
)

const relationRules = `{
  "technologies": {
    "Shop": {"cats": [1], "website": "https://shop.test", "meta": {"generator": "^ShopCMS"}, "implies": ["Lang\\;confidence:50", "Server"]},
    "Lang": {"cats": [2], "website": "https://lang.test", "implies": "Runtime"},
    "Runtime": {"cats": [2], "website": "https://runtime.test"},
    "Server": {"cats": [3], "website": "https://server.test", "headers": {"Server": "^ServerX"}},
    "Lite": {"cats": [1], "website": "https://lite.test", "html": "<body class=\"shop-lite", "excludes": "Shop"},
    "Theme": {"cats": [4], "website": "https://theme.test", "html": "/themes/aurora/", "requires": "Shop"},
    "Plugin": {"cats": [4], "website": "https://plugin.test", "scriptSrc": "/plugins/zoom\\.js", "requiresCategory": 1},
    "Weak": {"cats": [5], "website": "https://weak.test", "html": ["<i class=\"weak-a\"\\;confidence:30", "<i class=\"weak-b\"\\;confidence:30"]}
  },
  "categories": {"1": {"name": "Shops"}, "2": {"name": "Languages"}, "3": {"name": "Servers"}, "4": {"name": "Add-ons"}, "5": {"name": "Weak"}}
}`

func TestImpliesExcludesRequires(t *testing.T) {
	d := detector(t, rules(t, "relations.json", relationRules))

	t.Run("implies transitively, scaled confidence, marked implied", func(t *testing.T) {
		in := input(t, "https://a.test/", `<meta name="generator" content="ShopCMS 4"><link href="/themes/aurora/site.css">`, http.Header{"Server": {"ServerX"}})
		got := byName(d.Detect(in))
		if !reflect.DeepEqual(names(d.Detect(in)), []string{"Lang", "Runtime", "Server", "Shop", "Theme"}) {
			t.Fatalf("got %v", names(d.Detect(in)))
		}
		lang := got["Lang"]
		if !lang.Implied || lang.Confidence != 50 || !reflect.DeepEqual(lang.ImpliedBy, []string{"Shop"}) ||
			lang.Evidence[0].Kind != "implies" || lang.Evidence[0].Key != "Shop" {
			t.Errorf("Lang = %+v", lang)
		}
		if rt := got["Runtime"]; !rt.Implied || rt.Confidence != 50 || !reflect.DeepEqual(rt.ImpliedBy, []string{"Lang"}) {
			t.Errorf("Runtime = %+v", rt)
		}
		// Server matched on its own and is implied too: not marked implied.
		if s := got["Server"]; s.Implied || s.Evidence[0].Kind != "headers" || !reflect.DeepEqual(s.ImpliedBy, []string{"Shop"}) {
			t.Errorf("Server = %+v", s)
		}
	})
	t.Run("requires: a theme without its platform is dropped", func(t *testing.T) {
		got := names(d.Detect(input(t, "https://a.test/", `<link href="/themes/aurora/site.css"><script src="/plugins/zoom.js"></script>`, nil)))
		if len(got) != 0 {
			t.Errorf("got %v", got)
		}
	})
	t.Run("requiresCategory", func(t *testing.T) {
		got := names(d.Detect(input(t, "https://a.test/", `<body class="shop-lite"><script src="/plugins/zoom.js"></script>`, nil)))
		if !reflect.DeepEqual(got, []string{"Lite", "Plugin"}) {
			t.Errorf("got %v", got)
		}
	})
	t.Run("excludes", func(t *testing.T) {
		got := names(d.Detect(input(t, "https://a.test/", `<meta name="generator" content="ShopCMS"><body class="shop-lite">`, nil)))
		// Lite rules out Shop, and so what Shop would have implied.
		if !reflect.DeepEqual(got, []string{"Lite"}) {
			t.Errorf("got %v", got)
		}
	})
	t.Run("confidence adds up per distinct pattern", func(t *testing.T) {
		one := byName(d.Detect(input(t, "https://a.test/", `<i class="weak-a"></i><i class="weak-a"></i>`, nil)))
		two := byName(d.Detect(input(t, "https://a.test/", `<i class="weak-a"></i><i class="weak-b"></i>`, nil)))
		if one["Weak"].Confidence != 30 || two["Weak"].Confidence != 60 || len(two["Weak"].Evidence) != 2 {
			t.Errorf("one = %+v, two = %+v", one["Weak"], two["Weak"])
		}
	})
}

// TestLongPagesMatchLikeShortOnes checks the windowed matching on long
// pages against plain matching: a pattern whose literal is rare, one
// whose literal is everywhere (only the last occurrence matches), and an
// anchored one.
func TestLongPagesMatchLikeShortOnes(t *testing.T) {
	d := detector(t, rules(t, "long.json", `{
	  "Rare":     {"cats": [1], "html": "<div[^>]+data-rare-widget=\"(\\d+)\"\\;version:\\1"},
	  "Common":   {"cats": [1], "html": "<span class=\"common-token\" data-final"},
	  "Anchored": {"cats": [1], "html": "^<!doctype html><!-- anchored-marker -->"},
	  "Absent":   {"cats": [1], "html": "<b>absent-marker</b>"}
	}`))
	filler := strings.Repeat(`<p class="x">Lorem ipsum <span class="common-token">dolor</span> sit amet.</p>`+"\n", 3000)
	html := "<!doctype html><!-- anchored-marker -->" + filler + `<div class="w" data-rare-widget="7">` +
		filler + `<span class="common-token" data-final="1">` + `<b>absent-marker` // not closed: no match
	in := input(t, "https://long.test/", html, nil)
	if len(in.Page.HTML) < 400<<10 {
		t.Fatalf("page is only %d bytes", len(in.Page.HTML))
	}
	got := byName(d.Detect(in))
	if !reflect.DeepEqual(names(d.Detect(in)), []string{"Anchored", "Common", "Rare"}) {
		t.Fatalf("got %v", names(d.Detect(in)))
	}
	if got["Rare"].Version != "7" || got["Rare"].Evidence[0].Match != `<div class="w" data-rare-widget="7"` {
		t.Errorf("Rare = %+v", got["Rare"])
	}
}

func TestEvidenceIsBoundedAndOutputDeterministic(t *testing.T) {
	d := detector(t, rules(t, "bound.json", `{
	  "Greedy": {"cats": [1], "html": "<div data-greedy=\"[^\"]*\""},
	  "Alpha":  {"cats": [1], "headers": {"X-Alpha": ""}},
	  "Zulu":   {"cats": [1], "headers": {"x-zulu": "z"}}
	}`))
	long := strings.Repeat("é", 500)
	in := input(t, "https://b.test/", `<div data-greedy="`+long+`">`, http.Header{"X-Alpha": {"1"}, "X-Zulu": {"z"}})
	first := d.Detect(in)
	for i := 0; i < 20; i++ {
		if again := d.Detect(in); !reflect.DeepEqual(first, again) {
			t.Fatalf("run %d differs:\n%+v\n%+v", i, first, again)
		}
	}
	if !reflect.DeepEqual(names(first), []string{"Alpha", "Greedy", "Zulu"}) {
		t.Errorf("order = %v", names(first))
	}
	m := byName(first)["Greedy"].Evidence[0].Match
	if len(m) > maxMatch+len("…") || !strings.HasSuffix(m, "…") || !strings.HasPrefix(m, `<div data-greedy="éé`) {
		t.Errorf("match not bounded on a rune boundary: %d bytes %q", len(m), m[:40])
	}
}

func TestDetectWithoutPage(t *testing.T) {
	d := builtinDetector(t)
	got := names(d.Detect(Input{URL: "https://api.quillfeather.example/", Header: http.Header{
		"Server": {"cloudflare"}, "X-Powered-By": {"Next.js 14.2.3"},
	}}))
	if !reflect.DeepEqual(got, []string{"Cloudflare", "Next.js", "React"}) {
		t.Errorf("got %v", got)
	}
	next := byName(d.Detect(Input{Header: http.Header{"X-Powered-By": {"Next.js 14.2.3"}}}))["Next.js"]
	if next.Version != "14.2.3" {
		t.Errorf("Next.js = %+v", next)
	}
}

func TestURLPatterns(t *testing.T) {
	d := detector(t, rules(t, "url.json", `{"Hosted Blog": {"cats": [1], "url": "^https?://[^/]+\\.hostedblog\\.test/"}}`))
	if got := names(d.Detect(Input{URL: "https://acme.hostedblog.test/post/1"})); !reflect.DeepEqual(got, []string{"Hosted Blog"}) {
		t.Errorf("got %v", got)
	}
	if got := d.Detect(Input{URL: "https://acme.test/?ref=x.hostedblog.test/"}); len(got) != 0 {
		t.Errorf("anchored URL pattern matched mid-URL: %v", names(got))
	}
}

// TestDetectConcurrently shares one Detector between goroutines, as the
// crawler does (run with -race).
func TestDetectConcurrently(t *testing.T) {
	d := builtinDetector(t)
	in := homepage100KB(t)
	want := d.Detect(in)
	errs := make(chan string, 8)
	for g := 0; g < 8; g++ {
		go func() {
			for i := 0; i < 5; i++ {
				if got := d.Detect(in); !reflect.DeepEqual(got, want) {
					errs <- strings.Join(names(got), ",")
					return
				}
			}
			errs <- ""
		}()
	}
	for g := 0; g < 8; g++ {
		if e := <-errs; e != "" {
			t.Errorf("concurrent Detect gave %s, want %v", e, names(want))
		}
	}
}
