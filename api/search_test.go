package api_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/prospectorhq/prospector"
)

// page is a decoded search response.
type page struct {
	items      []any
	cursor     *string
	nextCursor *string
	hasMore    bool
}

// searchPage decodes a search response strictly: data holds exactly items
// and pagination, pagination exactly cursor, next_cursor and has_more.
func (r response) searchPage(t *testing.T) page {
	t.Helper()
	if r.status != http.StatusOK {
		t.Fatalf("status %d, want 200: %s", r.status, r.body)
	}
	var env struct {
		Data struct {
			Items      []any `json:"items"`
			Pagination struct {
				Cursor     *string `json:"cursor"`
				NextCursor *string `json:"next_cursor"`
				HasMore    *bool   `json:"has_more"`
			} `json:"pagination"`
		} `json:"data"`
	}
	dec := json.NewDecoder(strings.NewReader(string(r.body)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&env); err != nil {
		t.Fatalf("search response: %v: %s", err, r.body)
	}
	if env.Data.Items == nil || env.Data.Pagination.HasMore == nil {
		t.Fatalf("search response lacks items or has_more: %s", r.body)
	}
	p := env.Data.Pagination
	if (p.NextCursor != nil) != *p.HasMore {
		t.Errorf("next_cursor %v with has_more %v", p.NextCursor, *p.HasMore)
	}
	return page{items: env.Data.Items, cursor: p.Cursor, nextCursor: p.NextCursor, hasMore: *p.HasMore}
}

func TestSearchShapes(t *testing.T) {
	engines(t, func(t *testing.T, e *env) {
		fx := seed(e)
		_, key := e.workspace("shapes", prospector.PlanGrowth, prospector.PlanGrowth)

		r := e.post("/api/v1/search/companies", key, `{}`)
		wantRateHeaders(t, r)
		p := r.searchPage(t)
		fx.wantOrder(t, p.items, allCompanies)
		fx.wantItems(t, p.items, wantCompanyItems)
		if p.cursor != nil || p.nextCursor != nil || p.hasMore {
			t.Errorf("single page: pagination %v %v %v, want null, null, false", p.cursor, p.nextCursor, p.hasMore)
		}

		p = e.post("/api/v1/search/people", key, `{}`).searchPage(t)
		fx.wantOrder(t, p.items, allPeople)
		fx.wantItems(t, p.items, wantPersonItems)
		if p.cursor != nil || p.nextCursor != nil || p.hasMore {
			t.Errorf("single page: pagination %v %v %v", p.cursor, p.nextCursor, p.hasMore)
		}

		// The whole body is optional: no body at all is a search for everything.
		for path, order := range map[string]string{"/api/v1/search/companies": allCompanies, "/api/v1/search/people": allPeople} {
			fx.wantOrder(t, e.do("POST", path, key, nil).searchPage(t).items, order)
			fx.wantOrder(t, e.post(path, key, ``).searchPage(t).items, order)
			e.post(path, key, `null`).wantInvalid(t, "body") // a body is an object
			fx.wantOrder(t, e.post(path, key, `{"cursor":null,"max_results":null}`).searchPage(t).items, order)
			fx.wantOrder(t, e.post(path, key, `{"cursor":""}`).searchPage(t).items, order)
		}

		// No match: an empty items array, not null.
		r = e.post("/api/v1/search/people", key, `{"titles":["Astronaut"]}`)
		if p := r.searchPage(t); len(p.items) != 0 || p.hasMore || !strings.Contains(string(r.body), `"items":[]`) {
			t.Errorf("no match: %s", r.body)
		}

		// A first page of a longer result.
		p = e.post("/api/v1/search/companies", key, `{"max_results":2}`).searchPage(t)
		fx.wantOrder(t, p.items, "fabrik > betabank")
		if p.cursor != nil || p.nextCursor == nil || !p.hasMore {
			t.Errorf("first page: pagination %v %v %v, want null, a cursor, true", p.cursor, p.nextCursor, p.hasMore)
		}
	})
}

func TestSearchCompaniesFilters(t *testing.T) {
	engines(t, func(t *testing.T, e *env) {
		fx := seed(e)
		_, key := e.workspace("filters", prospector.PlanGrowth, prospector.PlanGrowth)
		runFilterCases(t, e, fx, key, "/api/v1/search/companies", []filterCase{
			// Flat compatibility fields, as in discover.
			{"industry alias", `{"industry":"saas"}`, "acme > gamma ion"},
			{"employee_size", `{"employee_size":"1-10"}`, "gamma ion"},
			{"location country", `{"location":"Germany"}`, "fabrik > betabank"},
			{"location WORLD", `{"location":"WORLD"}`, allCompanies},
			{"location city", `{"location":"Austin, US"}`, "acme"},
			{"keywords", `{"keywords":["payments"]}`, "acme > delta"},
			// Nested fields.
			{"industry.include alias", `{"company":{"industry":{"include":["saas"]}}}`, "acme > gamma ion"},
			{"industry.include label any case", `{"company":{"industry":{"include":["sOfTwArE dEvElOpMeNt"]}}}`, "acme > gamma ion"},
			{"industry.include OR", `{"company":{"industry":{"include":["saas","Banking"]}}}`, "betabank > acme > gamma ion"},
			{"industry.include aliases", `{"company":{"industry":{"include":["fintech","healthcare","real_estate"]}}}`, "cura > delta > estate"},
			{"industry.include and exclude", `{"company":{"industry":{"include":["saas","banking"],"exclude":["Banking"]}}}`, "acme > gamma ion"},
			{"industry.exclude alone", `{"company":{"industry":{"exclude":["software"]}}}`, "fabrik > betabank > cura > kilo > delta > estate"},
			{"industry.exclude OR", `{"company":{"industry":{"exclude":["software","banking","real estate"]}}}`, "fabrik > cura > kilo > delta"},
			{"industry.include empty", `{"company":{"industry":{"include":[]}}}`, allCompanies},
			{"employee_range", `{"company":{"employee_range":["1-10","10001+"]}}`, "fabrik > gamma ion"},
			{"employee_range one", `{"company":{"employee_range":["201-500"]}}`, "cura"},
			{"hq.country_code", `{"company":{"hq":{"country_code":["US"]}}}`, "acme > delta"},
			{"hq.country_code OR, any case", `{"company":{"hq":{"country_code":["us","DE"]}}}`, "fabrik > betabank > acme > delta"},
			{"hq.country_code WORLD", `{"company":{"hq":{"country_code":["WORLD"]}}}`, allCompanies},
			{"hq.country_code world lowercase", `{"company":{"hq":{"country_code":["world"]}}}`, allCompanies},
			{"hq.country_code WORLD among codes", `{"company":{"hq":{"country_code":["DE","WORLD"]}}}`, allCompanies},
			{"hq.country_code no company", `{"company":{"hq":{"country_code":["FR"]}}}`, ""},
			{"keywords.include", `{"company":{"keywords":{"include":["payments"]}}}`, "acme > delta"},
			{"keywords.include description", `{"company":{"keywords":{"include":["developer tools"]}}}`, "ion"},
			// Field groups AND.
			{"include AND country", `{"company":{"industry":{"include":["saas"]},"hq":{"country_code":["US"]}}}`, "acme"},
			{"include AND range", `{"company":{"industry":{"include":["saas"]},"employee_range":["1-10"]}}`, "gamma ion"},
			{"range AND country", `{"company":{"employee_range":["1-10"],"hq":{"country_code":["SG"]}}}`, "ion"},
			{"keywords AND country", `{"company":{"keywords":{"include":["payments"]},"hq":{"country_code":["US"]}}}`, "acme > delta"},
			{"keywords AND range", `{"company":{"keywords":{"include":["payments"]},"employee_range":["11-50"]}}`, "delta"},
			{"exclude AND country", `{"company":{"industry":{"exclude":["banking"]},"hq":{"country_code":["DE"]}}}`, "fabrik"},
			{"city AND country code", `{"location":"Austin","company":{"hq":{"country_code":["US"]}}}`, "acme"},
			{"city AND other country code", `{"location":"Austin","company":{"hq":{"country_code":["DE"]}}}`, ""},
			// Flat and nested twins are one OR group.
			{"industry twins", `{"industry":"saas","company":{"industry":{"include":["banking"]}}}`, "betabank > acme > gamma ion"},
			{"industry twins, same value", `{"industry":"saas","company":{"industry":{"include":["Software Development"]}}}`, "acme > gamma ion"},
			{"size twins", `{"employee_size":"1-10","company":{"employee_range":["10001+"]}}`, "fabrik > gamma ion"},
			{"location twins", `{"location":"Germany","company":{"hq":{"country_code":["US"]}}}`, "fabrik > betabank > acme > delta"},
			{"location twins, WORLD", `{"location":"Germany","company":{"hq":{"country_code":["WORLD"]}}}`, allCompanies},
			{"location twins, flat WORLD", `{"location":"WORLD","company":{"hq":{"country_code":["DE"]}}}`, allCompanies},
			{"location twins, place and code", `{"location":"Austin, US","company":{"hq":{"country_code":["DE"]}}}`, "acme"},
			{"keyword twins", `{"keywords":["lending"],"company":{"keywords":{"include":["scheduling"]}}}`, "betabank > cura"},
			{"twins AND another group", `{"industry":"saas","company":{"industry":{"include":["banking"]},"hq":{"country_code":["DE","CA"]}}}`, "betabank > gamma"},
			{"twin include with exclude", `{"industry":"banking","company":{"industry":{"include":["saas"],"exclude":["banking"]}}}`, "acme > gamma ion"},
		})
	})
}

func TestSearchPeopleFilters(t *testing.T) {
	engines(t, func(t *testing.T, e *env) {
		fx := seed(e)
		_, key := e.workspace("filters", prospector.PlanGrowth, prospector.PlanGrowth)
		runFilterCases(t, e, fx, key, "/api/v1/search/people", []filterCase{
			// Flat compatibility fields, as in discover.
			{"titles", `{"titles":["VP Sales"]}`, "ada ben hal"},
			{"industry", `{"industry":"saas"}`, "eve > ada hal > ivy"},
			{"location", `{"location":"UK"}`, "jon > finn"},
			{"location city", `{"location":"Munich"}`, "gia"},
			{"company_size", `{"company_size":"1-10"}`, "eve > hal"},
			// Nested fields.
			{"job_title.include", `{"people":{"job_title":{"include":["VP Sales"]}}}`, "ada ben hal"},
			{"job_title.include spelled out", `{"people":{"job_title":{"include":["Vice President Sales"]}}}`, "ada ben hal"},
			{"job_title.include OR", `{"people":{"job_title":{"include":["Software Engineer","Chief Revenue Officer"]}}}`, "jon > gia"},
			{"job_function", `{"people":{"job_function":["Sales"]}}`, "ada ben hal > dan"},
			{"job_function lowercase", `{"people":{"job_function":["sales"]}}`, "ada ben hal > dan"},
			{"job_function OR", `{"people":{"job_function":["Marketing","People"]}}`, "finn > ivy"},
			{"job_function shorthand", `{"people":{"job_function":["hr"]}}`, "ivy"},
			{"job_level", `{"people":{"job_level":["VP"]}}`, "ada ben hal"},
			{"job_level lowercase", `{"people":{"job_level":["vp"]}}`, "ada ben hal"},
			{"job_level OR", `{"people":{"job_level":["founder","CXO","ic"]}}`, "eve > jon > gia"},
			{"job_level spelled out", `{"people":{"job_level":["Vice President"]}}`, "ada ben hal"},
			{"location.country_code", `{"people":{"location":{"country_code":["DE"]}}}`, "ben > gia"},
			{"location.country_code OR, any case", `{"people":{"location":{"country_code":["gb","CA"]}}}`, "eve > jon > hal > finn"},
			{"location.country_code WORLD", `{"people":{"location":{"country_code":["WORLD"]}}}`, allPeople},
			{"location.country_code WORLD among codes", `{"people":{"location":{"country_code":["DE","WORLD"]}}}`, allPeople},
			{"company.industry.include", `{"company":{"industry":{"include":["healthcare"]}}}`, "finn"},
			{"company.industry.include OR", `{"company":{"industry":{"include":["Banking","fintech"]}}}`, "ben > dan"},
			// Field groups AND.
			{"function AND country", `{"people":{"job_function":["Sales"],"location":{"country_code":["US"]}}}`, "ada > dan"},
			{"function AND country AND level", `{"people":{"job_function":["Sales"],"job_level":["Manager"],"location":{"country_code":["US"]}}}`, "dan"},
			{"title AND country", `{"people":{"job_title":{"include":["VP Sales"]},"location":{"country_code":["CA","DE"]}}}`, "ben hal"},
			{"title AND company industry", `{"titles":["VP"],"company":{"industry":{"include":["banking"]}}}`, "ben"},
			{"level AND company_size", `{"company_size":"51-200","people":{"job_level":["Head","CXO"]}}`, "jon > ivy"},
			{"industry AND place", `{"industry":"saas","location":"Toronto"}`, "eve > hal"},
			{"level AND function mismatch", `{"people":{"job_level":["Founder"],"job_function":["Sales"]}}`, ""},
			// Flat and nested twins are one OR group.
			{"title twins", `{"titles":["Sales Manager"],"people":{"job_title":{"include":["Founder"]}}}`, "eve > dan"},
			{"industry twins", `{"industry":"saas","company":{"industry":{"include":["banking"]}}}`, "eve > ada ben hal > ivy"},
			{"location twins", `{"location":"Germany","people":{"location":{"country_code":["CA"]}}}`, "eve > ben hal > gia"},
			{"location twins, WORLD", `{"location":"Germany","people":{"location":{"country_code":["WORLD"]}}}`, allPeople},
			{"location twins, flat WORLD", `{"location":"WORLD","people":{"location":{"country_code":["DE"]}}}`, allPeople},
			{"twins AND another group", `{"industry":"saas","company":{"industry":{"include":["banking"]}},"people":{"job_level":["VP"]}}`, "ada ben hal"},
		})
	})
}

func TestSearchRanking(t *testing.T) {
	e := newEnv(t)
	fx := seed(e)
	_, key := e.workspace("ranking", prospector.PlanGrowth, prospector.PlanGrowth)
	runFilterCases(t, e, fx, key, "/api/v1/search/people", []filterCase{
		{"more titles first", `{"people":{"job_title":{"include":["Sales","Manager"]}}}`, "dan > ada ben hal"},
		// A title sent twice is still one title.
		{"repeated title counts once", `{"titles":["Sales Manager","sales manager","VP"]}`, "ada ben hal > dan"},
		{"repeated twin title counts once", `{"titles":["Sales Manager"],"people":{"job_title":{"include":["SALES MANAGER","VP"]}}}`, "ada ben hal > dan"},
		{"twin titles count together", `{"titles":["Sales"],"people":{"job_title":{"include":["Manager"]}}}`, "dan > ada ben hal"},
		{"seniority, unknown last", `{"people":{"location":{"country_code":["WORLD"]}}}`, allPeople},
		{"seniority among filtered", `{"people":{"job_level":["Manager","VP","Founder"]}}`, "eve > ada ben hal > dan"},
	})
	runFilterCases(t, e, fx, key, "/api/v1/search/companies", []filterCase{
		{"more keywords first", `{"company":{"keywords":{"include":["software","cloud"]}}}`, "acme > cura > gamma ion"},
		{"repeated keyword counts once", `{"keywords":["cards","CARDS","billing"]}`, "acme > delta"},
		{"twin keywords count together", `{"keywords":["software"],"company":{"keywords":{"include":["cloud"]}}}`, "acme > cura > gamma ion"},
		{"size band, unknown last", `{"company":{"industry":{"exclude":["Banking"]}}}`, "fabrik > cura > acme kilo > delta > gamma ion > estate"},
	})
}

func TestSearchValidation(t *testing.T) {
	e := newEnv(t)
	seed(e)
	_, key := e.workspace("invalid", prospector.PlanGrowth, prospector.PlanGrowth)
	runInvalidCases(t, e, key, "/api/v1/search/companies", []invalidCase{
		{"max_results 0", `{"max_results":0}`, "max_results"},
		{"max_results 101", `{"max_results":101}`, "max_results"},
		{"max_results -1", `{"max_results":-1}`, "max_results"},
		{"max_results 1.5", `{"max_results":1.5}`, "max_results"},
		{"max_results string", `{"max_results":"10"}`, "max_results"},
		{"unknown industry", `{"industry":"astrology"}`, "industry"},
		{"unknown industry.include", `{"company":{"industry":{"include":["saas","astrology"]}}}`, "company.industry.include[1]"},
		{"unknown industry.exclude", `{"company":{"industry":{"exclude":["astrology"]}}}`, "company.industry.exclude[0]"},
		{"unknown employee_size", `{"employee_size":"11-49"}`, "employee_size"},
		{"unknown employee_range", `{"company":{"employee_range":["1-10","11-49"]}}`, "company.employee_range[1]"},
		{"unknown country code", `{"company":{"hq":{"country_code":["XX"]}}}`, "company.hq.country_code[0]"},
		{"alpha-3 country code", `{"company":{"hq":{"country_code":["USA"]}}}`, "company.hq.country_code[0]"},
		{"country name as code", `{"company":{"hq":{"country_code":["Germany"]}}}`, "company.hq.country_code[0]"},
		{"UK is not an ISO code", `{"company":{"hq":{"country_code":["UK"]}}}`, "company.hq.country_code[0]"},
		{"location punctuation only", `{"location":",,"}`, "location"},
		{"company as a string", `{"company":"acme"}`, "company"},
		{"industry.include as a string", `{"company":{"industry":{"include":"saas"}}}`, "company.industry.include"},
		{"country_code as a string", `{"company":{"hq":{"country_code":"US"}}}`, "company.hq.country_code"},
		{"keywords with a number", `{"keywords":["cloud",2]}`, "keywords"},
		{"keywords.include with a number", `{"company":{"keywords":{"include":[2]}}}`, "company.keywords.include"},
		{"unknown member", `{"company":{"industy":{"include":["saas"]}}}`, "company.industy"},
		{"unknown nested member", `{"company":{"hq":{"country":["US"]}}}`, "company.hq.country"},
		{"unknown top-level member", `{"revenue":"1B+"}`, "revenue"},
		{"people member on companies", `{"people":{}}`, "people"},
		{"keywords over 50", `{"keywords":` + jsonList(51, "cloud") + `}`, "keywords"},
		{"industry.include over 50", `{"company":{"industry":{"include":` + jsonList(51, "saas") + `}}}`, "company.industry.include"},
		{"industry.exclude over 50", `{"company":{"industry":{"exclude":` + jsonList(51, "saas") + `}}}`, "company.industry.exclude"},
		{"employee_range over 50", `{"company":{"employee_range":` + jsonList(51, "1-10") + `}}`, "company.employee_range"},
		{"country_code over 50", `{"company":{"hq":{"country_code":` + jsonList(51, "US") + `}}}`, "company.hq.country_code"},
		{"keywords.include over 50", `{"company":{"keywords":{"include":` + jsonList(51, "cloud") + `}}}`, "company.keywords.include"},
		{"keywords empty string", `{"keywords":[""]}`, "keywords[0]"},
		{"industry.include empty string", `{"company":{"industry":{"include":["saas",""]}}}`, "company.industry.include[1]"},
		{"country_code empty string", `{"company":{"hq":{"country_code":[" "]}}}`, "company.hq.country_code[0]"},
		{"keywords.include empty string", `{"company":{"keywords":{"include":[""]}}}`, "company.keywords.include[0]"},
		{"cursor not a string", `{"cursor":5}`, "cursor"},
		{"malformed JSON", `{"company":{`, "body"},
		{"trailing data", `{}{}`, "body"},
		{"not an object", `[]`, "body"},
	})
	runInvalidCases(t, e, key, "/api/v1/search/people", []invalidCase{
		{"max_results 0", `{"max_results":0}`, "max_results"},
		{"max_results 101", `{"max_results":101}`, "max_results"},
		{"max_results -1", `{"max_results":-1}`, "max_results"},
		{"max_results 1.5", `{"max_results":1.5}`, "max_results"},
		{"max_results string", `{"max_results":"10"}`, "max_results"},
		{"unknown industry", `{"industry":"astrology"}`, "industry"},
		{"unknown company.industry.include", `{"company":{"industry":{"include":["astrology"]}}}`, "company.industry.include[0]"},
		{"exclude is not offered for people", `{"company":{"industry":{"exclude":["banking"]}}}`, "company.industry.exclude"},
		{"unknown company_size", `{"company_size":"11-49"}`, "company_size"},
		{"unknown job_level", `{"people":{"job_level":["VP","Intern"]}}`, "people.job_level[1]"},
		{"unknown job_function", `{"people":{"job_function":["Astrology"]}}`, "people.job_function[0]"},
		{"unknown country code", `{"people":{"location":{"country_code":["XX"]}}}`, "people.location.country_code[0]"},
		{"alpha-3 country code", `{"people":{"location":{"country_code":["USA"]}}}`, "people.location.country_code[0]"},
		{"titles as a string", `{"titles":"VP Sales"}`, "titles"},
		{"job_title.include as a string", `{"people":{"job_title":{"include":"VP"}}}`, "people.job_title.include"},
		{"job_level as a string", `{"people":{"job_level":"VP"}}`, "people.job_level"},
		{"people as a string", `{"people":"VP"}`, "people"},
		{"company as a string", `{"company":"acme"}`, "company"},
		{"unknown member", `{"people":{"job_titles":{"include":["VP"]}}}`, "people.job_titles"},
		{"unknown company member", `{"company":{"industy":{"include":["saas"]}}}`, "company.industy"},
		{"companies member on people", `{"keywords":["cloud"]}`, "keywords"},
		{"titles over 50", `{"titles":` + jsonList(51, "VP") + `}`, "titles"},
		{"job_title.include over 50", `{"people":{"job_title":{"include":` + jsonList(51, "VP") + `}}}`, "people.job_title.include"},
		{"job_function over 50", `{"people":{"job_function":` + jsonList(51, "Sales") + `}}`, "people.job_function"},
		{"job_level over 50", `{"people":{"job_level":` + jsonList(51, "VP") + `}}`, "people.job_level"},
		{"country_code over 50", `{"people":{"location":{"country_code":` + jsonList(51, "US") + `}}}`, "people.location.country_code"},
		{"company industry over 50", `{"company":{"industry":{"include":` + jsonList(51, "saas") + `}}}`, "company.industry.include"},
		{"titles empty string", `{"titles":["VP",""]}`, "titles[1]"},
		{"job_title.include empty string", `{"people":{"job_title":{"include":[""]}}}`, "people.job_title.include[0]"},
		{"job_level empty string", `{"people":{"job_level":[""]}}`, "people.job_level[0]"},
		{"job_function empty string", `{"people":{"job_function":[""]}}`, "people.job_function[0]"},
		{"cursor not a string", `{"cursor":["x"]}`, "cursor"},
		{"malformed JSON", `{"titles":`, "body"},
	})
	t.Run("edges accepted", func(t *testing.T) {
		for path, bodies := range map[string][]string{
			"/api/v1/search/companies": {`{"max_results":1}`, `{"max_results":100}`, `{"keywords":` + jsonList(50, "cloud") + `}`,
				`{"company":{"hq":{"country_code":` + jsonList(50, "US") + `}}}`},
			"/api/v1/search/people": {`{"max_results":1}`, `{"max_results":100}`, `{"titles":` + jsonList(50, "VP") + `}`,
				`{"people":{"job_level":` + jsonList(50, "VP") + `}}`},
		} {
			for _, b := range bodies {
				if r := e.post(path, key, b); r.status != 200 {
					t.Errorf("%s %.60s: %d %s", path, b, r.status, r.body)
				}
			}
		}
	})
}

func TestSearchDefaultMaxResults(t *testing.T) {
	e := newEnv(t)
	addMany(t, e.store, 130)
	e.sync()
	_, key := e.workspace("many", prospector.PlanGrowth, prospector.PlanGrowth)
	for path, body := range map[string]string{
		"/api/v1/search/companies": `{}`,
		"/api/v1/search/people":    `{"titles":["teacher"]}`,
	} {
		p := e.post(path, key, body).searchPage(t)
		if len(p.items) != 100 || !p.hasMore {
			t.Errorf("%s: %d items, has_more %v; want the default 100 and more", path, len(p.items), p.hasMore)
		}
		body = strings.TrimSuffix(body, "}")
		if body != "{" {
			body += ","
		}
		rest := e.post(path, key, fmt.Sprintf(`%s"cursor":%q}`, body, *p.nextCursor)).searchPage(t)
		if len(rest.items) != 30 || rest.hasMore || rest.nextCursor != nil {
			t.Errorf("%s second page: %d items, has_more %v, want the last 30", path, len(rest.items), rest.hasMore)
		}
	}
}

// walkCase is a search body (without cursor and max_results) over the
// walk fixture, and which of its rows match it.
