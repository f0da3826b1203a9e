package importer_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/prospectorhq/prospector"
	"github.com/prospectorhq/prospector/importer"
	"github.com/prospectorhq/prospector/sqlite"
)

func openStore(t *testing.T) prospector.Store {
	t.Helper()
	st, err := sqlite.Open(context.Background(), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

type lineErr struct {
	line   int
	reason string
}

func importFile(t *testing.T, st prospector.Store, kind importer.Kind, path string) (importer.Stats, []lineErr) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	format, err := importer.FormatOf(path)
	if err != nil {
		t.Fatal(err)
	}
	return importReader(t, st, kind, format, f)
}

func importReader(t *testing.T, st prospector.Store, kind importer.Kind, format string, r interface{ Read([]byte) (int, error) }) (importer.Stats, []lineErr) {
	t.Helper()
	var errs []lineErr
	stats, err := importer.Import(context.Background(), st, r, importer.Options{Kind: kind, Format: format, BatchSize: 2,
		OnLineError: func(line int, reason string) { errs = append(errs, lineErr{line, reason}) }})
	if err != nil {
		t.Fatalf("import %s: %v", kind, err)
	}
	return stats, errs
}

func importString(t *testing.T, st prospector.Store, kind importer.Kind, format, body string) (importer.Stats, []lineErr) {
	t.Helper()
	return importReader(t, st, kind, format, strings.NewReader(body))
}

// company returns the stored company at domain; the test fails when it
// cannot be read.
func company(t *testing.T, st prospector.Store, domain string) *prospector.Company {
	t.Helper()
	c, err := st.CompanyByDomain(context.Background(), domain)
	if err != nil {
		t.Fatalf("company %s: %v", domain, err)
	}
	return c
}

// person returns the stored person with that natural key; the test fails
// when it cannot be read.
func person(t *testing.T, st prospector.Store, key string) *prospector.Person {
	t.Helper()
	p, err := st.PersonByKey(context.Background(), key)
	if err != nil {
		t.Fatalf("person %s: %v", key, err)
	}
	return p
}

func sample(name string) string { return filepath.Join("..", "testdata", "import", name) }

func wantStats(t *testing.T, what string, got importer.Stats, read, ins, upd, unch, rej int) {
	t.Helper()
	want := importer.Stats{Read: read, Inserted: ins, Updated: upd, Unchanged: unch, Rejected: rej}
	if got != want {
		t.Fatalf("%s: %+v, want %+v", what, got, want)
	}
}

// TestSamplesBothFormats imports every sample file, JSONL then CSV, and
// then again: the second pass must change nothing.
func TestSamplesBothFormats(t *testing.T) {
	for _, format := range []string{"jsonl", "csv"} {
		t.Run(format, func(t *testing.T) {
			st := openStore(t)
			for _, k := range importer.Kinds() {
				stats, errs := importFile(t, st, k, sample(string(k)+"."+format))
				if len(errs) > 0 || stats.Rejected > 0 || stats.Inserted == 0 || stats.Read != stats.Inserted {
					t.Fatalf("%s.%s: %+v %v", k, format, stats, errs)
				}
			}
			for _, k := range importer.Kinds() {
				stats, _ := importFile(t, st, k, sample(string(k)+"."+format))
				if stats.Unchanged != stats.Read || stats.Inserted+stats.Updated != 0 {
					t.Fatalf("re-import of %s.%s changed rows: %+v", k, format, stats)
				}
			}
		})
	}
}

func TestCompanyFieldsAndNormalisation(t *testing.T) {
	st := openStore(t)
	stats, errs := importFile(t, st, importer.Companies, sample("companies.jsonl"))
	wantStats(t, "companies.jsonl", stats, 3, 3, 0, 0, 0)
	if len(errs) != 0 {
		t.Fatal(errs)
	}
	ctx := context.Background()
	acme, err := st.CompanyByDomain(ctx, "acme-robotics.example")
	if err != nil {
		t.Fatal(err)
	}
	if acme.Industry != "Software Development" || acme.CountryCode != "US" || acme.EmployeeRange != "51-200" ||
		*acme.EmployeeCount != 120 || *acme.Founded != 2015 || *acme.RevenueUSD != 12000000 ||
		acme.NetworkURL != "https://network.example/company/acme-robotics" || strings.Join(acme.Keywords, "|") != "robotics|warehouse automation" {
		t.Errorf("acme = %+v", acme)
	}
	blue, err := st.CompanyByDomain(ctx, "bluepeak.example")
	if err != nil {
		t.Fatalf("domain from a URL not normalised: %v", err)
	}
	if blue.EmployeeRange != "11-50" || blue.CountryCode != "GB" || blue.Website != "https://bluepeak.example" {
		t.Errorf("bluepeak = %+v", blue)
	}
	cobalt, err := st.CompanyByDomain(ctx, "cobalt-retail.example")
	if err != nil {
		t.Fatal(err)
	}
	if cobalt.City != "Berlin" || cobalt.Region != "Berlin" || cobalt.CountryCode != "DE" || *cobalt.EmployeeCount != 2400 ||
		cobalt.EmployeeRange != "1001-5000" || cobalt.Industry != "Retail" {
		t.Errorf("cobalt = %+v", cobalt)
	}
}

func TestVendorLayouts(t *testing.T) {
	st := openStore(t)
	ctx := context.Background()
	stats, errs := importFile(t, st, importer.Companies, sample("companies-vendor.csv"))
	wantStats(t, "vendor companies", stats, 2, 2, 0, 0, 0)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	nw, err := st.CompanyByDomain(ctx, "northwind-analytics.example")
	if err != nil {
		t.Fatal(err)
	}
	if nw.Name != "northwind analytics" || nw.Industry != "Software Development" || nw.EmployeeRange != "51-200" ||
		nw.City != "seattle" || nw.Region != "washington" || nw.CountryCode != "US" || *nw.Founded != 2012 ||
		nw.NetworkURL != "https://linkedin.example/company/northwind-analytics" {
		t.Errorf("northwind = %+v", nw)
	}
	gp := company(t, st, "granite-peak.example")
	if gp.Industry != "IT Services and IT Consulting" || gp.CountryCode != "DE" || gp.EmployeeRange != "1001-5000" {
		t.Errorf("granite peak = %+v", gp)
	}
	stats, errs = importFile(t, st, importer.People, sample("people-vendor.csv"))
	wantStats(t, "vendor people", stats, 2, 2, 0, 0, 0)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	jordan, err := st.PersonByKey(ctx, "url:https://linkedin.example/in/jordan-ellery")
	if err != nil {
		t.Fatal(err)
	}
	if jordan.FullName != "Jordan Ellery" || jordan.JobLevel != "Founder" || jordan.CompanyID == nil || *jordan.CompanyID != nw.ID ||
		jordan.Email != "jordan@northwind-analytics.example" || jordan.CountryCode != "US" {
		t.Errorf("jordan = %+v", jordan)
	}
	casey := person(t, st, "url:https://linkedin.example/in/casey-morrow")
	if casey.JobLevel != "Director" || casey.JobFunction != "Marketing" || *casey.CompanyID != gp.ID {
		t.Errorf("casey = %+v", casey)
	}
}

func TestPeopleLinkAndDerive(t *testing.T) {
	st := openStore(t)
	importFile(t, st, importer.Companies, sample("companies.jsonl"))
	stats, errs := importFile(t, st, importer.People, sample("people.jsonl"))
	wantStats(t, "people", stats, 3, 3, 0, 0, 0)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	acme := company(t, st, "acme-robotics.example")
	avery := person(t, st, "url:https://network.example/in/avery-quill")
	if avery.JobLevel != "VP" || avery.JobFunction != "Sales" || *avery.CompanyID != acme.ID || *avery.Score != 72.5 ||
		avery.FirstName != "Avery" || avery.LastName != "Quill" {
		t.Errorf("avery = %+v", avery)
	}
	rowan := person(t, st, "id:crm-42")
	if rowan.FullName != "Rowan Pike" || rowan.JobLevel != "Head" || rowan.JobFunction != "RevOps" ||
		rowan.CompanyID == nil || *rowan.CompanyID != acme.ID {
		t.Errorf("rowan (linked by company profile URL) = %+v", rowan)
	}
	sky := person(t, st, "id:crm-43")
	if sky.City != "London" || sky.CountryCode != "GB" || sky.JobLevel != "IC" || sky.JobFunction != "Engineering" {
		t.Errorf("sky = %+v", sky)
	}
	stats, _ = importString(t, st, importer.People, "csv", "id,full_name,location\ns1,Sam Ash,\"San Francisco, CA\"\ns2,Kim Oak,\"Toronto, Ontario, Canada\"\n")
	wantStats(t, "locations", stats, 2, 2, 0, 0, 0)
	if p := person(t, st, "id:s1"); p.City != "San Francisco" || p.Region != "CA" || p.CountryCode != "US" {
		t.Errorf("City, ST is a US state: %+v", p)
	}
	if p := person(t, st, "id:s2"); p.City != "Toronto" || p.Region != "Ontario" || p.CountryCode != "CA" {
		t.Errorf("City, Region, Country: %+v", p)
	}
	// JSONL member names are normalised like CSV headers.
	stats, errs = importString(t, st, importer.People, "jsonl", `{"Full Name":"Ida Case","ID":"x2","Company-Domain":"acme-robotics.example"}`)
	wantStats(t, "names in other cases", stats, 1, 1, 0, 0, 0)
	if p := person(t, st, "id:x2"); len(errs) > 0 || p.FullName != "Ida Case" || p.CompanyID == nil || *p.CompanyID != acme.ID {
		t.Errorf("person from unnormalised names = %+v %v", p, errs)
	}
	// A person whose company is unknown is kept without the link.
	stats, errs = importString(t, st, importer.People, "jsonl", `{"full_name":"Lone Wolf","id":"x1","company":"Nowhere","company_domain":"nowhere.example"}`)
	wantStats(t, "unknown company", stats, 1, 1, 0, 0, 0)
	if len(errs) > 0 {
		t.Fatalf("unknown company: %v", errs)
	}
	if p := person(t, st, "id:x1"); p.CompanyID != nil || p.CompanyDomain != "nowhere.example" || p.CompanyName != "Nowhere" {
		t.Errorf("unlinked person = %+v", p)
	}
}

func TestSignalsAndEventsResolveReferences(t *testing.T) {
	st := openStore(t)
	ctx := context.Background()
	importFile(t, st, importer.Companies, sample("companies.jsonl"))
	importFile(t, st, importer.People, sample("people.jsonl"))
	stats, errs := importFile(t, st, importer.Signals, sample("signals.jsonl"))
	wantStats(t, "signals", stats, 3, 3, 0, 0, 0)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	acme := company(t, st, "acme-robotics.example")
	sigs, err := st.SignalsByCompanies(ctx, []int64{acme.ID}, 10)
	if err != nil || len(sigs) != 2 {
		t.Fatalf("acme has %d signals (%v), want the hiring one and Avery's job change (through her company)", len(sigs), err)
	}
	if sigs[0].Type != "company_hiring" || sigs[1].Type != "job_change" || sigs[1].PersonID == nil {
		t.Errorf("signals = %+v %+v", sigs[0], sigs[1])
	}
	stats, errs = importString(t, st, importer.Signals, "jsonl", strings.Join([]string{
		`{"id":"s9","type":"job_change","person_network_url":"https://network.example/in/nobody","detected_at":"2026-01-01"}`,
		`{"id":"s10","type":"company_hiring","company_domain":"unknown.example","detected_at":"2026-01-01"}`,
		`{"id":"s11","type":"company_hiring","company_domain":"acme-robotics.example","detected_at":"2026-01-02"}`,
	}, "\n"))
	wantStats(t, "dangling references", stats, 3, 1, 0, 0, 2)
	if len(errs) != 2 || errs[0].line != 1 || !strings.Contains(errs[0].reason, "no person") ||
		errs[1].line != 2 || !strings.Contains(errs[1].reason, "no company") {
		t.Fatalf("errors %v", errs)
	}
	stats, errs = importFile(t, st, importer.NewsEvents, sample("news-events.jsonl"))
	wantStats(t, "news", stats, 2, 2, 0, 0, 0)
	if len(errs) > 0 {
		t.Fatalf("news: %v", errs)
	}
	news, err := st.NewsEvents(ctx, prospector.EventFilter{CompanyID: acme.ID, Limit: 10})
	if err != nil || len(news) != 1 || *news[0].Attributes.Summary != "Acme Robotics launches Fleet 2" ||
		*news[0].Attributes.ProductData.Name != "Fleet" || news[0].Attributes.AssetsTags == nil || news[0].EventType != "news_event" {
		t.Fatalf("news = %+v, %v", news, err)
	}
	stats, _ = importFile(t, st, importer.FinancingEvents, sample("financing-events.jsonl"))
	wantStats(t, "financing", stats, 1, 1, 0, 0, 0)
	fin, err := st.FinancingEvents(ctx, prospector.EventFilter{CompanyID: acme.ID, Limit: 10})
	if err != nil || len(fin) != 1 || fin[0].Investors[0].Name != "Granite Peak Ventures" || *fin[0].AmountNormalized != 12e6 {
		t.Fatalf("financing = %+v, %v", fin, err)
	}
	stats, _ = importFile(t, st, importer.FinancingEvents, sample("financing-events.csv"))
	if stats.Rejected != 0 {
		t.Fatalf("financing csv: %+v", stats)
	}
	blue := company(t, st, "bluepeak.example")
	fin, err = st.FinancingEvents(ctx, prospector.EventFilter{CompanyID: blue.ID, Limit: 10})
	if err != nil || len(fin) != 1 || len(fin[0].Investors) != 2 || fin[0].Investors[1].Name != "Northbridge Angels" || fin[0].AmountNormalized != nil {
		t.Fatalf("investor names from CSV: %+v, %v", fin, err)
	}
}

func TestBadLinesAreReportedAndGoodLinesLand(t *testing.T) {
	st := openStore(t)
	body := strings.Join([]string{
		`name,domain,industry,country,employee_count,employee_range,founded,network_url`,
		`Good One,good-one.example,saas,US,10,,,`,
		`No Domain,,saas,US,,,,`,
		`Bad Domain,not a domain,saas,US,,,,`,
		`Bad Industry,bad-industry.example,Underwater Basket Weaving,US,,,,`,
		`Bad Country,bad-country.example,saas,Atlantis,,,,`,
		`Bad Count,bad-count.example,saas,US,many,,,`,
		`Bad Range,bad-range.example,saas,US,,12-34,,`,
		`Bad Year,bad-year.example,saas,US,,,1066,`,
		`Bad URL,bad-url.example,saas,US,,,,ftp://x`,
		`Too,many,fields,here,a,b,c,d,e`,
		`,nameless.example,saas,US,,,,`,
		`Good Two,good-two.example,Retail,DE,,201-500,1999,`,
	}, "\n")
	stats, errs := importString(t, st, importer.Companies, "csv", body)
	wantStats(t, "mixed file", stats, 12, 2, 0, 0, 10)
	want := []struct {
		line   int
		reason string
	}{
		{3, "domain: required"}, {4, `domain: "not a domain" is not a domain`}, {5, "industry:"}, {6, "country:"},
		{7, "employee_count:"}, {8, "employee_range:"}, {9, "founded:"}, {10, "network_url:"}, {11, "has 9 fields"},
		{12, "name: required"},
	}
	if len(errs) != len(want) {
		t.Fatalf("errors: %v", errs)
	}
	for i, w := range want {
		if errs[i].line != w.line || !strings.Contains(errs[i].reason, w.reason) {
			t.Errorf("error %d = %v, want line %d containing %q", i, errs[i], w.line, w.reason)
		}
	}
	if n, err := st.CountCompanies(context.Background()); err != nil || n != 2 {
		t.Fatalf("%d companies stored (%v), want the 2 good ones", n, err)
	}
	stats, errs = importString(t, st, importer.People, "jsonl", "{\"full_name\":\"A\",\"id\":\"1\"}\nnot json\n{\"full_name\":\"B\"}\n{\"id\":\"3\"}\n{\"full_name\":\"C\",\"id\":\"4\",\"email\":\"nope\"}\n{\"full_name\":[\"x\"],\"id\":\"5\"}\n{\"full_name\":\"D\",\"id\":\"6\",\"score\":101}\n")
	wantStats(t, "people mixed", stats, 7, 1, 0, 0, 6)
	for i, w := range []string{"not a JSON object", "network_url or id", "full_name", "email:", "full_name: must be a string", "score:"} {
		if !strings.Contains(errs[i].reason, w) || errs[i].line != i+2 {
			t.Errorf("people error %d = %v, want line %d %q", i, errs[i], i+2, w)
		}
	}
}

func TestUpdatesAreCounted(t *testing.T) {
	st := openStore(t)
	importString(t, st, importer.Companies, "jsonl", `{"name":"Acme","domain":"acme.example","employee_count":5}`)
	stats, _ := importString(t, st, importer.Companies, "jsonl",
		`{"name":"Acme","domain":"ACME.example","employee_count":50}`+"\n"+`{"name":"New","domain":"new.example"}`)
	wantStats(t, "second file", stats, 2, 1, 1, 0, 0)
	c := company(t, st, "acme.example")
	if *c.EmployeeCount != 50 || c.EmployeeRange != "11-50" {
		t.Fatalf("update not applied: %+v", c)
	}
}

func TestFormatAndKind(t *testing.T) {
	for name, want := range map[string]string{"a.jsonl": "jsonl", "A.CSV": "csv", "b.ndjson": "jsonl"} {
		if got, err := importer.FormatOf(name); err != nil || got != want {
			t.Errorf("FormatOf(%s) = %s %v", name, got, err)
		}
	}
	if _, err := importer.FormatOf("data.xlsx"); err == nil {
		t.Error("xlsx accepted")
	}
	if _, err := importer.ParseKind("leads"); err == nil {
		t.Error("unknown kind accepted")
	}
	st := openStore(t)
	if _, err := importer.Import(context.Background(), st, strings.NewReader(""), importer.Options{Kind: importer.Companies, Format: "csv"}); err == nil {
		t.Error("empty CSV without a header accepted")
	}
	if _, err := importer.Import(context.Background(), st, strings.NewReader(""), importer.Options{Kind: importer.Companies, Format: "xml"}); err == nil {
		t.Error("unknown format accepted")
	}
}

func BenchmarkImportPeopleSQLite(b *testing.B) {
	var sb strings.Builder
	sb.WriteString(`{"name":"Acme","domain":"acme.example"}` + "\n")
	st, err := sqlite.Open(context.Background(), b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	if _, err := importer.Import(context.Background(), st, strings.NewReader(sb.String()), importer.Options{Kind: importer.Companies, Format: "jsonl"}); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		var people strings.Builder
		for j := 0; j < 100000; j++ {
			fmt.Fprintf(&people, `{"full_name":"Person %d %d","id":"p%d-%d","title":"VP of Sales","company_domain":"acme.example","country":"US"}`+"\n", i, j, i, j)
		}
		b.StartTimer()
		stats, err := importer.Import(context.Background(), st, strings.NewReader(people.String()), importer.Options{Kind: importer.People, Format: "jsonl"})
		if err != nil || stats.Inserted != 100000 {
			b.Fatalf("%+v %v", stats, err)
		}
	}
	b.ReportMetric(float64(100000*b.N)/b.Elapsed().Seconds(), "people/s")
}
