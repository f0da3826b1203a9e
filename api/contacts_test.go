package api_test

import (
	"context"
	"encoding/json"
	"net/http"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/prospectorhq/prospector"
)

// The contacts fixture: four synthetic companies. Orbit Freight holds a
// dozen people of varied seniority, function and country; the other three
// differ only in what happened to them lately: Nimbus Ledger raised a
// round, Pylon Works is hiring, Quarry Labs has only stale events.
type contactFx struct {
	co     map[string]*prospector.Company
	people map[string]*prospector.Person
	byPub  map[string]string // an item's id -> fixture key
}

// orbitPeople are inserted in this order, so ids ascend along it: it is
// deliberately not the seniority order, so "then by id" is visible.
var orbitPeople = []struct {
	key, name, title, city, region, country, email string
	url                                            bool
}{
	{"swe", "Indigo Swift", "Software Engineer", "Berlin", "", "DE", "", false},
	{"ae2", "Kai Starling", "Account Executive", "Manchester", "England", "GB", "", false},
	{"blank", "Jules Kestrel", "", "", "", "", "", false},
	{"vpmkt", "Devon Lark", "VP Marketing", "Berlin", "", "DE", "", true},
	{"ceo", "Avery Quill", "CEO", "San Francisco", "California", "US", "avery@orbit.example", true},
	{"salesmgr", "Gray Plover", "Sales Manager", "London", "England", "GB", "", false},
	{"cofounder", "Blake Tern", "Co-founder", "London", "England", "GB", "", true},
	{"vpsales", "Casey Wren", "VP of Sales", "New York", "New York", "US", "casey@orbit.example", true},
	{"headrev", "Frankie Heron", "Head of RevOps", "Austin", "Texas", "US", "", false},
	{"direng", "Emery Finch", "Director of Engineering", "Munich", "Bavaria", "DE", "", false},
	{"ae", "Harper Robin", "Account Executive", "Austin", "Texas", "US", "", false},
	{"mktmgr", "Lane Osprey", "Marketing Manager", "New York", "New York", "US", "", false},
}

// orbitBySeniority is every Orbit person by seniority (Founder, CXO, VP,
// Director, Head, Manager, IC, unknown), then id.
const orbitBySeniority = "cofounder ceo vpmkt vpsales direng headrev salesmgr mktmgr swe ae2 ae blank"

func seedContacts(e *env) *contactFx {
	e.t.Helper()
	t := e.t
	ctx := context.Background()
	fx := &contactFx{co: map[string]*prospector.Company{}, people: map[string]*prospector.Person{}, byPub: map[string]string{}}
	ckeys := []string{"orbit", "nimbus", "pylon", "quarry"}
	cs := []*prospector.Company{
		{Name: "Orbit Freight", Domain: "orbit.example", Website: "https://orbit.example", Industry: "Transportation, Logistics, Supply Chain and Storage",
			CountryCode: "US", City: "Austin", Region: "Texas", EmployeeRange: "51-200", NetworkURL: "https://network.example/company/orbit"},
		{Name: "Nimbus Ledger", Domain: "nimbus.example", Website: "https://nimbus.example", Industry: "Financial Services", CountryCode: "GB", EmployeeRange: "11-50"},
		{Name: "Pylon Works", Domain: "pylon.example", Website: "https://pylon.example", Industry: "Construction", CountryCode: "DE", EmployeeRange: "201-500"},
		{Name: "Quarry Labs", Domain: "quarry.example", Website: "https://quarry.example", Industry: "Software Development", CountryCode: "US", EmployeeRange: "1-10"},
	}
	if _, err := e.store.UpsertCompanies(ctx, cs); err != nil {
		t.Fatal(err)
	}
	for i, c := range cs {
		fx.co[ckeys[i]] = c
	}
	var ps []*prospector.Person
	var pkeys []string
	for _, o := range orbitPeople {
		url := ""
		if o.url {
			url = "https://network.example/in/" + strings.ToLower(strings.ReplaceAll(o.name, " ", "-"))
		}
		p := importedPerson("orbit-"+o.key, url, o.name, o.title, fx.co["orbit"], o.city, o.region, o.country, nil)
		p.Email = o.email
		ps, pkeys = append(ps, p), append(pkeys, o.key)
	}
	// The same two roles at each of the other companies, so their outreach
	// angles differ only by what happened to the company.
	for _, c := range []struct{ key, vp, ae string }{
		{"nimbus", "Morgan Vale", "Nico Dale"},
		{"pylon", "Rowan Pike", "Sage Tally"},
		{"quarry", "Tatum Reed", "Uma Vance"},
	} {
		ps = append(ps,
			importedPerson(c.key+"-vp", "", c.vp, "VP of Sales", fx.co[c.key], "London", "England", "GB", nil),
			importedPerson(c.key+"-ae", "", c.ae, "Account Executive", fx.co[c.key], "London", "England", "GB", nil))
		pkeys = append(pkeys, c.key+"-vp", c.key+"-ae")
	}
	if _, err := e.store.UpsertPeople(ctx, ps); err != nil {
		t.Fatal(err)
	}
	for i, p := range ps {
		if i > 0 && p.ID <= ps[i-1].ID {
			t.Fatalf("test bug: person ids do not ascend with insertion order (%d after %d)", p.ID, ps[i-1].ID)
		}
		fx.people[pkeys[i]] = p
		fx.byPub[p.PublicID()] = pkeys[i]
	}

	now := time.Now()
	fin := []*prospector.FinancingEvent{
		{ExternalID: "fin-nimbus-b", CompanyID: fx.co["nimbus"].ID, CompanyDomain: "nimbus.example", EventType: "financing_event",
			FinancingType: "Series B", Amount: "$20M", FoundAt: now.Add(-10 * 24 * time.Hour)},
		// Stale: more than 90 days old, not a trigger any more.
		{ExternalID: "fin-quarry-seed", CompanyID: fx.co["quarry"].ID, CompanyDomain: "quarry.example", EventType: "financing_event",
			FinancingType: "Seed", Amount: "$1M", FoundAt: now.Add(-200 * 24 * time.Hour)},
	}
	if _, err := e.store.UpsertFinancingEvents(ctx, fin); err != nil {
		t.Fatal(err)
	}
	sigs := []*prospector.Signal{
		{ExternalID: "sig-pylon-hiring", Type: "company_hiring", CompanyID: &fx.co["pylon"].ID, CompanyDomain: "pylon.example",
			DetectedAt: now.Add(-5 * 24 * time.Hour), Title: "12 open sales roles"},
		{ExternalID: "sig-quarry-hiring", Type: "company_hiring", CompanyID: &fx.co["quarry"].ID, CompanyDomain: "quarry.example",
			DetectedAt: now.Add(-120 * 24 * time.Hour), Title: "3 old engineering roles"},
	}
	if _, err := e.store.UpsertSignals(ctx, sigs); err != nil {
		t.Fatal(err)
	}
	e.sync()
	return fx
}

// keys maps contact items to fixture keys (unknown ids as themselves).
func (fx *contactFx) keys(t *testing.T, items []any) []string {
	t.Helper()
	out := make([]string, 0, len(items))
	for _, it := range items {
		m, ok := it.(map[string]any)
		if !ok {
			t.Fatalf("item is not an object: %v", it)
		}
		id, _ := m["id"].(string)
		if k, ok := fx.byPub[id]; ok {
			out = append(out, k)
		} else {
			out = append(out, id)
		}
	}
	return out
}

// wantKeys checks the items are exactly the space-separated keys, in order.
func (fx *contactFx) wantKeys(t *testing.T, items []any, want string) {
	t.Helper()
	got := fx.keys(t, items)
	if w := strings.Fields(want); !reflect.DeepEqual(got, w) && !(len(got) == 0 && len(w) == 0) {
		t.Errorf("got %v, want %v", got, w)
	}
}

// byKey indexes contact items by fixture key.
func (fx *contactFx) byKey(t *testing.T, items []any) map[string]map[string]any {
	t.Helper()
	out := map[string]map[string]any{}
	for i, k := range fx.keys(t, items) {
		out[k] = items[i].(map[string]any)
	}
	return out
}

func angle(t *testing.T, item map[string]any) string {
	t.Helper()
	a, _ := item["outreach_angle"].(string)
	if strings.TrimSpace(a) == "" {
		t.Errorf("item %v: outreach_angle is empty", item["id"])
	}
	return a
}

// contactList posts to contacts/find and returns data, which must be an
// array.
func (e *env) contactList(t *testing.T, key, body string) []any {
	t.Helper()
	r := e.post("/api/v1/contacts/find", key, body)
	if r.status != http.StatusOK {
		t.Fatalf("contacts/find %s: status %d: %s", body, r.status, r.body)
	}
	var env struct {
		Data []any `json:"data"`
	}
	if err := json.Unmarshal(r.body, &env); err != nil || env.Data == nil {
		t.Fatalf("contacts/find %s: data is not an array (%v): %s", body, err, r.body)
	}
	return env.Data
}

func contactsKey(e *env) string {
	_, key := e.workspace("contacts", prospector.PlanGrowth, prospector.PlanGrowth)
	return key
}

func TestFindContactsShape(t *testing.T) {
	engines(t, func(t *testing.T, e *env) {
		fx := seedContacts(e)
		key := contactsKey(e)
		r := e.post("/api/v1/contacts/find", key, `{"company_domain":"orbit.example","max_contacts":50}`)
		wantRateHeaders(t, r)
		items := e.contactList(t, key, `{"company_domain":"orbit.example","max_contacts":50}`)
		fx.wantKeys(t, items, orbitBySeniority)

		// Every field, null where unknown; outreach_angle is checked apart.
		want := map[string]string{
			"ceo": `{"id":"https://network.example/in/avery-quill","name":"Avery Quill","title":"CEO","company":"Orbit Freight",` +
				`"role":"decision_maker","network_url":"https://network.example/in/avery-quill","email":"avery@orbit.example",` +
				`"location":"San Francisco, California, United States","score":85}`,
			"cofounder": `{"id":"https://network.example/in/blake-tern","name":"Blake Tern","title":"Co-founder","company":"Orbit Freight",` +
				`"role":"decision_maker","network_url":"https://network.example/in/blake-tern","email":null,` +
				`"location":"London, England, United Kingdom","score":90}`,
			"vpsales": `{"id":"https://network.example/in/casey-wren","name":"Casey Wren","title":"VP of Sales","company":"Orbit Freight",` +
				`"role":"decision_maker","network_url":"https://network.example/in/casey-wren","email":"casey@orbit.example",` +
				`"location":"New York, New York, United States","score":75}`,
			"direng": `{"id":"person:orbit-direng","name":"Emery Finch","title":"Director of Engineering","company":"Orbit Freight",` +
				`"role":"decision_maker","network_url":null,"email":null,"location":"Munich, Bavaria, Germany","score":65}`,
			"headrev": `{"id":"person:orbit-headrev","name":"Frankie Heron","title":"Head of RevOps","company":"Orbit Freight",` +
				`"role":"decision_maker","network_url":null,"email":null,"location":"Austin, Texas, United States","score":60}`,
			"salesmgr": `{"id":"person:orbit-salesmgr","name":"Gray Plover","title":"Sales Manager","company":"Orbit Freight",` +
				`"role":"influencer","network_url":null,"email":null,"location":"London, England, United Kingdom","score":45}`,
			"swe": `{"id":"person:orbit-swe","name":"Indigo Swift","title":"Software Engineer","company":"Orbit Freight",` +
				`"role":"influencer","network_url":null,"email":null,"location":"Berlin, Germany","score":30}`,
			"blank": `{"id":"person:orbit-blank","name":"Jules Kestrel","title":"","company":"Orbit Freight",` +
				`"role":"influencer","network_url":null,"email":null,"location":null,"score":20}`,
		}
		got := fx.byKey(t, items)
		for k, w := range want {
			item := got[k]
			if item == nil {
				t.Errorf("%s missing", k)
				continue
			}
			angle(t, item)
			rest := map[string]any{}
			for f, v := range item {
				if f != "outreach_angle" {
					rest[f] = v
				}
			}
			var wantItem map[string]any
			if err := json.Unmarshal([]byte(w), &wantItem); err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(rest, wantItem) {
				t.Errorf("%s:\n got %s\nwant %s", k, mustJSON(rest), w)
			}
		}
		// Role and score of everyone else follow the same rule.
		for _, k := range []string{"vpmkt", "mktmgr", "ae", "ae2"} {
			wantRole, wantScore := "influencer", 30.0
			switch k {
			case "vpmkt":
				wantRole, wantScore = "decision_maker", 75
			case "mktmgr":
				wantScore = 45
			}
			if got[k]["role"] != wantRole || got[k]["score"] != wantScore {
				t.Errorf("%s: role %v score %v, want %s %v", k, got[k]["role"], got[k]["score"], wantRole, wantScore)
			}
		}
		// Every score is a number from 0 to 100.
		for k, item := range got {
			s, ok := item["score"].(float64)
			if !ok || s < 0 || s > 100 {
				t.Errorf("%s: score %v, want a number 0..100", k, item["score"])
			}
		}
	})
}

func TestFindContactsLookup(t *testing.T) {
	e := newEnv(t)
	fx := seedContacts(e)
	key := contactsKey(e)
	first10 := strings.Join(strings.Fields(orbitBySeniority)[:10], " ")
	for _, body := range []string{
		`{"company_domain":"orbit.example"}`,
		`{"company_domain":"HTTPS://www.Orbit.example/about"}`,
		`{"company_domain":"  orbit.example.  "}`,
		`{"company_domain":"sales@orbit.example"}`,
		`{"network_url":"https://network.example/company/orbit"}`,
		`{"network_url":"http://www.Network.example/company/orbit/"}`,
		`{"network_url":"network.example/company/orbit"}`,
		`{"company_domain":null,"network_url":"https://network.example/company/orbit"}`,
		`{"company_domain":"","network_url":"https://network.example/company/orbit"}`,
		`{"company_domain":"orbit.example","max_contacts":null,"target_titles":null}`,
	} {
		t.Run(body, func(t *testing.T) {
			fx.wantKeys(t, e.contactList(t, key, body), first10)
		})
	}
	t.Run("company_domain wins over network_url", func(t *testing.T) {
		fx.wantKeys(t, e.contactList(t, key, `{"company_domain":"quarry.example","network_url":"https://network.example/company/orbit"}`),
			"quarry-vp quarry-ae")
	})
	t.Run("company name comes from the company", func(t *testing.T) {
		for _, it := range e.contactList(t, key, `{"company_domain":"pylon.example"}`) {
			if c := it.(map[string]any)["company"]; c != "Pylon Works" {
				t.Errorf("company %v, want Pylon Works", c)
			}
		}
	})
}

func TestFindContactsOrder(t *testing.T) {
	e := newEnv(t)
	fx := seedContacts(e)
	key := contactsKey(e)
	for _, c := range []struct{ name, body, want string }{
		{"seniority then id", `{"company_domain":"orbit.example","max_contacts":50}`, orbitBySeniority},
		{"max_contacts 1", `{"company_domain":"orbit.example","max_contacts":1}`, "cofounder"},
		{"max_contacts 3", `{"company_domain":"orbit.example","max_contacts":3}`, "cofounder ceo vpmkt"},
		{"target title first though less senior", `{"company_domain":"orbit.example","target_titles":["Software Engineer"],"max_contacts":4}`,
			"swe cofounder ceo vpmkt"},
		{"targets then seniority", `{"company_domain":"orbit.example","target_titles":["Account Executive"],"max_contacts":50}`,
			"ae2 ae cofounder ceo vpmkt vpsales direng headrev salesmgr mktmgr swe blank"},
		{"more matched titles first", `{"company_domain":"orbit.example","target_titles":["VP","Sales"],"max_contacts":5}`,
			"vpsales vpmkt salesmgr cofounder ceo"},
		{"repeated target counts once", `{"company_domain":"orbit.example","target_titles":["Sales","SALES","VP"],"max_contacts":4}`,
			"vpsales vpmkt salesmgr cofounder"},
		{"target titles are word-aware", `{"company_domain":"orbit.example","target_titles":["Vice President, Marketing"],"max_contacts":2}`,
			"vpmkt cofounder"},
		{"matches cut by max_contacts", `{"company_domain":"orbit.example","target_titles":["Manager","Account Executive"],"max_contacts":3}`,
			"salesmgr mktmgr ae2"},
		{"target nobody has", `{"company_domain":"orbit.example","target_titles":["Astronaut"],"max_contacts":2}`, "cofounder ceo"},
		{"empty target list", `{"company_domain":"orbit.example","target_titles":[],"max_contacts":2}`, "cofounder ceo"},
	} {
		t.Run(c.name, func(t *testing.T) {
			fx.wantKeys(t, e.contactList(t, key, c.body), c.want)
		})
	}
	t.Run("title match adds 10 to the score", func(t *testing.T) {
		got := fx.byKey(t, e.contactList(t, key, `{"company_domain":"orbit.example","target_titles":["Software Engineer","Co-founder"],"max_contacts":50}`))
		for k, want := range map[string]float64{"swe": 40, "cofounder": 100, "ae": 30, "ceo": 85} {
			if got[k]["score"] != want {
				t.Errorf("%s score %v, want %v", k, got[k]["score"], want)
			}
		}
	})
	t.Run("default max_contacts is 10", func(t *testing.T) {
		if n := len(e.contactList(t, key, `{"company_domain":"orbit.example"}`)); n != 10 {
			t.Errorf("%d contacts, want 10", n)
		}
	})
	t.Run("max_contacts 50 accepted", func(t *testing.T) {
		if n := len(e.contactList(t, key, `{"company_domain":"orbit.example","max_contacts":50}`)); n != 12 {
			t.Errorf("%d contacts, want all 12", n)
		}
	})
}

func TestFindContactsOutreachAngle(t *testing.T) {
	e := newEnv(t)
	fx := seedContacts(e)
	key := contactsKey(e)
	at := func(domain string) map[string]map[string]any {
		return fx.byKey(t, e.contactList(t, key, `{"company_domain":"`+domain+`"}`))
	}
	nimbus, pylon, quarry, orbit := at("nimbus.example"), at("pylon.example"), at("quarry.example"), at("orbit.example")
	funded, hiring, none := angle(t, nimbus["nimbus-vp"]), angle(t, pylon["pylon-vp"]), angle(t, quarry["quarry-vp"])

	// Same role and function: only what happened to the company differs.
	if funded == hiring || funded == none || hiring == none {
		t.Errorf("angles do not differ by trigger:\nfunded %q\nhiring %q\nnone   %q", funded, hiring, none)
	}
	for _, w := range []string{"Series B", "$20M"} {
		if !strings.Contains(funded, w) {
			t.Errorf("funded angle %q does not mention %q", funded, w)
		}
	}
	if !strings.Contains(hiring, "12 open sales roles") || !strings.Contains(strings.ToLower(hiring), "hiring") {
		t.Errorf("hiring angle %q does not mention the hiring signal", hiring)
	}
	// Quarry's events are older than 90 days: no trigger.
	for _, w := range []string{"Seed", "$1M", "3 old engineering roles", "raised", "hiring"} {
		if strings.Contains(none, w) {
			t.Errorf("angle %q mentions the stale trigger (%q)", none, w)
		}
	}

	// A decision maker and an influencer at the same company get
	// different asks, with the same trigger.
	for _, c := range []struct {
		name   string
		dm, in map[string]any
	}{
		{"funded", nimbus["nimbus-vp"], nimbus["nimbus-ae"]},
		{"hiring", pylon["pylon-vp"], pylon["pylon-ae"]},
		{"no trigger", quarry["quarry-vp"], quarry["quarry-ae"]},
		{"orbit", orbit["vpsales"], orbit["salesmgr"]},
	} {
		if c.dm["role"] != "decision_maker" || c.in["role"] != "influencer" {
			t.Fatalf("%s: roles %v and %v", c.name, c.dm["role"], c.in["role"])
		}
		if a, b := angle(t, c.dm), angle(t, c.in); a == b {
			t.Errorf("%s: decision maker and influencer share the angle %q", c.name, a)
		}
	}
	if in := angle(t, nimbus["nimbus-ae"]); !strings.Contains(in, "Series B") {
		t.Errorf("influencer angle %q lacks the company's trigger", in)
	}
	// The angle speaks to the person's function.
	if a, b := angle(t, orbit["direng"]), angle(t, orbit["vpsales"]); a == b {
		t.Errorf("engineering and sales decision makers share the angle %q", a)
	}
}

func TestFindContactsValidation(t *testing.T) {
	e := newEnv(t)
	seedContacts(e)
	key := contactsKey(e)
	runInvalidCases(t, e, key, "/api/v1/contacts/find", []invalidCase{
		{"no identifier", `{}`, "company_domain"},
		{"no body", ``, "company_domain"},
		{"null identifiers", `{"company_domain":null,"network_url":null}`, "company_domain"},
		{"blank identifiers", `{"company_domain":"  ","network_url":""}`, "company_domain"},
		{"only titles", `{"target_titles":["CEO"]}`, "company_domain"},
		{"invalid domain", `{"company_domain":"not a domain"}`, "company_domain"},
		{"domain without a dot", `{"company_domain":"orbit"}`, "company_domain"},
		{"domain not a string", `{"company_domain":5}`, "company_domain"},
		{"invalid network_url", `{"network_url":"ftp://network.example/company/orbit"}`, "network_url"},
		{"network_url without a path", `{"network_url":"https://network.example"}`, "network_url"},
		{"max_contacts 0", `{"company_domain":"orbit.example","max_contacts":0}`, "max_contacts"},
		{"max_contacts 51", `{"company_domain":"orbit.example","max_contacts":51}`, "max_contacts"},
		{"max_contacts -1", `{"company_domain":"orbit.example","max_contacts":-1}`, "max_contacts"},
		{"max_contacts 1.5", `{"company_domain":"orbit.example","max_contacts":1.5}`, "max_contacts"},
		{"max_contacts string", `{"company_domain":"orbit.example","max_contacts":"10"}`, "max_contacts"},
		{"target_titles empty string", `{"company_domain":"orbit.example","target_titles":["CEO",""]}`, "target_titles[1]"},
		{"target_titles blank", `{"company_domain":"orbit.example","target_titles":["  "]}`, "target_titles[0]"},
		{"target_titles 51 values", `{"company_domain":"orbit.example","target_titles":` + jsonList(51, "CEO") + `}`, "target_titles"},
		{"target_titles a string", `{"company_domain":"orbit.example","target_titles":"CEO"}`, "target_titles"},
		{"target_titles with a number", `{"company_domain":"orbit.example","target_titles":["CEO",3]}`, "target_titles"},
		{"unknown member", `{"company_domain":"orbit.example","max_results":3}`, "max_results"},
		{"malformed JSON", `{"company_domain":"orbit.example"`, "body"},
		{"not an object", `["orbit.example"]`, "body"},
	})
	t.Run("50 target titles accepted", func(t *testing.T) {
		if r := e.post("/api/v1/contacts/find", key, `{"company_domain":"orbit.example","target_titles":`+jsonList(50, "CEO")+`}`); r.status != 200 {
			t.Errorf("status %d: %s", r.status, r.body)
		}
	})
	t.Run("unknown company", func(t *testing.T) {
		e.post("/api/v1/contacts/find", key, `{"company_domain":"nowhere.example"}`).wantError(t, http.StatusNotFound, "not_found")
		e.post("/api/v1/contacts/find", key, `{"network_url":"https://network.example/company/nowhere"}`).wantError(t, http.StatusNotFound, "not_found")
	})
}

func TestContactsAccess(t *testing.T) {
	e := newEnv(t)
	seedContacts(e)
	_, off := e.workspace("closed", prospector.PlanGrowth, prospector.PlanGrowth, func(w *prospector.Workspace) { w.PublicAPI = false })
	for _, c := range []struct{ path, body string }{
		{"/api/v1/contacts/find", `{"company_domain":"orbit.example"}`},
		{"/api/v1/contacts/employee-finder", `{"company_domain":"orbit.example"}`},
		{"/api/v1/contacts/waterfall-icp", `{"company_domain":"orbit.example","cascade":[{"role":"decision_maker","include_titles":["CEO"]}]}`},
	} {
		r := e.post(c.path, "", c.body)
		r.wantError(t, http.StatusUnauthorized, "unauthorized")
		wantRateHeaders(t, r)
		e.post(c.path, "not-a-key", c.body).wantError(t, http.StatusUnauthorized, "unauthorized")
		e.post(c.path, off, c.body).wantError(t, http.StatusNotFound, "not_found")
	}
}
