package api

import (
	"fmt"
	"strings"

	"github.com/prospectorhq/prospector"
	"github.com/prospectorhq/prospector/taxonomy"
)

// maxFilterValues bounds every list filter of the discovery and search
// requests.
const maxFilterValues = 50

// filterErr is a validation error naming the field.
func filterErr(field, format string, args ...any) error {
	return prospector.Errorf(prospector.EINVALID, "%s: %s", field, fmt.Sprintf(format, args...))
}

// str reads an optional string field; null, "" and blanks mean absent.
func str(p *string) string {
	if p == nil {
		return ""
	}
	return strings.TrimSpace(*p)
}

// checkList trims a list filter and enforces its bound; empty strings are
// refused (they are always a client bug). A value repeated (in any case)
// is kept once: counted twice, it would rank the rows matching it above
// rows matching more of the request.
func checkList(field string, vs []string) ([]string, error) {
	return normList(field, vs, func(_, v string) (string, error) { return v, nil })
}

// normList is checkList with each value validated and normalised by norm,
// which gets the value's name with its index in the request (field[i]).
// Repeats are dropped after normalising, so aliases of one value count
// once and an error names the position the caller sent.
func normList(field string, vs []string, norm func(name, v string) (string, error)) ([]string, error) {
	if len(vs) > maxFilterValues {
		return nil, filterErr(field, "at most %d values", maxFilterValues)
	}
	out := make([]string, 0, len(vs))
	for i, v := range vs {
		name := fmt.Sprintf("%s[%d]", field, i)
		v = strings.TrimSpace(v)
		if v == "" {
			return nil, filterErr(name, "must not be empty")
		}
		v, err := norm(name, v)
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return merge(nil, out), nil
}

func industries(field string, vs []string) ([]string, error) {
	return normList(field, vs, func(name, v string) (string, error) {
		canonical, ok := taxonomy.NormalizeIndustry(v)
		if !ok {
			return "", filterErr(name, "unknown industry %q: use a label of the industry taxonomy or an alias such as saas, fintech, healthcare", v)
		}
		return canonical, nil
	})
}

func industry(field, v string) ([]string, error) {
	if v == "" {
		return nil, nil
	}
	canonical, ok := taxonomy.NormalizeIndustry(v)
	if !ok {
		return nil, filterErr(field, "unknown industry %q: use a label of the industry taxonomy or an alias such as saas, fintech, healthcare", v)
	}
	return []string{canonical}, nil
}

func sizes(field string, vs []string) ([]string, error) {
	return normList(field, vs, func(name, v string) (string, error) {
		if !taxonomy.ValidEmployeeRange(v) {
			return "", filterErr(name, "unknown size bucket %q: use one of %s", v, strings.Join(taxonomy.EmployeeRanges(), ", "))
		}
		return v, nil
	})
}

func size(field, v string) ([]string, error) {
	if v == "" {
		return nil, nil
	}
	if !taxonomy.ValidEmployeeRange(v) {
		return nil, filterErr(field, "unknown size bucket %q: use one of %s", v, strings.Join(taxonomy.EmployeeRanges(), ", "))
	}
	return []string{v}, nil
}

// countryCodes reads a list of ISO codes or WORLD; world reports whether
// WORLD (any country) was among them.
func countryCodes(field string, vs []string) (codes []string, world bool, err error) {
	vs, err = normList(field, vs, func(name, v string) (string, error) {
		up := strings.ToUpper(v)
		if up == taxonomy.WorldCode {
			return up, nil
		}
		code, ok := taxonomy.NormalizeCountry(up)
		if len(up) != 2 || !ok || code != up {
			return "", filterErr(name, "unknown country code %q: use an ISO 3166-1 alpha-2 code or WORLD", v)
		}
		return code, nil
	})
	if err != nil {
		return nil, false, err
	}
	for _, v := range vs {
		if v == taxonomy.WorldCode {
			world = true
		} else {
			codes = append(codes, v)
		}
	}
	return codes, world, nil
}

// location reads the flat location field: WORLD (any country), a country
// name or code, or a place, optionally followed by ", Country"
// ("Austin", "Austin, Texas", "Berlin, Germany").
func location(field, v string) (countries, places []string, set bool, err error) {
	if v == "" {
		return nil, nil, false, nil
	}
	if code, ok := taxonomy.NormalizeCountry(v); ok {
		if code == taxonomy.WorldCode {
			return nil, nil, true, nil
		}
		return []string{code}, nil, true, nil
	}
	parts := strings.Split(v, ",")
	last := strings.TrimSpace(parts[len(parts)-1])
	if code, ok := taxonomy.NormalizeCountry(last); ok && len(parts) > 1 && code != taxonomy.WorldCode {
		countries, parts = []string{code}, parts[:len(parts)-1]
	}
	place := strings.TrimSpace(strings.Join(parts, " "))
	if place == "" || len(place) > 200 {
		return nil, nil, false, filterErr(field, "%q is not a country, WORLD or a place name", v)
	}
	return countries, []string{place}, true, nil
}

func revenue(field, v string) ([]string, error) {
	if v == "" {
		return nil, nil
	}
	norm := strings.ToUpper(strings.NewReplacer("$", "", " ", "", "USD", "").Replace(v))
	for _, b := range prospector.RevenueBands() {
		if norm == b {
			return []string{b}, nil
		}
	}
	return nil, filterErr(field, "unknown revenue band %q: use one of %s (annual USD)", v, strings.Join(prospector.RevenueBands(), ", "))
}

func levels(field string, vs []string) ([]string, error) {
	return normList(field, vs, func(name, v string) (string, error) {
		l, ok := taxonomy.NormalizeJobLevel(v)
		if !ok {
			return "", filterErr(name, "unknown job level %q: use one of %s", v, strings.Join(taxonomy.JobLevels(), ", "))
		}
		return l, nil
	})
}

func functions(field string, vs []string) ([]string, error) {
	return normList(field, vs, func(name, v string) (string, error) {
		f, ok := taxonomy.NormalizeJobFunction(v)
		if !ok {
			return "", filterErr(name, "unknown job function %q: use one of %s", v, strings.Join(taxonomy.JobFunctions(), ", "))
		}
		return f, nil
	})
}

// maxResults applies the contract's 1..100 bound, default 100.
func maxResults(v *int) (int, error) {
	if v == nil {
		return 100, nil
	}
	if *v < 1 || *v > 100 {
		return 0, filterErr("max_results", "must be between 1 and 100")
	}
	return *v, nil
}

// merge joins the flat compatibility field's values with the nested
// field's, without duplicates: both are the same field group (OR).
func merge(a, b []string) []string {
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
