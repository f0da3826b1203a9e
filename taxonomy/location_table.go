package taxonomy

// usStates are the 50 states and the District of Columbia: USPS code and
// name. A job posting's "Austin, TX" or "Austin, Texas" is read through them.
var usStates = [...][2]string{
	{"AL", "Alabama"}, {"AK", "Alaska"}, {"AZ", "Arizona"}, {"AR", "Arkansas"}, {"CA", "California"},
	{"CO", "Colorado"}, {"CT", "Connecticut"}, {"DE", "Delaware"}, {"DC", "District of Columbia"},
	{"FL", "Florida"}, {"GA", "Georgia"}, {"HI", "Hawaii"}, {"ID", "Idaho"}, {"IL", "Illinois"},
	{"IN", "Indiana"}, {"IA", "Iowa"}, {"KS", "Kansas"}, {"KY", "Kentucky"}, {"LA", "Louisiana"},
	{"ME", "Maine"}, {"MD", "Maryland"}, {"MA", "Massachusetts"}, {"MI", "Michigan"}, {"MN", "Minnesota"},
	{"MS", "Mississippi"}, {"MO", "Missouri"}, {"MT", "Montana"}, {"NE", "Nebraska"}, {"NV", "Nevada"},
	{"NH", "New Hampshire"}, {"NJ", "New Jersey"}, {"NM", "New Mexico"}, {"NY", "New York"},
	{"NC", "North Carolina"}, {"ND", "North Dakota"}, {"OH", "Ohio"}, {"OK", "Oklahoma"}, {"OR", "Oregon"},
	{"PA", "Pennsylvania"}, {"RI", "Rhode Island"}, {"SC", "South Carolina"}, {"SD", "South Dakota"},
	{"TN", "Tennessee"}, {"TX", "Texas"}, {"UT", "Utah"}, {"VT", "Vermont"}, {"VA", "Virginia"},
	{"WA", "Washington"}, {"WV", "West Virginia"}, {"WI", "Wisconsin"}, {"WY", "Wyoming"},
}

// subdivisions are other first-level divisions job postings name instead
// of their country: Canadian provinces and territories (names and postal
// codes that are not also country codes) and Australian states. Entries are
// {name, country code}.
var subdivisions = [...][2]string{
	{"Alberta", "CA"}, {"AB", "CA"}, {"British Columbia", "CA"}, {"BC", "CA"}, {"Manitoba", "CA"}, {"MB", "CA"},
	{"New Brunswick", "CA"}, {"NB", "CA"}, {"Newfoundland and Labrador", "CA"}, {"Newfoundland", "CA"},
	{"Nova Scotia", "CA"}, {"NS", "CA"}, {"Ontario", "CA"}, {"ON", "CA"}, {"Prince Edward Island", "CA"},
	{"Quebec", "CA"}, {"QC", "CA"}, {"Saskatchewan", "CA"}, {"Yukon", "CA"}, {"Nunavut", "CA"},
	{"Northwest Territories", "CA"},
	{"New South Wales", "AU"}, {"NSW", "AU"}, {"Victoria", "AU"}, {"VIC", "AU"}, {"Queensland", "AU"},
	{"QLD", "AU"}, {"Tasmania", "AU"}, {"TAS", "AU"}, {"Western Australia", "AU"}, {"South Australia", "AU"},
	{"Australian Capital Territory", "AU"}, {"Northern Territory", "AU"},
	{"England", "GB"}, {"Scotland", "GB"}, {"Wales", "GB"}, {"Northern Ireland", "GB"},
	{"Bavaria", "DE"}, {"Bayern", "DE"}, {"Catalonia", "ES"}, {"Cataluña", "ES"}, {"Île-de-France", "FR"},
}

// cities are the employment hubs job postings most often name alone
// ("Berlin", "Hybrid - London"), with their country; only names that mean
// one city in practice are listed (no Cambridge, no Santiago).
var cities = [...][2]string{
	// United States
	{"New York City", "US"}, {"NYC", "US"}, {"San Francisco", "US"}, {"SF Bay Area", "US"}, {"Bay Area", "US"},
	{"Silicon Valley", "US"}, {"Los Angeles", "US"}, {"Seattle", "US"}, {"Boston", "US"}, {"Chicago", "US"},
	{"Austin", "US"}, {"Denver", "US"}, {"Atlanta", "US"}, {"Miami", "US"}, {"Dallas", "US"}, {"Houston", "US"},
	{"Palo Alto", "US"}, {"Mountain View", "US"}, {"San Jose", "US"}, {"San Diego", "US"}, {"Philadelphia", "US"},
	{"Pittsburgh", "US"}, {"Phoenix", "US"}, {"Salt Lake City", "US"}, {"Minneapolis", "US"}, {"Nashville", "US"},
	{"Raleigh", "US"}, {"Detroit", "US"}, {"Brooklyn", "US"}, {"Menlo Park", "US"}, {"Sunnyvale", "US"},
	// Europe
	{"London", "GB"}, {"Manchester", "GB"}, {"Edinburgh", "GB"}, {"Glasgow", "GB"}, {"Bristol", "GB"},
	{"Leeds", "GB"}, {"Belfast", "GB"}, {"Berlin", "DE"}, {"Munich", "DE"}, {"München", "DE"}, {"Hamburg", "DE"},
	{"Frankfurt", "DE"}, {"Frankfurt am Main", "DE"}, {"Cologne", "DE"}, {"Köln", "DE"}, {"Stuttgart", "DE"},
	{"Düsseldorf", "DE"}, {"Leipzig", "DE"}, {"Paris", "FR"}, {"Lyon", "FR"}, {"Marseille", "FR"},
	{"Toulouse", "FR"}, {"Bordeaux", "FR"}, {"Lille", "FR"}, {"Nantes", "FR"}, {"Amsterdam", "NL"},
	{"Rotterdam", "NL"}, {"Utrecht", "NL"}, {"The Hague", "NL"}, {"Eindhoven", "NL"}, {"Madrid", "ES"},
	{"Barcelona", "ES"}, {"Milan", "IT"}, {"Milano", "IT"}, {"Rome", "IT"}, {"Roma", "IT"}, {"Turin", "IT"},
	{"Torino", "IT"}, {"Lisbon", "PT"}, {"Lisboa", "PT"}, {"Porto", "PT"}, {"Dublin", "IE"}, {"Zurich", "CH"},
	{"Zürich", "CH"}, {"Geneva", "CH"}, {"Genève", "CH"}, {"Basel", "CH"}, {"Lausanne", "CH"}, {"Vienna", "AT"},
	{"Wien", "AT"}, {"Brussels", "BE"}, {"Bruxelles", "BE"}, {"Antwerp", "BE"}, {"Copenhagen", "DK"},
	{"København", "DK"}, {"Stockholm", "SE"}, {"Gothenburg", "SE"}, {"Göteborg", "SE"}, {"Malmö", "SE"},
	{"Oslo", "NO"}, {"Helsinki", "FI"}, {"Warsaw", "PL"}, {"Warszawa", "PL"}, {"Krakow", "PL"}, {"Kraków", "PL"},
	{"Wroclaw", "PL"}, {"Wrocław", "PL"}, {"Prague", "CZ"}, {"Praha", "CZ"}, {"Budapest", "HU"},
	{"Bucharest", "RO"}, {"Athens", "GR"}, {"Tallinn", "EE"}, {"Vilnius", "LT"}, {"Riga", "LV"}, {"Kyiv", "UA"},
	{"Kiev", "UA"}, {"Istanbul", "TR"},
	// Middle East, Africa, Asia, Oceania, the Americas
	{"Tel Aviv", "IL"}, {"Tel Aviv-Yafo", "IL"}, {"Jerusalem", "IL"}, {"Dubai", "AE"}, {"Abu Dhabi", "AE"},
	{"Riyadh", "SA"}, {"Cairo", "EG"}, {"Nairobi", "KE"}, {"Cape Town", "ZA"}, {"Johannesburg", "ZA"},
	{"Bangalore", "IN"}, {"Bengaluru", "IN"}, {"Mumbai", "IN"}, {"New Delhi", "IN"}, {"Delhi", "IN"},
	{"Hyderabad", "IN"}, {"Pune", "IN"}, {"Chennai", "IN"}, {"Gurgaon", "IN"}, {"Gurugram", "IN"}, {"Noida", "IN"},
	{"Tokyo", "JP"}, {"Osaka", "JP"}, {"Seoul", "KR"}, {"Beijing", "CN"}, {"Shanghai", "CN"}, {"Shenzhen", "CN"},
	{"Taipei", "TW"}, {"Manila", "PH"}, {"Jakarta", "ID"}, {"Bangkok", "TH"}, {"Kuala Lumpur", "MY"},
	{"Ho Chi Minh City", "VN"}, {"Hanoi", "VN"}, {"Sydney", "AU"}, {"Melbourne", "AU"}, {"Brisbane", "AU"},
	{"Adelaide", "AU"}, {"Auckland", "NZ"}, {"Toronto", "CA"}, {"Vancouver", "CA"}, {"Montreal", "CA"},
	{"Montréal", "CA"}, {"Ottawa", "CA"}, {"Calgary", "CA"}, {"São Paulo", "BR"}, {"Sao Paulo", "BR"},
	{"Rio de Janeiro", "BR"}, {"Mexico City", "MX"}, {"Ciudad de México", "MX"}, {"Guadalajara", "MX"},
	{"Buenos Aires", "AR"}, {"Bogotá", "CO"}, {"Medellín", "CO"},
}
