package main

import (
	"context"
	"encoding/csv"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/browser"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"
)

// chromiumPath is Debian's chromium, or $PROSPECTOR_CHROMIUM; "" when
// neither is installed.
func chromiumPath() string {
	if p := os.Getenv("PROSPECTOR_CHROMIUM"); p != "" {
		return p
	}
	for _, name := range []string{"chromium", "chromium-browser"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	return ""
}

// artifactDir is where the browser test writes its screenshots:
// $PROSPECTOR_ARTIFACTS/console, else testdata-out/console (ignored by
// git).
func artifactDir(t *testing.T) string {
	dir := filepath.Join("testdata-out", "console")
	if a := os.Getenv("PROSPECTOR_ARTIFACTS"); a != "" {
		dir = filepath.Join(a, "console")
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

// TestConsoleInBrowser drives the console served by serve on the demo
// data in headless Chromium, as a newcomer would use it: sign in with the
// printed key, search, open a company, create a radar and see its leads,
// export a CSV and read the file, record a reply, see the insights chart
// change, sign out and be refused (a copy of the cookie too).
func TestConsoleInBrowser(t *testing.T) {
	exe := chromiumPath()
	if exe == "" {
		if os.Getenv("PROSPECTOR_REQUIRE_BROWSER") == "1" {
			t.Fatal("chromium is not installed and PROSPECTOR_REQUIRE_BROWSER=1 (as in CI): apt-get install -y chromium")
		}
		t.Skip("chromium is not installed (apt-get install -y chromium, or set PROSPECTOR_CHROMIUM): skipping the console's browser test")
	}
	addr, out, stop := startServe(t, nil, "--data", t.TempDir(), "--demo-people", "2000")
	defer stop()
	key := regexp.MustCompile(`psk_[a-z0-9]+`).FindString(out.String())
	if key == "" {
		t.Fatalf("serve printed no key:\n%s", out.String())
	}
	base := "http://" + addr
	shots := artifactDir(t)
	downloads := t.TempDir()

	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(),
		chromedp.ExecPath(exe), chromedp.Headless, chromedp.NoSandbox, chromedp.DisableGPU,
		chromedp.NoFirstRun, chromedp.NoDefaultBrowserCheck,
		chromedp.Flag("disable-background-networking", true), chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true), chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.WindowSize(1280, 900), chromedp.UserDataDir(t.TempDir()))
	defer cancelAlloc()
	ctx, cancel := chromedp.NewContext(actx)
	defer cancel()
	if err := chromedp.Do(ctx); err != nil { // starts the browser, with no deadline
		t.Fatalf("start chromium: %v", err)
	}

	capture := func(name string) error {
		sctx, cancel := context.WithTimeout(ctx, 30*time.Second)
		defer cancel()
		buf, err := chromedp.Run(sctx, chromedp.FullScreenshot(100))
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(shots, name+".png"), buf, 0o644)
	}
	shot := func(name string) {
		t.Helper()
		if err := capture(name); err != nil {
			t.Fatalf("screenshot %s: %v", name, err)
		}
	}
	// Each step has a deadline of its own, so a step that cannot finish
	// fails the test with its name rather than hanging it.
	do := func(step string, actions ...chromedp.Action[chromedp.Void]) {
		t.Helper()
		sctx, cancel := context.WithTimeout(ctx, 30*time.Second)
		defer cancel()
		if err := chromedp.Do(sctx, actions...); err != nil {
			_ = capture("failed-" + strings.ReplaceAll(step, " ", "-"))
			t.Fatalf("%s: %v", step, err)
		}
	}
	text := func(sel string) string {
		t.Helper()
		s, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS(sel)))
		if err != nil {
			t.Fatalf("text of %s: %v", sel, err)
		}
		return s
	}
	eval := func(js string) string {
		t.Helper()
		s, err := chromedp.Run(ctx, chromedp.Evaluate[string](js))
		if err != nil {
			t.Fatalf("%s: %v", js, err)
		}
		return s
	}

	// Sign in with the key serve printed.
	do("open the console", chromedp.Navigate(base+"/"), chromedp.WaitVisible(chromedp.ID("key")))
	shot("01-sign-in")
	// The keyboard reaches the page: the key field has the focus.
	if a := eval(`document.activeElement.id`); a != "key" {
		t.Fatalf("focus on arrival is on %q, want the key field", a)
	}
	do("sign in", chromedp.SendKeys(chromedp.ID("key"), key), chromedp.Click(chromedp.CSS(`main form button[type=submit]`)),
		chromedp.WaitVisible(chromedp.CSS("form.filters")))

	// From the top of a page, Tab lands on the skip link, then the
	// navigation.
	do("tab to the skip link", chromedp.KeyEvent("\t"))
	if a := eval(`document.activeElement.className`); a != "skip" {
		t.Fatalf("first Tab focused %q, want the skip link", a)
	}
	do("tab to the navigation", chromedp.KeyEvent("\t"), chromedp.KeyEvent("\t"))
	if a := eval(`document.activeElement.getAttribute("href")`); a != "/search" {
		t.Fatalf("third Tab focused %q, want the Search link", a)
	}

	// Search companies.
	do("search", chromedp.SendKeys(chromedp.CSS(`input[name=industry]`), "Software Development"),
		chromedp.Click(chromedp.CSS(`form.filters button[type=submit]`)), chromedp.WaitVisible(chromedp.ID("results")))
	if c := text(".count"); !strings.Contains(c, "Showing 1–") || !regexp.MustCompile(`^[0-9,]+ results?\. `).MatchString(c) {
		t.Fatalf("search count: %q", c)
	}
	shot("02-search")

	// Open the first company.
	do("open a company", chromedp.Click(chromedp.CSS(`table a[href^="/companies/"]`)), chromedp.WaitVisible(chromedp.ID("h-signals")))
	shot("03-company")

	// Create a radar, then wait for its backfill to bring leads.
	do("new radar", chromedp.Navigate(base+"/radars/new"), chromedp.WaitVisible(chromedp.CSS(`input[name=name]`)),
		chromedp.SendKeys(chromedp.CSS(`input[name=name]`), "Hiring in software"),
		chromedp.Click(chromedp.CSS(`input[name=signals_to_track][value=hiring]`)),
		chromedp.Click(chromedp.CSS(`main form button[type=submit]`)), chromedp.WaitVisible(chromedp.CSS(".notice")))
	radarURL := eval(`location.pathname`)
	deadline := time.Now().Add(60 * time.Second)
	for eval(`String(document.querySelectorAll(".lead").length)`) == "0" {
		if time.Now().After(deadline) {
			t.Fatal("the radar brought no leads within a minute")
		}
		time.Sleep(500 * time.Millisecond)
		do("reload radar", chromedp.Navigate(base+radarURL), chromedp.WaitVisible(chromedp.ID("h-leads")))
	}
	if !strings.Contains(eval(`document.body.innerText`), "Score breakdown") {
		t.Fatal("radar leads show no score breakdown")
	}
	shot("04-radar")

	// Insights before any outcome.
	do("insights", chromedp.Navigate(base+"/insights"), chromedp.WaitVisible(chromedp.CSS(".chart svg")))
	replyBefore := text(`td[data-rate=reply]`)
	barBefore := eval(`document.querySelector(".chart g.bar rect:nth-of-type(2)").getAttribute("width")`)

	// Select every lead with the script's "All" box and export a CSV.
	do("leads", chromedp.Navigate(base+"/leads"), chromedp.WaitVisible(chromedp.ID("leads-form")),
		chromedp.Click(chromedp.CSS(`input[data-select-all]`)))
	if n := eval(`String(document.querySelectorAll('input[name=lead_id]:checked').length)`); n == "0" {
		t.Fatal(`"All" selected no lead`)
	}
	shot("05-leads")
	dctx, cancelDownload := context.WithTimeout(ctx, 30*time.Second)
	defer cancelDownload()
	progress := chromedp.Events(dctx, browser.DownloadProgress)
	do("download export",
		chromedp.Func(func(ctx context.Context, _ *chromedp.Target) error {
			_, err := chromedp.Call(ctx, browser.SetDownloadBehavior, browser.SetDownloadBehaviorParams{
				Behavior: browser.SetDownloadBehaviorBehaviorAllowAndName, DownloadPath: downloads, EventsEnabled: ptrTo(true)})
			return err
		}),
		chromedp.Click(chromedp.CSS(`button[formaction="/leads/export"]`)))
	var file string
	for ev, err := range progress {
		if err != nil {
			t.Fatalf("download did not complete: %v", err)
		}
		if ev.State == browser.DownloadProgressStateCompleted {
			file = filepath.Join(downloads, ev.GUID)
			break
		}
		if ev.State == browser.DownloadProgressStateCanceled {
			t.Fatal("the export download was canceled")
		}
	}
	f, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(f).ReadAll()
	f.Close()
	if err != nil || len(rows) < 2 || !strings.Contains(strings.Join(rows[0], ","), "id") {
		t.Fatalf("downloaded CSV: %d rows, %v", len(rows), err)
	}

	// Record a reply on the first lead.
	do("record a reply", chromedp.SetValue(chromedp.CSS(`#feedback select[name=event_type]`), "reply"),
		chromedp.SendKeys(chromedp.CSS(`#feedback textarea[name=content]`), "Interested, call me"),
		chromedp.Click(chromedp.CSS(`#feedback button[type=submit]`)), chromedp.WaitVisible(chromedp.CSS(".notice")))

	// The insights chart moved.
	do("insights after", chromedp.Navigate(base+"/insights"), chromedp.WaitVisible(chromedp.CSS(".chart svg")))
	replyAfter := text(`td[data-rate=reply]`)
	barAfter := eval(`document.querySelector(".chart g.bar rect:nth-of-type(2)").getAttribute("width")`)
	if replyAfter == replyBefore || barAfter == barBefore {
		t.Fatalf("insights did not change: reply rate %s -> %s, bar %s -> %s", replyBefore, replyAfter, barBefore, barAfter)
	}
	shot("06-insights")

	// Account, at phone width too.
	do("account", chromedp.Navigate(base+"/account"), chromedp.WaitVisible(chromedp.CSS(".chart svg")))
	shot("07-account")
	do("phone width", chromedp.EmulateViewport(390, 844), chromedp.Navigate(base+"/search?kind=people&titles=engineer"),
		chromedp.WaitVisible(chromedp.ID("results")))
	if w := eval(`String(document.documentElement.scrollWidth <= window.innerWidth + 1)`); w != "true" {
		t.Error("the search page scrolls sideways at phone width")
	}
	shot("08-search-phone")

	// Copy the browser's session cookie, as someone with access to the
	// machine could; it works until sign-out and not after.
	var cookies []*network.Cookie
	do("copy the session cookie", chromedp.Func(func(ctx context.Context, _ *chromedp.Target) error {
		res, err := chromedp.Call(ctx, network.GetCookies, network.GetCookiesParams{URLs: []string{base}})
		if err == nil {
			cookies = res.Cookies
		}
		return err
	}))
	replay := func() int {
		req, _ := http.NewRequest(http.MethodGet, base+"/account", nil)
		for _, c := range cookies {
			req.AddCookie(&http.Cookie{Name: c.Name, Value: c.Value})
		}
		client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
		res, err := client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		return res.StatusCode
	}
	if s := replay(); s != http.StatusOK {
		t.Fatalf("the copied cookie before sign-out: %d", s)
	}

	// Sign out; the console refuses the pages afterwards, to the browser
	// and to the copy of its cookie.
	do("sign out", chromedp.Click(chromedp.CSS(`.signout button`)), chromedp.WaitVisible(chromedp.ID("key")))
	do("signed out", chromedp.Navigate(base+"/account"), chromedp.WaitVisible(chromedp.ID("key")))
	if loc := eval(`location.pathname`); loc != "/sign-in" {
		t.Fatalf("after sign-out /account ended at %s", loc)
	}
	if s := replay(); s != http.StatusSeeOther {
		t.Fatalf("the copied cookie after sign-out: %d, want a redirect to sign in", s)
	}
	shot("09-signed-out")
}

func ptrTo[T any](v T) *T { return &v }

// TestServeMountsTheConsole: serve answers / with the console and keeps
// /api/v1 the API's, its unknown paths included.
func TestServeMountsTheConsole(t *testing.T) {
	addr, _, stop := startServe(t, nil, "--data", t.TempDir())
	defer stop()
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	for _, tc := range []struct {
		path, status, contentType, location string
	}{
		{"/", "303 See Other", "", "/sign-in"},
		{"/sign-in", "200 OK", "text/html; charset=utf-8", ""},
		{"/static/console.css", "200 OK", "text/css; charset=utf-8", ""},
		{"/api/v1/health", "200 OK", "application/json", ""},
		{"/api/v1/no-such-thing", "404 Not Found", "application/json", ""},
		{"/no-such-page", "404 Not Found", "text/html; charset=utf-8", ""},
	} {
		res, err := client.Get("http://" + addr + tc.path)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if res.Status != tc.status || !strings.HasPrefix(res.Header.Get("Content-Type"), tc.contentType) ||
			res.Header.Get("Location") != tc.location {
			t.Errorf("GET %s: %s %q %q", tc.path, res.Status, res.Header.Get("Content-Type"), res.Header.Get("Location"))
		}
	}
}
