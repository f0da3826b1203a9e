package sqlite

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/prospectorhq/prospector"
)

// The statements of a batch of news stories, prepared once on the writer.
const (
	qNewsCompanyByDomain = `SELECT id FROM companies WHERE domain = ?`
	qNewsCompanyByID     = `SELECT domain FROM companies WHERE id = ?`
	qNewsArticleSeen     = `SELECT 1 FROM news_event_sources WHERE company_id = ? AND url = ?`
	qNewsEventByKey      = `SELECT id, company_id FROM news_events WHERE external_id = ?`
	qNewsAddArticle      = `INSERT INTO news_event_sources (news_event_id, company_id, url, source, headline,
		published_at, found_at) VALUES (?, ?, ?, ?, ?, ?, ?)`
)

// ApplyNews stores a batch of stories in one transaction; see
// prospector.NewsStore.
func (db *DB) ApplyNews(ctx context.Context, stories []*prospector.NewsStory) (prospector.NewsResult, error) {
	var refused []prospector.NewsRefusal
	var valid []int
	for i, st := range stories {
		if err := st.Validate(); err != nil {
			refused = append(refused, prospector.NewsRefusal{Index: i, Err: err})
			continue
		}
		valid = append(valid, i)
	}
	res := prospector.NewsResult{Refused: refused}
	if len(valid) == 0 {
		return res, nil
	}
	if err := db.writeStmts(ctx, qNewsCompanyByDomain, qNewsCompanyByID, qNewsArticleSeen, qNewsEventByKey,
		qNewsAddArticle); err != nil {
		return res, err
	}
	now := time.Now()
	err := db.tx(ctx, func(tx *sql.Tx) error {
		res = prospector.NewsResult{Refused: refused}
		stmt := func(q string) *sql.Stmt { s, _ := txStmt(ctx, db, tx, q); return s } // prepared above
		companies := newsCompanies{}
		var signals []*prospector.Signal
		for _, i := range valid {
			st := stories[i]
			e := *st.Event
			var err error
			e.CompanyID, e.CompanyDomain, err = companies.resolve(ctx, stmt, e.CompanyID, e.CompanyDomain)
			if errors.Is(err, prospector.ErrNotFound) {
				res.Refused = append(res.Refused, prospector.NewsRefusal{Index: i, Err: err})
				continue
			}
			if err != nil {
				return err
			}
			var one int
			switch err := stmt(qNewsArticleSeen).QueryRowContext(ctx, e.CompanyID, st.URL).Scan(&one); {
			case err == nil:
				res.Seen++
				continue
			case !errors.Is(err, sql.ErrNoRows):
				return fmt.Errorf("news article: %w", err)
			}
			var eventCompany int64
			switch err := stmt(qNewsEventByKey).QueryRowContext(ctx, e.ExternalID).Scan(&e.ID, &eventCompany); {
			case err == nil && eventCompany != e.CompanyID:
				res.Refused = append(res.Refused, prospector.NewsRefusal{Index: i,
					Err: fmt.Errorf("news event %s belongs to another company: %w", e.ExternalID, prospector.ErrAlreadyExists)})
				continue
			case err == nil:
				res.Merged++
			case errors.Is(err, sql.ErrNoRows):
				if _, err := upsert(ctx, tx, newsSpec(), []*prospector.NewsEvent{&e}); err != nil {
					return err
				}
				res.Events++
				s := *st
				s.Event = &e
				if sg := s.Signal(); sg != nil {
					signals = append(signals, sg)
				}
			default:
				return fmt.Errorf("news event: %w", err)
			}
			if _, err := stmt(qNewsAddArticle).ExecContext(ctx, e.ID, e.CompanyID, st.URL, st.Source, st.Headline,
				formatTimePtr(st.Published), formatTime(e.FoundAt)); err != nil {
				return fmt.Errorf("news article: %w", err)
			}
		}
		r, err := upsert(ctx, tx, signalSpec(formatTime(now)), signals)
		res.Signals = r.Inserted
		return err
	})
	if err != nil {
		return prospector.NewsResult{Refused: refused}, fmt.Errorf("sqlite: apply news: %w", err)
	}
	return res, nil
}

// newsCompanies resolves the companies of a batch, each once.
type newsCompanies map[string]struct {
	id     int64
	domain string
	err    error
}

// resolve returns the company's id and domain from its id, else its
// domain; ErrNotFound when no company has them.
func (c newsCompanies) resolve(ctx context.Context, stmt func(string) *sql.Stmt, id int64, domain string) (int64, string, error) {
	key := fmt.Sprint(id, "|", domain)
	if r, ok := c[key]; ok {
		return r.id, r.domain, r.err
	}
	var err error
	if id > 0 {
		err = stmt(qNewsCompanyByID).QueryRowContext(ctx, id).Scan(&domain)
	} else {
		domain = prospector.NormalizeDomain(domain)
		err = stmt(qNewsCompanyByDomain).QueryRowContext(ctx, domain).Scan(&id)
	}
	if errors.Is(err, sql.ErrNoRows) {
		err = fmt.Errorf("company %s: %w", key, prospector.ErrNotFound)
	}
	c[key] = struct {
		id     int64
		domain string
		err    error
	}{id, domain, err}
	return id, domain, err
}

// NewsSources returns the articles of news events, by event id.
func (db *DB) NewsSources(ctx context.Context, eventIDs []int64) (map[int64][]prospector.NewsSource, error) {
	out := map[int64][]prospector.NewsSource{}
	if len(eventIDs) == 0 {
		return out, nil
	}
	ids, _ := json.Marshal(eventIDs)
	rows, err := db.read.QueryContext(ctx, `SELECT news_event_id, url, source, headline, published_at, found_at
		FROM news_event_sources WHERE news_event_id IN (SELECT value FROM json_each(?))
		ORDER BY news_event_id, found_at, url`, string(ids))
	err = eachRow(rows, err, func(r *sql.Rows) error {
		var (
			id        int64
			s         prospector.NewsSource
			published sql.NullString
			found     string
		)
		if err := r.Scan(&id, &s.URL, &s.Source, &s.Headline, &published, &found); err != nil {
			return err
		}
		s.PublishedAt, s.FoundAt = parseTimePtr(published), parseTime(found)
		out[id] = append(out[id], s)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("sqlite: news sources: %w", err)
	}
	return out, nil
}
