package importer

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
)

// record is one input row: member names lowercased, values as decoded
// (strings from CSV; any JSON value from JSONL).
type record map[string]any

// source yields records with their 1-based line numbers. A record that
// cannot be decoded comes back as an error for that line; the source goes
// on with the next one.
type source interface {
	next() (rec record, line int, err error) // io.EOF at the end
}

// lineError is a problem with one input line; the import goes on.
type lineError struct{ msg string }

func (e *lineError) Error() string { return e.msg }

func badLine(format string, args ...any) error { return &lineError{msg: fmt.Sprintf(format, args...)} }

type jsonlSource struct {
	sc   *bufio.Scanner
	line int
}

func newJSONLSource(r io.Reader) *jsonlSource {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), 16*1024*1024)
	return &jsonlSource{sc: sc}
}

func (s *jsonlSource) next() (record, int, error) {
	for s.sc.Scan() {
		s.line++
		b := bytes.TrimSpace(s.sc.Bytes())
		if len(b) == 0 {
			continue
		}
		raw, ok := decodeFlat(b)
		if !ok {
			dec := json.NewDecoder(bytes.NewReader(b))
			dec.UseNumber()
			if err := dec.Decode(&raw); err != nil {
				return nil, s.line, badLine("not a JSON object: %s", strings.TrimPrefix(err.Error(), "json: "))
			}
			if dec.More() {
				return nil, s.line, badLine("more than one JSON value on the line")
			}
		}
		rec := normalizeNames(raw)
		if err := checkJSONLine(b, rec); err != nil {
			return nil, s.line, err
		}
		return rec, s.line, nil
	}
	if err := s.sc.Err(); err != nil {
		return nil, s.line, fmt.Errorf("read line %d: %w", s.line+1, err)
	}
	return nil, s.line, io.EOF
}

type csvSource struct {
	r      *csv.Reader
	header []string
}

func newCSVSource(r io.Reader) (*csvSource, error) {
	cr := csv.NewReader(r)
	cr.FieldsPerRecord = -1
	cr.ReuseRecord = true
	head, err := cr.Read()
	if err == io.EOF {
		return nil, fmt.Errorf("csv: the file is empty (a header row is required)")
	}
	if err != nil {
		return nil, fmt.Errorf("csv header: %w", err)
	}
	s := &csvSource{r: cr}
	for i, h := range head {
		if i == 0 {
			h = strings.TrimPrefix(h, "\ufeff") // spreadsheet byte-order mark
		}
		s.header = append(s.header, normalizeName(h))
	}
	return s, nil
}

func (s *csvSource) next() (record, int, error) {
	row, err := s.r.Read()
	line, _ := s.r.FieldPos(0)
	if err == io.EOF {
		return nil, line, io.EOF
	}
	var perr *csv.ParseError
	if errors.As(err, &perr) {
		return nil, perr.StartLine, badLine("malformed CSV: %s", perr.Err)
	}
	if err != nil {
		return nil, line, fmt.Errorf("read csv: %w", err)
	}
	if len(row) != len(s.header) {
		return nil, line, badLine("has %d fields, the header has %d", len(row), len(s.header))
	}
	rec := make(record, len(row))
	for i, v := range row {
		if v = strings.TrimSpace(v); v != "" {
			rec[s.header[i]] = v
		}
	}
	if err := checkRecordText(rec); err != nil {
		return nil, line, err
	}
	return rec, line, nil
}

// normalizeName makes "Company Domain", "company-domain" and
// "company_domain" the same member name.
// normalizeNames returns raw keyed by normalised names: raw itself when
// every name already is (the common case, and one map fewer per line).
func normalizeNames(raw map[string]any) record {
	for k := range raw {
		if normalizeName(k) != k {
			rec := make(record, len(raw))
			for k, v := range raw {
				rec[normalizeName(k)] = v
			}
			return rec
		}
	}
	return raw
}

func normalizeName(s string) string {
	s = strings.TrimSpace(s)
	plain := true
	for i := 0; i < len(s); i++ {
		if c := s[i]; c == ' ' || c == '-' || c == '.' || c >= 'A' && c <= 'Z' || c >= 0x80 {
			plain = false
			break
		}
	}
	if plain { // the common case: already snake_case, no allocation
		return s
	}
	b := []byte(strings.ToLower(s))
	for i, c := range b {
		if c == ' ' || c == '-' || c == '.' {
			b[i] = '_'
		}
	}
	return string(b)
}
