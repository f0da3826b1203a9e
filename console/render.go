package console

import (
	"bytes"
	"fmt"
	"html/template"
	"io/fs"
	"log/slog"
	"net/http"
	"path"
	"strconv"
	"strings"
	"time"

	"github.com/prospectorhq/prospector"
)

// page is what every template gets: the layout's parts and the page's
// own Data.
type page struct {
	Title string
	Nav   string // the nav entry to mark current
	// Workspace and CSRF are the signed-in session's; empty on public pages.
	Workspace string
	CSRF      string
	Notice    string
	Error     string
	Data      any
}

var errPageNotFound = prospector.Errorf(prospector.ENOTFOUND, "There is no such page.")

// parsePages parses each page template together with the layout.
func parsePages() (map[string]*template.Template, error) {
	layout, err := fs.ReadFile(assets, "assets/templates/layout.html")
	if err != nil {
		return nil, fmt.Errorf("console: layout: %w", err)
	}
	names, err := fs.Glob(assets, "assets/templates/*.html")
	if err != nil {
		return nil, fmt.Errorf("console: templates: %w", err)
	}
	// Partials (files named part-*.html) are parsed into every page.
	var partials []string
	for _, n := range names {
		if strings.HasPrefix(path.Base(n), "part-") {
			b, err := fs.ReadFile(assets, n)
			if err != nil {
				return nil, fmt.Errorf("console: %s: %w", n, err)
			}
			partials = append(partials, string(b))
		}
	}
	pages := map[string]*template.Template{}
	for _, n := range names {
		name := strings.TrimSuffix(path.Base(n), ".html")
		if name == "layout" || strings.HasPrefix(name, "part-") {
			continue
		}
		body, err := fs.ReadFile(assets, n)
		if err != nil {
			return nil, fmt.Errorf("console: %s: %w", n, err)
		}
		t, err := template.New("layout").Funcs(funcs).Parse(string(layout))
		for _, src := range append(partials, string(body)) {
			if err == nil {
				_, err = t.Parse(src)
			}
		}
		if err != nil {
			return nil, fmt.Errorf("console: %s: %w", n, err)
		}
		pages[name] = t
	}
	return pages, nil
}

// render writes page name with status; the session's workspace and CSRF
// token go to the layout.
func (c *Console) render(w http.ResponseWriter, r *http.Request, status int, name string, p *page) error {
	t, ok := c.pages[name]
	if !ok {
		return fmt.Errorf("console: no template %q", name)
	}
	if s := sessionOf(r.Context()); s != nil {
		p.Workspace, p.CSRF = s.principal.Workspace.Name, s.CSRF
	}
	if p.Notice == "" {
		p.Notice = notices[r.URL.Query().Get("notice")]
	}
	var buf bytes.Buffer
	if err := t.Execute(&buf, p); err != nil {
		return fmt.Errorf("console: render %s: %w", name, err)
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(status)
	_, err := w.Write(buf.Bytes())
	return err
}

// notices are the messages a redirect after a form may show, by code:
// the URL carries only the code, so no one can put words on the page.
var notices = map[string]string{
	"recorded": "Outcome recorded.",
	"created":  "Radar created. Its backfill runs in the background; leads appear as it goes.",
	"paused":   "Radar paused.",
	"resumed":  "Radar resumed.",
	"deleted":  "Radar deleted.",
}

// statusOf maps an error code to the page's HTTP status, as the API does.
func statusOf(err error) int {
	switch prospector.ErrorCode(err) {
	case prospector.EINVALID:
		return http.StatusBadRequest
	case prospector.EUNAUTHORIZED:
		return http.StatusUnauthorized
	case prospector.ENOTFOUND, prospector.ELEADNOTFOUND:
		return http.StatusNotFound
	case prospector.ERATELIMIT:
		return http.StatusTooManyRequests
	}
	return http.StatusInternalServerError
}

// fail renders err as the error page: the caller-safe message, and for
// internal errors a generic one while the error itself is logged.
func (c *Console) fail(w http.ResponseWriter, r *http.Request, err error) {
	if prospector.Internal(err) {
		c.logger.LogAttrs(r.Context(), slog.LevelError, "console", slog.String("path", r.URL.Path),
			slog.String("err", err.Error()))
	}
	status := statusOf(err)
	p := &page{Title: http.StatusText(status), Error: prospector.ErrorMessage(err),
		Data: errorData{SignIn: status == http.StatusUnauthorized}}
	if rerr := c.render(w, r, status, "error", p); rerr != nil {
		c.logger.LogAttrs(r.Context(), slog.LevelError, "console", slog.String("err", rerr.Error()))
		http.Error(w, http.StatusText(status), status)
	}
}

type errorData struct{ SignIn bool }

// funcs are the helpers templates call; each prints nothing for absent
// values rather than "<nil>".
var funcs = template.FuncMap{
	"str":  str,
	"day":  func(t time.Time) string { return t.UTC().Format("2006-01-02") },
	"when": func(t time.Time) string { return t.UTC().Format("2006-01-02 15:04 UTC") },
	"whenp": func(t *time.Time) string {
		if t == nil {
			return ""
		}
		return t.UTC().Format("2006-01-02 15:04 UTC")
	},
	"pct":  func(f float64) string { return strconv.FormatFloat(f*100, 'f', 1, 64) + "%" },
	"num":  func(f float64) string { return strconv.FormatFloat(f, 'f', 1, 64) },
	"join": strings.Join,
	"has": func(list []string, v string) bool {
		for _, x := range list {
			if x == v {
				return true
			}
		}
		return false
	},
	"add":  func(a, b int) int { return a + b },
	"list": func(v ...string) []string { return v },
}

// str prints a value that may be a nil pointer as "".
func str(v any) string {
	switch x := v.(type) {
	case nil:
		return ""
	case string:
		return x
	case *string:
		if x == nil {
			return ""
		}
		return *x
	case *int64:
		if x == nil {
			return ""
		}
		return strconv.FormatInt(*x, 10)
	case *int:
		if x == nil {
			return ""
		}
		return strconv.Itoa(*x)
	case *float64:
		if x == nil {
			return ""
		}
		return strconv.FormatFloat(*x, 'f', 1, 64)
	case *bool:
		if x == nil {
			return ""
		}
		return strconv.FormatBool(*x)
	}
	return fmt.Sprint(v)
}

// staticFile: GET /static/{file}, the stylesheet and the script.
func (c *Console) staticFile(w http.ResponseWriter, r *http.Request) error {
	name := r.PathValue("file")
	b, err := fs.ReadFile(c.static, name)
	if err != nil {
		return errPageNotFound
	}
	switch path.Ext(name) {
	case ".css":
		w.Header().Set("Content-Type", "text/css; charset=utf-8")
	case ".js":
		w.Header().Set("Content-Type", "text/javascript; charset=utf-8")
	case ".svg":
		w.Header().Set("Content-Type", "image/svg+xml")
	}
	w.Header().Set("Cache-Control", "public, max-age=3600")
	_, err = w.Write(b)
	return err
}

// errMessage is the caller-safe message of err.
func errMessage(err error) string { return prospector.ErrorMessage(err) }
