package api_test

import (
	"fmt"
	"net/http"
	"reflect"
	"strings"
	"testing"
)

// employees posts to employee-finder and returns the items and the
// pagination.
func (e *env) employees(t *testing.T, key, body string) ([]any, map[string]any) {
	t.Helper()
	d := e.post("/api/v1/contacts/employee-finder", key, body).data(t)
	items, ok := d["items"].([]any)
	if !ok {
		t.Fatalf("data.items is not an array: %v", d)
	}
	pg, ok := d["pagination"].(map[string]any)
	if !ok {
		t.Fatalf("data.pagination is not an object: %v", d)
	}
	return items, pg
}

func TestEmployeeFinderFilters(t *testing.T) {
	e := newEnv(t)
	fx := seedContacts(e)
	key := contactsKey(e)
	for _, c := range []struct{ name, filters, want string }{
		{"no filter", ``, orbitBySeniority},
		{"job_titles", `"job_titles":["Account Executive"]`, "ae2 ae"},
		{"job_titles word-aware", `"job_titles":["Vice President Sales"]`, "vpsales"},
		{"job_titles OR, more matches first", `"job_titles":["Manager","Sales Manager"]`, "salesmgr mktmgr"},
		{"job_titles no match", `"job_titles":["Astronaut"]`, ""},
		{"job_functions", `"job_functions":["Sales"]`, "vpsales salesmgr ae2 ae"},
		{"job_functions lowercase", `"job_functions":["sales"]`, "vpsales salesmgr ae2 ae"},
		{"job_functions OR", `"job_functions":["Marketing","Engineering"]`, "vpmkt direng mktmgr swe"},
		{"job_functions nobody has", `"job_functions":["Finance"]`, ""},
		{"job_levels", `"job_levels":["VP"]`, "vpmkt vpsales"},
		{"job_levels alias", `"job_levels":["vice president"]`, "vpmkt vpsales"},
		{"job_levels OR", `"job_levels":["Founder","Director"]`, "cofounder direng"},
		{"locations code", `"locations":["US"]`, "ceo vpsales headrev mktmgr ae"},
		{"locations lowercase code", `"locations":["us"]`, "ceo vpsales headrev mktmgr ae"},
		{"locations country name", `"locations":["United Kingdom"]`, "cofounder salesmgr ae2"},
		{"locations UK", `"locations":["UK"]`, "cofounder salesmgr ae2"},
		{"locations city and country", `"locations":["Berlin, Germany"]`, "vpmkt swe"},
		{"locations country", `"locations":["Germany"]`, "vpmkt direng swe"},
		{"locations region", `"locations":["Bavaria"]`, "direng"},
		{"locations two-word city", `"locations":["New York"]`, "vpsales mktmgr"},
		{"locations city in other country", `"locations":["Berlin, US"]`, ""},
		{"locations OR", `"locations":["GB","Berlin, Germany"]`, "cofounder vpmkt salesmgr swe ae2"},
		{"locations WORLD", `"locations":["WORLD"]`, orbitBySeniority},
		{"locations WORLD lifts a country", `"locations":["US","WORLD"]`, orbitBySeniority},
		{"locations world lowercase", `"locations":["world"]`, orbitBySeniority},
		{"functions AND locations", `"job_functions":["Sales"],"locations":["GB"]`, "salesmgr ae2"},
		{"levels AND functions AND locations", `"job_levels":["IC"],"job_functions":["Sales"],"locations":["US"]`, "ae"},
		{"titles AND levels", `"job_titles":["Manager"],"job_levels":["Manager"],"locations":["US"]`, "mktmgr"},
		{"titles AND functions", `"job_titles":["VP"],"job_functions":["Marketing"]`, "vpmkt"},
		{"levels AND locations no match", `"job_levels":["Founder"],"locations":["US"]`, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			body := `{"company_domain":"orbit.example","max_results":100`
			if c.filters != "" {
				body += "," + c.filters
			}
			items, pg := e.employees(t, key, body+"}")
			fx.wantKeys(t, items, c.want)
			if n := len(strings.Fields(c.want)); pg["total"] != float64(n) {
				t.Errorf("total %v, want %d", pg["total"], n)
			}
		})
	}
	t.Run("other companies' people never appear", func(t *testing.T) {
		items, _ := e.employees(t, key, `{"company_domain":"nimbus.example","job_titles":["Sales"]}`)
		fx.wantKeys(t, items, "nimbus-vp")
	})
	t.Run("company_network_url", func(t *testing.T) {
		items, _ := e.employees(t, key, `{"company_network_url":"https://network.example/company/orbit","job_levels":["VP"]}`)
		fx.wantKeys(t, items, "vpmkt vpsales")
	})
	t.Run("network_url alias", func(t *testing.T) {
		items, _ := e.employees(t, key, `{"network_url":"https://network.example/company/orbit","job_levels":["VP"]}`)
		fx.wantKeys(t, items, "vpmkt vpsales")
	})
	t.Run("messy domain", func(t *testing.T) {
		items, _ := e.employees(t, key, `{"company_domain":"HTTPS://www.Orbit.example/about","job_levels":["VP"]}`)
		fx.wantKeys(t, items, "vpmkt vpsales")
	})
	t.Run("job_titles match scores the bonus", func(t *testing.T) {
		items, _ := e.employees(t, key, `{"company_domain":"orbit.example","job_titles":["Account Executive"]}`)
		for _, it := range items {
			if s := it.(map[string]any)["score"]; s != 40.0 {
				t.Errorf("score %v, want 40 (IC 30 + title match 10)", s)
			}
		}
		items, _ = e.employees(t, key, `{"company_domain":"orbit.example","job_levels":["IC"]}`)
		for _, it := range items {
			if s := it.(map[string]any)["score"]; s != 30.0 {
				t.Errorf("score %v, want 30 without a title filter", s)
			}
		}
	})
}

func TestEmployeeFinderPagination(t *testing.T) {
	e := newEnv(t, noRateLimit)
	fx := seedContacts(e)
	key := contactsKey(e)
	all := strings.Fields(orbitBySeniority)
	pgJSON := func(pg map[string]any) string { return string(mustJSON(pg)) }

	items, pg := e.employees(t, key, `{"company_domain":"orbit.example"}`)
	fx.wantKeys(t, items, orbitBySeniority)
	if got, want := pgJSON(pg), `{"has_more":false,"next_page":null,"page":1,"per_page":25,"total":12}`; got != want {
		t.Errorf("defaults: pagination %s, want %s", got, want)
	}

	for _, c := range []struct {
		page int
		want string
		pg   string
	}{
		{1, strings.Join(all[0:5], " "), `{"has_more":true,"next_page":2,"page":1,"per_page":5,"total":12}`},
		{2, strings.Join(all[5:10], " "), `{"has_more":true,"next_page":3,"page":2,"per_page":5,"total":12}`},
		{3, strings.Join(all[10:], " "), `{"has_more":false,"next_page":null,"page":3,"per_page":5,"total":12}`},
		{4, "", `{"has_more":false,"next_page":null,"page":4,"per_page":5,"total":12}`},
		{10000, "", `{"has_more":false,"next_page":null,"page":10000,"per_page":5,"total":12}`},
	} {
		t.Run(fmt.Sprint("page ", c.page), func(t *testing.T) {
			items, pg := e.employees(t, key, fmt.Sprintf(`{"company_domain":"orbit.example","max_results":5,"page":%d}`, c.page))
			fx.wantKeys(t, items, c.want)
			if got := pgJSON(pg); got != c.pg {
				t.Errorf("pagination %s, want %s", got, c.pg)
			}
			if len(items) == 0 && !strings.Contains(string(mustJSON(items)), "[]") {
				t.Errorf("no items: %s, want []", mustJSON(items))
			}
		})
	}

	t.Run("walk by next_page", func(t *testing.T) {
		var got []string
		page := 1
		for range 20 {
			items, pg := e.employees(t, key, fmt.Sprintf(`{"company_domain":"orbit.example","job_functions":["Sales","Marketing"],"max_results":2,"page":%d}`, page))
			got = append(got, fx.keys(t, items)...)
			next, ok := pg["next_page"].(float64)
			if !ok {
				break
			}
			page = int(next)
		}
		if want := strings.Fields("vpmkt vpsales salesmgr mktmgr ae2 ae"); !reflect.DeepEqual(got, want) {
			t.Errorf("walk: %v, want %v", got, want)
		}
	})

	t.Run("max_results 1 and 100", func(t *testing.T) {
		items, pg := e.employees(t, key, `{"company_domain":"orbit.example","max_results":1}`)
		fx.wantKeys(t, items, "cofounder")
		if pg["per_page"] != 1.0 || pg["next_page"] != 2.0 || pg["has_more"] != true {
			t.Errorf("max_results 1: pagination %s", pgJSON(pg))
		}
		items, pg = e.employees(t, key, `{"company_domain":"orbit.example","max_results":100}`)
		fx.wantKeys(t, items, orbitBySeniority)
		if pg["per_page"] != 100.0 || pg["has_more"] != false {
			t.Errorf("max_results 100: pagination %s", pgJSON(pg))
		}
	})

	t.Run("exact end of the last page", func(t *testing.T) {
		_, pg := e.employees(t, key, `{"company_domain":"orbit.example","max_results":6,"page":2}`)
		if got, want := pgJSON(pg), `{"has_more":false,"next_page":null,"page":2,"per_page":6,"total":12}`; got != want {
			t.Errorf("pagination %s, want %s", got, want)
		}
	})

	t.Run("no match", func(t *testing.T) {
		items, pg := e.employees(t, key, `{"company_domain":"orbit.example","job_titles":["Astronaut"]}`)
		if len(items) != 0 || pgJSON(pg) != `{"has_more":false,"next_page":null,"page":1,"per_page":25,"total":0}` {
			t.Errorf("no match: %v %s", items, pgJSON(pg))
		}
	})
}

func TestEmployeeFinderValidation(t *testing.T) {
	e := newEnv(t, noRateLimit)
	seedContacts(e)
	key := contactsKey(e)
	runInvalidCases(t, e, key, "/api/v1/contacts/employee-finder", []invalidCase{
		{"no identifier", `{}`, "company_domain"},
		{"no identifier with filters", `{"job_levels":["VP"]}`, "company_domain"},
		{"invalid domain", `{"company_domain":"orbit"}`, "company_domain"},
		{"invalid company_network_url", `{"company_network_url":"mailto:x@orbit.example"}`, "company_network_url"},
		{"invalid network_url", `{"network_url":"ftp://network.example/company/orbit"}`, "network_url"},
		{"unknown function", `{"company_domain":"orbit.example","job_functions":["Astrology"]}`, "job_functions[0]"},
		{"unknown function second", `{"company_domain":"orbit.example","job_functions":["Sales","Astrology"]}`, "job_functions[1]"},
		{"unknown level", `{"company_domain":"orbit.example","job_levels":["Wizard"]}`, "job_levels[0]"},
		{"level a function name", `{"company_domain":"orbit.example","job_levels":["Sales"]}`, "job_levels[0]"},
		{"unknown country code", `{"company_domain":"orbit.example","locations":["ZZ"]}`, "locations[0]"},
		{"unknown country code second", `{"company_domain":"orbit.example","locations":["US","ZZ"]}`, "locations[1]"},
		{"bad value after WORLD is still checked", `{"company_domain":"orbit.example","locations":["WORLD","ZZ"]}`, "locations[1]"},
		{"position counted before repeats drop", `{"company_domain":"orbit.example","job_levels":["VP","vp","Wizard"]}`, "job_levels[2]"},
		{"empty location", `{"company_domain":"orbit.example","locations":[""]}`, "locations[0]"},
		{"punctuation location", `{"company_domain":"orbit.example","locations":[","]}`, "locations[0]"},
		{"empty job title", `{"company_domain":"orbit.example","job_titles":["VP",""]}`, "job_titles[1]"},
		{"job_titles 51 values", `{"company_domain":"orbit.example","job_titles":` + jsonList(51, "VP") + `}`, "job_titles"},
		{"job_titles a string", `{"company_domain":"orbit.example","job_titles":"VP"}`, "job_titles"},
		{"job_levels a string", `{"company_domain":"orbit.example","job_levels":"VP"}`, "job_levels"},
		{"locations with a number", `{"company_domain":"orbit.example","locations":[1]}`, "locations"},
		{"max_results 0", `{"company_domain":"orbit.example","max_results":0}`, "max_results"},
		{"max_results 101", `{"company_domain":"orbit.example","max_results":101}`, "max_results"},
		{"max_results 2.5", `{"company_domain":"orbit.example","max_results":2.5}`, "max_results"},
		{"page 0", `{"company_domain":"orbit.example","page":0}`, "page"},
		{"page -1", `{"company_domain":"orbit.example","page":-1}`, "page"},
		{"page 10001", `{"company_domain":"orbit.example","page":10001}`, "page"},
		{"page a string", `{"company_domain":"orbit.example","page":"2"}`, "page"},
		{"unknown member", `{"company_domain":"orbit.example","job_title":["VP"]}`, "job_title"},
		{"malformed JSON", `{"company_domain":`, "body"},
	})
	t.Run("unknown company", func(t *testing.T) {
		e.post("/api/v1/contacts/employee-finder", key, `{"company_domain":"nowhere.example"}`).wantError(t, http.StatusNotFound, "not_found")
		e.post("/api/v1/contacts/employee-finder", key, `{"company_network_url":"https://network.example/company/nowhere"}`).wantError(t, http.StatusNotFound, "not_found")
		e.post("/api/v1/contacts/employee-finder", key, `{"network_url":"https://network.example/company/nowhere"}`).wantError(t, http.StatusNotFound, "not_found")
	})
}
