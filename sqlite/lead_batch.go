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

// The statements of ApplyLeadBatch, prepared once on the writer.
const (
	// A paused radar's cursor does not move: pausing it stops a scan that
	// read it running.
	qMoveCursor = `UPDATE radars SET cursor = ?1, scanned_at = ?2, updated_at = ?2
		WHERE id = ?3 AND cursor = ?4 AND paused_at IS NULL`
	qQuota          = `SELECT radar_signals_limit, radar_signals_bypassed, period_start FROM workspaces WHERE id = ?`
	qUsed           = `SELECT coalesce((SELECT used FROM radar_signal_usage WHERE workspace_id = ? AND period_start = ?), 0)`
	qLeadID         = `SELECT id FROM leads WHERE radar_id = ? AND person_id = ?`
	qAttached       = `SELECT count(*) FROM lead_signals WHERE lead_id = ? AND signal_id = ?`
	qInsertLeadHead = `INSERT INTO leads (id, workspace_id, radar_id, source, person_id, company_id, full_name, first_name,
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
	qAttachHead  = `INSERT INTO lead_signals (lead_id, signal_id, radar_id, detected_at, score) VALUES `
	attachValues = `(?, ?, ?, ?, ?)`
	qAddUsage    = `INSERT INTO radar_signal_usage (workspace_id, period_start, used) VALUES (?, ?, ?)
		ON CONFLICT (workspace_id, period_start) DO UPDATE SET used = used + excluded.used`
	qBackfilled = `UPDATE radars SET backfilled_at = ?1, scanned_at = ?1, updated_at = ?1 WHERE id = ?2 AND backfilled_at IS NULL`
)

// rowsPerInsert is the number of rows of a multi-row INSERT of a batch:
// one statement per row would spend most of its time starting and
// stopping the statement rather than inserting.
const rowsPerInsert = 32

// multiInsert returns an INSERT of n rows of values.
func multiInsert(head, values string, n int) string {
	return head + strings.TrimSuffix(strings.Repeat(values+",", n), ",")
}

// The multi-row INSERTs of a batch, built once.
var (
	qInsertLead  = multiInsert(qInsertLeadHead, leadValues, 1)
	qInsertLeads = multiInsert(qInsertLeadHead, leadValues, rowsPerInsert)
	qAttach      = multiInsert(qAttachHead, attachValues, 1)
	qAttachMany  = multiInsert(qAttachHead, attachValues, rowsPerInsert)
)

// leadBatchQueries are the statements of ApplyLeadBatch, prepared on the
// writer before its transaction.
var leadBatchQueries = append([]string{qMoveCursor, qQuota, qUsed, qLeadID, qAttached, qUpdateLead, qAddUsage,
	qBackfilled, qInsertLead, qInsertLeads, qAttach, qAttachMany}, autoSyncQueries...)

// ApplyLeadBatch writes a batch in one write transaction. SQLite's single
// writer serialises batches, so what the transaction reads first (leads,
// attachments, quota counters) cannot change before it writes.
func (db *DB) ApplyLeadBatch(ctx context.Context, b *prospector.LeadBatch) (prospector.LeadBatchResult, error) {
	if err := db.writeStmts(ctx, leadBatchQueries...); err != nil {
		return prospector.LeadBatchResult{}, err
	}
	var res prospector.LeadBatchResult
	err := db.tx(ctx, func(tx *sql.Tx) error {
		var err error
		res, err = applyLeadBatch(ctx, newTxStmts(db, tx), b)
		return err
	})
	if err != nil {
		return prospector.LeadBatchResult{}, fmt.Errorf("sqlite: apply lead batch: %w", err)
	}
	return res, nil
}

// applyLeadBatch is ApplyLeadBatch's transaction: move the cursors, read
// what the batch meets, plan, write the plan and what it charges.
func applyLeadBatch(ctx context.Context, st *txStmts, b *prospector.LeadBatch) (prospector.LeadBatchResult, error) {
	now := b.WriteTime()
	stamp := formatTime(now)
	if err := moveCursors(ctx, st, b.Cursors, stamp); err != nil {
		return prospector.LeadBatchResult{}, err
	}
	known, err := readBatchState(ctx, st, b.Matches, now)
	if err != nil {
		return prospector.LeadBatchResult{}, err
	}
	plan, res := prospector.PlanLeadBatch(b, known.existing, known.attached, known.remaining)
	slices.SortFunc(plan, func(x, y prospector.PlannedLead) int { return compareMatch(x.Match, y.Match) })
	if err := writeLeads(ctx, st, plan, stamp); err != nil {
		return prospector.LeadBatchResult{}, err
	}
	if err := attachSignals(ctx, st, plan); err != nil {
		return prospector.LeadBatchResult{}, err
	}
	if err := chargeRadarSignals(ctx, st, plan, known.periods); err != nil {
		return prospector.LeadBatchResult{}, err
	}
	if err := markBackfilled(ctx, st, b.Backfilled, stamp); err != nil {
		return prospector.LeadBatchResult{}, err
	}
	if err := queueAutoSync(ctx, st, b, plan, stamp); err != nil {
		return prospector.LeadBatchResult{}, err
	}
	return res, nil
}

// moveCursors moves each radar's cursor; ErrCursorMoved when one is no
// longer where the batch expects it.
func moveCursors(ctx context.Context, st *txStmts, cursors []prospector.RadarCursor, stamp string) error {
	for _, c := range cursors {
		n, err := rowsAffected(st.exec(ctx, qMoveCursor, c.To, stamp, c.RadarID, c.From))
		if err != nil {
			return fmt.Errorf("radar %s cursor: %w", c.RadarID, err)
		}
		if n == 0 {
			return fmt.Errorf("radar %s at %d: %w", c.RadarID, c.From, prospector.ErrCursorMoved)
		}
	}
	return nil
}

// batchState is what a batch's transaction reads before it plans: each
// workspace's current billing period (formatted) and, when its radar
// signals quota is enforced, what is left of it; the leads the matches
// already have and which of their signals are attached.
type batchState struct {
	periods   map[string]string
	remaining map[string]int64
	existing  map[prospector.LeadKey]string
	attached  map[prospector.AttachKey]bool
}

// readBatchState reads the state of the matches' workspaces and leads,
// in the leads' index order: neighbouring keys share pages.
func readBatchState(ctx context.Context, st *txStmts, matches []prospector.LeadMatch, now time.Time) (*batchState, error) {
	known := &batchState{periods: map[string]string{}, remaining: map[string]int64{},
		existing: map[prospector.LeadKey]string{}, attached: map[prospector.AttachKey]bool{}}
	order := make([]int, len(matches))
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(x, y int) int { return compareMatch(&matches[x], &matches[y]) })
	for _, i := range order {
		m := &matches[i]
		if _, done := known.periods[m.WorkspaceID]; !done {
			if err := known.readQuota(ctx, st, m.WorkspaceID, now); err != nil {
				return nil, err
			}
		}
		if err := known.readLead(ctx, st, m); err != nil {
			return nil, err
		}
	}
	return known, nil
}

// readQuota reads a workspace's billing period and, when its radar
// signals quota is enforced, what is left of it in that period.
func (k *batchState) readQuota(ctx context.Context, st *txStmts, workspaceID string, now time.Time) error {
	var (
		limit    sql.NullInt64
		bypassed bool
		start    string
	)
	if err := st.queryRow(ctx, qQuota, workspaceID).Scan(&limit, &bypassed, &start); err != nil {
		return fmt.Errorf("workspace %s: %w", workspaceID, err)
	}
	period, _ := prospector.BillingPeriod(parseTime(start), now)
	k.periods[workspaceID] = formatTime(period)
	quota := prospector.Limit{Limit: int64Ptr(limit), Bypassed: bypassed}
	if !quota.Enforced() {
		return nil
	}
	var used int64
	if err := st.queryRow(ctx, qUsed, workspaceID, k.periods[workspaceID]).Scan(&used); err != nil {
		return fmt.Errorf("workspace %s radar signals used: %w", workspaceID, err)
	}
	k.remaining[workspaceID], _ = quota.Remaining(used)
	return nil
}

// readLead reads the lead m's radar already has for its person, if any,
// and which of m's signals it has.
func (k *batchState) readLead(ctx context.Context, st *txStmts, m *prospector.LeadMatch) error {
	key := prospector.LeadKey{RadarID: m.RadarID, PersonID: m.Lead.PersonID}
	if _, done := k.existing[key]; done {
		return nil
	}
	var id string
	err := st.queryRow(ctx, qLeadID, m.RadarID, m.Lead.PersonID).Scan(&id)
	if errors.Is(err, sql.ErrNoRows) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("lead of radar %s: %w", m.RadarID, err)
	}
	k.existing[key] = id
	for _, s := range m.Signals {
		var n int
		if err := st.queryRow(ctx, qAttached, id, s.SignalID).Scan(&n); err != nil {
			return fmt.Errorf("lead %s signals: %w", id, err)
		}
		if n > 0 {
			k.attached[prospector.AttachKey{LeadID: id, SignalID: s.SignalID}] = true
		}
	}
	return nil
}

// writeLeads inserts the plan's new leads, rowsPerInsert a statement,
// and refreshes the known ones.
func writeLeads(ctx context.Context, st *txStmts, plan []prospector.PlannedLead, stamp string) error {
	leads := &rowBuffer{st: st, one: qInsertLead, full: qInsertLeads}
	for _, p := range plan {
		l, m := &p.Match.Lead, p.Match
		bd, err := json.Marshal(p.Best)
		if err != nil {
			return fmt.Errorf("lead %s score breakdown: %w", p.ID, err)
		}
		if p.New {
			if err := leads.add(ctx, p.ID, m.WorkspaceID, m.RadarID, l.PersonID, nullInt(l.CompanyID), l.FullName,
				l.FirstName, l.LastName, l.Title, l.Company, l.NetworkURL, l.City, l.Region, l.CountryCode,
				p.Best.Total, string(bd), formatTime(p.Last), stamp, stamp); err != nil {
				return fmt.Errorf("insert leads: %w", err)
			}
			continue
		}
		if _, err := st.exec(ctx, qUpdateLead, nullInt(l.CompanyID), l.FullName, l.FirstName, l.LastName,
			l.Title, l.Company, l.NetworkURL, l.City, l.Region, l.CountryCode, p.Best.Total, string(bd), p.Best.Total,
			p.Best.Total, formatTime(p.Last), stamp, p.ID); err != nil {
			return fmt.Errorf("lead %s: %w", p.ID, err)
		}
	}
	if err := leads.flush(ctx); err != nil {
		return fmt.Errorf("insert leads: %w", err)
	}
	return nil
}

// attachSignals attaches the plan's signals to their leads, which
// writeLeads wrote first: the attachments reference them.
func attachSignals(ctx context.Context, st *txStmts, plan []prospector.PlannedLead) error {
	attach := &rowBuffer{st: st, one: qAttach, full: qAttachMany}
	for _, p := range plan {
		for _, s := range p.Signals {
			if err := attach.add(ctx, p.ID, s.SignalID, p.Match.RadarID, formatTime(s.DetectedAt), s.Score.Total); err != nil {
				return fmt.Errorf("attach signals: %w", err)
			}
		}
	}
	if err := attach.flush(ctx); err != nil {
		return fmt.Errorf("attach signals: %w", err)
	}
	return nil
}

// chargeRadarSignals adds the signals the plan attaches to each
// workspace's radar signals usage of its current period.
func chargeRadarSignals(ctx context.Context, st *txStmts, plan []prospector.PlannedLead, periods map[string]string) error {
	for ws, n := range prospector.SignalsAdded(plan) {
		if _, err := st.exec(ctx, qAddUsage, ws, periods[ws], n); err != nil {
			return fmt.Errorf("workspace %s radar signals usage: %w", ws, err)
		}
	}
	return nil
}

// markBackfilled records the radars whose backfill the batch completes.
func markBackfilled(ctx context.Context, st *txStmts, radarIDs []string, stamp string) error {
	for _, id := range radarIDs {
		if _, err := st.exec(ctx, qBackfilled, stamp, id); err != nil {
			return fmt.Errorf("radar %s backfilled: %w", id, err)
		}
	}
	return nil
}

// rowBuffer collects the rows of a multi-row INSERT and runs full (an
// INSERT of rowsPerInsert rows) every rowsPerInsert rows; flush inserts
// the rest one by one with one.
type rowBuffer struct {
	st        *txStmts
	one, full string
	args      []any
	rows      int
}

func (r *rowBuffer) add(ctx context.Context, row ...any) error {
	r.args, r.rows = append(r.args, row...), r.rows+1
	if r.rows < rowsPerInsert {
		return nil
	}
	_, err := r.st.exec(ctx, r.full, r.args...)
	r.args, r.rows = r.args[:0], 0
	return err
}

func (r *rowBuffer) flush(ctx context.Context) error {
	per := len(r.args) / max(r.rows, 1)
	for i := 0; i < r.rows; i++ {
		if _, err := r.st.exec(ctx, r.one, r.args[i*per:(i+1)*per]...); err != nil {
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
