package sqlite

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"

	"github.com/prospectorhq/prospector"
)

func newsSpec() upsertSpec[*prospector.NewsEvent] {
	return upsertSpec[*prospector.NewsEvent]{
		table:      "news_events",
		suppressed: func(s *prospector.SuppressionSet, e *prospector.NewsEvent) bool { return s.Domain(e.CompanyDomain) },
		columns:    []string{"external_id", "company_id", "event_type", "categories", "effective_date", "found_at", "attributes"},
		parents: []parentRef[*prospector.NewsEvent]{
			{"company_id", "companies", func(e *prospector.NewsEvent) *int64 { return &e.CompanyID }},
		},
		key: func(e *prospector.NewsEvent) string { return e.ExternalID },
		hash: func(e *prospector.NewsEvent) (int64, error) {
			b, err := e.AttributesJSON()
			if err != nil {
				return 0, fmt.Errorf("sqlite: %w", err)
			}
			return e.ContentHash(b), nil
		},
		setID: func(e *prospector.NewsEvent, id int64) { e.ID = id },
		values: func(e *prospector.NewsEvent) ([]any, error) {
			attrs, err := e.AttributesJSON()
			if err != nil {
				return nil, err
			}
			return []any{e.ExternalID, e.CompanyID, e.EventType, jsonList(e.Categories), e.EffectiveDate,
				formatTime(e.FoundAt), string(attrs)}, nil
		},
	}
}

func financingSpec() upsertSpec[*prospector.FinancingEvent] {
	return upsertSpec[*prospector.FinancingEvent]{
		table: "financing_events",
		suppressed: func(s *prospector.SuppressionSet, e *prospector.FinancingEvent) bool {
			return s.Domain(e.CompanyDomain)
		},
		columns: []string{"external_id", "company_id", "event_type", "categories", "financing_type",
			"financing_type_normalized", "amount", "amount_normalized", "effective_date", "found_at", "source_urls", "investors"},
		parents: []parentRef[*prospector.FinancingEvent]{
			{"company_id", "companies", func(e *prospector.FinancingEvent) *int64 { return &e.CompanyID }},
		},
		key: func(e *prospector.FinancingEvent) string { return e.ExternalID },
		hash: func(e *prospector.FinancingEvent) (int64, error) {
			b, err := e.InvestorsJSON()
			if err != nil {
				return 0, fmt.Errorf("sqlite: %w", err)
			}
			return e.ContentHash(b), nil
		},
		setID: func(e *prospector.FinancingEvent, id int64) { e.ID = id },
		values: func(e *prospector.FinancingEvent) ([]any, error) {
			inv, err := e.InvestorsJSON()
			if err != nil {
				return nil, err
			}
			return []any{e.ExternalID, e.CompanyID, e.EventType, jsonList(e.Categories), e.FinancingType,
				e.FinancingTypeNormalized, e.Amount, nullFloat(e.AmountNormalized), e.EffectiveDate,
				formatTime(e.FoundAt), jsonList(e.SourceURLs), string(inv)}, nil
		},
	}
}

// UpsertNewsEvents upserts by external id in one transaction.
func (db *DB) UpsertNewsEvents(ctx context.Context, es []*prospector.NewsEvent) (prospector.UpsertResult, error) {
	return upsertBulk(ctx, db, newsSpec(), es)
}

// UpsertFinancingEvents upserts by external id in one transaction.
func (db *DB) UpsertFinancingEvents(ctx context.Context, es []*prospector.FinancingEvent) (prospector.UpsertResult, error) {
	return upsertBulk(ctx, db, financingSpec(), es)
}

// eventWhere builds the shared filter of both event queries.
func eventWhere(f prospector.EventFilter) (string, []any) {
	where, args := "company_id = ?", []any{f.CompanyID}
	if f.From != nil {
		where += " AND found_at >= ?"
		args = append(args, formatTime(*f.From))
	}
	if f.Until != nil {
		where += " AND found_at <= ?"
		args = append(args, formatTime(*f.Until))
	}
	return where, append(args, f.Limit, f.Offset)
}

// NewsEvents returns a company's news events, newest first.
func (db *DB) NewsEvents(ctx context.Context, f prospector.EventFilter) ([]*prospector.NewsEvent, error) {
	where, args := eventWhere(f)
	return queryPrepared(ctx, db, `SELECT id, external_id, company_id, event_type, categories, effective_date, found_at, attributes
		FROM news_events WHERE `+where+` ORDER BY found_at DESC, id DESC LIMIT (? + 0) OFFSET (? + 0)`, scanNews, args...)
}

func scanNews(row rowScanner) (*prospector.NewsEvent, error) {
	var (
		e                        prospector.NewsEvent
		categories, found, attrs string
	)
	if err := row.Scan(&e.ID, &e.ExternalID, &e.CompanyID, &e.EventType, &categories, &e.EffectiveDate, &found, &attrs); err != nil {
		return nil, fmt.Errorf("sqlite: scan news event: %w", err)
	}
	if err := json.Unmarshal([]byte(categories), &e.Categories); err != nil {
		return nil, fmt.Errorf("sqlite: news event %d categories: %w", e.ID, err)
	}
	if err := json.Unmarshal([]byte(attrs), &e.Attributes); err != nil {
		return nil, fmt.Errorf("sqlite: news event %d attributes: %w", e.ID, err)
	}
	e.Attributes.Normalize()
	e.FoundAt = parseTime(found)
	return &e, nil
}

// FinancingEvents returns a company's financing events, newest first.
func (db *DB) FinancingEvents(ctx context.Context, f prospector.EventFilter) ([]*prospector.FinancingEvent, error) {
	where, args := eventWhere(f)
	return queryPrepared(ctx, db, `SELECT id, external_id, company_id, event_type, categories, financing_type,
		financing_type_normalized, amount, amount_normalized, effective_date, found_at, source_urls, investors
		FROM financing_events WHERE `+where+` ORDER BY found_at DESC, id DESC LIMIT (? + 0) OFFSET (? + 0)`, scanFinancing, args...)
}

func scanFinancing(row rowScanner) (*prospector.FinancingEvent, error) {
	var (
		e                                   prospector.FinancingEvent
		amount                              sql.NullFloat64
		categories, found, sources, investo string
	)
	if err := row.Scan(&e.ID, &e.ExternalID, &e.CompanyID, &e.EventType, &categories, &e.FinancingType,
		&e.FinancingTypeNormalized, &e.Amount, &amount, &e.EffectiveDate, &found, &sources, &investo); err != nil {
		return nil, fmt.Errorf("sqlite: scan financing event: %w", err)
	}
	for _, f := range []struct {
		raw string
		dst any
	}{{categories, &e.Categories}, {sources, &e.SourceURLs}, {investo, &e.Investors}} {
		if err := json.Unmarshal([]byte(f.raw), f.dst); err != nil {
			return nil, fmt.Errorf("sqlite: financing event %d: %w", e.ID, err)
		}
	}
	e.AmountNormalized, e.FoundAt = float64Ptr(amount), parseTime(found)
	return &e, nil
}
