package sec

import "strings"

// usStates are EDGAR's state codes for the United States, which are the
// postal codes, with their names.
var usStates = map[string]string{
	"AL": "Alabama", "AK": "Alaska", "AZ": "Arizona", "AR": "Arkansas", "CA": "California", "CO": "Colorado",
	"CT": "Connecticut", "DE": "Delaware", "DC": "District of Columbia", "FL": "Florida", "GA": "Georgia",
	"HI": "Hawaii", "ID": "Idaho", "IL": "Illinois", "IN": "Indiana", "IA": "Iowa", "KS": "Kansas",
	"KY": "Kentucky", "LA": "Louisiana", "ME": "Maine", "MD": "Maryland", "MA": "Massachusetts",
	"MI": "Michigan", "MN": "Minnesota", "MS": "Mississippi", "MO": "Missouri", "MT": "Montana",
	"NE": "Nebraska", "NV": "Nevada", "NH": "New Hampshire", "NJ": "New Jersey", "NM": "New Mexico",
	"NY": "New York", "NC": "North Carolina", "ND": "North Dakota", "OH": "Ohio", "OK": "Oklahoma",
	"OR": "Oregon", "PA": "Pennsylvania", "RI": "Rhode Island", "SC": "South Carolina", "SD": "South Dakota",
	"TN": "Tennessee", "TX": "Texas", "UT": "Utah", "VT": "Vermont", "VA": "Virginia", "WA": "Washington",
	"WV": "West Virginia", "WI": "Wisconsin", "WY": "Wyoming", "PR": "Puerto Rico",
}

// region is a place's state as EDGAR codes it, compared with a
// company's Region (a name or a code) and CountryCode.
type region struct {
	code string // CA, NY, or a non-US EDGAR code such as A6
	desc string // CALIFORNIA, ONTARIO, CANADA ...
}

// US reports whether the code is a US state (or DC, PR).
func (r region) US() bool { _, ok := usStates[r.code]; return ok }

// compare tells whether a company's region and country agree with r:
// known is false when either side is empty.
func (r region) compare(companyRegion, companyCountry string) (known, same bool) {
	if r.code == "" && r.desc == "" {
		return false, false
	}
	cc := strings.ToUpper(strings.TrimSpace(companyCountry))
	if r.US() && cc != "" && cc != "US" && cc != "PR" {
		return true, false
	}
	reg := foldAccents(strings.ToLower(strings.TrimSpace(companyRegion)))
	if reg == "" {
		return false, false
	}
	if strings.EqualFold(reg, r.code) {
		return true, true
	}
	if name, ok := usStates[r.code]; ok {
		return true, reg == strings.ToLower(name)
	}
	// Outside the US, EDGAR's description reads "ONTARIO, CANADA".
	desc := foldAccents(strings.ToLower(r.desc))
	first, _, _ := strings.Cut(desc, ",")
	return true, reg == strings.TrimSpace(first) || reg == desc
}
