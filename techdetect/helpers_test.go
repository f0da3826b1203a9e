package techdetect

import (
	"net/http"
	"testing"

	"github.com/prospectorhq/prospector/website"
)

// input analyses html as the crawler would and wraps it with headers.
func input(t testing.TB, pageURL, html string, header http.Header) Input {
	t.Helper()
	if header == nil {
		header = http.Header{}
	}
	if header.Get("Content-Type") == "" {
		header.Set("Content-Type", "text/html; charset=utf-8")
	}
	p, err := website.Analyze(pageURL, header, []byte(html), website.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	return Input{URL: pageURL, Header: header, Page: p}
}

func builtinDetector(t testing.TB) *Detector {
	t.Helper()
	d, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func byName(ds []Detection) map[string]Detection {
	m := make(map[string]Detection, len(ds))
	for _, d := range ds {
		m[d.Name] = d
	}
	return m
}

func names(ds []Detection) []string {
	out := make([]string, 0, len(ds))
	for _, d := range ds {
		out = append(out, d.Name)
	}
	return out
}

// rules parses a technologies object written inline in a test.
func rules(t testing.TB, file, json string) *Ruleset {
	t.Helper()
	rs, err := Parse(file, []byte(json))
	if err != nil {
		t.Fatalf("Parse(%s): %v", file, err)
	}
	return rs
}

func detector(t testing.TB, rs *Ruleset) *Detector {
	t.Helper()
	d, err := New(rs)
	if err != nil {
		t.Fatal(err)
	}
	return d
}
