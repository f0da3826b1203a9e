package taxonomy

import (
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
)

// Country is one ISO 3166-1 entry: its alpha-2 code and common English
// short name.
type Country struct{ Code, Name string }

// countryRow is one line of countryTable. Name is the common English short
// name we display; ISO (the standard's short name) and Formal (its official
// name) are only kept as further spellings to accept, and are empty when
// they would repeat Name.
type countryRow struct{ Code, Alpha3, Name, ISO, Formal string }

// countryTable holds all 249 ISO 3166-1 entries, sorted by code. Names
// follow ISO where the country itself asked for the change (Czechia,
// Eswatini, Türkiye, Cabo Verde) and common usage where ISO inverts or
// formalises them (Iran, South Korea, Vietnam, Russia).
var countryTable = [...]countryRow{
	{"AD", "AND", "Andorra", "", "Principality of Andorra"},
	{"AE", "ARE", "United Arab Emirates", "", ""},
	{"AF", "AFG", "Afghanistan", "", "Islamic Republic of Afghanistan"},
	{"AG", "ATG", "Antigua and Barbuda", "", ""},
	{"AI", "AIA", "Anguilla", "", ""},
	{"AL", "ALB", "Albania", "", "Republic of Albania"},
	{"AM", "ARM", "Armenia", "", "Republic of Armenia"},
	{"AO", "AGO", "Angola", "", "Republic of Angola"},
	{"AQ", "ATA", "Antarctica", "", ""},
	{"AR", "ARG", "Argentina", "", "Argentine Republic"},
	{"AS", "ASM", "American Samoa", "", ""},
	{"AT", "AUT", "Austria", "", "Republic of Austria"},
	{"AU", "AUS", "Australia", "", ""},
	{"AW", "ABW", "Aruba", "", ""},
	{"AX", "ALA", "Åland Islands", "", ""},
	{"AZ", "AZE", "Azerbaijan", "", "Republic of Azerbaijan"},
	{"BA", "BIH", "Bosnia and Herzegovina", "", "Republic of Bosnia and Herzegovina"},
	{"BB", "BRB", "Barbados", "", ""},
	{"BD", "BGD", "Bangladesh", "", "People's Republic of Bangladesh"},
	{"BE", "BEL", "Belgium", "", "Kingdom of Belgium"},
	{"BF", "BFA", "Burkina Faso", "", ""},
	{"BG", "BGR", "Bulgaria", "", "Republic of Bulgaria"},
	{"BH", "BHR", "Bahrain", "", "Kingdom of Bahrain"},
	{"BI", "BDI", "Burundi", "", "Republic of Burundi"},
	{"BJ", "BEN", "Benin", "", "Republic of Benin"},
	{"BL", "BLM", "Saint Barthélemy", "", ""},
	{"BM", "BMU", "Bermuda", "", ""},
	{"BN", "BRN", "Brunei", "Brunei Darussalam", ""},
	{"BO", "BOL", "Bolivia", "Bolivia, Plurinational State of", "Plurinational State of Bolivia"},
	{"BQ", "BES", "Bonaire, Sint Eustatius and Saba", "", ""},
	{"BR", "BRA", "Brazil", "", "Federative Republic of Brazil"},
	{"BS", "BHS", "Bahamas", "", "Commonwealth of the Bahamas"},
	{"BT", "BTN", "Bhutan", "", "Kingdom of Bhutan"},
	{"BV", "BVT", "Bouvet Island", "", ""},
	{"BW", "BWA", "Botswana", "", "Republic of Botswana"},
	{"BY", "BLR", "Belarus", "", "Republic of Belarus"},
	{"BZ", "BLZ", "Belize", "", ""},
	{"CA", "CAN", "Canada", "", ""},
	{"CC", "CCK", "Cocos (Keeling) Islands", "", ""},
	{"CD", "COD", "Democratic Republic of the Congo", "Congo, The Democratic Republic of the", ""},
	{"CF", "CAF", "Central African Republic", "", ""},
	{"CG", "COG", "Republic of the Congo", "Congo", ""},
	{"CH", "CHE", "Switzerland", "", "Swiss Confederation"},
	{"CI", "CIV", "Côte d'Ivoire", "", "Republic of Côte d'Ivoire"},
	{"CK", "COK", "Cook Islands", "", ""},
	{"CL", "CHL", "Chile", "", "Republic of Chile"},
	{"CM", "CMR", "Cameroon", "", "Republic of Cameroon"},
	{"CN", "CHN", "China", "", "People's Republic of China"},
	{"CO", "COL", "Colombia", "", "Republic of Colombia"},
	{"CR", "CRI", "Costa Rica", "", "Republic of Costa Rica"},
	{"CU", "CUB", "Cuba", "", "Republic of Cuba"},
	{"CV", "CPV", "Cabo Verde", "", "Republic of Cabo Verde"},
	{"CW", "CUW", "Curaçao", "", ""},
	{"CX", "CXR", "Christmas Island", "", ""},
	{"CY", "CYP", "Cyprus", "", "Republic of Cyprus"},
	{"CZ", "CZE", "Czechia", "", "Czech Republic"},
	{"DE", "DEU", "Germany", "", "Federal Republic of Germany"},
	{"DJ", "DJI", "Djibouti", "", "Republic of Djibouti"},
	{"DK", "DNK", "Denmark", "", "Kingdom of Denmark"},
	{"DM", "DMA", "Dominica", "", "Commonwealth of Dominica"},
	{"DO", "DOM", "Dominican Republic", "", ""},
	{"DZ", "DZA", "Algeria", "", "People's Democratic Republic of Algeria"},
	{"EC", "ECU", "Ecuador", "", "Republic of Ecuador"},
	{"EE", "EST", "Estonia", "", "Republic of Estonia"},
	{"EG", "EGY", "Egypt", "", "Arab Republic of Egypt"},
	{"EH", "ESH", "Western Sahara", "", ""},
	{"ER", "ERI", "Eritrea", "", "the State of Eritrea"},
	{"ES", "ESP", "Spain", "", "Kingdom of Spain"},
	{"ET", "ETH", "Ethiopia", "", "Federal Democratic Republic of Ethiopia"},
	{"FI", "FIN", "Finland", "", "Republic of Finland"},
	{"FJ", "FJI", "Fiji", "", "Republic of Fiji"},
	{"FK", "FLK", "Falkland Islands", "Falkland Islands (Malvinas)", ""},
	{"FM", "FSM", "Micronesia", "Micronesia, Federated States of", "Federated States of Micronesia"},
	{"FO", "FRO", "Faroe Islands", "", ""},
	{"FR", "FRA", "France", "", "French Republic"},
	{"GA", "GAB", "Gabon", "", "Gabonese Republic"},
	{"GB", "GBR", "United Kingdom", "", "United Kingdom of Great Britain and Northern Ireland"},
	{"GD", "GRD", "Grenada", "", ""},
	{"GE", "GEO", "Georgia", "", ""},
	{"GF", "GUF", "French Guiana", "", ""},
	{"GG", "GGY", "Guernsey", "", ""},
	{"GH", "GHA", "Ghana", "", "Republic of Ghana"},
	{"GI", "GIB", "Gibraltar", "", ""},
	{"GL", "GRL", "Greenland", "", ""},
	{"GM", "GMB", "Gambia", "", "Republic of the Gambia"},
	{"GN", "GIN", "Guinea", "", "Republic of Guinea"},
	{"GP", "GLP", "Guadeloupe", "", ""},
	{"GQ", "GNQ", "Equatorial Guinea", "", "Republic of Equatorial Guinea"},
	{"GR", "GRC", "Greece", "", "Hellenic Republic"},
	{"GS", "SGS", "South Georgia and the South Sandwich Islands", "", ""},
	{"GT", "GTM", "Guatemala", "", "Republic of Guatemala"},
	{"GU", "GUM", "Guam", "", ""},
	{"GW", "GNB", "Guinea-Bissau", "", "Republic of Guinea-Bissau"},
	{"GY", "GUY", "Guyana", "", "Republic of Guyana"},
	{"HK", "HKG", "Hong Kong", "", "Hong Kong Special Administrative Region of China"},
	{"HM", "HMD", "Heard Island and McDonald Islands", "", ""},
	{"HN", "HND", "Honduras", "", "Republic of Honduras"},
	{"HR", "HRV", "Croatia", "", "Republic of Croatia"},
	{"HT", "HTI", "Haiti", "", "Republic of Haiti"},
	{"HU", "HUN", "Hungary", "", ""},
	{"ID", "IDN", "Indonesia", "", "Republic of Indonesia"},
	{"IE", "IRL", "Ireland", "", ""},
	{"IL", "ISR", "Israel", "", "State of Israel"},
	{"IM", "IMN", "Isle of Man", "", ""},
	{"IN", "IND", "India", "", "Republic of India"},
	{"IO", "IOT", "British Indian Ocean Territory", "", ""},
	{"IQ", "IRQ", "Iraq", "", "Republic of Iraq"},
	{"IR", "IRN", "Iran", "Iran, Islamic Republic of", "Islamic Republic of Iran"},
	{"IS", "ISL", "Iceland", "", "Republic of Iceland"},
	{"IT", "ITA", "Italy", "", "Italian Republic"},
	{"JE", "JEY", "Jersey", "", ""},
	{"JM", "JAM", "Jamaica", "", ""},
	{"JO", "JOR", "Jordan", "", "Hashemite Kingdom of Jordan"},
	{"JP", "JPN", "Japan", "", ""},
	{"KE", "KEN", "Kenya", "", "Republic of Kenya"},
	{"KG", "KGZ", "Kyrgyzstan", "", "Kyrgyz Republic"},
	{"KH", "KHM", "Cambodia", "", "Kingdom of Cambodia"},
	{"KI", "KIR", "Kiribati", "", "Republic of Kiribati"},
	{"KM", "COM", "Comoros", "", "Union of the Comoros"},
	{"KN", "KNA", "Saint Kitts and Nevis", "", ""},
	{"KP", "PRK", "North Korea", "Korea, Democratic People's Republic of", "Democratic People's Republic of Korea"},
	{"KR", "KOR", "South Korea", "Korea, Republic of", ""},
	{"KW", "KWT", "Kuwait", "", "State of Kuwait"},
	{"KY", "CYM", "Cayman Islands", "", ""},
	{"KZ", "KAZ", "Kazakhstan", "", "Republic of Kazakhstan"},
	{"LA", "LAO", "Laos", "Lao People's Democratic Republic", ""},
	{"LB", "LBN", "Lebanon", "", "Lebanese Republic"},
	{"LC", "LCA", "Saint Lucia", "", ""},
	{"LI", "LIE", "Liechtenstein", "", "Principality of Liechtenstein"},
	{"LK", "LKA", "Sri Lanka", "", "Democratic Socialist Republic of Sri Lanka"},
	{"LR", "LBR", "Liberia", "", "Republic of Liberia"},
	{"LS", "LSO", "Lesotho", "", "Kingdom of Lesotho"},
	{"LT", "LTU", "Lithuania", "", "Republic of Lithuania"},
	{"LU", "LUX", "Luxembourg", "", "Grand Duchy of Luxembourg"},
	{"LV", "LVA", "Latvia", "", "Republic of Latvia"},
	{"LY", "LBY", "Libya", "", ""},
	{"MA", "MAR", "Morocco", "", "Kingdom of Morocco"},
	{"MC", "MCO", "Monaco", "", "Principality of Monaco"},
	{"MD", "MDA", "Moldova", "Moldova, Republic of", "Republic of Moldova"},
	{"ME", "MNE", "Montenegro", "", ""},
	{"MF", "MAF", "Saint Martin", "Saint Martin (French part)", ""},
	{"MG", "MDG", "Madagascar", "", "Republic of Madagascar"},
	{"MH", "MHL", "Marshall Islands", "", "Republic of the Marshall Islands"},
	{"MK", "MKD", "North Macedonia", "", "Republic of North Macedonia"},
	{"ML", "MLI", "Mali", "", "Republic of Mali"},
	{"MM", "MMR", "Myanmar", "", "Republic of Myanmar"},
	{"MN", "MNG", "Mongolia", "", ""},
	{"MO", "MAC", "Macao", "", "Macao Special Administrative Region of China"},
	{"MP", "MNP", "Northern Mariana Islands", "", "Commonwealth of the Northern Mariana Islands"},
	{"MQ", "MTQ", "Martinique", "", ""},
	{"MR", "MRT", "Mauritania", "", "Islamic Republic of Mauritania"},
	{"MS", "MSR", "Montserrat", "", ""},
	{"MT", "MLT", "Malta", "", "Republic of Malta"},
	{"MU", "MUS", "Mauritius", "", "Republic of Mauritius"},
	{"MV", "MDV", "Maldives", "", "Republic of Maldives"},
	{"MW", "MWI", "Malawi", "", "Republic of Malawi"},
	{"MX", "MEX", "Mexico", "", "United Mexican States"},
	{"MY", "MYS", "Malaysia", "", ""},
	{"MZ", "MOZ", "Mozambique", "", "Republic of Mozambique"},
	{"NA", "NAM", "Namibia", "", "Republic of Namibia"},
	{"NC", "NCL", "New Caledonia", "", ""},
	{"NE", "NER", "Niger", "", "Republic of the Niger"},
	{"NF", "NFK", "Norfolk Island", "", ""},
	{"NG", "NGA", "Nigeria", "", "Federal Republic of Nigeria"},
	{"NI", "NIC", "Nicaragua", "", "Republic of Nicaragua"},
	{"NL", "NLD", "Netherlands", "", "Kingdom of the Netherlands"},
	{"NO", "NOR", "Norway", "", "Kingdom of Norway"},
	{"NP", "NPL", "Nepal", "", "Federal Democratic Republic of Nepal"},
	{"NR", "NRU", "Nauru", "", "Republic of Nauru"},
	{"NU", "NIU", "Niue", "", ""},
	{"NZ", "NZL", "New Zealand", "", ""},
	{"OM", "OMN", "Oman", "", "Sultanate of Oman"},
	{"PA", "PAN", "Panama", "", "Republic of Panama"},
	{"PE", "PER", "Peru", "", "Republic of Peru"},
	{"PF", "PYF", "French Polynesia", "", ""},
	{"PG", "PNG", "Papua New Guinea", "", "Independent State of Papua New Guinea"},
	{"PH", "PHL", "Philippines", "", "Republic of the Philippines"},
	{"PK", "PAK", "Pakistan", "", "Islamic Republic of Pakistan"},
	{"PL", "POL", "Poland", "", "Republic of Poland"},
	{"PM", "SPM", "Saint Pierre and Miquelon", "", ""},
	{"PN", "PCN", "Pitcairn", "", ""},
	{"PR", "PRI", "Puerto Rico", "", ""},
	{"PS", "PSE", "Palestine", "Palestine, State of", "the State of Palestine"},
	{"PT", "PRT", "Portugal", "", "Portuguese Republic"},
	{"PW", "PLW", "Palau", "", "Republic of Palau"},
	{"PY", "PRY", "Paraguay", "", "Republic of Paraguay"},
	{"QA", "QAT", "Qatar", "", "State of Qatar"},
	{"RE", "REU", "Réunion", "", ""},
	{"RO", "ROU", "Romania", "", ""},
	{"RS", "SRB", "Serbia", "", "Republic of Serbia"},
	{"RU", "RUS", "Russia", "Russian Federation", ""},
	{"RW", "RWA", "Rwanda", "", "Rwandese Republic"},
	{"SA", "SAU", "Saudi Arabia", "", "Kingdom of Saudi Arabia"},
	{"SB", "SLB", "Solomon Islands", "", ""},
	{"SC", "SYC", "Seychelles", "", "Republic of Seychelles"},
	{"SD", "SDN", "Sudan", "", "Republic of the Sudan"},
	{"SE", "SWE", "Sweden", "", "Kingdom of Sweden"},
	{"SG", "SGP", "Singapore", "", "Republic of Singapore"},
	{"SH", "SHN", "Saint Helena, Ascension and Tristan da Cunha", "", ""},
	{"SI", "SVN", "Slovenia", "", "Republic of Slovenia"},
	{"SJ", "SJM", "Svalbard and Jan Mayen", "", ""},
	{"SK", "SVK", "Slovakia", "", "Slovak Republic"},
	{"SL", "SLE", "Sierra Leone", "", "Republic of Sierra Leone"},
	{"SM", "SMR", "San Marino", "", "Republic of San Marino"},
	{"SN", "SEN", "Senegal", "", "Republic of Senegal"},
	{"SO", "SOM", "Somalia", "", "Federal Republic of Somalia"},
	{"SR", "SUR", "Suriname", "", "Republic of Suriname"},
	{"SS", "SSD", "South Sudan", "", "Republic of South Sudan"},
	{"ST", "STP", "Sao Tome and Principe", "", "Democratic Republic of Sao Tome and Principe"},
	{"SV", "SLV", "El Salvador", "", "Republic of El Salvador"},
	{"SX", "SXM", "Sint Maarten", "Sint Maarten (Dutch part)", ""},
	{"SY", "SYR", "Syria", "Syrian Arab Republic", ""},
	{"SZ", "SWZ", "Eswatini", "", "Kingdom of Eswatini"},
	{"TC", "TCA", "Turks and Caicos Islands", "", ""},
	{"TD", "TCD", "Chad", "", "Republic of Chad"},
	{"TF", "ATF", "French Southern Territories", "", ""},
	{"TG", "TGO", "Togo", "", "Togolese Republic"},
	{"TH", "THA", "Thailand", "", "Kingdom of Thailand"},
	{"TJ", "TJK", "Tajikistan", "", "Republic of Tajikistan"},
	{"TK", "TKL", "Tokelau", "", ""},
	{"TL", "TLS", "Timor-Leste", "", "Democratic Republic of Timor-Leste"},
	{"TM", "TKM", "Turkmenistan", "", ""},
	{"TN", "TUN", "Tunisia", "", "Republic of Tunisia"},
	{"TO", "TON", "Tonga", "", "Kingdom of Tonga"},
	{"TR", "TUR", "Türkiye", "", "Republic of Türkiye"},
	{"TT", "TTO", "Trinidad and Tobago", "", "Republic of Trinidad and Tobago"},
	{"TV", "TUV", "Tuvalu", "", ""},
	{"TW", "TWN", "Taiwan", "Taiwan, Province of China", ""},
	{"TZ", "TZA", "Tanzania", "Tanzania, United Republic of", "United Republic of Tanzania"},
	{"UA", "UKR", "Ukraine", "", ""},
	{"UG", "UGA", "Uganda", "", "Republic of Uganda"},
	{"UM", "UMI", "United States Minor Outlying Islands", "", ""},
	{"US", "USA", "United States", "", "United States of America"},
	{"UY", "URY", "Uruguay", "", "Eastern Republic of Uruguay"},
	{"UZ", "UZB", "Uzbekistan", "", "Republic of Uzbekistan"},
	{"VA", "VAT", "Vatican City", "Holy See (Vatican City State)", ""},
	{"VC", "VCT", "Saint Vincent and the Grenadines", "", ""},
	{"VE", "VEN", "Venezuela", "Venezuela, Bolivarian Republic of", "Bolivarian Republic of Venezuela"},
	{"VG", "VGB", "British Virgin Islands", "Virgin Islands, British", ""},
	{"VI", "VIR", "U.S. Virgin Islands", "Virgin Islands, U.S.", "Virgin Islands of the United States"},
	{"VN", "VNM", "Vietnam", "Viet Nam", "Socialist Republic of Viet Nam"},
	{"VU", "VUT", "Vanuatu", "", "Republic of Vanuatu"},
	{"WF", "WLF", "Wallis and Futuna", "", ""},
	{"WS", "WSM", "Samoa", "", "Independent State of Samoa"},
	{"YE", "YEM", "Yemen", "", "Republic of Yemen"},
	{"YT", "MYT", "Mayotte", "", ""},
	{"ZA", "ZAF", "South Africa", "", "Republic of South Africa"},
	{"ZM", "ZMB", "Zambia", "", "Republic of Zambia"},
	{"ZW", "ZWE", "Zimbabwe", "", "Republic of Zimbabwe"},
}

// countryAliases are the other names people and vendor exports use; they
// are turned into lookup keys (see appendCountryKey) when the index is built.
var countryAliases = [...][2]string{
	{"America", "US"}, {"U.S.", "US"}, {"U.S.A.", "US"}, {"United States of America", "US"},
	{"UK", "GB"}, {"U.K.", "GB"}, {"Great Britain", "GB"}, {"Britain", "GB"},
	{"England", "GB"}, {"Scotland", "GB"}, {"Wales", "GB"}, {"Northern Ireland", "GB"},
	{"Deutschland", "DE"}, {"Nederland", "NL"}, {"Holland", "NL"}, {"España", "ES"},
	{"Italia", "IT"}, {"Brasil", "BR"}, {"Schweiz", "CH"}, {"Suisse", "CH"}, {"Österreich", "AT"},
	{"Korea", "KR"}, {"Republic of Korea", "KR"}, {"Korea, South", "KR"}, {"Korea, North", "KP"},
	{"Czech Republic", "CZ"}, {"UAE", "AE"}, {"Emirates", "AE"}, {"KSA", "SA"},
	{"Ivory Coast", "CI"}, {"Macau", "MO"}, {"Turkey", "TR"}, {"Laos", "LA"},
	{"Vatican", "VA"}, {"Holy See", "VA"}, {"Swaziland", "SZ"}, {"Cape Verde", "CV"},
	{"Burma", "MM"}, {"Macedonia", "MK"}, {"East Timor", "TL"}, {"Falklands", "FK"},
	{"PRC", "CN"}, {"Mainland China", "CN"}, {"Palestinian Territories", "PS"},
	{"Congo", "CG"}, {"Congo-Brazzaville", "CG"}, {"Congo (Brazzaville)", "CG"}, {"Congo Republic", "CG"},
	{"DR Congo", "CD"}, {"DRC", "CD"}, {"D.R.C.", "CD"}, {"Democratic Republic of Congo", "CD"},
	{"Congo-Kinshasa", "CD"}, {"Congo (Kinshasa)", "CD"},
	{"World", WorldCode}, {"Global", WorldCode}, {"Worldwide", WorldCode}, {"Anywhere", WorldCode},
}

// countryIndex is countryTable and countryAliases arranged for O(1) lookups.
type countryIndex struct {
	byKey     map[string]string // lookup key of a code or name -> alpha-2 code or WorldCode
	byCode    map[string]int    // alpha-2 code -> row of countryTable
	conflicts []string          // keys two codes claim; a test keeps this empty
}

// countries is built on first use: the data never changes, and building it
// eagerly would cost every program that imports the package.
var countries = sync.OnceValue(func() *countryIndex {
	idx := &countryIndex{
		byKey:  make(map[string]string, 5*len(countryTable)),
		byCode: make(map[string]int, len(countryTable)),
	}
	for i, r := range countryTable {
		idx.byCode[r.Code] = i
		for _, s := range [...]string{r.Code, r.Alpha3, r.Name, r.ISO, r.Formal} {
			idx.add(s, r.Code)
		}
	}
	for _, a := range countryAliases {
		idx.add(a[0], a[1])
	}
	return idx
})

// add files name under its key, and under the "st" short form of a leading
// "saint" so "St. Lucia" finds Saint Lucia.
func (idx *countryIndex) add(name, code string) {
	if name == "" {
		return
	}
	key := string(appendCountryKey(nil, name))
	key = strings.TrimPrefix(key, "the ")
	idx.put(key, code)
	if rest, ok := strings.CutPrefix(key, "saint "); ok {
		idx.put("st "+rest, code)
	}
}

func (idx *countryIndex) put(key, code string) {
	if old, ok := idx.byKey[key]; ok && old != code {
		idx.conflicts = append(idx.conflicts, key+": "+old+" and "+code)
		return
	}
	idx.byKey[key] = code
}

// Countries returns all 249 ISO 3166-1 countries with their common English
// short names, sorted by code. The slice is a fresh copy.
func Countries() []Country {
	out := make([]Country, len(countryTable))
	for i, r := range countryTable {
		out[i] = Country{Code: r.Code, Name: r.Name}
	}
	return out
}

// NormalizeCountry returns the ISO 3166-1 alpha-2 code for s: an alpha-2 or
// alpha-3 code, an English name (common, ISO or formal), or a common alias
// ("USA", "UK", "Holland", "DRC", ...), matched without regard to case,
// accents, dots, punctuation or a leading "The". "World", "Global",
// "Worldwide" and "Anywhere" give WorldCode. It returns ("", false) when s
// names no country.
func NormalizeCountry(s string) (string, bool) {
	// A stack buffer keeps the hot path free of allocations: every known
	// name fits, and anything longer is no country.
	var buf [96]byte
	key := appendCountryKey(buf[:0], s)
	if len(key) > len(buf) {
		return "", false
	}
	idx := countries()
	if code, ok := idx.byKey[string(key)]; ok {
		return code, true
	}
	if len(key) > 4 && string(key[:4]) == "the " {
		if code, ok := idx.byKey[string(key[4:])]; ok {
			return code, true
		}
	}
	return "", false
}

// CountryName returns the common English short name for an alpha-2 code in
// any case, "Worldwide" for WorldCode, and "" for anything else.
func CountryName(code string) string {
	if strings.EqualFold(code, WorldCode) {
		return "Worldwide"
	}
	if len(code) != 2 {
		return ""
	}
	b := [2]byte{upperASCII(code[0]), upperASCII(code[1])}
	if i, ok := countries().byCode[string(b[:])]; ok {
		return countryTable[i].Name
	}
	return ""
}

// appendCountryKey appends the lookup form of s to dst: lower case, accents
// folded, dots and apostrophes dropped ("U.S.A." is "usa"), "&" read as
// "and", and any other run of punctuation or space turned into one space.
func appendCountryKey(dst []byte, s string) []byte {
	space := false
	word := func(dst []byte) []byte {
		if space && len(dst) > 0 {
			dst = append(dst, ' ')
		}
		space = false
		return dst
	}
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			i++
			switch {
			case c >= 'a' && c <= 'z' || c >= '0' && c <= '9':
				dst = append(word(dst), c)
			case c >= 'A' && c <= 'Z':
				dst = append(word(dst), c+'a'-'A')
			case c == '.' || c == '\'' || c == '`':
			case c == '&':
				space = true
				dst = append(word(dst), "and"...)
				space = true
			default:
				space = true
			}
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		i += n
		switch r = foldAccent(unicode.ToLower(r)); {
		case r == '\u2019' || r == '\u2018':
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			dst = utf8.AppendRune(word(dst), r)
		default:
			space = true
		}
	}
	return dst
}

// foldAccent maps the accented Latin letters found in country names to
// their base letter, so "Côte d'Ivoire" and "Cote d'Ivoire" meet.
func foldAccent(r rune) rune {
	switch r {
	case 'à', 'á', 'â', 'ã', 'ä', 'å':
		return 'a'
	case 'ç':
		return 'c'
	case 'è', 'é', 'ê', 'ë':
		return 'e'
	case 'ì', 'í', 'î', 'ï':
		return 'i'
	case 'ñ':
		return 'n'
	case 'ò', 'ó', 'ô', 'õ', 'ö', 'ø':
		return 'o'
	case 'ù', 'ú', 'û', 'ü':
		return 'u'
	case 'ý', 'ÿ':
		return 'y'
	}
	return r
}

func upperASCII(c byte) byte {
	if c >= 'a' && c <= 'z' {
		return c - ('a' - 'A')
	}
	return c
}
