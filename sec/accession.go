package sec

import (
	"fmt"
	"strconv"
	"strings"
)

// Default hosts of EDGAR: the archives (indexes and filings) and the
// JSON APIs (submissions).
const (
	DefaultBaseURL = "https://www.sec.gov"
	DefaultDataURL = "https://data.sec.gov"
)

// NormalizeCIK returns the CIK's digits without leading zeros ("0001234567"
// and "1234567" are both "1234567"), or "" when s is not a CIK.
func NormalizeCIK(s string) string {
	s = strings.TrimSpace(s)
	if s == "" || len(s) > 10 {
		return ""
	}
	n, err := strconv.ParseUint(s, 10, 64)
	if err != nil || n == 0 {
		return ""
	}
	return strconv.FormatUint(n, 10)
}

// PadCIK returns the ten-digit form data.sec.gov uses in file names.
func PadCIK(cik string) string {
	c := NormalizeCIK(cik)
	if c == "" {
		return ""
	}
	return strings.Repeat("0", 10-len(c)) + c
}

// ValidAccession reports whether s is an accession number shaped
// 0001234567-26-000001.
func ValidAccession(s string) bool {
	if len(s) != 20 || s[10] != '-' || s[13] != '-' {
		return false
	}
	for i := 0; i < len(s); i++ {
		if i == 10 || i == 13 {
			continue
		}
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// FilingFolderURL is the folder holding every document of a filing:
// base/Archives/edgar/data/CIK/ACCESSIONDIGITS/.
func FilingFolderURL(base, cik, accession string) string {
	return fmt.Sprintf("%s/Archives/edgar/data/%s/%s/", strings.TrimRight(base, "/"),
		NormalizeCIK(cik), strings.ReplaceAll(accession, "-", ""))
}

// FilingIndexURL is the filing's human-readable index page, the link
// kept as a financing event's or signal's source.
func FilingIndexURL(base, cik, accession string) string {
	return FilingFolderURL(base, cik, accession) + accession + "-index.htm"
}

// PrimaryDocURL is where a Form D's XML document is filed.
func PrimaryDocURL(base, cik, accession string) string {
	return FilingFolderURL(base, cik, accession) + "primary_doc.xml"
}

// SubmissionsURL is the company's submissions record on data.sec.gov.
func SubmissionsURL(dataBase, cik string) string {
	return strings.TrimRight(dataBase, "/") + "/submissions/CIK" + PadCIK(cik) + ".json"
}
