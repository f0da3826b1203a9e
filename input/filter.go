package input

import (
	"strings"

	"github.com/prospectorhq/prospector"
	"github.com/prospectorhq/prospector/taxonomy"
)

// The filters of discovery, search, contacts and radars: values of the
// taxonomy in any of their spellings, returned normalised.

// Industries reads a list of industries: labels of the taxonomy or their
// aliases, returned as labels.
func Industries(field string, vs []string) ([]string, error) {
	return NormList(field, vs, func(name, v string) (string, error) {
		canonical, ok := taxonomy.NormalizeIndustry(v)
		if !ok {
			return "", Errorf(name, "unknown industry %q: use a label of the industry taxonomy or an alias such as saas, fintech, healthcare", v)
		}
		return canonical, nil
	})
}

// Industry reads one optional industry; nil when v is "".
func Industry(field, v string) ([]string, error) {
	if v == "" {
		return nil, nil
	}
	if err := Len(field, v, MaxText); err != nil {
		return nil, err
	}
	canonical, ok := taxonomy.NormalizeIndustry(v)
	if !ok {
		return nil, Errorf(field, "unknown industry %q: use a label of the industry taxonomy or an alias such as saas, fintech, healthcare", v)
	}
	return []string{canonical}, nil
}

// Sizes reads a list of employee size buckets.
func Sizes(field string, vs []string) ([]string, error) {
	return NormList(field, vs, func(name, v string) (string, error) {
		if !taxonomy.ValidEmployeeRange(v) {
			return "", Errorf(name, "unknown size bucket %q: use one of %s", v, strings.Join(taxonomy.EmployeeRanges(), ", "))
		}
		return v, nil
	})
}

// Size reads one optional employee size bucket; nil when v is "".
func Size(field, v string) ([]string, error) {
	if v == "" {
		return nil, nil
	}
	if err := Len(field, v, MaxText); err != nil {
		return nil, err
	}
	if !taxonomy.ValidEmployeeRange(v) {
		return nil, Errorf(field, "unknown size bucket %q: use one of %s", v, strings.Join(taxonomy.EmployeeRanges(), ", "))
	}
	return []string{v}, nil
}

// CountryCodes reads a list of ISO codes or WORLD; world reports whether
// WORLD (any country) was among them.
func CountryCodes(field string, vs []string) (codes []string, world bool, err error) {
	vs, err = NormList(field, vs, func(name, v string) (string, error) {
		up := strings.ToUpper(v)
		if up == taxonomy.WorldCode {
			return up, nil
		}
		code, ok := taxonomy.NormalizeCountry(up)
		if len(up) != 2 || !ok || code != up {
			return "", Errorf(name, "unknown country code %q: use an ISO 3166-1 alpha-2 code or WORLD", v)
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

// Location reads the flat location field: WORLD (any country), a country
// name or code, or a place, optionally followed by ", Country"
// ("Austin", "Austin, Texas", "Berlin, Germany").
func Location(field, v string) (countries, places []string, set bool, err error) {
	if v == "" {
		return nil, nil, false, nil
	}
	if err := Len(field, v, MaxText); err != nil {
		return nil, nil, false, err
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
	if place == "" {
		return nil, nil, false, Errorf(field, "%q is not a country, WORLD or a place name", v)
	}
	return countries, []string{place}, true, nil
}

// Revenue reads one optional annual revenue band (RevenueBands); nil
// when v is "".
func Revenue(field, v string) ([]string, error) {
	if v == "" {
		return nil, nil
	}
	if err := Len(field, v, MaxText); err != nil {
		return nil, err
	}
	norm := strings.ToUpper(strings.NewReplacer("$", "", " ", "", "USD", "").Replace(v))
	for _, b := range prospector.RevenueBands() {
		if norm == b {
			return []string{b}, nil
		}
	}
	return nil, Errorf(field, "unknown revenue band %q: use one of %s (annual USD)", v, strings.Join(prospector.RevenueBands(), ", "))
}

// Levels reads a list of job levels.
func Levels(field string, vs []string) ([]string, error) {
	return NormList(field, vs, func(name, v string) (string, error) {
		l, ok := taxonomy.NormalizeJobLevel(v)
		if !ok {
			return "", Errorf(name, "unknown job level %q: use one of %s", v, strings.Join(taxonomy.JobLevels(), ", "))
		}
		return l, nil
	})
}

// Functions reads a list of job functions.
func Functions(field string, vs []string) ([]string, error) {
	return NormList(field, vs, func(name, v string) (string, error) {
		f, ok := taxonomy.NormalizeJobFunction(v)
		if !ok {
			return "", Errorf(name, "unknown job function %q: use one of %s", v, strings.Join(taxonomy.JobFunctions(), ", "))
		}
		return f, nil
	})
}

// Places reads a list of locations: ISO codes, country names, places
// ("Austin", "Berlin, Germany") or WORLD, which lifts the restriction
// (every value is still checked). Two letters are always an ISO code.
func Places(field string, vs []string) ([]prospector.Place, error) {
	var out []prospector.Place
	world := false
	_, err := NormList(field, vs, func(name, v string) (string, error) {
		if len(v) == 2 {
			code, ok := taxonomy.NormalizeCountry(strings.ToUpper(v))
			if !ok || code == taxonomy.WorldCode {
				return "", Errorf(name, "unknown country code %q: use an ISO 3166-1 alpha-2 code, a country or place name, or WORLD", v)
			}
			out = append(out, prospector.Place{Country: code})
			return v, nil
		}
		countries, ps, _, err := Location(name, v)
		if err != nil {
			return "", err
		}
		if len(countries) == 0 && len(ps) == 0 {
			world = true // a spelling of WORLD
			return v, nil
		}
		p := prospector.Place{}
		if len(countries) > 0 {
			p.Country = countries[0]
		}
		if len(ps) > 0 {
			p.Name = ps[0]
		}
		out = append(out, p)
		return v, nil
	})
	if err != nil || world {
		return nil, err
	}
	return out, nil
}
