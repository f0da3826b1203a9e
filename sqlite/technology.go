package sqlite

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"time"

	"github.com/prospectorhq/prospector"
)

const techColumns = `id, company_id, name, categories, version, confidence, evidence, state, misses, first_seen_at,
	last_seen_at, added_at, removed_at`

func scanTech(row rowScanner) (*prospector.Technology, error) {
	var (
		t                   prospector.Technology
		cats, ev            string
		firstSeen, lastSeen string
		added, removed      sql.NullString
	)
	if err := row.Scan(&t.ID, &t.CompanyID, &t.Name, &cats, &t.Version, &t.Confidence, &ev, &t.State, &t.Misses,
		&firstSeen, &lastSeen, &added, &removed); err != nil {
		return nil, fmt.Errorf("sqlite: scan technology: %w", err)
	}
	if err := json.Unmarshal([]byte(cats), &t.Categories); err != nil {
		return nil, fmt.Errorf("sqlite: technology %d categories: %w", t.ID, err)
	}
	if err := json.Unmarshal([]byte(ev), &t.Evidence); err != nil {
		return nil, fmt.Errorf("sqlite: technology %d evidence: %w", t.ID, err)
	}
	t.FirstSeenAt, t.LastSeenAt = parseTime(firstSeen), parseTime(lastSeen)
	t.AddedAt, t.RemovedAt = parseTimePtr(added), parseTimePtr(removed)
	return &t, nil
}

// ApplyTechCrawl stores one successful crawl in one transaction; the
// single writer serialises crawls of a company.
func (db *DB) ApplyTechCrawl(ctx context.Context, c *prospector.TechCrawl) (prospector.TechCrawlResult, error) {
	var res prospector.TechCrawlResult
	if err := c.Validate(); err != nil {
		return res, err
	}
	if err := db.writeStmts(ctx, qTarget, qSaveSchedule); err != nil {
		return res, err
	}
	same := c.Outcome.Result == prospector.PollNotModified
	err := db.tx(ctx, func(tx *sql.Tx) error {
		t, err := targetTx(ctx, db, tx, c.TargetID)
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
		rows, err := tx.QueryContext(ctx, `SELECT `+techColumns+` FROM company_technologies WHERE company_id = ?`, t.CompanyID)
		stored, err := collect(rows, err, scanTech)
		if err != nil {
			return err
		}
		plan, err := prospector.PlanTechCrawl(t.CompanyID, t.Domain, stored, c.Detections, same, c.Outcome.At)
		if err != nil {
			return err
		}
		if err := writeTechPlan(ctx, tx, plan); err != nil {
			return err
		}
		sig, err := upsert(ctx, tx, signalSpec(formatTime(time.Now())), plan.Signals)
		if err != nil {
			return err
		}
		res, res.Signals = plan.Result, sig.Inserted
		t.AfterPoll(c.Outcome)
		return saveSchedule(ctx, db, tx, t)
	})
	if err != nil {
		return prospector.TechCrawlResult{}, fmt.Errorf("sqlite: apply tech crawl: %w", err)
	}
	return res, nil
}

func writeTechPlan(ctx context.Context, tx *sql.Tx, plan *prospector.TechPlan) error {
	for _, t := range plan.Insert {
		cats, ev := jsonList(t.Categories), evidenceJSON(t.Evidence)
		if err := tx.QueryRowContext(ctx, `INSERT INTO company_technologies (company_id, name, categories, version,
			confidence, evidence, state, misses, first_seen_at, last_seen_at, added_at, removed_at)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`,
			t.CompanyID, t.Name, cats, t.Version, t.Confidence, ev, t.State, t.Misses, formatTime(t.FirstSeenAt),
			formatTime(t.LastSeenAt), formatTimePtr(t.AddedAt), formatTimePtr(t.RemovedAt)).Scan(&t.ID); err != nil {
			return fmt.Errorf("insert technology %s: %w", t.Name, err)
		}
	}
	for _, t := range plan.Update {
		if _, err := tx.ExecContext(ctx, `UPDATE company_technologies SET categories = ?, version = ?, confidence = ?,
			evidence = ?, state = ?, misses = ?, last_seen_at = ?, added_at = ?, removed_at = ? WHERE id = ?`,
			jsonList(t.Categories), t.Version, t.Confidence, evidenceJSON(t.Evidence), t.State, t.Misses,
			formatTime(t.LastSeenAt), formatTimePtr(t.AddedAt), formatTimePtr(t.RemovedAt), t.ID); err != nil {
			return fmt.Errorf("update technology %d: %w", t.ID, err)
		}
	}
	if len(plan.Seen) > 0 {
		if _, err := tx.ExecContext(ctx, `UPDATE company_technologies SET last_seen_at = ?, misses = 0
			WHERE id IN (SELECT value FROM json_each(?))`, formatTime(plan.At), jsonIDs(plan.Seen)); err != nil {
			return fmt.Errorf("seen technologies: %w", err)
		}
	}
	if len(plan.Delete) > 0 {
		if _, err := tx.ExecContext(ctx, `DELETE FROM company_technologies WHERE id IN (SELECT value FROM json_each(?))`,
			jsonIDs(plan.Delete)); err != nil {
			return fmt.Errorf("forget technologies: %w", err)
		}
	}
	return nil
}

// jsonIDs encodes ids as a JSON list, for json_each.
func jsonIDs(ids []int64) string {
	b, _ := json.Marshal(ids) // integers: cannot fail
	return string(b)
}

// evidenceJSON encodes evidence for its column; none is [].
func evidenceJSON(ev []prospector.TechEvidence) string {
	if ev == nil {
		ev = []prospector.TechEvidence{}
	}
	b, _ := json.Marshal(ev) // plain strings: cannot fail
	return string(b)
}

// Technologies reads a company's technologies by name.
func (db *DB) Technologies(ctx context.Context, companyID int64, all bool) ([]*prospector.Technology, error) {
	q := `SELECT ` + techColumns + ` FROM company_technologies WHERE company_id = ?`
	if !all {
		q += ` AND state = '` + prospector.TechActive + `'`
	}
	return queryPrepared(ctx, db, q+` ORDER BY name, id`, scanTech, companyID)
}
