package search

import (
	"strconv"

	"github.com/prospectorhq/prospector"
)

// queryKey identifies a query as asked, for the intersection cache: every
// field in order, each value length-prefixed, so no two queries share a
// key. Written by hand because fmt's %#v cost a tenth of a discovery
// request (reflection and quoting); TestQueryKeyCoversEveryField fails
// when a field is added to a query type and not here.
func queryKey(q any) string {
	var b []byte
	switch q := q.(type) {
	case prospector.CompanyQuery:
		b = append(b, 'c')
		for _, f := range [][]string{q.Industries, q.ExcludeIndustries, q.Sizes, q.Countries, q.Places, q.Keywords, q.Revenues} {
			b = appendValues(b, f)
		}
	case prospector.PersonQuery:
		b = append(b, 'p')
		for _, f := range [][]string{q.Titles, q.Functions, q.Levels, q.Countries, q.Places, q.CompanySizes,
			q.CompanyIndustries, q.ExcludeTitles} {
			b = appendValues(b, f)
		}
		b = strconv.AppendInt(append(b, '|'), int64(len(q.Locations)), 10)
		for _, l := range q.Locations {
			b = appendValue(appendValue(b, l.Country), l.Name)
		}
	default:
		panic("search: queryKey of an unknown query type")
	}
	return string(b)
}

func appendValues(b []byte, vs []string) []byte {
	b = strconv.AppendInt(append(b, '|'), int64(len(vs)), 10)
	for _, v := range vs {
		b = appendValue(b, v)
	}
	return b
}

func appendValue(b []byte, v string) []byte {
	return append(strconv.AppendInt(append(b, ':'), int64(len(v)), 10), v...)
}
