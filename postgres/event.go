package postgres

import (
	"context"
	"fmt"
	"strconv"

	"github.com/jackc/pgx/v5"
	"github.com/prospectorhq/prospector"
)

// newsUpdate sets every column but external_id (the key). categories
// travel as JSON: unnest would flatten a two-dimensional array.
const newsUpdate = `UPDATE news_events AS e SET content_hash = v.content_hash, company_id = v.company_id,
	event_type = v.event_type, categories = ARRAY(SELECT jsonb_array_elements_text(v.categories)),
	effective_date = v.effective_date, found_at = v.found_at, attributes = v.attributes
	FROM unnest($1::bigint[], $2::bigint[], $3::text[], $4::bigint[], $5::text[], $6::jsonb[], $7::text[],
		$8::timestamptz[], $9::jsonb[])
	AS v(id, content_hash, external_id, company_id, event_type, categories, effective_date, found_at, attributes)
	WHERE e.id = v.id`

func newsSpec() *upsertSpec[*prospector.NewsEvent] {
	return &upsertSpec[*prospector.NewsEvent]{
		table:      "news_events",
		suppressed: func(s *prospector.SuppressionSet, e *prospector.NewsEvent) bool { return s.Domain(e.CompanyDomain) },
		keyColumn:  "external_id",
		columns: []string{"id", "content_hash", "external_id", "company_id", "event_type", "categories",
			"effective_date", "found_at", "attributes"},
		key: func(e *prospector.NewsEvent) string { return e.ExternalID },
		hash: func(e *prospector.NewsEvent) (int64, error) {
			b, err := e.AttributesJSON()
			if err != nil {
				return 0, fmt.Errorf("postgres: %w", err)
			}
			return e.ContentHash(b), nil
		},
		setID: func(e *prospector.NewsEvent, id int64) { e.ID = id },
		row: func(id, hash int64, e *prospector.NewsEvent) ([]any, error) {
			attrs, err := e.AttributesJSON()
			if err != nil {
				return nil, err
			}
			return []any{id, hash, e.ExternalID, e.CompanyID, e.EventType, stringList(e.Categories), e.EffectiveDate,
				e.FoundAt, attrs}, nil
		},
		update: newsUpdate,
	}
}

// financingUpdate sets every column but external_id (the key).
// categories and source_urls travel as JSON, as in newsUpdate.
const financingUpdate = `UPDATE financing_events AS e SET content_hash = v.content_hash, company_id = v.company_id,
	event_type = v.event_type, categories = ARRAY(SELECT jsonb_array_elements_text(v.categories)),
	financing_type = v.financing_type, financing_type_normalized = v.financing_type_normalized,
	amount = v.amount, amount_normalized = v.amount_normalized, effective_date = v.effective_date,
	found_at = v.found_at, source_urls = ARRAY(SELECT jsonb_array_elements_text(v.source_urls)),
	investors = v.investors
	FROM unnest($1::bigint[], $2::bigint[], $3::text[], $4::bigint[], $5::text[], $6::jsonb[], $7::text[],
		$8::text[], $9::text[], $10::float8[], $11::text[], $12::timestamptz[], $13::jsonb[], $14::jsonb[])
	AS v(id, content_hash, external_id, company_id, event_type, categories, financing_type,
		financing_type_normalized, amount, amount_normalized, effective_date, found_at, source_urls, investors)
	WHERE e.id = v.id`

func financingSpec() *upsertSpec[*prospector.FinancingEvent] {
	return &upsertSpec[*prospector.FinancingEvent]{
		table: "financing_events",
		suppressed: func(s *prospector.SuppressionSet, e *prospector.FinancingEvent) bool {
			return s.Domain(e.CompanyDomain)
		},
		keyColumn: "external_id",
		columns: []string{"id", "content_hash", "external_id", "company_id", "event_type", "categories",
			"financing_type", "financing_type_normalized", "amount", "amount_normalized", "effective_date",
			"found_at", "source_urls", "investors"},
		key: func(e *prospector.FinancingEvent) string { return e.ExternalID },
		hash: func(e *prospector.FinancingEvent) (int64, error) {
			b, err := e.InvestorsJSON()
			if err != nil {
				return 0, fmt.Errorf("postgres: %w", err)
			}
			return e.ContentHash(b), nil
		},
		setID: func(e *prospector.FinancingEvent, id int64) { e.ID = id },
		row: func(id, hash int64, e *prospector.FinancingEvent) ([]any, error) {
			inv, err := e.InvestorsJSON()
			if err != nil {
				return nil, err
			}
			return []any{id, hash, e.ExternalID, e.CompanyID, e.EventType, stringList(e.Categories), e.FinancingType,
				e.FinancingTypeNormalized, e.Amount, e.AmountNormalized, e.EffectiveDate, e.FoundAt,
				stringList(e.SourceURLs), inv}, nil
		},
		update: financingUpdate,
	}
}

// investorsOrEmpty is l, or an empty list for nil, as InvestorsJSON
// stores none.
func investorsOrEmpty(l []prospector.Investor) []prospector.Investor {
	if l == nil {
		return []prospector.Investor{}
	}
	return l
}

// UpsertNewsEvents upserts by external id in one transaction.
func (db *DB) UpsertNewsEvents(ctx context.Context, es []*prospector.NewsEvent) (prospector.UpsertResult, error) {
	return upsert(ctx, db, newsSpec(), es)
}

// UpsertFinancingEvents upserts by external id in one transaction.
func (db *DB) UpsertFinancingEvents(ctx context.Context, es []*prospector.FinancingEvent) (prospector.UpsertResult, error) {
	return upsert(ctx, db, financingSpec(), es)
}

// eventWhere builds the shared filter and paging of both event queries.
// Only the bounds given become conditions, so each shape of the query
// gets a plan using the (company_id, found_at) index.
func eventWhere(f prospector.EventFilter) (string, []any) {
	where, args := "company_id = $1", []any{f.CompanyID}
	if f.From != nil {
		args = append(args, *f.From)
		where += " AND found_at >= $" + strconv.Itoa(len(args))
	}
	if f.Until != nil {
		args = append(args, *f.Until)
		where += " AND found_at <= $" + strconv.Itoa(len(args))
	}
	n := len(args)
	where += " ORDER BY found_at DESC, id DESC LIMIT $" + strconv.Itoa(n+1) + " OFFSET $" + strconv.Itoa(n+2)
	return where, append(args, sqlLimit(f.Limit), sqlOffset(f.Offset))
}

// NewsEvents returns a company's news events, newest first.
func (db *DB) NewsEvents(ctx context.Context, f prospector.EventFilter) ([]*prospector.NewsEvent, error) {
	where, args := eventWhere(f)
	return queryList(ctx, db, `SELECT id, external_id, company_id, event_type, categories, effective_date, found_at,
		attributes FROM news_events WHERE `+where, scanNews, args...)
}

func scanNews(row pgx.Row) (*prospector.NewsEvent, error) {
	var e prospector.NewsEvent
	if err := row.Scan(&e.ID, &e.ExternalID, &e.CompanyID, &e.EventType, &e.Categories, &e.EffectiveDate, &e.FoundAt,
		&e.Attributes); err != nil {
		return nil, fmt.Errorf("postgres: scan news event: %w", err)
	}
	e.Categories = stringList(e.Categories)
	e.Attributes.Normalize()
	e.FoundAt = e.FoundAt.UTC()
	return &e, nil
}

// FinancingEvents returns a company's financing events, newest first.
func (db *DB) FinancingEvents(ctx context.Context, f prospector.EventFilter) ([]*prospector.FinancingEvent, error) {
	where, args := eventWhere(f)
	return queryList(ctx, db, `SELECT id, external_id, company_id, event_type, categories, financing_type,
		financing_type_normalized, amount, amount_normalized, effective_date, found_at, source_urls, investors
		FROM financing_events WHERE `+where, scanFinancing, args...)
}

func scanFinancing(row pgx.Row) (*prospector.FinancingEvent, error) {
	var e prospector.FinancingEvent
	if err := row.Scan(&e.ID, &e.ExternalID, &e.CompanyID, &e.EventType, &e.Categories, &e.FinancingType,
		&e.FinancingTypeNormalized, &e.Amount, &e.AmountNormalized, &e.EffectiveDate, &e.FoundAt, &e.SourceURLs,
		&e.Investors); err != nil {
		return nil, fmt.Errorf("postgres: scan financing event: %w", err)
	}
	e.Categories, e.SourceURLs = stringList(e.Categories), stringList(e.SourceURLs)
	e.Investors = investorsOrEmpty(e.Investors)
	e.FoundAt = e.FoundAt.UTC()
	return &e, nil
}
