package techdetect

import (
	"embed"
	"fmt"
	"io/fs"
	"sort"
)

// builtinFS holds Prospector's own fingerprints, written from what each
// product's documented embed code, script URLs, headers and cookies put
// in a page (docs/sources.md lists them). One file per group of
// categories; categories.json names the category IDs.
//
//go:embed builtin/*.json
var builtinFS embed.FS

// BuiltinSource is the Source of built-in technologies.
const BuiltinSource = "built-in"

// Builtin parses the embedded rule set. It fails only if the embedded
// files are broken, which the package's tests rule out.
func Builtin() (*Ruleset, error) {
	names, err := fs.Glob(builtinFS, "builtin/*.json")
	if err != nil {
		return nil, fmt.Errorf("techdetect: built-in rules: %w", err)
	}
	sort.Strings(names)
	rs := &Ruleset{}
	for _, name := range names {
		data, err := builtinFS.ReadFile(name)
		if err != nil {
			return nil, fmt.Errorf("techdetect: built-in rules: %w", err)
		}
		part, err := Parse(name, data)
		if err != nil {
			return nil, err
		}
		for _, t := range part.Technologies {
			t.Source = BuiltinSource
		}
		rs.Merge(part)
	}
	rs.Stats.Files = []string{BuiltinSource}
	return rs, nil
}

// Load returns a Detector for the built-in rules merged with the
// operator's files, in order: a technology in a later file replaces one
// of the same name before it (built-ins first). It fails with the first
// file that cannot be read or parsed.
func Load(files ...string) (*Detector, error) {
	rs, err := Builtin()
	if err != nil {
		return nil, err
	}
	for _, f := range files {
		part, err := LoadFile(f)
		if err != nil {
			return nil, err
		}
		rs.Merge(part)
	}
	return New(rs)
}
