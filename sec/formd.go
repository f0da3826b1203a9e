package sec

import (
	"bytes"
	"context"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"
)

// FormDDoc is a Form D notice as filed: the primary_doc.xml of a D or
// D/A submission (EDGAR Form D XML technical specification). Only the
// parts Prospector reads are declared.
type FormDDoc struct {
	XMLName        xml.Name      `xml:"edgarSubmission"`
	SchemaVersion  string        `xml:"schemaVersion"`
	SubmissionType string        `xml:"submissionType"`
	PrimaryIssuer  formDIssuer   `xml:"primaryIssuer"`
	RelatedPersons []formDPerson `xml:"relatedPersonsList>relatedPersonInfo"`
	Offering       formDOffering `xml:"offeringData"`
}

type formDAddress struct {
	Street1                   string `xml:"street1"`
	Street2                   string `xml:"street2"`
	City                      string `xml:"city"`
	StateOrCountry            string `xml:"stateOrCountry"`
	StateOrCountryDescription string `xml:"stateOrCountryDescription"`
	ZipCode                   string `xml:"zipCode"`
}

type formDIssuer struct {
	CIK                 string       `xml:"cik"`
	EntityName          string       `xml:"entityName"`
	Address             formDAddress `xml:"issuerAddress"`
	Phone               string       `xml:"issuerPhoneNumber"`
	JurisdictionOfInc   string       `xml:"jurisdictionOfInc"`
	PreviousNames       []string     `xml:"issuerPreviousNameList>previousName"`
	EntityType          string       `xml:"entityType"`
	EntityTypeOtherDesc string       `xml:"entityTypeOtherDesc"`
	YearOfInc           struct {
		WithinFiveYears string `xml:"withinFiveYears"`
		OverFiveYears   string `xml:"overFiveYears"`
		YetToBeFormed   string `xml:"yetToBeFormed"`
		Value           string `xml:"value"`
	} `xml:"yearOfInc"`
}

type formDPerson struct {
	First         string       `xml:"relatedPersonName>firstName"`
	Middle        string       `xml:"relatedPersonName>middleName"`
	Last          string       `xml:"relatedPersonName>lastName"`
	Address       formDAddress `xml:"relatedPersonAddress"`
	Relationships []string     `xml:"relatedPersonRelationshipList>relationship"`
	Clarification string       `xml:"relationshipClarification"`
}

type formDOffering struct {
	IndustryGroup struct {
		Type     string `xml:"industryGroupType"`
		FundType string `xml:"investmentFundInfo>investmentFundType"`
		Is40Act  string `xml:"investmentFundInfo>is40Act"`
	} `xml:"industryGroup"`
	RevenueRange  string   `xml:"issuerSize>revenueRange"`
	NAVRange      string   `xml:"issuerSize>aggregateNetAssetValueRange"`
	Exemptions    []string `xml:"federalExemptionsExclusions>item"`
	IsAmendment   string   `xml:"typeOfFiling>newOrAmendment>isAmendment"`
	PreviousAcc   string   `xml:"typeOfFiling>newOrAmendment>previousAccessionNumber"`
	FirstSale     string   `xml:"typeOfFiling>dateOfFirstSale>value"`
	YetToOccur    string   `xml:"typeOfFiling>dateOfFirstSale>yetToOccur"`
	MoreThanAYear string   `xml:"durationOfOffering>moreThanOneYear"`
	Securities    struct {
		Equity           string `xml:"isEquityType"`
		Debt             string `xml:"isDebtType"`
		Option           string `xml:"isOptionToAcquireType"`
		ToBeAcquired     string `xml:"isSecurityToBeAcquiredType"`
		Pooled           string `xml:"isPooledInvestmentFundType"`
		TenantInCommon   string `xml:"isTenantInCommonType"`
		MineralProperty  string `xml:"isMineralPropertyType"`
		Other            string `xml:"isOtherType"`
		OtherDescription string `xml:"descriptionOfOtherType"`
	} `xml:"typesOfSecuritiesOffered"`
	BusinessCombination string `xml:"businessCombinationTransaction>isBusinessCombinationTransaction"`
	MinimumInvestment   string `xml:"minimumInvestmentAccepted"`
	Amounts             struct {
		TotalOffering string `xml:"totalOfferingAmount"`
		TotalSold     string `xml:"totalAmountSold"`
		TotalRemain   string `xml:"totalRemaining"`
		Clarification string `xml:"clarificationOfResponse"`
	} `xml:"offeringSalesAmounts"`
	Investors struct {
		HasNonAccredited string `xml:"hasNonAccreditedInvestors"`
		AlreadyInvested  string `xml:"totalNumberAlreadyInvested"`
	} `xml:"investors"`
}

// maxFormDSize bounds what ParseFormD reads: a Form D with 100 related
// persons and 100 sales recipients is well under 1 MB.
const maxFormDSize = 4 << 20

// ErrNotFormD is returned for an XML document that is not a Form D.
var ErrNotFormD = errors.New("sec: not a Form D document")

// ParseFormDDoc decodes a primary_doc.xml. It fails with ErrNotFormD for
// a document that is not a D or D/A submission and for malformed XML.
func ParseFormDDoc(data []byte) (*FormDDoc, error) {
	if len(data) > maxFormDSize {
		return nil, fmt.Errorf("%w: %d bytes is larger than any Form D", ErrNotFormD, len(data))
	}
	var d FormDDoc
	dec := xml.NewDecoder(bytes.NewReader(data))
	dec.CharsetReader = charsetReader
	if err := dec.Decode(&d); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrNotFormD, err)
	}
	t := strings.TrimSpace(d.SubmissionType)
	if t != FormD && t != FormDA {
		return nil, fmt.Errorf("%w: submission type %q", ErrNotFormD, t)
	}
	return &d, nil
}

// isTrue reads the specification's "true"/"false" (and the "Y" some
// filer software writes).
func isTrue(s string) bool {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "true", "y", "yes", "1":
		return true
	}
	return false
}

// amount reads a Form D dollar amount: digits, or "Indefinite" (ok
// false, indefinite true).
func amount(s string) (v int64, ok, indefinite bool) {
	s = strings.TrimSpace(s)
	if strings.EqualFold(s, "Indefinite") {
		return 0, false, true
	}
	s = strings.NewReplacer(",", "", "$", "").Replace(s)
	if i := strings.IndexByte(s, '.'); i >= 0 {
		s = s[:i]
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n < 0 {
		return 0, false, false
	}
	return n, true, false
}

// charsetReader lets the decoder read documents declared ISO-8859-1 or
// windows-1252, which some filer software writes: each byte becomes the
// rune of the same number (exact for ISO-8859-1; windows-1252's few
// extra printable characters in 0x80-0x9F come out as C1 controls, which
// Form D text does not use). Other declared charsets are refused.
func charsetReader(charset string, r io.Reader) (io.Reader, error) {
	switch strings.ToLower(charset) {
	case "iso-8859-1", "iso8859-1", "latin1", "windows-1252", "cp1252", "us-ascii", "ascii":
	default:
		return nil, fmt.Errorf("unsupported charset %q", charset)
	}
	b, err := io.ReadAll(io.LimitReader(r, maxFormDSize))
	if err != nil {
		return nil, err
	}
	out := make([]byte, 0, len(b)+len(b)/8)
	for _, c := range b {
		out = utf8.AppendRune(out, rune(c))
	}
	return bytes.NewReader(out), nil
}

// FormD fetches the Form D of a D or D/A filing and reads it. The XML is
// at the filing folder's primary_doc.xml; when it is not there, the
// filing's index page names it. The offering's Original is provisional
// for a D/A until ResolveOriginal is given the issuer's submissions.
func (c *Client) FormD(ctx context.Context, e IndexEntry) (*Offering, error) {
	u := PrimaryDocURL(c.base, e.CIK, e.Accession)
	b, err := c.fetchBody(ctx, u, "application/xml")
	if errors.Is(err, ErrMissing) {
		fi, ierr := c.FilingIndex(ctx, e.CIK, e.Accession)
		if ierr != nil {
			return nil, fmt.Errorf("sec: Form D %s: %w", e.Accession, ierr)
		}
		d, ok := fi.formDXML()
		if !ok {
			return nil, fmt.Errorf("%w: no Form D XML in filing %s", ErrMissing, e.Accession)
		}
		u = d.URL
		b, err = c.fetchBody(ctx, u, "application/xml")
	}
	if err != nil {
		return nil, err
	}
	doc, err := ParseFormDDoc(b)
	if err != nil {
		return nil, fmt.Errorf("sec: %s: %w", u, err)
	}
	return NewOffering(doc, e, c.base), nil
}
