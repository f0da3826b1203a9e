package techdetect

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the built-in technology table in docs/sources.md")

const (
	tableStart = "<!-- techdetect:builtin:start (go test ./techdetect -run TestSourcesDoc -update) -->"
	tableEnd   = "<!-- techdetect:builtin:end -->"
)

// builtinTable renders the built-in rules as the Markdown table of
// docs/sources.md.
func builtinTable(t *testing.T) string {
	rs, err := Builtin()
	if err != nil {
		t.Fatal(err)
	}
	d := detector(t, rs)
	var b strings.Builder
	fmt.Fprintf(&b, "%d technologies.\n\n", len(d.techs))
	b.WriteString("| Technology | Categories | Matched on | Implies |\n|---|---|---|---|\n")
	for _, tech := range d.techs {
		var cats []string
		for _, c := range d.categories(tech) {
			cats = append(cats, c.Name)
		}
		var kinds []string
		for _, k := range []struct {
			name string
			n    int
		}{{"headers", len(tech.Headers)}, {"cookies", len(tech.Cookies)}, {"meta", len(tech.Meta)},
			{"scriptSrc", len(tech.ScriptSrc)}, {"scripts", len(tech.Scripts)}, {"html", len(tech.HTML)}, {"url", len(tech.URL)}} {
			if k.n > 0 {
				kinds = append(kinds, k.name)
			}
		}
		var implies []string
		for _, r := range tech.Implies {
			implies = append(implies, r.Name)
		}
		fmt.Fprintf(&b, "| [%s](%s) | %s | %s | %s |\n", tech.Name, tech.Website, strings.Join(cats, ", "),
			strings.Join(kinds, ", "), strings.Join(implies, ", "))
	}
	return b.String()
}

// TestSourcesDocListsBuiltins keeps the table in docs/sources.md in step
// with the embedded rules.
func TestSourcesDocListsBuiltins(t *testing.T) {
	path := filepath.Join("..", "docs", "sources.md")
	doc, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	before, rest, ok1 := strings.Cut(string(doc), tableStart)
	_, after, ok2 := strings.Cut(rest, tableEnd)
	if !ok1 || !ok2 {
		t.Fatalf("%s lacks the table markers", path)
	}
	want := before + tableStart + "\n" + builtinTable(t) + tableEnd + after
	if want == string(doc) {
		return
	}
	if *update {
		if err := os.WriteFile(path, []byte(want), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	t.Errorf("%s is out of date with the built-in rules: run go test ./techdetect -run TestSourcesDoc -update", path)
}
