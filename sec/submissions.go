package sec

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// Submissions is a company's record on data.sec.gov
// (submissions/CIK##########.json): who it is and its recent filings.
type Submissions struct {
	CIK                  string
	Name                 string
	EntityType           string
	SIC                  string
	SICDescription       string
	Tickers              []string
	Exchanges            []string
	Website              string
	InvestorWebsite      string
	StateOfIncorporation string
	Phone                string
	Business             Address
	Mailing              Address
	FormerNames          []FormerName
	// Filings are the recent filings (the record's filings.recent, up
	// to about a thousand), newest first as EDGAR lists them.
	Filings []SubmissionFiling
}

// Address is a postal address of a submissions record.
type Address struct {
	Street1          string
	Street2          string
	City             string
	State            string // EDGAR state or country code
	StateDescription string
	Zip              string
}

// FormerName is a name the company filed under before.
type FormerName struct {
	Name string
	From string
	To   string
}

// SubmissionFiling is one filing of a submissions record.
type SubmissionFiling struct {
	Accession       string
	FilingDate      string
	Form            string
	FileNumber      string
	PrimaryDocument string
	Items           string
}

// flexString reads a JSON string or number as text (the record's cik
// has been seen as both).
type flexString string

func (f *flexString) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	if len(b) > 0 && b[0] == '"' {
		var s string
		if err := json.Unmarshal(b, &s); err != nil {
			return err
		}
		*f = flexString(s)
		return nil
	}
	if string(b) == "null" {
		return nil
	}
	if _, err := strconv.ParseFloat(string(b), 64); err != nil {
		return fmt.Errorf("want string or number, got %s", b)
	}
	*f = flexString(b)
	return nil
}

type rawAddress struct {
	Street1                   string `json:"street1"`
	Street2                   string `json:"street2"`
	City                      string `json:"city"`
	StateOrCountry            string `json:"stateOrCountry"`
	StateOrCountryDescription string `json:"stateOrCountryDescription"`
	ZipCode                   string `json:"zipCode"`
}

type rawSubmissions struct {
	CIK                  flexString `json:"cik"`
	EntityType           string     `json:"entityType"`
	SIC                  flexString `json:"sic"`
	SICDescription       string     `json:"sicDescription"`
	Name                 string     `json:"name"`
	Tickers              []string   `json:"tickers"`
	Exchanges            []string   `json:"exchanges"`
	Website              string     `json:"website"`
	InvestorWebsite      string     `json:"investorWebsite"`
	StateOfIncorporation string     `json:"stateOfIncorporation"`
	Phone                string     `json:"phone"`
	Addresses            struct {
		Mailing  rawAddress `json:"mailing"`
		Business rawAddress `json:"business"`
	} `json:"addresses"`
	FormerNames []struct {
		Name string `json:"name"`
		From string `json:"from"`
		To   string `json:"to"`
	} `json:"formerNames"`
	Filings struct {
		Recent struct {
			AccessionNumber []string `json:"accessionNumber"`
			FilingDate      []string `json:"filingDate"`
			Form            []string `json:"form"`
			FileNumber      []string `json:"fileNumber"`
			PrimaryDocument []string `json:"primaryDocument"`
			Items           []string `json:"items"`
		} `json:"recent"`
	} `json:"filings"`
}

// maxSubmissionsSize bounds a submissions record; the largest filers'
// records are a few megabytes.
const maxSubmissionsSize = 32 << 20

// ErrNotSubmissions is returned for a document that is not a
// submissions record.
var ErrNotSubmissions = errors.New("sec: not a submissions record")

// ParseSubmissions decodes a submissions record. It fails with
// ErrNotSubmissions for malformed JSON or a record without cik or name.
func ParseSubmissions(data []byte) (*Submissions, error) {
	if len(data) > maxSubmissionsSize {
		return nil, fmt.Errorf("%w: %d bytes", ErrNotSubmissions, len(data))
	}
	var r rawSubmissions
	if err := json.Unmarshal(data, &r); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrNotSubmissions, err)
	}
	s := &Submissions{
		CIK: NormalizeCIK(string(r.CIK)), Name: clean(r.Name), EntityType: clean(r.EntityType),
		SIC: string(r.SIC), SICDescription: clean(r.SICDescription), Tickers: r.Tickers, Exchanges: r.Exchanges,
		Website: strings.TrimSpace(r.Website), InvestorWebsite: strings.TrimSpace(r.InvestorWebsite),
		StateOfIncorporation: clean(r.StateOfIncorporation), Phone: clean(r.Phone),
		Business: address(r.Addresses.Business), Mailing: address(r.Addresses.Mailing),
	}
	if s.CIK == "" || s.Name == "" {
		return nil, fmt.Errorf("%w: no cik or name", ErrNotSubmissions)
	}
	for _, f := range r.FormerNames {
		if n := clean(f.Name); n != "" {
			s.FormerNames = append(s.FormerNames, FormerName{Name: n, From: f.From, To: f.To})
		}
	}
	rc := r.Filings.Recent
	at := func(l []string, i int) string {
		if i < len(l) {
			return strings.TrimSpace(l[i])
		}
		return ""
	}
	for i, acc := range rc.AccessionNumber {
		if !ValidAccession(acc) {
			continue
		}
		s.Filings = append(s.Filings, SubmissionFiling{
			Accession: acc, FilingDate: at(rc.FilingDate, i), Form: at(rc.Form, i), FileNumber: at(rc.FileNumber, i),
			PrimaryDocument: at(rc.PrimaryDocument, i), Items: at(rc.Items, i),
		})
	}
	return s, nil
}

func address(a rawAddress) Address {
	return Address{
		Street1: clean(a.Street1), Street2: clean(a.Street2), City: clean(a.City),
		State: strings.ToUpper(clean(a.StateOrCountry)), StateDescription: clean(a.StateOrCountryDescription),
		Zip: clean(a.ZipCode),
	}
}

// Filing returns the record's filing with that accession number.
func (s *Submissions) Filing(accession string) (SubmissionFiling, bool) {
	for _, f := range s.Filings {
		if f.Accession == accession {
			return f, true
		}
	}
	return SubmissionFiling{}, false
}

// Submissions fetches and parses the submissions record of cik. A CIK
// EDGAR does not know fails with ErrMissing.
func (c *Client) Submissions(ctx context.Context, cik string) (*Submissions, error) {
	if NormalizeCIK(cik) == "" {
		return nil, fmt.Errorf("sec: %q is not a CIK", cik)
	}
	url := SubmissionsURL(c.data, cik)
	b, err := c.fetchBody(ctx, url, "application/json")
	if err != nil {
		return nil, err
	}
	s, err := ParseSubmissions(b)
	if err != nil {
		return nil, fmt.Errorf("sec: %s: %w", url, err)
	}
	return s, nil
}
