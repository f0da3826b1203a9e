package sqlite

import (
	"cmp"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/prospectorhq/prospector"
)

const leadColumns = `id, workspace_id, coalesce(radar_id, ''), source, coalesce(person_id, 0), company_id, full_name,
	first_name, last_name, title, company, network_url, city, region, country_code, coalesce(email, ''),
	coalesce(phone, ''), score, score_breakdown, status, coalesce(campaign_id, ''), replied_at, meeting_booked_at,
	coalesce(reply_content, ''), coalesce(feedback, ''), coalesce(feedback_reason, ''), last_signal_at,
	created_at, updated_at`

func scanLead(row rowScanner) (*prospector.Lead, error) {
	var (
		l                        prospector.Lead
		company                  sql.NullInt64
		score                    sql.NullFloat64
		breakdown                sql.NullString
		replied, meeting         sql.NullString
		lastSignal, cAt, updated string
	)
	if err := row.Scan(&l.ID, &l.WorkspaceID, &l.RadarID, &l.Source, &l.PersonID, &company, &l.FullName,
		&l.FirstName, &l.LastName, &l.Title, &l.Company, &l.NetworkURL, &l.City, &l.Region, &l.CountryCode, &l.Email,
		&l.Phone, &score, &breakdown, &l.Status, &l.CampaignID, &replied, &meeting,
		&l.ReplyContent, &l.Feedback, &l.FeedbackReason, &lastSignal, &cAt, &updated); err != nil {
		return nil, fmt.Errorf("sqlite: scan lead: %w", err)
	}
	l.CompanyID, l.Score = int64Ptr(company), float64Ptr(score)
	if breakdown.Valid {
		var b prospector.ScoreBreakdown
		if err := json.Unmarshal([]byte(breakdown.String), &b); err != nil {
			return nil, fmt.Errorf("sqlite: lead %s score breakdown: %w", l.ID, err)
		}
		l.Breakdown = &b
	}
	l.RepliedAt, l.MeetingBookedAt = parseTimePtr(replied), parseTimePtr(meeting)
	l.LastSignalAt, l.CreatedAt, l.UpdatedAt = parseTime(lastSignal), parseTime(cAt), parseTime(updated)
	return &l, nil
}

// The statements of ApplyLeadBatch, prepared once on the writer.
const (
	qMoveCursor = `UPDATE radars SET cursor = ?, updated_at = ? WHERE id = ? AND cursor = ?`
	qQuota      = `SELECT radar_signals_limit, radar_signals_bypassed, period_start FROM workspaces WHERE id = ?`
	qUsed       = `SELECT coalesce((SELECT used FROM radar_signal_usage WHERE workspace_id = ? AND period_start = ?), 0)`
	qLeadID     = `SELECT id FROM leads WHERE radar_id = ? AND person_id = ?`
	qAttached   = `SELECT count(*) FROM lead_signals WHERE lead_id = ? AND signal_id = ?`
	qInsertLead = `INSERT INTO leads (id, workspace_id, radar_id, source, person_id, company_id, full_name, first_name,
		last_name, title, company, network_url, city, region, country_code, score, score_breakdown, status,
		last_signal_at, created_at, updated_at) VALUES `
	leadValues = `(?, ?, ?, 'radar', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'detected', ?, ?, ?)`
	// qUpdateLead refreshes the card and keeps the best score; SET
	// expressions all read the row as it was, so the CASE compares with
	// the old score.
	qUpdateLead = `UPDATE leads SET company_id = ?, full_name = ?, first_name = ?, last_name = ?, title = ?,
		company = ?, network_url = ?, city = ?, region = ?, country_code = ?,
		score_breakdown = CASE WHEN score IS NULL OR score < ? THEN ? ELSE score_breakdown END,
		score = CASE WHEN score IS NULL OR score < ? THEN ? ELSE score END,
		last_signal_at = max(last_signal_at, ?), updated_at = ?
		WHERE id = ?`
	qAttach      = `INSERT INTO lead_signals (lead_id, signal_id, radar_id, detected_at, score) VALUES `
	attachValues = `(?, ?, ?, ?, ?)`
	qAddUsage    = `INSERT INTO radar_signal_usage (workspace_id, period_start, used) VALUES (?, ?, ?)
		ON CONFLICT (workspace_id, period_start) DO UPDATE SET used = used + excluded.used`
	qBackfilled = `UPDATE radars SET backfilled_at = ?, updated_at = ? WHERE id = ? AND backfilled_at IS NULL`
)

// rowsPerInsert is the number of rows of a multi-row INSERT of a batch:
// one statement per row would spend most of its time starting and
// stopping the statement rather than inserting.
const rowsPerInsert = 32

// multiInsert returns an INSERT of n rows of values.
func multiInsert(head, values string, n int) string {
	return head + strings.TrimSuffix(strings.Repeat(values+",", n), ",")
}

// ApplyLeadBatch writes a batch in one write transaction. SQLite's single
// writer serialises batches, so what the transaction reads first (leads,
// attachments, quota counters) cannot change before it writes.
func (db *DB) ApplyLeadBatch(ctx context.Context, b *prospector.LeadBatch) (prospector.LeadBatchResult, error) {
	var res prospector.LeadBatchResult
	if err := db.writeStmts(ctx, qMoveCursor, qQuota, qUsed, qLeadID, qAttached, qUpdateLead, qAddUsage, qBackfilled,
		multiInsert(qInsertLead, leadValues, 1), multiInsert(qInsertLead, leadValues, rowsPerInsert),
		multiInsert(qAttach, attachValues, 1), multiInsert(qAttach, attachValues, rowsPerInsert)); err != nil {
		return res, err
	}
	now := b.Now
	if now.IsZero() {
		now = time.Now()
	}
	stamp := formatTime(now)
	err := db.tx(ctx, func(tx *sql.Tx) error {
		stmts := map[string]*sql.Stmt{}
		st := func(q string) *sql.Stmt {
			if s := stmts[q]; s != nil {
				return s
			}
			s, _ := txStmt(ctx, db, tx, q) // prepared above: cannot fail
			stmts[q] = s
			return s
		}
		for _, c := range b.Cursors {
			r, err := st(qMoveCursor).ExecContext(ctx, c.To, stamp, c.RadarID, c.From)
			if err != nil {
				return err
			}
			if n, _ := r.RowsAffected(); n == 0 {
				return fmt.Errorf("radar %s at %d: %w", c.RadarID, c.From, prospector.ErrCursorMoved)
			}
		}
		remaining, periods := map[string]int64{}, map[string]string{}
		existing, attached := map[prospector.LeadKey]string{}, map[prospector.AttachKey]bool{}
		// Lookups in index order: neighbouring keys share pages.
		order := make([]int, len(b.Matches))
		for i := range order {
			order[i] = i
		}
		slices.SortFunc(order, func(x, y int) int { return compareMatch(&b.Matches[x], &b.Matches[y]) })
		for _, i := range order {
			m := &b.Matches[i]
			if _, done := periods[m.WorkspaceID]; !done {
				var (
					limit    sql.NullInt64
					bypassed bool
					start    string
				)
				if err := st(qQuota).QueryRowContext(ctx, m.WorkspaceID).Scan(&limit, &bypassed, &start); err != nil {
					return fmt.Errorf("workspace %s: %w", m.WorkspaceID, err)
				}
				period, _ := prospector.BillingPeriod(parseTime(start), now)
				periods[m.WorkspaceID] = formatTime(period)
				if limit.Valid && !bypassed {
					var used int64
					if err := st(qUsed).QueryRowContext(ctx, m.WorkspaceID, periods[m.WorkspaceID]).Scan(&used); err != nil {
						return err
					}
					remaining[m.WorkspaceID] = limit.Int64 - used
				}
			}
			key := prospector.LeadKey{RadarID: m.RadarID, PersonID: m.Lead.PersonID}
			if _, done := existing[key]; done {
				continue
			}
			var id string
			err := st(qLeadID).QueryRowContext(ctx, m.RadarID, m.Lead.PersonID).Scan(&id)
			if errors.Is(err, sql.ErrNoRows) {
				continue
			}
			if err != nil {
				return err
			}
			existing[key] = id
			for _, s := range m.Signals {
				var n int
				if err := st(qAttached).QueryRowContext(ctx, id, s.SignalID).Scan(&n); err != nil {
					return err
				}
				if n > 0 {
					attached[prospector.AttachKey{LeadID: id, SignalID: s.SignalID}] = true
				}
			}
		}
		plan, planned := prospector.PlanLeadBatch(b, existing, attached, remaining)
		res = planned
		slices.SortFunc(plan, func(x, y prospector.PlannedLead) int { return compareMatch(x.Match, y.Match) })
		leads, attach := &rowBuffer{head: qInsertLead, values: leadValues}, &rowBuffer{head: qAttach, values: attachValues}
		for _, p := range plan {
			l, m := &p.Match.Lead, p.Match
			bd, _ := json.Marshal(p.Best)
			if p.New {
				if err := leads.add(ctx, st, p.ID, m.WorkspaceID, m.RadarID, l.PersonID, nullInt(l.CompanyID), l.FullName,
					l.FirstName, l.LastName, l.Title, l.Company, l.NetworkURL, l.City, l.Region, l.CountryCode,
					p.Best.Total, string(bd), formatTime(p.Last), stamp, stamp); err != nil {
					return fmt.Errorf("insert leads: %w", err)
				}
			} else if _, err := st(qUpdateLead).ExecContext(ctx, nullInt(l.CompanyID), l.FullName, l.FirstName, l.LastName,
				l.Title, l.Company, l.NetworkURL, l.City, l.Region, l.CountryCode, p.Best.Total, string(bd), p.Best.Total,
				p.Best.Total, formatTime(p.Last), stamp, p.ID); err != nil {
				return fmt.Errorf("lead %s: %w", p.ID, err)
			}
		}
		if err := leads.flush(ctx, st); err != nil { // before the signals, which reference them
			return fmt.Errorf("insert leads: %w", err)
		}
		added := map[string]int64{}
		for _, p := range plan {
			for _, s := range p.Signals {
				if err := attach.add(ctx, st, p.ID, s.SignalID, p.Match.RadarID, formatTime(s.DetectedAt), s.Score.Total); err != nil {
					return fmt.Errorf("attach signals: %w", err)
				}
			}
			added[p.Match.WorkspaceID] += int64(len(p.Signals))
		}
		if err := attach.flush(ctx, st); err != nil {
			return fmt.Errorf("attach signals: %w", err)
		}
		for ws, n := range added {
			if _, err := st(qAddUsage).ExecContext(ctx, ws, periods[ws], n); err != nil {
				return err
			}
		}
		for _, id := range b.Backfilled {
			if _, err := st(qBackfilled).ExecContext(ctx, stamp, stamp, id); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return prospector.LeadBatchResult{}, fmt.Errorf("sqlite: apply lead batch: %w", err)
	}
	return res, nil
}

// rowBuffer collects the rows of a multi-row INSERT and runs it every
// rowsPerInsert rows; flush inserts the rest one by one.
type rowBuffer struct {
	head, values string
	args         []any
	rows         int
}

func (r *rowBuffer) add(ctx context.Context, st func(string) *sql.Stmt, row ...any) error {
	r.args, r.rows = append(r.args, row...), r.rows+1
	if r.rows < rowsPerInsert {
		return nil
	}
	_, err := st(multiInsert(r.head, r.values, rowsPerInsert)).ExecContext(ctx, r.args...)
	r.args, r.rows = r.args[:0], 0
	return err
}

func (r *rowBuffer) flush(ctx context.Context, st func(string) *sql.Stmt) error {
	per := len(r.args) / max(r.rows, 1)
	for i := 0; i < r.rows; i++ {
		if _, err := st(multiInsert(r.head, r.values, 1)).ExecContext(ctx, r.args[i*per:(i+1)*per]...); err != nil {
			return err
		}
	}
	r.args, r.rows = r.args[:0], 0
	return nil
}

// compareMatch orders matches as the leads' unique index does.
func compareMatch(a, b *prospector.LeadMatch) int {
	if c := strings.Compare(a.RadarID, b.RadarID); c != 0 {
		return c
	}
	return cmp.Compare(a.Lead.PersonID, b.Lead.PersonID)
}

// RadarLeads reads a radar's leads best first through leads_radar_score.
// Absent filters are bound as values every row passes, so one prepared
// statement serves every request.
func (db *DB) RadarLeads(ctx context.Context, f prospector.LeadFilter) ([]*prospector.Lead, error) {
	minScore, since := -1.0, ""
	if f.MinScore != nil {
		minScore = *f.MinScore
	}
	if f.Since != nil {
		since = formatTime(*f.Since)
	}
	return queryPrepared(ctx, db, `SELECT `+leadColumns+` FROM leads
		WHERE radar_id = ? AND score >= ? AND last_signal_at >= ?
		ORDER BY score DESC, last_signal_at DESC, id LIMIT (? + 0)`, scanLead, f.RadarID, minScore, since, f.Limit)
}

// leadSignalSelect reads attachments with their signal, company and lead.
const leadSignalSelect = `SELECT ls.lead_id, ls.signal_id, s.type, s.title, s.detail, s.source_url,
	coalesce(c.name, ''), ls.detected_at, ls.score, l.full_name, l.title, l.company
	FROM lead_signals ls
	JOIN signals s ON s.id = ls.signal_id
	JOIN leads l ON l.id = ls.lead_id
	LEFT JOIN companies c ON c.id = s.company_id`

func scanLeadSignal(row rowScanner) (*prospector.LeadSignal, error) {
	var (
		s        prospector.LeadSignal
		detected string
	)
	if err := row.Scan(&s.LeadID, &s.SignalID, &s.Type, &s.Title, &s.Detail, &s.SourceURL, &s.Company, &detected,
		&s.Score, &s.LeadName, &s.LeadTitle, &s.LeadCompany); err != nil {
		return nil, fmt.Errorf("sqlite: scan lead signal: %w", err)
	}
	s.DetectedAt = parseTime(detected)
	return &s, nil
}

// LeadSignals reads the attachments of the leads in chunks of a bucket
// size (padded with ”, never a lead id) and keeps the newest perLead of
// each.
func (db *DB) LeadSignals(ctx context.Context, leadIDs []string, since *time.Time, perLead int) ([]*prospector.LeadSignal, error) {
	sinceText := ""
	if since != nil {
		sinceText = formatTime(*since)
	}
	byLead := map[string][]*prospector.LeadSignal{}
	for start := 0; start < len(leadIDs); {
		bucket := bucketFor(len(leadIDs) - start)
		chunk := leadIDs[start:min(start+bucket, len(leadIDs))]
		start += len(chunk)
		args := make([]any, bucket, bucket+1)
		for i := range args {
			args[i] = ""
		}
		for i, id := range chunk {
			args[i] = id
		}
		rows, err := queryPrepared(ctx, db, leadSignalSelect+` WHERE ls.lead_id IN (`+placeholders(bucket)+`)
			AND ls.detected_at >= ? ORDER BY ls.lead_id, ls.detected_at DESC, ls.signal_id DESC`,
			scanLeadSignal, append(args, sinceText)...)
		if err != nil {
			return nil, fmt.Errorf("sqlite: lead signals: %w", err)
		}
		for _, r := range rows {
			if len(byLead[r.LeadID]) < perLead {
				byLead[r.LeadID] = append(byLead[r.LeadID], r)
			}
		}
	}
	var out []*prospector.LeadSignal
	for _, id := range leadIDs {
		out = append(out, byLead[id]...)
		delete(byLead, id) // a repeated id contributes once
	}
	return out, nil
}

// RadarSignals walks lead_signals_radar backwards.
func (db *DB) RadarSignals(ctx context.Context, radarID string, since *time.Time, limit int) ([]*prospector.LeadSignal, error) {
	sinceText := ""
	if since != nil {
		sinceText = formatTime(*since)
	}
	return queryPrepared(ctx, db, leadSignalSelect+` WHERE ls.radar_id = ? AND ls.detected_at >= ?
		ORDER BY ls.detected_at DESC, ls.signal_id DESC, ls.lead_id LIMIT (? + 0)`, scanLeadSignal, radarID, sinceText, limit)
}

// LeadsByID returns the workspace's leads among ids.
func (db *DB) LeadsByID(ctx context.Context, workspaceID string, ids []string) ([]*prospector.Lead, error) {
	ids = slices.Compact(slices.Sorted(slices.Values(ids)))
	var out []*prospector.Lead
	for start := 0; start < len(ids); {
		// Lists are padded with NULL (equal to nothing) to a bucket size,
		// so a few prepared statements serve every call: parsing a
		// 500-value IN list cost more than running it.
		bucket := bucketFor(len(ids) - start)
		chunk := ids[start:min(start+bucket, len(ids))]
		start += len(chunk)
		args := make([]any, 1+bucket)
		args[0] = workspaceID
		for i, id := range chunk {
			args[1+i] = id
		}
		// "+workspace_id" keeps SQLite from walking the workspace's
		// leads through leads_workspace: each id is a primary-key probe.
		rows, err := queryPrepared(ctx, db, `SELECT `+leadColumns+` FROM leads WHERE +workspace_id = ? AND id IN (`+placeholders(bucket)+`)`, scanLead, args...)
		if err != nil {
			return nil, fmt.Errorf("sqlite: leads by id: %w", err)
		}
		out = append(out, rows...)
	}
	return out, nil
}
