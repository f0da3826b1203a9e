package postgres

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/jackc/pgx/v5"
	"github.com/prospectorhq/prospector"
)

const techColumns = `id, company_id, name, categories, version, confidence, evidence::text, state, misses, first_seen_at,
	last_seen_at, added_at, removed_at`

func scanTech(row pgx.Row) (*prospector.Technology, error) {
	var (
		t  prospector.Technology
		ev string
	)
	if err := row.Scan(&t.ID, &t.CompanyID, &t.Name, &t.Categories, &t.Version, &t.Confidence, &ev, &t.State, &t.Misses,
		&t.FirstSeenAt, &t.LastSeenAt, &t.AddedAt, &t.RemovedAt); err != nil {
		return nil, fmt.Errorf("postgres: scan technology: %w", err)
	}
	if err := json.Unmarshal([]byte(ev), &t.Evidence); err != nil {
		return nil, fmt.Errorf("postgres: technology %d evidence: %w", t.ID, err)
	}
	t.FirstSeenAt, t.LastSeenAt = t.FirstSeenAt.UTC(), t.LastSeenAt.UTC()
	t.AddedAt, t.RemovedAt = utcPtr(t.AddedAt), utcPtr(t.RemovedAt)
	return &t, nil
}

// ApplyTechCrawl stores one successful crawl in one transaction, under
// the homepage target's row lock: crawls of one company are applied one
// after the other.
func (db *DB) ApplyTechCrawl(ctx context.Context, c *prospector.TechCrawl) (prospector.TechCrawlResult, error) {
	var res prospector.TechCrawlResult
	if err := c.Validate(); err != nil {
		return res, err
	}
	same := c.Outcome.Result == prospector.PollNotModified
	err := pgx.BeginFunc(ctx, db.pool, func(tx pgx.Tx) error {
		res = prospector.TechCrawlResult{}
		t, err := lockTarget(ctx, tx, c.TargetID)
		if err != nil {
			return err
		}
		if t.Kind != prospector.TargetHomepage {
			return fmt.Errorf("target %d is a %s, not a homepage: %w", t.ID, t.Kind, prospector.ErrNotFound)
		}
		if t.Stale(c.Outcome.At) {
			res.Duplicate = true
			return nil
		}
		rows, err := tx.Query(ctx, `SELECT `+techColumns+` FROM company_technologies WHERE company_id = $1`, t.CompanyID)
		if err != nil {
			return fmt.Errorf("technologies: %w", err)
		}
		stored, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (*prospector.Technology, error) { return scanTech(r) })
		if err != nil {
			return fmt.Errorf("technologies: %w", err)
		}
		plan, err := prospector.PlanTechCrawl(t.CompanyID, t.Domain, stored, c.Detections, same, c.Outcome.At)
		if err != nil {
			return err
		}
		if err := writeTechPlan(ctx, tx, plan); err != nil {
			return err
		}
		if len(plan.Signals) > 0 {
			sig, err := upsertTx(ctx, tx, signalSpec(), plan.Signals)
			if err != nil {
				return err
			}
			plan.Result.Signals = sig.Inserted
		}
		res = plan.Result
		t.AfterPoll(c.Outcome)
		return saveSchedule(ctx, tx, t)
	})
	if err != nil {
		return prospector.TechCrawlResult{}, fmt.Errorf("postgres: apply tech crawl: %w", err)
	}
	return res, nil
}

// writeTechPlan writes a plan's technologies in one round trip.
func writeTechPlan(ctx context.Context, tx pgx.Tx, plan *prospector.TechPlan) error {
	b := &pgx.Batch{}
	for _, t := range plan.Insert {
		b.Queue(`INSERT INTO company_technologies (company_id, name, categories, version, confidence, evidence, state,
			misses, first_seen_at, last_seen_at, added_at, removed_at)
			VALUES ($1, $2, $3, $4, $5, $6::jsonb, $7, $8, $9, $10, $11, $12) RETURNING id`,
			t.CompanyID, t.Name, stringList(t.Categories), t.Version, t.Confidence, evidenceJSON(t.Evidence), t.State,
			t.Misses, t.FirstSeenAt, t.LastSeenAt, t.AddedAt, t.RemovedAt).
			QueryRow(func(row pgx.Row) error { return row.Scan(&t.ID) })
	}
	for _, t := range plan.Update {
		b.Queue(`UPDATE company_technologies SET categories = $1, version = $2, confidence = $3, evidence = $4::jsonb,
			state = $5, misses = $6, last_seen_at = $7, added_at = $8, removed_at = $9 WHERE id = $10`,
			stringList(t.Categories), t.Version, t.Confidence, evidenceJSON(t.Evidence), t.State, t.Misses, t.LastSeenAt,
			t.AddedAt, t.RemovedAt, t.ID)
	}
	if len(plan.Seen) > 0 {
		b.Queue(`UPDATE company_technologies SET last_seen_at = $1, misses = 0 WHERE id = ANY($2)`, plan.At, plan.Seen)
	}
	if len(plan.Delete) > 0 {
		b.Queue(`DELETE FROM company_technologies WHERE id = ANY($1)`, plan.Delete)
	}
	if b.Len() == 0 {
		return nil
	}
	if err := tx.SendBatch(ctx, b).Close(); err != nil {
		return fmt.Errorf("write technologies: %w", err)
	}
	return nil
}

// evidenceJSON encodes evidence for its column; none is [].
func evidenceJSON(ev []prospector.TechEvidence) string {
	if ev == nil {
		ev = []prospector.TechEvidence{}
	}
	b, _ := json.Marshal(ev) // plain strings: cannot fail
	return string(b)
}

// Technologies reads a company's technologies by name (byte order, as
// on SQLite).
func (db *DB) Technologies(ctx context.Context, companyID int64, all bool) ([]*prospector.Technology, error) {
	return queryList(ctx, db, `SELECT `+techColumns+` FROM company_technologies
		WHERE company_id = $1 AND ($2 OR state = '`+prospector.TechActive+`') ORDER BY name COLLATE "C", id`,
		scanTech, companyID, all)
}
