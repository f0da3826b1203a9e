package sqlite

import (
	"cmp"
	"context"
	"database/sql"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/prospectorhq/prospector"
)

const signalColumns = `id, external_id, type, company_id, company_domain, person_id, title, detail, source_url,
	detected_at, score, seq, created_at`

func signalSpec(now string) upsertSpec[*prospector.Signal] {
	return upsertSpec[*prospector.Signal]{
		table:      "signals",
		sequenced:  true,
		suppressed: (*prospector.SuppressionSet).Signal,
		columns: []string{"external_id", "type", "company_id", "company_domain", "person_id", "title", "detail",
			"source_url", "detected_at", "score", "created_at"},
		parents: []parentRef[*prospector.Signal]{
			{"company_id", "companies", func(s *prospector.Signal) *int64 { return s.CompanyID }},
			{"person_id", "people", func(s *prospector.Signal) *int64 { return s.PersonID }},
		},
		key:   func(s *prospector.Signal) string { return s.ExternalID },
		hash:  func(s *prospector.Signal) (int64, error) { return s.ContentHash(), nil },
		setID: func(s *prospector.Signal, id int64) { s.ID = id },
		values: func(s *prospector.Signal) ([]any, error) {
			return []any{s.ExternalID, s.Type, nullInt(s.CompanyID), s.CompanyDomain, nullInt(s.PersonID), s.Title,
				s.Detail, s.SourceURL, formatTime(s.DetectedAt), nullFloat(s.Score), now}, nil
		},
	}
}

// UpsertSignals upserts by external id in one transaction.
func (db *DB) UpsertSignals(ctx context.Context, ss []*prospector.Signal) (prospector.UpsertResult, error) {
	return upsertBulk(ctx, db, signalSpec(formatTime(time.Now())), ss)
}

func scanSignal(row rowScanner) (*prospector.Signal, error) {
	var (
		s                 prospector.Signal
		company, person   sql.NullInt64
		score             sql.NullFloat64
		detected, created string
	)
	if err := row.Scan(&s.ID, &s.ExternalID, &s.Type, &company, &s.CompanyDomain, &person, &s.Title, &s.Detail,
		&s.SourceURL, &detected, &score, &s.Seq, &created); err != nil {
		return nil, fmt.Errorf("sqlite: scan signal: %w", err)
	}
	s.CompanyID, s.PersonID, s.Score = int64Ptr(company), int64Ptr(person), float64Ptr(score)
	s.DetectedAt, s.CreatedAt = parseTime(detected), parseTime(created)
	return &s, nil
}

// SignalsByCompanies reads the newest perCompany signals of each company
// with one statement per chunk of ids (one for up to 128). Each company's
// rows come from its own branch of a UNION ALL, an index walk of
// signals_company stopping at perCompany rows; a window function over
// "company_id IN (...)" reads every signal of every company instead,
// which a company with thousands of them makes slow. The id list is padded
// to a bucket size with 0 (never a row id), so a handful of prepared
// statements serve every batch size.
func (db *DB) SignalsByCompanies(ctx context.Context, companyIDs []int64, perCompany int) ([]*prospector.Signal, error) {
	ids := slices.Clone(companyIDs)
	slices.Sort(ids)
	ids = slices.Compact(ids)
	var out []*prospector.Signal
	for start := 0; start < len(ids); {
		bucket := companyBuckets[len(companyBuckets)-1]
		for _, b := range companyBuckets {
			if b >= len(ids)-start {
				bucket = b
				break
			}
		}
		chunk := ids[start:min(start+bucket, len(ids))]
		start += len(chunk)
		args := make([]any, 0, 2*bucket)
		for i := range bucket {
			id := int64(0)
			if i < len(chunk) {
				id = chunk[i]
			}
			args = append(args, id, perCompany)
		}
		rows, err := queryPrepared(ctx, db, signalsByCompaniesQueries[bucket], scanSignal, args...)
		if err != nil {
			return nil, fmt.Errorf("sqlite: signals by companies: %w", err)
		}
		out = append(out, rows...)
	}
	// An outer ORDER BY would make SQLite materialise and sort the whole
	// result; the branches are each in order already, so sorting here
	// only makes the documented order independent of how SQLite runs a
	// compound SELECT.
	slices.SortStableFunc(out, newestByCompany)
	return out, nil
}

// newestByCompany orders signals by company id, then newest first.
func newestByCompany(a, b *prospector.Signal) int {
	if c := cmp.Compare(*a.CompanyID, *b.CompanyID); c != 0 {
		return c
	}
	if c := b.DetectedAt.Compare(a.DetectedAt); c != 0 {
		return c
	}
	return cmp.Compare(b.ID, a.ID)
}

// companyBuckets are the batch sizes of SignalsByCompanies: at most 128
// branches, well inside SQLite's limit of 500 per compound SELECT.
var companyBuckets = []int{8, 32, 128}

// signalsByCompaniesQueries maps each bucket size to its query, built
// once: at 128 branches it is long enough that building it per call showed.
var signalsByCompaniesQueries = func() map[int]string {
	m := make(map[int]string, len(companyBuckets))
	for _, n := range companyBuckets {
		m[n] = signalsByCompaniesQuery(n)
	}
	return m
}()

// signalsByCompaniesQuery is a UNION ALL of n per-company branches.
func signalsByCompaniesQuery(n int) string {
	var b strings.Builder
	for i := range n {
		if i > 0 {
			b.WriteString(` UNION ALL `)
		}
		b.WriteString(`SELECT * FROM (SELECT ` + signalColumns + ` FROM signals WHERE company_id = ?
			ORDER BY detected_at DESC, id DESC LIMIT (? + 0))`)
	}
	return b.String()
}

// SignalFeed reads one type of signal across companies, newest first.
// Each combination of filters is its own prepared statement; the type
// filter walks signals_type_detected backwards, and industry or country
// join the signal's company.
func (db *DB) SignalFeed(ctx context.Context, f prospector.SignalFeedFilter) ([]*prospector.Signal, error) {
	from, where, args := "signals s", "s.type = ?", []any{f.Type}
	if f.Since != nil {
		where += " AND s.detected_at >= ?"
		args = append(args, formatTime(*f.Since))
	}
	if f.CompanyID != nil {
		where += " AND s.company_id = ?"
		args = append(args, *f.CompanyID)
	}
	if f.Industry != "" || f.Country != "" {
		from += " JOIN companies c ON c.id = s.company_id"
	}
	if f.Industry != "" {
		where += " AND c.industry = ?"
		args = append(args, f.Industry)
	}
	if f.Country != "" {
		where += " AND c.country_code = ?"
		args = append(args, f.Country)
	}
	return queryPrepared(ctx, db, `SELECT `+prefixed("s.", signalColumns)+` FROM `+from+` WHERE `+where+`
		ORDER BY s.detected_at DESC, s.id DESC LIMIT (? + 0) OFFSET (? + 0)`, scanSignal, append(args, f.Limit, f.Offset)...)
}

// ListSignals walks the table by id.
func (db *DB) ListSignals(ctx context.Context, after int64, limit int) ([]*prospector.Signal, error) {
	return queryList(ctx, db.read, `SELECT `+signalColumns+` FROM signals WHERE id > ? ORDER BY id LIMIT ?`, scanSignal, after, limit)
}

// CountSignals counts every signal.
func (db *DB) CountSignals(ctx context.Context) (int64, error) { return db.count(ctx, "signals") }
