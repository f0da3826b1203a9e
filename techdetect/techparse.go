package techdetect

import (
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// techParser reads the fields of one technology.
type techParser struct {
	rs   *Ruleset
	file string
	tech *Technology
}

func (p *techParser) field(key string, raw json.RawMessage) error {
	t := p.tech
	var err error
	switch key {
	case "cats":
		t.Cats, err = intList(raw)
	case "requiresCategory":
		t.RequiresCategory, err = intList(raw)
	case "description":
		err = json.Unmarshal(raw, &t.Description)
	case "website":
		err = json.Unmarshal(raw, &t.Website)
	case "headers":
		t.Headers, err = p.patternMap(key, raw)
	case "cookies":
		t.Cookies, err = p.patternMap(key, raw)
	case "meta":
		t.Meta, err = p.patternMap(key, raw)
	case "scriptSrc":
		t.ScriptSrc, err = p.patternList(key, "", raw)
	case "scripts":
		t.Scripts, err = p.patternList(key, "", raw)
	case "html":
		t.HTML, err = p.patternList(key, "", raw)
	case "url":
		t.URL, err = p.patternList(key, "", raw)
	case "implies":
		t.Implies, err = refList(raw)
	case "excludes":
		t.Excludes, err = refList(raw)
	case "requires":
		t.Requires, err = refList(raw)
	case "icon", "cpe", "saas", "oss", "pricing":
		// Descriptive only.
	default:
		// js, dom, dns, css, robots, certIssuer, text, xhr, probe and any
		// key a later version of the format adds: counted, not fatal.
		if p.rs.Stats.Unsupported == nil {
			p.rs.Stats.Unsupported = make(map[string]int)
		}
		p.rs.Stats.Unsupported[key]++
	}
	if err != nil {
		var ute *json.UnmarshalTypeError
		if errors.As(err, &ute) {
			return fmt.Errorf("want %s, got a JSON %s", want(key), ute.Value)
		}
		return err
	}
	return nil
}

func want(key string) string {
	switch key {
	case "description", "website":
		return "a string"
	case "cats", "requiresCategory":
		return "category IDs"
	}
	return "a string or a list of strings"
}

// strings1 reads a string or a list of strings.
func strings1(raw json.RawMessage) ([]string, error) {
	var one string
	if err := json.Unmarshal(raw, &one); err == nil {
		return []string{one}, nil
	}
	var many []string
	if err := json.Unmarshal(raw, &many); err != nil {
		return nil, errors.New("want a string or a list of strings")
	}
	return many, nil
}

// intList reads category IDs: numbers or numeric strings, alone or in a
// list (older files quote them).
func intList(raw json.RawMessage) ([]int, error) {
	var items []json.RawMessage
	if err := json.Unmarshal(raw, &items); err != nil {
		items = []json.RawMessage{raw}
	}
	out := make([]int, 0, len(items))
	for _, it := range items {
		s := strings.Trim(strings.TrimSpace(string(it)), `"`)
		n, err := strconv.Atoi(s)
		if err != nil {
			return nil, fmt.Errorf("want category IDs (numbers), got %s", it)
		}
		out = append(out, n)
	}
	return out, nil
}

// refList reads implies/excludes/requires: names with an optional
// \;confidence:NN tag.
func refList(raw json.RawMessage) ([]Ref, error) {
	names, err := strings1(raw)
	if err != nil {
		return nil, err
	}
	out := make([]Ref, 0, len(names))
	for _, n := range names {
		parts := strings.Split(n, `\;`)
		r := Ref{Name: strings.TrimSpace(parts[0]), Confidence: 100}
		for _, tag := range parts[1:] {
			if v, ok := strings.CutPrefix(tag, "confidence:"); ok {
				c, err := strconv.Atoi(strings.TrimSpace(v))
				if err != nil || c < 0 || c > 100 {
					return nil, fmt.Errorf("%q: confidence is not a number from 0 to 100", n)
				}
				r.Confidence = c
			}
		}
		if r.Name != "" {
			out = append(out, r)
		}
	}
	return out, nil
}

func (p *techParser) patternMap(kind string, raw json.RawMessage) (map[string][]*Pattern, error) {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(raw, &m); err != nil {
		return nil, errors.New("want an object of name -> pattern")
	}
	out := make(map[string][]*Pattern, len(m))
	for name, v := range m {
		ps, err := p.patternList(kind, name, v)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		if len(ps) > 0 {
			out[strings.ToLower(name)] = append(out[strings.ToLower(name)], ps...)
		}
	}
	return out, nil
}

// patternList compiles a string or list of patterns, recording those RE2
// cannot run in the Stats instead of failing.
func (p *techParser) patternList(kind, name string, raw json.RawMessage) ([]*Pattern, error) {
	srcs, err := strings1(raw)
	if err != nil {
		return nil, err
	}
	var out []*Pattern
	for _, s := range srcs {
		pat, reason, err := parsePattern(s)
		if err != nil {
			k := kind
			if name != "" {
				k += "." + name
			}
			p.rs.Stats.Skipped = append(p.rs.Stats.Skipped, Skipped{
				File: p.file, Technology: p.tech.Name, Kind: k, Pattern: s, Reason: reason, Detail: err.Error(),
			})
			continue
		}
		out = append(out, pat)
	}
	return out, nil
}
