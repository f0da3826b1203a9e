package console_test

import (
	"bytes"
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/prospectorhq/prospector"
	"github.com/prospectorhq/prospector/console"
	"github.com/prospectorhq/prospector/demo"
	"github.com/prospectorhq/prospector/email"
	"github.com/prospectorhq/prospector/importer"
	"github.com/prospectorhq/prospector/radar"
	"github.com/prospectorhq/prospector/search"
	"github.com/prospectorhq/prospector/sqlite"
	"github.com/prospectorhq/prospector/workflows"
)

// xssName is the name of an imported company that must show as text.
const xssName = `<img src=x onerror=alert(1)>`

// env is a console on a temp-dir SQLite store holding a small demo
// dataset, a company with a hostile name, and a workspace with a key.
type env struct {
	t      testing.TB
	store  *sqlite.DB
	index  *search.Index
	server *httptest.Server
	logs   *bytes.Buffer
	ws     *prospector.Workspace
	key    string
	// closeStore closes the store once, whoever asks first.
	closeStore func()
	cfg        console.Config
}

func newEnv(t *testing.T, opts ...func(*workflows.Parts)) *env {
	t.Helper()
	return newEnvScale(t, 40, 400, opts...)
}

// newEnvScale is newEnv with a demo dataset of that many companies and
// people.
func newEnvScale(t testing.TB, companies, people int, opts ...func(*workflows.Parts)) *env {
	t.Helper()
	ctx := context.Background()
	st, err := sqlite.Open(ctx, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	closeStore := sync.OnceFunc(func() { st.Close() })
	t.Cleanup(closeStore)
	sink := &importer.StoreSink{Store: st}
	if err := demo.Generate(ctx, demo.Config{Companies: companies, People: people, Seed: 7, Now: time.Now()}, sink, nil); err != nil {
		t.Fatal(err)
	}
	if err := sink.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	sink.Close()
	line := `{"name":"` + strings.ReplaceAll(xssName, `"`, `\"`) + `","domain":"hostile.example","industry":"Software Development","country":"US","description":"x"}` + "\n"
	if _, err := importer.Import(ctx, st, strings.NewReader(line), importer.Options{Kind: importer.Companies, Format: "jsonl"}); err != nil {
		t.Fatal(err)
	}
	ix := search.New(st)
	if _, err := ix.Sync(ctx); err != nil {
		t.Fatal(err)
	}
	w := prospector.NewWorkspace("acme", prospector.PlanGrowth)
	w.Email = "acme@example.test"
	if err := st.CreateWorkspace(ctx, w); err != nil {
		t.Fatal(err)
	}
	k, secret := prospector.NewAPIKey(w.ID, prospector.PlanGrowth, nil)
	if err := st.CreateAPIKey(ctx, k); err != nil {
		t.Fatal(err)
	}
	logs := &bytes.Buffer{}
	logger := slog.New(slog.NewJSONHandler(logs, nil))
	parts := workflows.Parts{Store: st, Index: ix, CursorKey: []byte("test cursor key"),
		Emails: email.New(email.Config{People: st}), Logger: logger}
	for _, o := range opts {
		o(&parts)
	}
	flows := workflows.New(parts)
	cfg := console.Config{Workflows: flows, Keys: st, Sessions: st, SessionKey: bytes.Repeat([]byte{7}, 32), Logger: logger}
	c, err := console.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(c)
	t.Cleanup(srv.Close)
	return &env{t: t, store: st, index: ix, server: srv, logs: logs, ws: w, key: secret, closeStore: closeStore, cfg: cfg}
}

// otherNode is a second console over the same store and session key, as
// another node of the deployment would be.
func (e *env) otherNode() *console.Console {
	e.t.Helper()
	c, err := console.New(e.cfg)
	if err != nil {
		e.t.Fatal(err)
	}
	return c
}

// browser is a client with its own cookie jar that does not follow
// redirects, so tests see them.
type browser struct {
	e      *env
	client *http.Client
}

func (e *env) browser() *browser {
	jar, _ := cookiejar.New(nil)
	return &browser{e: e, client: &http.Client{Jar: jar,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}}
}

type page struct {
	status int
	header http.Header
	body   string
}

func (b *browser) do(req *http.Request) page {
	b.e.t.Helper()
	res, err := b.client.Do(req)
	if err != nil {
		b.e.t.Fatal(err)
	}
	defer res.Body.Close()
	body, _ := io.ReadAll(res.Body)
	return page{status: res.StatusCode, header: res.Header, body: string(body)}
}

func (b *browser) get(path string) page {
	b.e.t.Helper()
	req, _ := http.NewRequest(http.MethodGet, b.e.server.URL+path, nil)
	return b.do(req)
}

// post sends a form as this console's own pages do: from its origin.
func (b *browser) post(path string, form url.Values) page {
	b.e.t.Helper()
	return b.postFrom(path, form, b.e.server.URL)
}

func (b *browser) postFrom(path string, form url.Values, origin string) page {
	b.e.t.Helper()
	req, _ := http.NewRequest(http.MethodPost, b.e.server.URL+path, strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	if origin != "" {
		req.Header.Set("Origin", origin)
	}
	return b.do(req)
}

var csrfRE = regexp.MustCompile(`name="csrf" value="([^"]+)"`)

// csrf is the token of the first form on the page at path.
func (b *browser) csrf(path string) string {
	b.e.t.Helper()
	p := b.get(path)
	m := csrfRE.FindStringSubmatch(p.body)
	if m == nil {
		b.e.t.Fatalf("GET %s: no csrf token in %d page", path, p.status)
	}
	return m[1]
}

// signIn signs b in with the env's key.
func (b *browser) signIn() {
	b.e.t.Helper()
	p := b.post("/sign-in", url.Values{"key": {b.e.key}, "csrf": {b.csrf("/sign-in")}})
	if p.status != http.StatusSeeOther || p.header.Get("Location") != "/search" {
		b.e.t.Fatalf("sign in: %d %s", p.status, p.header.Get("Location"))
	}
}

func (e *env) signedIn() *browser {
	b := e.browser()
	b.signIn()
	return b
}

// backfill runs the backfill of every radar of the workspace, as the
// jobs runner would.
func (e *env) backfill(radarID string) {
	e.t.Helper()
	eng := &radar.Engine{Store: e.store, Searcher: e.index}
	if _, err := eng.BackfillRadar(context.Background(), radarID); err != nil {
		e.t.Fatal(err)
	}
}

var errorRE = regexp.MustCompile(`class="error" role="alert">([^<]*)<`)

// errorOf is the error message a page shows, "" when none.
func errorOf(p page) string {
	m := errorRE.FindStringSubmatch(p.body)
	if m == nil {
		return ""
	}
	return m[1]
}
