package input

import (
	"fmt"
	"strings"
)

// MaxListValues bounds every list filter of the discovery and search
// requests.
const MaxListValues = 50

// List trims a list filter and enforces its bound; empty strings are
// refused (they are always a client bug). A value repeated (in any case)
// is kept once: counted twice, it would rank the rows matching it above
// rows matching more of the request.
func List(field string, vs []string) ([]string, error) {
	return NormList(field, vs, func(_, v string) (string, error) { return v, nil })
}

// NormList is List with each value validated and normalised by norm,
// which gets the value's name with its index in the request (field[i]).
// Repeats are dropped after normalising, so aliases of one value count
// once and an error names the position the caller sent.
func NormList(field string, vs []string, norm func(name, v string) (string, error)) ([]string, error) {
	if len(vs) > MaxListValues {
		return nil, Errorf(field, "at most %d values", MaxListValues)
	}
	out := make([]string, 0, len(vs))
	for i, v := range vs {
		name := fmt.Sprintf("%s[%d]", field, i)
		v = strings.TrimSpace(v)
		if v == "" {
			return nil, Errorf(name, "must not be empty")
		}
		if err := Len(name, v, MaxText); err != nil {
			return nil, err
		}
		v, err := norm(name, v)
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return Merge(nil, out), nil
}

// Merge joins the values of two lists without repeats (in any case): a
// flat compatibility field's and its nested twin's, which are the same
// field group (OR).
func Merge(a, b []string) []string {
	out := append([]string(nil), a...)
	for _, v := range b {
		dup := false
		for _, x := range out {
			if strings.EqualFold(x, v) {
				dup = true
				break
			}
		}
		if !dup {
			out = append(out, v)
		}
	}
	return out
}
