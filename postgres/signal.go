package postgres

import (
	"context"
	"fmt"
	"strconv"

	"github.com/jackc/pgx/v5"
	"github.com/prospectorhq/prospector"
)

const signalColumns = `id, external_id, type, company_id, company_domain, person_id, title, detail, source_url,
	detected_at, score, seq, created_at`

// signalUpdate sets seq and every column but external_id (the key) and created_at.
const signalUpdate = `UPDATE signals AS s SET content_hash = v.content_hash, type = v.type, company_id = v.company_id,
	company_domain = v.company_domain, person_id = v.person_id, title = v.title, detail = v.detail,
	source_url = v.source_url, detected_at = v.detected_at, score = v.score, seq = v.seq
	FROM unnest($1::bigint[], $2::bigint[], $3::text[], $4::text[], $5::bigint[], $6::text[], $7::bigint[],
		$8::text[], $9::text[], $10::text[], $11::timestamptz[], $12::float8[], $13::timestamptz[], $14::bigint[])
	AS v(id, content_hash, external_id, type, company_id, company_domain, person_id, title, detail, source_url,
		detected_at, score, created_at, seq)
	WHERE s.id = v.id`

func signalSpec() *upsertSpec[*prospector.Signal] {
	now := nowUTC()
	return &upsertSpec[*prospector.Signal]{
		table:      "signals",
		keyColumn:  "external_id",
		sequenced:  true,
		suppressed: (*prospector.SuppressionSet).Signal,
		columns: []string{"id", "content_hash", "external_id", "type", "company_id", "company_domain", "person_id",
			"title", "detail", "source_url", "detected_at", "score", "created_at"},
		key:   func(s *prospector.Signal) string { return s.ExternalID },
		hash:  func(s *prospector.Signal) (int64, error) { return s.ContentHash(), nil },
		setID: func(s *prospector.Signal, id int64) { s.ID = id },
		row: func(id, hash int64, s *prospector.Signal) ([]any, error) {
			return []any{id, hash, s.ExternalID, s.Type, s.CompanyID, s.CompanyDomain, s.PersonID, s.Title, s.Detail,
				s.SourceURL, s.DetectedAt, s.Score, now}, nil
		},
		update: signalUpdate,
	}
}

// UpsertSignals upserts by external id in one transaction.
func (db *DB) UpsertSignals(ctx context.Context, ss []*prospector.Signal) (prospector.UpsertResult, error) {
	return upsert(ctx, db, signalSpec(), ss)
}

func scanSignal(row pgx.Row) (*prospector.Signal, error) {
	var s prospector.Signal
	if err := row.Scan(&s.ID, &s.ExternalID, &s.Type, &s.CompanyID, &s.CompanyDomain, &s.PersonID, &s.Title,
		&s.Detail, &s.SourceURL, &s.DetectedAt, &s.Score, &s.Seq, &s.CreatedAt); err != nil {
		return nil, fmt.Errorf("postgres: scan signal: %w", err)
	}
	s.DetectedAt, s.CreatedAt = s.DetectedAt.UTC(), s.CreatedAt.UTC()
	return &s, nil
}

// SignalsByCompanies reads the newest perCompany signals of each company
// in one statement: a lateral index walk of signals_company per id, which
// stops at perCompany rows however many signals a company has.
func (db *DB) SignalsByCompanies(ctx context.Context, companyIDs []int64, perCompany int) ([]*prospector.Signal, error) {
	if len(companyIDs) == 0 {
		return nil, nil
	}
	return queryList(ctx, db, `SELECT `+prefixed("s.", signalColumns)+`
		FROM (SELECT DISTINCT unnest($1::bigint[]) AS id) c
		CROSS JOIN LATERAL (SELECT `+signalColumns+` FROM signals WHERE company_id = c.id
			ORDER BY detected_at DESC, id DESC LIMIT $2) s
		ORDER BY s.company_id, s.detected_at DESC, s.id DESC`, scanSignal, companyIDs, sqlLimit(perCompany))
}

// SignalFeed reads one type of signal across companies, newest first,
// walking signals_type_detected backwards. Only the filters given become
// conditions, so each shape of the query gets its own plan; industry or
// country join the signal's company.
func (db *DB) SignalFeed(ctx context.Context, f prospector.SignalFeedFilter) ([]*prospector.Signal, error) {
	from, where, args := "signals s", "s.type = $1", []any{f.Type}
	cond := func(sql string, v any) {
		args = append(args, v)
		where += " AND " + sql + " $" + strconv.Itoa(len(args))
	}
	if f.Since != nil {
		cond("s.detected_at >=", *f.Since)
	}
	if f.CompanyID != nil {
		cond("s.company_id =", *f.CompanyID)
	}
	if f.Industry != "" || f.Country != "" {
		from += " JOIN companies c ON c.id = s.company_id"
	}
	if f.Industry != "" {
		cond("c.industry =", f.Industry)
	}
	if f.Country != "" {
		cond("c.country_code =", f.Country)
	}
	n := len(args)
	return queryList(ctx, db, `SELECT `+prefixed("s.", signalColumns)+` FROM `+from+` WHERE `+where+`
		ORDER BY s.detected_at DESC, s.id DESC LIMIT $`+strconv.Itoa(n+1)+` OFFSET $`+strconv.Itoa(n+2),
		scanSignal, append(args, sqlLimit(f.Limit), sqlOffset(f.Offset))...)
}

// SignalsChangedSince walks the table by seq.
func (db *DB) SignalsChangedSince(ctx context.Context, seq int64, limit int) ([]*prospector.Signal, error) {
	return queryList(ctx, db, `SELECT `+signalColumns+` FROM signals WHERE seq > $1 ORDER BY seq LIMIT $2`,
		scanSignal, seq, sqlLimit(limit))
}

// ListSignals walks the table by id.
func (db *DB) ListSignals(ctx context.Context, after int64, limit int) ([]*prospector.Signal, error) {
	return queryList(ctx, db, `SELECT `+signalColumns+` FROM signals WHERE id > $1 ORDER BY id LIMIT $2`,
		scanSignal, after, sqlLimit(limit))
}

// CountSignals counts every signal.
func (db *DB) CountSignals(ctx context.Context) (int64, error) { return db.count(ctx, "signals") }
