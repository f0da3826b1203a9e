package taxonomy

import (
	"slices"
	"strings"
	"testing"
)

func TestCountries(t *testing.T) {
	all := Countries()
	if len(all) != 249 {
		t.Fatalf("Countries() has %d entries, want 249", len(all))
	}
	if !slices.IsSortedFunc(all, func(a, b Country) int { return strings.Compare(a.Code, b.Code) }) {
		t.Error("Countries() is not sorted by code")
	}
	names := map[string]string{}
	for i, c := range all {
		if len(c.Code) != 2 || strings.ToUpper(c.Code) != c.Code || c.Name == "" {
			t.Errorf("entry %d: %+v", i, c)
		}
		if i > 0 && all[i-1].Code == c.Code {
			t.Errorf("code %s twice", c.Code)
		}
		if other, ok := names[c.Name]; ok {
			t.Errorf("name %q is both %s and %s", c.Name, other, c.Code)
		}
		names[c.Name] = c.Code
	}
	all[0].Name = "mutated"
	if Countries()[0].Name == "mutated" {
		t.Error("Countries() shares its backing array")
	}
}

// TestCountryRoundTrip: every code and name comes back to its code, in any
// case, and every row's alpha-3 code, ISO name and formal name do too.
func TestCountryRoundTrip(t *testing.T) {
	for _, r := range countryTable {
		for _, in := range []string{r.Code, strings.ToLower(r.Code), r.Alpha3, strings.ToLower(r.Alpha3),
			r.Name, strings.ToUpper(r.Name), strings.ToLower(r.Name), " " + r.Name + " ", r.ISO, r.Formal} {
			if in == "" {
				continue
			}
			if got, ok := NormalizeCountry(in); !ok || got != r.Code {
				t.Errorf("NormalizeCountry(%q) = %q, %v; want %s", in, got, ok, r.Code)
			}
		}
		if got := CountryName(r.Code); got != r.Name {
			t.Errorf("CountryName(%q) = %q, want %q", r.Code, got, r.Name)
		}
		if got := CountryName(strings.ToLower(r.Code)); got != r.Name {
			t.Errorf("CountryName(%q) = %q, want %q", strings.ToLower(r.Code), got, r.Name)
		}
	}
	if c := countries().conflicts; len(c) > 0 {
		t.Errorf("keys claimed by two codes: %v", c)
	}
}

func TestNormalizeCountryAliases(t *testing.T) {
	tests := map[string][]string{
		"US": {"United States", "United States of America", "US", "USA", "America", "U.S.", "U.S.A.",
			"usa", "u.s.", "the United States", "  united   states  "},
		"GB": {"UK", "U.K.", "Great Britain", "Britain", "England", "Scotland", "Wales", "Northern Ireland",
			"United Kingdom", "GBR", "gb"},
		"DE": {"Deutschland", "Germany", "DEU"},
		"FR": {"FRA", "France"},
		"KR": {"South Korea", "Korea", "Korea, Republic of", "KOR"},
		"KP": {"North Korea", "Korea, Democratic People's Republic of"},
		"RU": {"Russia", "Russian Federation"},
		"VN": {"Vietnam", "Viet Nam"},
		"CZ": {"Czech Republic", "Czechia"},
		"NL": {"Holland", "The Netherlands", "Netherlands", "NLD"},
		"AE": {"UAE", "United Arab Emirates", "U.A.E."},
		"CI": {"Ivory Coast", "Côte d'Ivoire", "Cote d'Ivoire", "Côte d’Ivoire", "COTE D'IVOIRE"},
		"HK": {"Hong Kong"},
		"TW": {"Taiwan"},
		"MO": {"Macau", "Macao"},
		"TR": {"Turkey", "Türkiye", "Turkiye", "TÜRKIYE"},
		"IR": {"Iran"},
		"SY": {"Syria"},
		"LA": {"Laos"},
		"BO": {"Bolivia"},
		"VE": {"Venezuela"},
		"TZ": {"Tanzania"},
		"MD": {"Moldova"},
		"BN": {"Brunei", "Brunei Darussalam"},
		"PS": {"Palestine", "State of Palestine"},
		"VA": {"Vatican", "Vatican City", "Holy See"},
		"SZ": {"Eswatini", "Swaziland"},
		"CV": {"Cape Verde", "Cabo Verde"},
		"FM": {"Micronesia"},
		"MM": {"Burma", "Myanmar"},
		"MK": {"Macedonia", "North Macedonia"},
		"CG": {"Congo", "Republic of the Congo"},
		"CD": {"DR Congo", "DRC", "Democratic Republic of the Congo", "Democratic Republic of Congo"},
		"AX": {"Åland Islands", "Aland Islands"},
		"CW": {"Curaçao", "Curacao"},
		"RE": {"Réunion", "Reunion"},
		"LC": {"Saint Lucia", "St. Lucia", "St Lucia"},
		"TT": {"Trinidad & Tobago", "Trinidad and Tobago"},
		"GW": {"Guinea-Bissau", "Guinea Bissau"},
		"TL": {"Timor-Leste", "East Timor"},
		"BS": {"The Bahamas", "Bahamas"},
		"GM": {"The Gambia", "Gambia"},
		"VI": {"U.S. Virgin Islands", "US Virgin Islands"},
		"VG": {"British Virgin Islands"},
		"SG": {"Singapore", "SGP", "sg"},
		"AU": {"Australia", "AUS"},
		"CA": {"Canada", "CAN"},
		"ID": {"Indonesia", "IDN"},
		"IN": {"India", "IND"},
		"JP": {"Japan", "JPN"},
		"CN": {"China", "CHN", "PRC"},
		"BR": {"Brazil", "Brasil", "BRA"},
		"ES": {"Spain", "España", "ESP"},
	}
	for want, ins := range tests {
		for _, in := range ins {
			if got, ok := NormalizeCountry(in); !ok || got != want {
				t.Errorf("NormalizeCountry(%q) = %q, %v; want %s", in, got, ok, want)
			}
		}
	}
}

func TestNormalizeCountryWorld(t *testing.T) {
	for _, in := range []string{"WORLD", "world", "World", "Global", "GLOBAL", "Worldwide", "worldwide", "Anywhere", " anywhere "} {
		if got, ok := NormalizeCountry(in); !ok || got != WorldCode {
			t.Errorf("NormalizeCountry(%q) = %q, %v; want %s", in, got, ok, WorldCode)
		}
	}
	for _, in := range []string{"WORLD", "world"} {
		if got := CountryName(in); got != "Worldwide" {
			t.Errorf("CountryName(%q) = %q", in, got)
		}
	}
}

func TestNormalizeCountryUnknown(t *testing.T) {
	for _, in := range []string{"", " ", "XX", "ZZZ", "Atlantis", "U", "Europe", "EU", "Virgin Islands",
		strings.Repeat("a", 200), "United", "the", "."} {
		if got, ok := NormalizeCountry(in); ok || got != "" {
			t.Errorf("NormalizeCountry(%q) = %q, %v; want not found", in, got, ok)
		}
	}
	for _, in := range []string{"", "XX", "USA", "United States", "U"} {
		if got := CountryName(in); got != "" {
			t.Errorf("CountryName(%q) = %q, want \"\"", in, got)
		}
	}
}

func BenchmarkNormalizeCountry(b *testing.B) {
	b.ReportAllocs()
	ins := []string{"US", "united states", "U.K.", "Deutschland", "Côte d'Ivoire", "The Netherlands", "sg"}
	i := 0
	for b.Loop() {
		NormalizeCountry(ins[i%len(ins)])
		i++
	}
}
