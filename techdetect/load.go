package techdetect

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"sort"
	"strconv"
	"strings"
)

// LoadFile reads one fingerprint file the operator supplies. It accepts
// an object of technologies (a Wappalyzer technologies/*.json file), an
// object of categories (categories.json: every key a number), or
// {"technologies": {...}, "categories": {...}}. It fails when the file
// cannot be read or is not such JSON, with an error naming the file and
// the technology at fault; patterns RE2 cannot run and keys this detector
// does not use are not errors but counted in the returned Stats.
func LoadFile(path string) (*Ruleset, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("techdetect: %w", err)
	}
	return Parse(path, data)
}

// Parse reads fingerprints from data as LoadFile does; file names the
// source in errors, Stats and each Technology.Source.
func Parse(file string, data []byte) (*Ruleset, error) {
	rs := &Ruleset{
		Technologies: make(map[string]*Technology),
		Categories:   make(map[int]string),
		Stats:        Stats{Files: []string{file}},
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	last := ""
	err := eachMember(dec, func(key string) error {
		switch {
		case key == "technologies":
			return eachMember(dec, func(name string) error {
				last = name
				return rs.addTechnology(file, name, dec)
			})
		case key == "categories":
			return eachMember(dec, func(id string) error { return rs.addCategory(file, id, dec) })
		case isDigits(key):
			return rs.addCategory(file, key, dec)
		case strings.HasPrefix(key, "$"): // "$schema" and the like
			var skip json.RawMessage
			return dec.Decode(&skip)
		default:
			last = key
			return rs.addTechnology(file, key, dec)
		}
	})
	if err == nil {
		if _, e := dec.Token(); e != io.EOF {
			err = errors.New("data after the top-level object")
		}
	}
	if err != nil {
		var le *loadError
		if errors.As(err, &le) {
			return nil, err
		}
		if last != "" {
			return nil, fmt.Errorf("techdetect: %s: invalid JSON at or after technology %q: %w", file, last, err)
		}
		return nil, fmt.Errorf("techdetect: %s: invalid JSON: %w", file, err)
	}
	rs.recount()
	return rs, nil
}

// loadError is a problem in one technology or category, already naming
// the file and the entry.
type loadError struct{ msg string }

func (e *loadError) Error() string { return e.msg }

func entryError(file, what, name, key string, err error) error {
	if key != "" {
		return &loadError{fmt.Sprintf("techdetect: %s: %s %q: %s: %v", file, what, name, key, err)}
	}
	return &loadError{fmt.Sprintf("techdetect: %s: %s %q: %v", file, what, name, err)}
}

// eachMember reads one JSON object from dec, calling fn with each key;
// fn must consume the value.
func eachMember(dec *json.Decoder, fn func(key string) error) error {
	tok, err := dec.Token()
	if err != nil {
		return err
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		return fmt.Errorf("want an object, got %v", tok)
	}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return err
		}
		key, ok := tok.(string)
		if !ok {
			return fmt.Errorf("want a key, got %v", tok)
		}
		if err := fn(key); err != nil {
			return err
		}
	}
	_, err = dec.Token() // the closing brace
	return err
}

func isDigits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

func (rs *Ruleset) addCategory(file, key string, dec *json.Decoder) error {
	var raw json.RawMessage
	if err := dec.Decode(&raw); err != nil {
		return entryError(file, "category", key, "", err)
	}
	id, err := strconv.Atoi(key)
	if err != nil {
		return entryError(file, "category", key, "", errors.New("the key is not a number"))
	}
	var c struct {
		Name string `json:"name"`
	}
	if err := json.Unmarshal(raw, &c); err != nil {
		return entryError(file, "category", key, "", fmt.Errorf("want {\"name\": ...}: %w", err))
	}
	rs.Categories[id] = c.Name
	return nil
}

func (rs *Ruleset) addTechnology(file, name string, dec *json.Decoder) error {
	var raw json.RawMessage
	if err := dec.Decode(&raw); err != nil {
		return entryError(file, "technology", name, "", fmt.Errorf("invalid JSON: %w", err))
	}
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(raw, &fields); err != nil || fields == nil {
		return entryError(file, "technology", name, "", errors.New("want an object"))
	}
	t := &Technology{Name: name, Source: file}
	p := techParser{rs: rs, file: file, tech: t}
	if _, ok := fields["cats"]; !ok {
		return entryError(file, "technology", name, "cats", errors.New("missing (every technology needs its category IDs)"))
	}
	keys := make([]string, 0, len(fields))
	for k := range fields {
		keys = append(keys, k)
	}
	sort.Strings(keys) // skipped patterns are then listed in a stable order
	for _, k := range keys {
		if err := p.field(k, fields[k]); err != nil {
			return entryError(file, "technology", name, k, err)
		}
	}
	rs.Technologies[name] = t
	return nil
}
