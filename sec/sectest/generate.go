package sectest

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"strconv"
	"strings"
	"time"
)

// Issuer is a generated Form D issuer: what the fixture files say and
// what a company store needs to resolve it (Domain, City, Region).
type Issuer struct {
	CIK       string // without leading zeros
	Name      string // legal name as filed: "Cobalt Peak Robotics, Inc."
	Domain    string // company domain under .example
	Website   bool   // whether the submissions record names the domain
	Street    string
	City      string
	State     string // EDGAR (postal) code
	Region    string // the state's name
	Accession string
	Sold      int64 // totalAmountSold
	Offering  int64
	FirstSale string // YYYY-MM-DD
}

var (
	genFirst = []string{"Acorn", "Basalt", "Cobalt", "Driftwood", "Ember", "Fjord", "Granite", "Harbor", "Indigo",
		"Juniper", "Kestrel", "Lumen", "Meridian", "Nimbus", "Orchid", "Prairie", "Quartz", "Russet", "Sierra",
		"Tidal", "Umber", "Vesper", "Willow", "Yarrow", "Zephyr"}
	genMid  = []string{"", "Bay", "Peak", "Line", "Works"}
	genKind = []string{"Robotics", "Analytics", "Biosciences", "Labs", "Software", "Energy", "Foods", "Logistics",
		"Health", "Materials", "Systems", "Networks", "Devices", "Therapeutics", "Payments"}
	genForm   = []string{", Inc.", " Inc", " LLC", " Corp.", ", Inc.", " Co."}
	genPlaces = [][3]string{{"Austin", "TX", "Texas"}, {"Denver", "CO", "Colorado"}, {"Boston", "MA", "Massachusetts"},
		{"Seattle", "WA", "Washington"}, {"Raleigh", "NC", "North Carolina"}, {"Columbus", "OH", "Ohio"},
		{"San Diego", "CA", "California"}, {"Nashville", "TN", "Tennessee"}, {"Pittsburgh", "PA", "Pennsylvania"},
		{"Salt Lake City", "UT", "Utah"}, {"Atlanta", "GA", "Georgia"}, {"Minneapolis", "MN", "Minnesota"}}
	genGiven  = []string{"Alma", "Bastian", "Cyrille", "Delphine", "Emrys", "Fenna", "Gwilym", "Hollis", "Ilse", "Jorun"}
	genFamily = []string{"Ashgrove", "Brennholt", "Carrow", "Dunleavy", "Everhart", "Fairweather", "Grimsby", "Hallorann",
		"Ingleby", "Jessop"}
)

// GenerateFormDs adds n Form D filings to day's index (creating it, or
// appending to the built-in one), each with its primary_doc.xml and its
// issuer's submissions record, and returns the issuers. The same seed
// gives the same filings; issuers get CIKs from 1910000 up, every other
// one a website in its submissions record. n is at most 1875.
func (s *Server) GenerateFormDs(day time.Time, n int, seed uint64) []Issuer {
	r := rand.New(rand.NewPCG(seed, seed^0x5ec))
	combos := len(genFirst) * len(genMid) * len(genKind)
	if n > combos {
		n = combos
	}
	perm := r.Perm(combos)
	idxPath := fmt.Sprintf("/Archives/edgar/daily-index/%d/QTR%d/form.%s.idx", day.Year(), (int(day.Month())-1)/3+1, day.Format("20060102"))
	index, _, ok := s.lookup(idxPath)
	if !ok {
		index = []byte(indexHeader(day))
	}
	var rows strings.Builder
	out := make([]Issuer, 0, n)
	for i := range n {
		c := perm[i]
		first, mid, kind := genFirst[c%len(genFirst)], genMid[c/len(genFirst)%len(genMid)], genKind[c/(len(genFirst)*len(genMid))]
		base := strings.TrimSpace(first + " " + mid + " " + kind)
		place := genPlaces[r.IntN(len(genPlaces))]
		cik := 1910000 + i
		sold := int64(1+r.IntN(400)) * 25000
		is := Issuer{
			CIK: fmt.Sprint(cik), Name: base + genForm[r.IntN(len(genForm))],
			Domain:  strings.ToLower(strings.ReplaceAll(base, " ", "")) + ".example",
			Website: i%2 == 0, Street: fmt.Sprintf("%d %s Street", 100+r.IntN(9800), genFirst[r.IntN(len(genFirst))]),
			City: place[0], State: place[1], Region: place[2],
			Accession: fmt.Sprintf("%010d-%s-%06d", cik, day.Format("06"), 1+r.IntN(900)),
			Sold:      sold, Offering: sold + int64(r.IntN(40))*25000,
			FirstSale: day.AddDate(0, 0, -1-r.IntN(14)).Format(time.DateOnly),
		}
		person := genGiven[r.IntN(len(genGiven))] + " " + genFamily[r.IntN(len(genFamily))]
		folder := fmt.Sprintf("/Archives/edgar/data/%d/%s/", cik, strings.ReplaceAll(is.Accession, "-", ""))
		s.Put(folder+"primary_doc.xml", []byte(formDXML(is, person, day)))
		s.Put(fmt.Sprintf("/submissions/CIK%010d.json", cik), submissionsJSON(is, day))
		fmt.Fprintf(&rows, "%-12s%-62s%-12d%-12s%s\n", "D", strings.ToUpper(is.Name), cik,
			day.Format("20060102"), fmt.Sprintf("edgar/data/%d/%s.txt", cik, is.Accession))
		out = append(out, is)
	}
	s.Put(idxPath, append(append([]byte(nil), index...), rows.String()...))
	return out
}

func indexHeader(day time.Time) string {
	return "Description:           Daily Index of EDGAR Dissemination Feed by Form Type\n" +
		"Last Data Received:    " + day.Format("January 2, 2006") + "\n" +
		"Comments:              webmaster@sec.gov\nAnonymous FTP:         ftp://ftp.sec.gov/edgar/\n\n\n\n\n" +
		"Form Type   Company Name                                                  CIK         Date Filed  File Name\n" +
		strings.Repeat("-", 141) + "\n"
}

func formDXML(is Issuer, person string, day time.Time) string {
	given, family, _ := strings.Cut(person, " ")
	return fmt.Sprintf(`<?xml version="1.0"?>
<edgarSubmission>
  <schemaVersion>X0708</schemaVersion>
  <submissionType>D</submissionType>
  <testOrLive>LIVE</testOrLive>
  <primaryIssuer>
    <cik>%010d</cik>
    <entityName>%s</entityName>
    <issuerAddress>
      <street1>%s</street1>
      <city>%s</city>
      <stateOrCountry>%s</stateOrCountry>
      <stateOrCountryDescription>%s</stateOrCountryDescription>
      <zipCode>00000</zipCode>
    </issuerAddress>
    <issuerPhoneNumber>555-555-0100</issuerPhoneNumber>
    <jurisdictionOfInc>DELAWARE</jurisdictionOfInc>
    <issuerPreviousNameList><value>None</value></issuerPreviousNameList>
    <edgarPreviousNameList><value>None</value></edgarPreviousNameList>
    <entityType>Corporation</entityType>
    <yearOfInc><withinFiveYears>true</withinFiveYears><value>%d</value></yearOfInc>
  </primaryIssuer>
  <relatedPersonsList>
    <relatedPersonInfo>
      <relatedPersonName><firstName>%s</firstName><lastName>%s</lastName></relatedPersonName>
      <relatedPersonAddress><street1>%s</street1><city>%s</city><stateOrCountry>%s</stateOrCountry><stateOrCountryDescription>%s</stateOrCountryDescription><zipCode>00000</zipCode></relatedPersonAddress>
      <relatedPersonRelationshipList><relationship>Executive Officer</relationship><relationship>Director</relationship></relatedPersonRelationshipList>
      <relationshipClarification>Chief Executive Officer</relationshipClarification>
    </relatedPersonInfo>
  </relatedPersonsList>
  <offeringData>
    <industryGroup><industryGroupType>Other Technology</industryGroupType></industryGroup>
    <issuerSize><revenueRange>Decline to Disclose</revenueRange></issuerSize>
    <federalExemptionsExclusions><item>06b</item></federalExemptionsExclusions>
    <typeOfFiling>
      <newOrAmendment><isAmendment>false</isAmendment></newOrAmendment>
      <dateOfFirstSale><value>%s</value></dateOfFirstSale>
    </typeOfFiling>
    <durationOfOffering><moreThanOneYear>false</moreThanOneYear></durationOfOffering>
    <typesOfSecuritiesOffered><isEquityType>true</isEquityType></typesOfSecuritiesOffered>
    <businessCombinationTransaction><isBusinessCombinationTransaction>false</isBusinessCombinationTransaction></businessCombinationTransaction>
    <minimumInvestmentAccepted>0</minimumInvestmentAccepted>
    <salesCompensationList></salesCompensationList>
    <offeringSalesAmounts>
      <totalOfferingAmount>%d</totalOfferingAmount>
      <totalAmountSold>%d</totalAmountSold>
      <totalRemaining>%d</totalRemaining>
    </offeringSalesAmounts>
    <investors><hasNonAccreditedInvestors>false</hasNonAccreditedInvestors><totalNumberAlreadyInvested>5</totalNumberAlreadyInvested></investors>
    <salesCommissionsFindersFees><salesCommissions><dollarAmount>0</dollarAmount></salesCommissions><findersFees><dollarAmount>0</dollarAmount></findersFees></salesCommissionsFindersFees>
    <useOfProceeds><grossProceedsUsed><dollarAmount>0</dollarAmount></grossProceedsUsed></useOfProceeds>
    <signatureBlock>
      <authorizedRepresentative>false</authorizedRepresentative>
      <signature><issuerName>%s</issuerName><signatureName>/s/ %s</signatureName><nameOfSigner>%s</nameOfSigner><signatureTitle>Chief Executive Officer</signatureTitle><signatureDate>%s</signatureDate></signature>
    </signatureBlock>
  </offeringData>
</edgarSubmission>
`, atoi(is.CIK), xmlEscape(is.Name), is.Street, is.City, is.State, strings.ToUpper(is.Region), day.Year()-2,
		given, family, is.Street, is.City, is.State, strings.ToUpper(is.Region),
		is.FirstSale, is.Offering, is.Sold, is.Offering-is.Sold, xmlEscape(is.Name), person, person, day.Format(time.DateOnly))
}

func atoi(s string) int {
	n, _ := strconv.Atoi(s)
	return n
}

func xmlEscape(s string) string {
	return strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;").Replace(s)
}

func submissionsJSON(is Issuer, day time.Time) []byte {
	website := ""
	if is.Website {
		website = "https://www." + is.Domain
	}
	addr := map[string]any{"street1": strings.ToUpper(is.Street), "street2": nil, "city": strings.ToUpper(is.City),
		"stateOrCountry": is.State, "zipCode": "00000", "stateOrCountryDescription": is.State}
	rec := map[string]any{
		"cik": is.CIK, "entityType": "other", "sic": "", "sicDescription": "", "name": is.Name,
		"tickers": []string{}, "exchanges": []string{}, "website": website, "investorWebsite": "",
		"addresses": map[string]any{"mailing": addr, "business": addr}, "phone": "555-555-0100", "formerNames": []any{},
		"filings": map[string]any{"recent": map[string]any{
			"accessionNumber": []string{is.Accession}, "filingDate": []string{day.Format(time.DateOnly)},
			"form": []string{"D"}, "fileNumber": []string{"021-6" + is.CIK[2:]},
			"primaryDocument": []string{"xslFormDX01/primary_doc.xml"}, "items": []string{""},
		}, "files": []any{}},
	}
	b, err := json.Marshal(rec)
	if err != nil {
		panic(err) // only maps of strings: cannot fail
	}
	return b
}

// File returns what the server answers at an URL path (added, built-in
// or generated); ok is false when it has nothing there.
func (s *Server) File(urlPath string) ([]byte, bool) {
	b, _, ok := s.lookup(urlPath)
	return b, ok
}

// Fixture returns a built-in fixture file by URL path, for tests that
// parse without a server; ok is false when there is none.
func Fixture(urlPath string) ([]byte, bool) {
	b, err := fs.ReadFile(fixtures, "fixtures"+urlPath)
	return b, err == nil
}
