package api

import (
	"net/http"
	"net/url"
	"strings"

	"github.com/prospectorhq/prospector"
	"github.com/prospectorhq/prospector/input"
)

// queryValues are a GET request's parameters. Unknown ones are ignored;
// one given twice is a 400, as a duplicate body member is: frameworks
// disagree about which copy wins. Blank values count as absent.
type queryValues url.Values

func readQuery(r *http.Request) (queryValues, error) {
	v, err := url.ParseQuery(r.URL.RawQuery)
	if err != nil {
		return nil, prospector.Errorf(prospector.EINVALID, "query: malformed query string")
	}
	return queryValues(v), nil
}

func (q queryValues) get(name string) (string, error) {
	vs := q[name]
	switch len(vs) {
	case 0:
		return "", nil
	case 1:
		v := strings.TrimSpace(vs[0])
		return v, prospector.CheckText(name, v)
	}
	return "", input.Errorf(name, "given %d times; give it once", len(vs))
}

// param names a query parameter and where its value goes.
type param struct {
	name string
	dst  *string
}

// readParams reads the parameters of a GET request, in order, as text:
// a malformed query string or a parameter given twice is 400; an absent
// or blank one is "".
func readParams(r *http.Request, ps ...param) error {
	q, err := readQuery(r)
	if err != nil {
		return err
	}
	for _, p := range ps {
		if *p.dst, err = q.get(p.name); err != nil {
			return err
		}
	}
	return nil
}
