package search

import (
	"reflect"
	"testing"

	"github.com/prospectorhq/prospector"
)

// Every field of a query, set alone, gives a key of its own: a field
// missing from queryKey would let two different queries share a cached
// intersection.
func TestQueryKeyCoversEveryField(t *testing.T) {
	for _, q := range []any{prospector.CompanyQuery{}, prospector.PersonQuery{}} {
		seen := map[string]string{queryKey(q): "the empty query"}
		typ := reflect.TypeOf(q)
		for i := range typ.NumField() {
			for _, variant := range []int{1, 2} {
				v := reflect.New(typ).Elem()
				f := v.Field(i)
				switch f.Type() {
				case reflect.TypeOf([]string(nil)):
					f.Set(reflect.ValueOf([]string{"a", "b"}[:variant]))
				case reflect.TypeOf([]prospector.Place(nil)):
					f.Set(reflect.ValueOf([]prospector.Place{{Country: "a"}, {Name: "a"}}[variant-1 : variant]))
				default:
					t.Fatalf("%s.%s: queryKey and this test know nothing of %s", typ.Name(), typ.Field(i).Name, f.Type())
				}
				k := queryKey(v.Interface())
				name := typ.Field(i).Name
				if other, ok := seen[k]; ok {
					t.Errorf("%s.%s (variant %d) has the key of %s: %q", typ.Name(), name, variant, other, k)
				}
				seen[k] = name
			}
		}
	}
}

// Values are length-prefixed: moving a separator between values changes
// the key.
func TestQueryKeyValueBoundaries(t *testing.T) {
	a := queryKey(prospector.CompanyQuery{Industries: []string{"a|1:b"}})
	b := queryKey(prospector.CompanyQuery{Industries: []string{"a", "b"}})
	c := queryKey(prospector.CompanyQuery{Industries: []string{"a"}, ExcludeIndustries: []string{"b"}})
	if a == b || b == c || a == c {
		t.Errorf("keys collide: %q %q %q", a, b, c)
	}
}
