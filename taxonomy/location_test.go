package taxonomy

import (
	"strings"
	"testing"
)

func TestLocationCountry(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"Berlin, Germany", "DE"},
		{"New York, NY, United States", "US"},
		{"New York, NY", "US"},
		{"San Francisco, CA", "US"},
		{"Austin, Texas", "US"},
		{"Atlanta, Georgia", "US"},
		{"Georgia", "GE"},
		{"Tbilisi, GE", "GE"},
		{"Washington, DC", "US"},
		{"Remote - US", "US"},
		{"Remote (Canada)", "CA"},
		{"US-Remote", "US"},
		{"Remote US", "US"},
		{"London", "GB"},
		{"London, England, United Kingdom", "GB"},
		{"London, Ontario", "CA"},
		{"Toronto, ON", "CA"},
		{"Vancouver, BC", "CA"},
		{"Vancouver, WA", "US"},
		{"Sydney, NSW", "AU"},
		{"Berlin, DE", "DE"},
		{"Wilmington, DE", "US"},
		{"Paris, FR", "FR"},
		{"Amsterdam, NL", "NL"},
		{"Hybrid - München", "DE"},
		{"Hybrid in Berlin", "DE"},
		{"München, Bayern, Deutschland", "DE"},
		{"São Paulo, Brazil", "BR"},
		{"Bengaluru, Karnataka, India", "IN"},
		{"Indianapolis, IN", "US"},
		{"IN", "IN"},
		{"Zürich", "CH"},
		{"Tel Aviv-Yafo, Israel", "IL"},
		{"New York, NY; Boston, MA", "US"},
		{"San Francisco, CA or Remote", "US"},
		{"Madrid | Barcelona", "ES"},
		{"Côte d'Ivoire", "CI"},
		{"Abidjan, Cote d'Ivoire", "CI"},
		{"Remote, USA", "US"},
		{"Greater London", "GB"},
		{"Remote — Germany", "DE"},
	} {
		got, ok := LocationCountry(tc.in)
		if got != tc.want || !ok {
			t.Errorf("LocationCountry(%q) = %q, %v; want %s", tc.in, got, ok, tc.want)
		}
	}
}

func TestLocationCountryUnknown(t *testing.T) {
	for _, in := range []string{
		"", "Remote", "Anywhere", "Worldwide", "Remote - EMEA", "Remote (EU)", "Europe", "APAC",
		"HQ", "Home office", "Hybrid", "in office", "on site",
		"New York, NY / London, UK", // two countries: none can be told
		"Atlantis", strings.Repeat("x, ", 2000),
	} {
		if got, ok := LocationCountry(in); ok || got != "" {
			t.Errorf("LocationCountry(%q) = %q, %v; want not found", in, got, ok)
		}
	}
}

func TestLocationTablesKnowTheirCountries(t *testing.T) {
	for _, s := range subdivisions {
		if CountryName(s[1]) == "" {
			t.Errorf("subdivision %q: unknown country %q", s[0], s[1])
		}
	}
	for _, c := range cities {
		if CountryName(c[1]) == "" {
			t.Errorf("city %q: unknown country %q", c[0], c[1])
		}
		// A city that is also a country's name would shadow it.
		if code, ok := NormalizeCountry(c[0]); ok && code != c[1] {
			t.Errorf("city %q is also country %s", c[0], code)
		}
	}
	for _, s := range usStates {
		if !isUpperCode(s[0], 2) {
			t.Errorf("state code %q", s[0])
		}
	}
}

func FuzzLocationCountry(f *testing.F) {
	for _, s := range []string{"Berlin, DE", "Remote - US", "a;b|c/d", "(,)", "São Paulo – Brazil", "\xff, TX"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		code, ok := LocationCountry(s)
		if ok != (code != "") {
			t.Fatalf("LocationCountry(%q) = %q, %v", s, code, ok)
		}
		if ok && CountryName(code) == "" {
			t.Fatalf("LocationCountry(%q) = %q: not a country", s, code)
		}
	})
}

func BenchmarkLocationCountry(b *testing.B) {
	b.ReportAllocs()
	ins := []string{"San Francisco, CA", "Berlin, Germany", "Remote - US", "London", "Hybrid in Berlin", "Remote"}
	i := 0
	for b.Loop() {
		LocationCountry(ins[i%len(ins)])
		i++
	}
}
