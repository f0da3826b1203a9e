package postgres

import (
	"context"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"
	"github.com/prospectorhq/prospector"
)

// ApplyNews stores a batch of stories in one transaction; see
// prospector.NewsStore. It first takes the news events' upsert lock (the
// one the upsert takes, held to commit), so two nodes storing the same
// story never both find its event missing: batches of news run one at a
// time across nodes, which their volume allows.
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
	err := pgx.BeginFunc(ctx, db.pool, func(tx pgx.Tx) error {
		res = prospector.NewsResult{Refused: refused}
		if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock($1, 'news_events'::regclass::oid::int)`,
			dataLockSpace); err != nil {
			return fmt.Errorf("lock news events: %w", err)
		}
		companies := map[string]companyRef{}
		var signals []*prospector.Signal
		for _, i := range valid {
			st := stories[i]
			e := *st.Event
			ref, err := resolveCompany(ctx, tx, companies, e.CompanyID, e.CompanyDomain)
			if errors.Is(err, prospector.ErrNotFound) {
				res.Refused = append(res.Refused, prospector.NewsRefusal{Index: i, Err: err})
				continue
			}
			if err != nil {
				return err
			}
			e.CompanyID, e.CompanyDomain = ref.id, ref.domain
			var seen, eventCompany int64
			err = tx.QueryRow(ctx, `SELECT (SELECT count(*) FROM news_event_sources WHERE company_id = $1 AND url = $2),
				coalesce((SELECT id FROM news_events WHERE external_id = $3), 0),
				coalesce((SELECT company_id FROM news_events WHERE external_id = $3), 0)`,
				e.CompanyID, st.URL, e.ExternalID).Scan(&seen, &e.ID, &eventCompany)
			switch {
			case err != nil:
				return fmt.Errorf("news article: %w", err)
			case seen > 0:
				res.Seen++
				continue
			case e.ID != 0 && eventCompany != e.CompanyID:
				res.Refused = append(res.Refused, prospector.NewsRefusal{Index: i,
					Err: fmt.Errorf("news event %s belongs to another company: %w", e.ExternalID, prospector.ErrAlreadyExists)})
				continue
			case e.ID != 0:
				res.Merged++
			default:
				if _, err := upsertTx(ctx, tx, newsSpec(), []*prospector.NewsEvent{&e}); err != nil {
					return err
				}
				res.Events++
				s := *st
				s.Event = &e
				if sg := s.Signal(); sg != nil {
					signals = append(signals, sg)
				}
			}
			if _, err := tx.Exec(ctx, `INSERT INTO news_event_sources (news_event_id, company_id, url, source, headline,
				published_at, found_at) VALUES ($1, $2, $3, $4, $5, $6, $7)`, e.ID, e.CompanyID, st.URL, st.Source,
				st.Headline, st.Published, e.FoundAt); err != nil {
				return fmt.Errorf("news article: %w", err)
			}
		}
		if len(signals) > 0 {
			r, err := upsertTx(ctx, tx, signalSpec(), signals)
			if err != nil {
				return err
			}
			res.Signals = r.Inserted
		}
		return nil
	})
	if err != nil {
		return prospector.NewsResult{Refused: refused}, fmt.Errorf("postgres: apply news: %w", err)
	}
	return res, nil
}

type companyRef struct {
	id     int64
	domain string
	err    error
}

// resolveCompany returns the company's id and domain from its id, else
// its domain, each once per batch; ErrNotFound when no company has them.
func resolveCompany(ctx context.Context, tx pgx.Tx, cache map[string]companyRef, id int64, domain string) (companyRef, error) {
	key := fmt.Sprint(id, "|", domain)
	if r, ok := cache[key]; ok {
		return r, r.err
	}
	var err error
	if id > 0 {
		err = tx.QueryRow(ctx, `SELECT domain FROM companies WHERE id = $1`, id).Scan(&domain)
	} else {
		domain = prospector.NormalizeDomain(domain)
		err = tx.QueryRow(ctx, `SELECT id FROM companies WHERE domain = $1`, domain).Scan(&id)
	}
	if errors.Is(err, pgx.ErrNoRows) {
		err = fmt.Errorf("company %s: %w", key, prospector.ErrNotFound)
	}
	r := companyRef{id, domain, err}
	cache[key] = r
	return r, err
}

// NewsSources returns the articles of news events, by event id.
func (db *DB) NewsSources(ctx context.Context, eventIDs []int64) (map[int64][]prospector.NewsSource, error) {
	out := map[int64][]prospector.NewsSource{}
	if len(eventIDs) == 0 {
		return out, nil
	}
	rows, err := db.pool.Query(ctx, `SELECT news_event_id, url, source, headline, published_at, found_at
		FROM news_event_sources WHERE news_event_id = ANY($1) ORDER BY news_event_id, found_at, url`, eventIDs)
	if err != nil {
		return nil, fmt.Errorf("postgres: news sources: %w", err)
	}
	var (
		id int64
		s  prospector.NewsSource
	)
	_, err = pgx.ForEachRow(rows, []any{&id, &s.URL, &s.Source, &s.Headline, &s.PublishedAt, &s.FoundAt}, func() error {
		s.PublishedAt, s.FoundAt = utcPtr(s.PublishedAt), s.FoundAt.UTC()
		out[id] = append(out[id], s)
		s.PublishedAt = nil // the next row's scan must not write into this one's
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("postgres: news sources: %w", err)
	}
	return out, nil
}
