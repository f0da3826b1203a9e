package postgres

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/prospectorhq/prospector"
)

// ApplyLeadBatch writes a batch in one transaction. Batches of one
// workspace are serialised by its quota counter row, locked first (FOR
// UPDATE, workspaces in id order), so what the transaction then reads
// (leads, attachments, usage) cannot change before it writes. Radar rows
// are locked last, by the cursor and backfill updates; every batch takes
// its locks in that order, so two batches never wait on each other in a
// cycle.
func (db *DB) ApplyLeadBatch(ctx context.Context, b *prospector.LeadBatch) (prospector.LeadBatchResult, error) {
	now := b.WriteTime().UTC().Truncate(time.Microsecond)
	var res prospector.LeadBatchResult
	err := pgx.BeginFunc(ctx, db.pool, func(tx pgx.Tx) error {
		var err error
		res, err = applyLeadBatch(ctx, tx, b, now)
		return err
	})
	if err != nil {
		return prospector.LeadBatchResult{}, fmt.Errorf("postgres: apply lead batch: %w", err)
	}
	return res, nil
}

// applyLeadBatch is ApplyLeadBatch's transaction, its steps in the order
// they lock: the quota counters, then what the batch meets, the plan and
// its writes, then the radars.
func applyLeadBatch(ctx context.Context, tx pgx.Tx, b *prospector.LeadBatch, now time.Time) (prospector.LeadBatchResult, error) {
	quotas, err := lockQuotas(ctx, tx, b.Matches, now)
	if err != nil {
		return prospector.LeadBatchResult{}, err
	}
	existing, attached, err := leadState(ctx, tx, b.Matches)
	if err != nil {
		return prospector.LeadBatchResult{}, err
	}
	plan, res := prospector.PlanLeadBatch(b, existing, attached, quotas.remaining)
	stored, err := writeLeads(ctx, tx, plan, now)
	if err != nil {
		return prospector.LeadBatchResult{}, err
	}
	if err := attachSignals(ctx, tx, plan, stored); err != nil {
		return prospector.LeadBatchResult{}, err
	}
	if err := queueAutoSync(ctx, tx, b, plan, stored, now); err != nil {
		return prospector.LeadBatchResult{}, err
	}
	if err := chargeRadarSignals(ctx, tx, plan, quotas.periods); err != nil {
		return prospector.LeadBatchResult{}, err
	}
	if err := moveCursors(ctx, tx, b.Cursors, now); err != nil {
		return prospector.LeadBatchResult{}, err
	}
	if err := markBackfilled(ctx, tx, b.Backfilled, now); err != nil {
		return prospector.LeadBatchResult{}, err
	}
	return res, nil
}

// batchQuotas are the current billing period of each workspace of a
// batch and, when its radar signals quota is enforced, what is left.
type batchQuotas struct {
	periods   map[string]time.Time
	remaining map[string]int64
}

// lockQuotas locks the radar signals counter of each workspace of the
// matches for its current period, creating it at 0, in workspace order,
// and reads what is left.
func lockQuotas(ctx context.Context, tx pgx.Tx, matches []prospector.LeadMatch, now time.Time) (*batchQuotas, error) {
	var workspaces []string
	for _, m := range matches {
		if !slices.Contains(workspaces, m.WorkspaceID) {
			workspaces = append(workspaces, m.WorkspaceID)
		}
	}
	slices.Sort(workspaces)
	q := &batchQuotas{periods: map[string]time.Time{}, remaining: map[string]int64{}}
	for _, ws := range workspaces {
		var (
			limit    *int64
			bypassed bool
			start    time.Time
			used     int64
		)
		if err := tx.QueryRow(ctx, `SELECT radar_signals_limit, radar_signals_bypassed, period_start
			FROM workspaces WHERE id = $1`, ws).Scan(&limit, &bypassed, &start); err != nil {
			return nil, fmt.Errorf("workspace %s: %w", ws, err)
		}
		period, _ := prospector.BillingPeriod(start.UTC(), now)
		q.periods[ws] = period
		if _, err := tx.Exec(ctx, `INSERT INTO radar_signal_usage (workspace_id, period_start, used)
			VALUES ($1, $2, 0) ON CONFLICT DO NOTHING`, ws, period); err != nil {
			return nil, fmt.Errorf("workspace %s radar signals usage: %w", ws, err)
		}
		if err := tx.QueryRow(ctx, `SELECT used FROM radar_signal_usage
			WHERE workspace_id = $1 AND period_start = $2 FOR UPDATE`, ws, period).Scan(&used); err != nil {
			return nil, fmt.Errorf("workspace %s radar signals usage: %w", ws, err)
		}
		if left, enforced := (prospector.Limit{Limit: limit, Bypassed: bypassed}).Remaining(used); enforced {
			q.remaining[ws] = left
		}
	}
	return q, nil
}

// chargeRadarSignals adds the signals the plan attaches to each
// workspace's counter, which lockQuotas locked.
func chargeRadarSignals(ctx context.Context, tx pgx.Tx, plan []prospector.PlannedLead, periods map[string]time.Time) error {
	for ws, n := range prospector.SignalsAdded(plan) {
		if _, err := tx.Exec(ctx, `UPDATE radar_signal_usage SET used = used + $3
			WHERE workspace_id = $1 AND period_start = $2`, ws, periods[ws], n); err != nil {
			return fmt.Errorf("workspace %s radar signals usage: %w", ws, err)
		}
	}
	return nil
}

// moveCursors moves the radars' cursors, in radar id order; ErrCursorMoved
// when one is no longer where the batch expects it.
func moveCursors(ctx context.Context, tx pgx.Tx, cursors []prospector.RadarCursor, now time.Time) error {
	cursors = slices.Clone(cursors)
	slices.SortFunc(cursors, func(a, c prospector.RadarCursor) int { return cmp.Compare(a.RadarID, c.RadarID) })
	for _, c := range cursors {
		// A paused radar's cursor does not move: pausing it stops a scan
		// that read it running.
		tag, err := tx.Exec(ctx, `UPDATE radars SET cursor = $1, scanned_at = $2, updated_at = $2
			WHERE id = $3 AND cursor = $4 AND paused_at IS NULL`,
			c.To, now, c.RadarID, c.From)
		if err != nil {
			return fmt.Errorf("radar %s cursor: %w", c.RadarID, err)
		}
		if tag.RowsAffected() == 0 {
			return fmt.Errorf("radar %s at %d: %w", c.RadarID, c.From, prospector.ErrCursorMoved)
		}
	}
	return nil
}

// markBackfilled records the radars whose backfill the batch completes.
func markBackfilled(ctx context.Context, tx pgx.Tx, radarIDs []string, now time.Time) error {
	if len(radarIDs) == 0 {
		return nil
	}
	if _, err := tx.Exec(ctx, `UPDATE radars SET backfilled_at = $1, scanned_at = $1, updated_at = $1
		WHERE id = ANY($2) AND backfilled_at IS NULL`, now, radarIDs); err != nil {
		return fmt.Errorf("radars backfilled: %w", err)
	}
	return nil
}

// leadState reads the leads the matches already have and which of their
// signals are attached, in two statements.
func leadState(ctx context.Context, tx pgx.Tx, matches []prospector.LeadMatch) (map[prospector.LeadKey]string,
	map[prospector.AttachKey]bool, error) {
	existing, attached := map[prospector.LeadKey]string{}, map[prospector.AttachKey]bool{}
	if len(matches) == 0 {
		return existing, attached, nil
	}
	radars, people := make([]string, len(matches)), make([]int64, len(matches))
	for i, m := range matches {
		radars[i], people[i] = m.RadarID, m.Lead.PersonID
	}
	rows, err := tx.Query(ctx, `SELECT l.id, l.radar_id, l.person_id FROM leads l
		JOIN unnest($1::text[], $2::bigint[]) AS k(radar_id, person_id)
			ON l.radar_id = k.radar_id AND l.person_id = k.person_id`, radars, people)
	if err != nil {
		return nil, nil, fmt.Errorf("existing leads: %w", err)
	}
	var (
		id, radar string
		person    int64
		ids       []string
	)
	if _, err := pgx.ForEachRow(rows, []any{&id, &radar, &person}, func() error {
		existing[prospector.LeadKey{RadarID: radar, PersonID: person}] = id
		ids = append(ids, id)
		return nil
	}); err != nil {
		return nil, nil, fmt.Errorf("existing leads: %w", err)
	}
	if len(ids) == 0 {
		return existing, attached, nil
	}
	var signals []int64
	for _, m := range matches {
		if _, ok := existing[prospector.LeadKey{RadarID: m.RadarID, PersonID: m.Lead.PersonID}]; ok {
			for _, s := range m.Signals {
				signals = append(signals, s.SignalID)
			}
		}
	}
	rows, err = tx.Query(ctx, `SELECT lead_id, signal_id FROM lead_signals
		WHERE lead_id = ANY($1) AND signal_id = ANY($2)`, ids, signals)
	if err != nil {
		return nil, nil, fmt.Errorf("attached signals: %w", err)
	}
	var sig int64
	if _, err := pgx.ForEachRow(rows, []any{&id, &sig}, func() error {
		attached[prospector.AttachKey{LeadID: id, SignalID: sig}] = true
		return nil
	}); err != nil {
		return nil, nil, fmt.Errorf("attached signals: %w", err)
	}
	return existing, attached, nil
}

// writeLeads inserts the plan's new leads and updates the existing ones
// in one statement over arrays, whatever the batch size. It returns the
// id each (radar, person) of the plan has in the table.
func writeLeads(ctx context.Context, tx pgx.Tx, plan []prospector.PlannedLead, now time.Time) (map[prospector.LeadKey]string, error) {
	if len(plan) == 0 {
		return nil, nil
	}
	// One array per column, as unnest takes them.
	var ids, workspaces, radars, names, firsts, lasts, titles, companies, urls, cities, regions, countries, breakdowns []string
	var people []int64
	var companyIDs []*int64
	var scores []float64
	var lastAt []time.Time
	for _, p := range plan {
		l, m := &p.Match.Lead, p.Match
		bd, err := json.Marshal(p.Best)
		if err != nil {
			return nil, fmt.Errorf("lead %s score breakdown: %w", p.ID, err)
		}
		ids, workspaces, radars = append(ids, p.ID), append(workspaces, m.WorkspaceID), append(radars, m.RadarID)
		people, companyIDs = append(people, l.PersonID), append(companyIDs, l.CompanyID)
		names, firsts, lasts = append(names, l.FullName), append(firsts, l.FirstName), append(lasts, l.LastName)
		titles, companies, urls = append(titles, l.Title), append(companies, l.Company), append(urls, l.NetworkURL)
		cities, regions, countries = append(cities, l.City), append(regions, l.Region), append(countries, l.CountryCode)
		scores, breakdowns, lastAt = append(scores, p.Best.Total), append(breakdowns, string(bd)), append(lastAt, p.Last)
	}
	// One statement for both: new leads are inserted, existing ones are
	// updated, keeping their id, status and best score. RETURNING gives
	// the id each (radar, person) has, so the attachments below name the
	// stored lead even if another transaction had inserted it.
	rows, err := tx.Query(ctx, `INSERT INTO leads AS l (id, workspace_id, radar_id, source, person_id, company_id,
		full_name, first_name, last_name, title, company, network_url, city, region, country_code, score,
		score_breakdown, status, last_signal_at, created_at, updated_at)
		SELECT v.id, v.workspace_id, v.radar_id, 'radar', v.person_id, v.company_id, v.full_name, v.first_name,
			v.last_name, v.title, v.company, v.network_url, v.city, v.region, v.country_code, v.score,
			v.breakdown::jsonb, 'detected', v.last_at, $16, $16
		FROM unnest($1::text[], $2::text[], $3::text[], $4::bigint[], $5::bigint[], $6::text[], $7::text[],
			$8::text[], $9::text[], $10::text[], $11::text[], $12::text[], $13::text[], $14::text[], $15::float8[],
			$17::text[], $18::timestamptz[])
			AS v(id, workspace_id, radar_id, person_id, company_id, full_name, first_name, last_name, title, company,
				network_url, city, region, country_code, score, breakdown, last_at)
		ON CONFLICT (radar_id, person_id) DO UPDATE SET company_id = excluded.company_id,
			full_name = excluded.full_name, first_name = excluded.first_name, last_name = excluded.last_name,
			title = excluded.title, company = excluded.company, network_url = excluded.network_url,
			city = excluded.city, region = excluded.region, country_code = excluded.country_code,
			score_breakdown = CASE WHEN l.score IS NULL OR l.score < excluded.score
				THEN excluded.score_breakdown ELSE l.score_breakdown END,
			score = GREATEST(l.score, excluded.score),
			last_signal_at = GREATEST(l.last_signal_at, excluded.last_signal_at), updated_at = excluded.updated_at
		RETURNING l.id, l.radar_id, l.person_id`,
		ids, workspaces, radars, people, companyIDs, names, firsts, lasts, titles, companies, urls, cities, regions,
		countries, scores, now, breakdowns, lastAt)
	if err != nil {
		return nil, fmt.Errorf("write leads: %w", err)
	}
	stored := make(map[prospector.LeadKey]string, len(plan))
	var (
		id, radar string
		person    int64
	)
	if _, err := pgx.ForEachRow(rows, []any{&id, &radar, &person}, func() error {
		stored[prospector.LeadKey{RadarID: radar, PersonID: person}] = id
		return nil
	}); err != nil {
		return nil, fmt.Errorf("write leads: %w", err)
	}
	return stored, nil
}

// attachSignals attaches the plan's signals to the leads writeLeads
// stored, in one statement over arrays; an attachment already there is
// left alone.
func attachSignals(ctx context.Context, tx pgx.Tx, plan []prospector.PlannedLead, stored map[prospector.LeadKey]string) error {
	if len(plan) == 0 {
		return nil
	}
	var (
		aLead, aRadar []string
		aSignal       []int64
		aDetected     []time.Time
		aScore        []float64
	)
	for _, p := range plan {
		m := p.Match
		leadID := stored[prospector.LeadKey{RadarID: m.RadarID, PersonID: m.Lead.PersonID}]
		for _, s := range p.Signals {
			aLead, aRadar = append(aLead, leadID), append(aRadar, m.RadarID)
			aSignal, aDetected, aScore = append(aSignal, s.SignalID), append(aDetected, s.DetectedAt), append(aScore, s.Score.Total)
		}
	}
	if _, err := tx.Exec(ctx, `INSERT INTO lead_signals (lead_id, signal_id, radar_id, detected_at, score)
		SELECT * FROM unnest($1::text[], $2::bigint[], $3::text[], $4::timestamptz[], $5::float8[])
		ON CONFLICT DO NOTHING`, aLead, aSignal, aRadar, aDetected, aScore); err != nil {
		return fmt.Errorf("attach signals: %w", err)
	}
	return nil
}
