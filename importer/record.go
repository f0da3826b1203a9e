package importer

import (
	"encoding/json"
	"strconv"
	"strings"
	"time"
)

// value returns the first non-empty member among names (aliases of one
// field, in order of preference) and the name it was found under.
func (r record) value(names ...string) (any, string) {
	for _, n := range names {
		v, ok := r[n]
		if !ok || v == nil {
			continue
		}
		if s, isStr := v.(string); isStr && strings.TrimSpace(s) == "" {
			continue
		}
		return v, n
	}
	return nil, ""
}

// str returns a field as a trimmed string ("" when absent).
func (r record) str(names ...string) (string, error) {
	v, name := r.value(names...)
	switch x := v.(type) {
	case nil:
		return "", nil
	case string:
		return strings.TrimSpace(x), nil
	case json.Number:
		return x.String(), nil
	case bool:
		return strconv.FormatBool(x), nil
	}
	return "", badLine("%s: must be a string", name)
}

// numeric returns a numeric field's text ("1,200" read as 1200), or ""
// when absent; kind names the expected type in the error.
func (r record) numeric(kind string, names ...string) (string, string, error) {
	v, name := r.value(names...)
	switch x := v.(type) {
	case nil:
		return "", name, nil
	case json.Number:
		return x.String(), name, nil
	case string:
		return strings.ReplaceAll(strings.TrimSpace(x), ",", ""), name, nil
	}
	return "", name, badLine("%s: must be %s", name, kind)
}

// integer returns a field as an integer; "1,200" and 1200.0 are accepted.
func (r record) integer(names ...string) (*int64, error) {
	s, name, err := r.numeric("a whole number", names...)
	if err != nil || s == "" {
		return nil, err
	}
	if n, err := strconv.ParseInt(s, 10, 64); err == nil {
		return &n, nil
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || f != float64(int64(f)) {
		return nil, badLine("%s: %q is not a whole number", name, s)
	}
	n := int64(f)
	return &n, nil
}

// number returns a field as a float.
func (r record) number(names ...string) (*float64, error) {
	s, name, err := r.numeric("a number", names...)
	if err != nil || s == "" {
		return nil, err
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return nil, badLine("%s: %q is not a number", name, s)
	}
	return &f, nil
}

// list returns a field as strings: a JSON array, or text split on ";",
// "|" or ",".
func (r record) list(names ...string) ([]string, error) {
	v, name := r.value(names...)
	var out []string
	switch x := v.(type) {
	case nil:
		return nil, nil
	case string:
		for _, part := range strings.FieldsFunc(x, func(c rune) bool { return c == ';' || c == '|' || c == ',' }) {
			if p := strings.TrimSpace(part); p != "" {
				out = append(out, p)
			}
		}
	case []any:
		for i, e := range x {
			s, ok := e.(string)
			if !ok {
				return nil, badLine("%s[%d]: must be a string", name, i)
			}
			if s = strings.TrimSpace(s); s != "" {
				out = append(out, s)
			}
		}
	default:
		return nil, badLine("%s: must be an array of strings", name)
	}
	return out, nil
}

// timestamp reads RFC 3339, "2006-01-02 15:04:05" or a bare date (as
// midnight UTC).
func (r record) timestamp(names ...string) (*time.Time, error) {
	s, err := r.str(names...)
	if err != nil || s == "" {
		return nil, err
	}
	_, name := r.value(names...)
	for _, layout := range []string{time.RFC3339Nano, "2006-01-02 15:04:05", "2006-01-02T15:04:05", "2006-01-02"} {
		if t, err := time.Parse(layout, s); err == nil {
			t = t.UTC()
			return &t, nil
		}
	}
	return nil, badLine("%s: %q is not an RFC 3339 timestamp or YYYY-MM-DD date", name, s)
}

// date reads YYYY-MM-DD (or the date part of a timestamp).
func (r record) date(names ...string) (string, error) {
	t, err := r.timestamp(names...)
	if err != nil || t == nil {
		return "", err
	}
	return t.Format("2006-01-02"), nil
}

// decodeInto decodes a field holding a JSON object or array (or, from
// CSV, its JSON text) into dst.
func (r record) decodeInto(dst any, names ...string) (bool, error) {
	v, name := r.value(names...)
	if v == nil {
		return false, nil
	}
	var raw []byte
	if s, ok := v.(string); ok {
		raw = []byte(s)
	} else {
		var err error
		if raw, err = json.Marshal(v); err != nil {
			return false, badLine("%s: %v", name, err)
		}
	}
	if err := json.Unmarshal(raw, dst); err != nil {
		return false, badLine("%s: not valid JSON of the expected shape: %s", name, strings.TrimPrefix(err.Error(), "json: "))
	}
	return true, nil
}

func optional(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

func required(field, value string) error {
	if value == "" {
		return badLine("%s: required", field)
	}
	return nil
}
