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

const leadColumns = `id, workspace_id, coalesce(radar_id, ''), source, coalesce(person_id, 0), company_id, full_name,
	first_name, last_name, title, company, network_url, city, region, country_code, coalesce(email, ''),
	coalesce(phone, ''), score, score_breakdown::text, status, coalesce(campaign_id, ''), replied_at, meeting_booked_at,
	coalesce(reply_content, ''), coalesce(feedback, ''), coalesce(feedback_reason, ''), last_signal_at,
	created_at, updated_at`

func scanLead(row pgx.Row) (*prospector.Lead, error) {
	var (
		l         prospector.Lead
		breakdown *string
	)
	if err := row.Scan(&l.ID, &l.WorkspaceID, &l.RadarID, &l.Source, &l.PersonID, &l.CompanyID, &l.FullName,
		&l.FirstName, &l.LastName, &l.Title, &l.Company, &l.NetworkURL, &l.City, &l.Region, &l.CountryCode, &l.Email,
		&l.Phone, &l.Score, &breakdown, &l.Status, &l.CampaignID, &l.RepliedAt, &l.MeetingBookedAt,
		&l.ReplyContent, &l.Feedback, &l.FeedbackReason, &l.LastSignalAt, &l.CreatedAt, &l.UpdatedAt); err != nil {
		return nil, fmt.Errorf("postgres: scan lead: %w", err)
	}
	if breakdown != nil {
		var b prospector.ScoreBreakdown
		if err := json.Unmarshal([]byte(*breakdown), &b); err != nil {
			return nil, fmt.Errorf("postgres: lead %s score breakdown: %w", l.ID, err)
		}
		l.Breakdown = &b
	}
	l.RepliedAt, l.MeetingBookedAt = utcPtr(l.RepliedAt), utcPtr(l.MeetingBookedAt)
	l.LastSignalAt, l.CreatedAt, l.UpdatedAt = l.LastSignalAt.UTC(), l.CreatedAt.UTC(), l.UpdatedAt.UTC()
	return &l, nil
}

// ApplyLeadBatch writes a batch in one transaction. Batches of one
// workspace are serialised by its quota counter row, locked first (FOR
// UPDATE, workspaces in id order), so what the transaction then reads
// (leads, attachments, usage) cannot change before it writes. Radar rows
// are locked last, by the cursor and backfill updates; every batch takes
// its locks in that order, so two batches never wait on each other in a
// cycle.
func (db *DB) ApplyLeadBatch(ctx context.Context, b *prospector.LeadBatch) (prospector.LeadBatchResult, error) {
	var res prospector.LeadBatchResult
	now := b.Now
	if now.IsZero() {
		now = time.Now()
	}
	now = now.UTC().Truncate(time.Microsecond)
	err := pgx.BeginFunc(ctx, db.pool, func(tx pgx.Tx) error {
		var workspaces []string
		for _, m := range b.Matches {
			if !slices.Contains(workspaces, m.WorkspaceID) {
				workspaces = append(workspaces, m.WorkspaceID)
			}
		}
		slices.Sort(workspaces)
		remaining, periods := map[string]int64{}, map[string]time.Time{}
		for _, ws := range workspaces {
			var (
				limit    *int64
				bypassed bool
				start    time.Time
				used     int64
			)
			if err := tx.QueryRow(ctx, `SELECT radar_signals_limit, radar_signals_bypassed, period_start
				FROM workspaces WHERE id = $1`, ws).Scan(&limit, &bypassed, &start); err != nil {
				return fmt.Errorf("workspace %s: %w", ws, err)
			}
			period, _ := prospector.BillingPeriod(start.UTC(), now)
			periods[ws] = period
			if _, err := tx.Exec(ctx, `INSERT INTO radar_signal_usage (workspace_id, period_start, used)
				VALUES ($1, $2, 0) ON CONFLICT DO NOTHING`, ws, period); err != nil {
				return err
			}
			if err := tx.QueryRow(ctx, `SELECT used FROM radar_signal_usage
				WHERE workspace_id = $1 AND period_start = $2 FOR UPDATE`, ws, period).Scan(&used); err != nil {
				return err
			}
			if limit != nil && !bypassed {
				remaining[ws] = *limit - used
			}
		}
		existing, attached, err := leadState(ctx, tx, b.Matches)
		if err != nil {
			return err
		}
		plan, planned := prospector.PlanLeadBatch(b, existing, attached, remaining)
		res = planned
		if err := writePlan(ctx, tx, plan, now); err != nil {
			return err
		}
		added := map[string]int64{}
		for _, p := range plan {
			added[p.Match.WorkspaceID] += int64(len(p.Signals))
		}
		for ws, n := range added {
			if _, err := tx.Exec(ctx, `UPDATE radar_signal_usage SET used = used + $3
				WHERE workspace_id = $1 AND period_start = $2`, ws, periods[ws], n); err != nil {
				return err
			}
		}
		cursors := slices.Clone(b.Cursors)
		slices.SortFunc(cursors, func(a, c prospector.RadarCursor) int { return cmp.Compare(a.RadarID, c.RadarID) })
		for _, c := range cursors {
			tag, err := tx.Exec(ctx, `UPDATE radars SET cursor = $1, updated_at = $2 WHERE id = $3 AND cursor = $4`,
				c.To, now, c.RadarID, c.From)
			if err != nil {
				return err
			}
			if tag.RowsAffected() == 0 {
				return fmt.Errorf("radar %s at %d: %w", c.RadarID, c.From, prospector.ErrCursorMoved)
			}
		}
		if len(b.Backfilled) > 0 {
			if _, err := tx.Exec(ctx, `UPDATE radars SET backfilled_at = $1, updated_at = $1
				WHERE id = ANY($2) AND backfilled_at IS NULL`, now, b.Backfilled); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return prospector.LeadBatchResult{}, fmt.Errorf("postgres: apply lead batch: %w", err)
	}
	return res, nil
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

// writePlan inserts the new leads, updates the existing ones and attaches
// the signals: two statements over arrays, whatever the batch size.
func writePlan(ctx context.Context, tx pgx.Tx, plan []prospector.PlannedLead, now time.Time) error {
	if len(plan) == 0 {
		return nil
	}
	// One array per column, as unnest takes them.
	var ids, workspaces, radars, names, firsts, lasts, titles, companies, urls, cities, regions, countries, breakdowns []string
	var people []int64
	var companyIDs []*int64
	var scores []float64
	var lastAt []time.Time
	for _, p := range plan {
		l, m := &p.Match.Lead, p.Match
		bd, _ := json.Marshal(p.Best)
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
		return fmt.Errorf("write leads: %w", err)
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
		return fmt.Errorf("write leads: %w", err)
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
	_, err = tx.Exec(ctx, `INSERT INTO lead_signals (lead_id, signal_id, radar_id, detected_at, score)
		SELECT * FROM unnest($1::text[], $2::bigint[], $3::text[], $4::timestamptz[], $5::float8[])
		ON CONFLICT DO NOTHING`, aLead, aSignal, aRadar, aDetected, aScore)
	if err != nil {
		return fmt.Errorf("attach signals: %w", err)
	}
	return nil
}

// RadarLeads reads a radar's leads best first through leads_radar_score.
func (db *DB) RadarLeads(ctx context.Context, f prospector.LeadFilter) ([]*prospector.Lead, error) {
	return queryList(ctx, db, `SELECT `+leadColumns+` FROM leads
		WHERE radar_id = $1 AND ($2::float8 IS NULL OR score >= $2) AND ($3::timestamptz IS NULL OR last_signal_at >= $3)
		ORDER BY score DESC, last_signal_at DESC, id LIMIT $4`, scanLead, f.RadarID, f.MinScore, f.Since, sqlLimit(f.Limit))
}

// leadSignalSelect reads attachments with their signal, company and lead.
const leadSignalSelect = `SELECT ls.lead_id, ls.signal_id, s.type, s.title, s.detail, s.source_url,
	coalesce(c.name, ''), ls.detected_at, ls.score, l.full_name, l.title, l.company
	FROM lead_signals ls
	JOIN signals s ON s.id = ls.signal_id
	JOIN leads l ON l.id = ls.lead_id
	LEFT JOIN companies c ON c.id = s.company_id`

func scanLeadSignal(row pgx.Row) (*prospector.LeadSignal, error) {
	var s prospector.LeadSignal
	if err := row.Scan(&s.LeadID, &s.SignalID, &s.Type, &s.Title, &s.Detail, &s.SourceURL, &s.Company, &s.DetectedAt,
		&s.Score, &s.LeadName, &s.LeadTitle, &s.LeadCompany); err != nil {
		return nil, fmt.Errorf("postgres: scan lead signal: %w", err)
	}
	s.DetectedAt = s.DetectedAt.UTC()
	return &s, nil
}

// LeadSignals reads the attachments of the leads (each lead's are one
// range of the primary key) and keeps the newest perLead of each.
func (db *DB) LeadSignals(ctx context.Context, leadIDs []string, since *time.Time, perLead int) ([]*prospector.LeadSignal, error) {
	if len(leadIDs) == 0 {
		return nil, nil
	}
	rows, err := queryList(ctx, db, leadSignalSelect+` WHERE ls.lead_id = ANY($1)
		AND ($2::timestamptz IS NULL OR ls.detected_at >= $2)
		ORDER BY ls.lead_id, ls.detected_at DESC, ls.signal_id DESC`, scanLeadSignal, leadIDs, since)
	if err != nil {
		return nil, err
	}
	byLead := map[string][]*prospector.LeadSignal{}
	for _, r := range rows {
		if len(byLead[r.LeadID]) < perLead {
			byLead[r.LeadID] = append(byLead[r.LeadID], r)
		}
	}
	var out []*prospector.LeadSignal
	for _, id := range leadIDs {
		out = append(out, byLead[id]...)
		delete(byLead, id)
	}
	return out, nil
}

// RadarSignals walks lead_signals_radar backwards.
func (db *DB) RadarSignals(ctx context.Context, radarID string, since *time.Time, limit int) ([]*prospector.LeadSignal, error) {
	return queryList(ctx, db, leadSignalSelect+` WHERE ls.radar_id = $1
		AND ($2::timestamptz IS NULL OR ls.detected_at >= $2)
		ORDER BY ls.detected_at DESC, ls.signal_id DESC, ls.lead_id LIMIT $3`, scanLeadSignal, radarID, since, sqlLimit(limit))
}

// LeadsByID returns the workspace's leads among ids.
func (db *DB) LeadsByID(ctx context.Context, workspaceID string, ids []string) ([]*prospector.Lead, error) {
	if len(ids) == 0 {
		return nil, nil
	}
	return queryList(ctx, db, `SELECT `+leadColumns+` FROM leads WHERE workspace_id = $1 AND id = ANY($2)`,
		scanLead, workspaceID, ids)
}
