package prospector

import (
	"math"
	"testing"
	"time"
)

// TestContentHashStable pins the content hashes of sample rows: stores
// keep them beside every imported row, so a change of the function would
// make the next import of an unchanged file rewrite every row.
func TestContentHashStable(t *testing.T) {
	id, n, score := int64(42), int64(1200), 71.5
	at := time.Date(2026, 11, 1, 12, 30, 0, 123456000, time.UTC)
	got := map[string]int64{
		"company": (&Company{Name: "Acme Robotics", Domain: "acme.example", Industry: "Software Development",
			Keywords: []string{"robotics", "warehouse"}, EmployeeCount: &n, City: "Austin"}).ContentHash(),
		"company, empty": (&Company{}).ContentHash(),
		"person": (&Person{FullName: "Ada Testperson", FirstName: "Ada", LastName: "Testperson", Title: "VP of Sales",
			CompanyID: &id, NetworkURL: "https://network.example/in/ada", Email: "ada@acme.example", Score: &score}).ContentHash(),
		"person, empty": (&Person{}).ContentHash(),
		"signal":        (&Signal{ExternalID: "s1", Type: "company_hiring", CompanyID: &id, DetectedAt: at, Score: &score}).ContentHash(),
		"news":          (&NewsEvent{ExternalID: "n1", CompanyID: id, Categories: []string{"launches"}, FoundAt: at}).ContentHash([]byte(`{"a":1}`)),
		"financing": (&FinancingEvent{ExternalID: "f1", CompanyID: id, Amount: "10M", Categories: []string{"series_a"},
			SourceURLs: []string{"https://news.example/1"}, FoundAt: at}).ContentHash([]byte(`[]`)),
	}
	want := map[string]int64{"company": 7257085922011367716, "company, empty": -7762093355631712217,
		"financing": -5052955226198057203, "news": -2162223756768191517, "person": 267408119815504110,
		"person, empty": 3769285372275206038, "signal": 5678836575016625270}
	for k, v := range got {
		if v != want[k] {
			t.Errorf("%s: content hash %d, want %d", k, v, want[k])
		}
	}
}

func BenchmarkPersonContentHash(b *testing.B) {
	id, score := int64(42), 71.5
	p := &Person{FullName: "Ada Testperson", FirstName: "Ada", LastName: "Testperson", Title: "VP of Sales",
		CompanyID: &id, CompanyName: "Acme Robotics", CompanyDomain: "acme.example",
		NetworkURL: "https://network.example/in/ada", Email: "ada@acme.example", City: "Austin", CountryCode: "US", Score: &score}
	b.ReportAllocs()
	for b.Loop() {
		p.ContentHash()
	}
}

func TestEventJSON(t *testing.T) {
	b, err := (&FinancingEvent{}).InvestorsJSON()
	if err != nil || string(b) != "[]" {
		t.Fatalf("no investors: %s, %v; want []", b, err)
	}
	name := "Seed Fund"
	b, err = (&FinancingEvent{Investors: []Investor{{ID: "i1", Name: name}}}).InvestorsJSON()
	if err != nil || string(b) != `[{"id":"i1","name":"Seed Fund","domain":null,"ticker":null}]` {
		t.Fatalf("investors: %s, %v", b, err)
	}
	nan := math.NaN()
	if _, err := (&NewsEvent{ExternalID: "n1", Attributes: NewsAttributes{Confidence: &nan}}).AttributesJSON(); err == nil {
		t.Fatal("attributes that JSON cannot hold were encoded")
	}
}
