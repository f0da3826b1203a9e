package sec

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"path"
	"strings"
	"time"
)

// Form types the source reads. 8-K/A is included because an amendment
// to Item 5.02 restates (or corrects) the change it amends; its changes
// get the same keys as the original's (see ExecutiveChange.Key), so it
// adds nothing twice.
const (
	FormD         = "D"
	FormDA        = "D/A"
	Form8K        = "8-K"
	Form8KA       = "8-K/A"
	maxIndexLines = 1 << 20 // a daily form index has about 5,000 lines
)

// Wanted reports whether the source reads filings of form type t.
func Wanted(t string) bool {
	switch t {
	case FormD, FormDA, Form8K, Form8KA:
		return true
	}
	return false
}

// IndexEntry is one filing listed in a daily form index.
type IndexEntry struct {
	FormType    string
	CompanyName string
	CIK         string // without leading zeros
	DateFiled   string // YYYY-MM-DD
	FileName    string // edgar/data/CIK/ACCESSION.txt
	Accession   string // 0001234567-26-000001
}

// ErrNotIndex is returned for a document without the index's column
// header and its dashed rule.
var ErrNotIndex = errors.New("sec: not an EDGAR form index (no column header)")

// DailyIndexURL is the form-sorted daily index of day on base:
// base/Archives/edgar/daily-index/YYYY/QTRn/form.YYYYMMDD.idx.
func DailyIndexURL(base string, day time.Time) string {
	q := (int(day.Month())-1)/3 + 1
	return fmt.Sprintf("%s/Archives/edgar/daily-index/%d/QTR%d/form.%s.idx",
		strings.TrimRight(base, "/"), day.Year(), q, day.Format("20060102"))
}

// IndexDays returns the days from since through until (inclusive, as
// calendar dates) that can have a daily index: EDGAR takes no filings on
// Saturdays and Sundays, so those are left out. Holidays are not known
// here: their index is simply missing (see Client.DailyIndex).
func IndexDays(since, until time.Time) []time.Time {
	d := time.Date(since.Year(), since.Month(), since.Day(), 0, 0, 0, 0, time.UTC)
	end := time.Date(until.Year(), until.Month(), until.Day(), 0, 0, 0, 0, time.UTC)
	var out []time.Time
	for ; !d.After(end); d = d.AddDate(0, 0, 1) {
		if wd := d.Weekday(); wd != time.Saturday && wd != time.Sunday {
			out = append(out, d)
		}
	}
	return out
}

// ParseFormIndex reads a daily (or full) form index: header lines, the
// "Form Type  Company Name  CIK  Date Filed  File Name" column header, a
// dashed rule, then one filing per line. Columns are padded with spaces
// but their widths vary between files (recent files widen Form Type past
// its header), so a line is read from both ends: the last three fields
// are CIK, date and file name; before them the first run of two spaces
// separates the form type from the company name.
//
// It returns every filing it could read and the number of lines it could
// not; only a document with no column header is an error (ErrNotIndex).
func ParseFormIndex(data []byte) (entries []IndexEntry, skipped int, err error) {
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 0, 4096), 64*1024)
	state := 0 // 0: before the header, 1: before the rule, 2: rows
	for n := 0; sc.Scan() && n < maxIndexLines; n++ {
		line := strings.TrimRight(sc.Text(), " \t\r")
		switch state {
		case 0:
			if strings.HasPrefix(strings.TrimSpace(line), "Form Type") {
				state = 1
			}
			continue
		case 1:
			if strings.HasPrefix(line, "---") {
				state = 2
			}
			continue
		}
		if strings.TrimSpace(line) == "" {
			continue
		}
		e, ok := parseIndexLine(line)
		if !ok {
			skipped++
			continue
		}
		entries = append(entries, e)
	}
	if state != 2 {
		return nil, 0, ErrNotIndex
	}
	// A line longer than the scanner's buffer stops the scan: count the
	// rest of the file as one unreadable line rather than fail it all.
	if sc.Err() != nil {
		skipped++
	}
	return entries, skipped, nil
}

func parseIndexLine(line string) (IndexEntry, bool) {
	var tail [3]string
	rest := line
	for i := 2; i >= 0; i-- {
		rest = strings.TrimRight(rest, " \t")
		j := strings.LastIndexAny(rest, " \t")
		if j < 0 {
			return IndexEntry{}, false
		}
		tail[i], rest = rest[j+1:], rest[:j]
	}
	cik := NormalizeCIK(tail[0])
	date, ok := indexDate(tail[1])
	file := tail[2]
	acc := strings.TrimSuffix(path.Base(file), ".txt")
	if cik == "" || !ok || !strings.Contains(file, "/") || !ValidAccession(acc) {
		return IndexEntry{}, false
	}
	rest = strings.TrimSpace(rest)
	form, name := rest, ""
	if i := strings.Index(rest, "  "); i >= 0 {
		form, name = rest[:i], strings.TrimSpace(rest[i:])
	} else if i := strings.IndexAny(rest, " \t"); i >= 0 {
		form, name = rest[:i], strings.TrimSpace(rest[i:])
	}
	if form == "" || name == "" {
		return IndexEntry{}, false
	}
	return IndexEntry{FormType: form, CompanyName: name, CIK: cik, DateFiled: date, FileName: file, Accession: acc}, true
}

// indexDate reads the daily index's YYYYMMDD or the full index's
// YYYY-MM-DD as YYYY-MM-DD.
func indexDate(s string) (string, bool) {
	layout := "20060102"
	if len(s) == 10 {
		layout = time.DateOnly
	}
	t, err := time.Parse(layout, s)
	if err != nil {
		return "", false
	}
	return t.Format(time.DateOnly), true
}
