package demo

import "math/rand/v2"

// country is one place companies and people are in. Cities are listed
// biggest hub first; the first ones are picked more often.
type country struct {
	code, name string
	weight     float64
	currency   string   // of financing amounts: "$", "€" or "£"
	legal      []string // company name suffixes
	cities     []city
}

type city struct{ name, region string }

// place is a city of a country.
type place struct {
	country *country
	city    city
}

var countries = []country{
	{"US", "United States", 40, "$", []string{"Inc", "Inc", "LLC", "Corp"}, []city{
		{"New York", "New York"}, {"San Francisco", "California"}, {"Austin", "Texas"}, {"Boston", "Massachusetts"},
		{"Seattle", "Washington"}, {"Chicago", "Illinois"}, {"Denver", "Colorado"}, {"Atlanta", "Georgia"},
		{"Los Angeles", "California"}, {"Miami", "Florida"}, {"Raleigh", "North Carolina"}, {"Salt Lake City", "Utah"},
		{"Dallas", "Texas"}, {"Minneapolis", "Minnesota"}, {"Pittsburgh", "Pennsylvania"}, {"Nashville", "Tennessee"},
		{"San Diego", "California"}, {"Phoenix", "Arizona"}}},
	{"GB", "United Kingdom", 9, "£", []string{"Ltd"}, []city{
		{"London", "England"}, {"Manchester", "England"}, {"Edinburgh", "Scotland"}, {"Bristol", "England"},
		{"Cambridge", "England"}, {"Leeds", "England"}, {"Belfast", "Northern Ireland"}, {"Cardiff", "Wales"}}},
	{"DE", "Germany", 6, "€", []string{"GmbH"}, []city{
		{"Berlin", "Berlin"}, {"Munich", "Bavaria"}, {"Hamburg", "Hamburg"}, {"Frankfurt", "Hesse"},
		{"Cologne", "North Rhine-Westphalia"}, {"Stuttgart", "Baden-Württemberg"}}},
	{"FR", "France", 5, "€", []string{"SAS"}, []city{
		{"Paris", "Île-de-France"}, {"Lyon", "Auvergne-Rhône-Alpes"}, {"Toulouse", "Occitanie"},
		{"Nantes", "Pays de la Loire"}, {"Bordeaux", "Nouvelle-Aquitaine"}, {"Lille", "Hauts-de-France"}}},
	{"CA", "Canada", 5, "$", []string{"Inc"}, []city{
		{"Toronto", "Ontario"}, {"Vancouver", "British Columbia"}, {"Montreal", "Quebec"}, {"Ottawa", "Ontario"},
		{"Calgary", "Alberta"}, {"Waterloo", "Ontario"}}},
	{"AU", "Australia", 4, "$", []string{"Pty Ltd"}, []city{
		{"Sydney", "New South Wales"}, {"Melbourne", "Victoria"}, {"Brisbane", "Queensland"},
		{"Perth", "Western Australia"}, {"Adelaide", "South Australia"}}},
	{"SG", "Singapore", 3, "$", []string{"Pte Ltd"}, []city{{"Singapore", ""}}},
	{"IN", "India", 4, "$", []string{"Pvt Ltd"}, []city{
		{"Bengaluru", "Karnataka"}, {"Mumbai", "Maharashtra"}, {"Hyderabad", "Telangana"}, {"Pune", "Maharashtra"},
		{"Chennai", "Tamil Nadu"}, {"Gurugram", "Haryana"}, {"New Delhi", "Delhi"}}},
	{"NL", "Netherlands", 3, "€", []string{"B.V."}, []city{
		{"Amsterdam", "North Holland"}, {"Rotterdam", "South Holland"}, {"Utrecht", "Utrecht"}, {"Eindhoven", "North Brabant"}}},
	{"SE", "Sweden", 2, "€", []string{"AB"}, []city{
		{"Stockholm", "Stockholm County"}, {"Gothenburg", "Västra Götaland"}, {"Malmö", "Skåne"}}},
	{"ES", "Spain", 2, "€", []string{"S.L."}, []city{
		{"Madrid", "Community of Madrid"}, {"Barcelona", "Catalonia"}, {"Valencia", "Valencian Community"}, {"Seville", "Andalusia"}}},
	{"BR", "Brazil", 2, "$", []string{"Ltda"}, []city{
		{"São Paulo", "São Paulo"}, {"Rio de Janeiro", "Rio de Janeiro"}, {"Belo Horizonte", "Minas Gerais"},
		{"Florianópolis", "Santa Catarina"}}},
	{"ID", "Indonesia", 2, "$", nil, []city{
		{"Jakarta", "Jakarta"}, {"Surabaya", "East Java"}, {"Bandung", "West Java"}, {"Denpasar", "Bali"}}},
	{"JP", "Japan", 2, "$", []string{"K.K."}, []city{
		{"Tokyo", "Tokyo"}, {"Osaka", "Osaka"}, {"Fukuoka", "Fukuoka"}, {"Kyoto", "Kyoto"}}},
	{"IE", "Ireland", 1.5, "€", []string{"Ltd"}, []city{
		{"Dublin", "County Dublin"}, {"Cork", "County Cork"}, {"Galway", "County Galway"}}},
	{"IL", "Israel", 1.5, "$", []string{"Ltd"}, []city{
		{"Tel Aviv", "Tel Aviv District"}, {"Jerusalem", "Jerusalem District"}, {"Haifa", "Haifa District"}}},
	{"CH", "Switzerland", 1.5, "$", []string{"AG"}, []city{
		{"Zurich", "Zurich"}, {"Geneva", "Geneva"}, {"Basel", "Basel-Stadt"}, {"Lausanne", "Vaud"}}},
	{"AE", "United Arab Emirates", 1.5, "$", []string{"LLC"}, []city{{"Dubai", "Dubai"}, {"Abu Dhabi", "Abu Dhabi"}}},
	{"MX", "Mexico", 1.5, "$", []string{"S.A. de C.V."}, []city{
		{"Mexico City", "Mexico City"}, {"Guadalajara", "Jalisco"}, {"Monterrey", "Nuevo León"}}},
	{"PL", "Poland", 1.5, "€", []string{"Sp. z o.o."}, []city{
		{"Warsaw", "Masovia"}, {"Kraków", "Lesser Poland"}, {"Wrocław", "Lower Silesia"}, {"Gdańsk", "Pomerania"}}},
}

var countryWeights = func() weights {
	ws := make([]float64, len(countries))
	for i, c := range countries {
		ws[i] = c.weight
	}
	return newWeights(ws...)
}()

func randomCountry(r *rand.Rand) *country { return &countries[countryWeights.pick(r)] }

// randomCity favours a country's first cities: half the picks go to the
// first two.
func (c *country) randomCity(r *rand.Rand) city {
	if len(c.cities) > 2 && chance(r, 0.5) {
		return c.cities[r.IntN(2)]
	}
	return pick(r, c.cities)
}

func randomPlace(r *rand.Rand) place {
	c := randomCountry(r)
	return place{c, c.randomCity(r)}
}

// label is "City, Region, Country name" with an empty region left out.
func (p place) label() string {
	if p.city.region == "" || p.city.region == p.city.name {
		return p.city.name + ", " + p.country.name
	}
	return p.city.name + ", " + p.city.region + ", " + p.country.name
}
