package sqlite

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"slices"
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

// LeadSignals reads the attachments of the leads, each id once, in
// chunks of a bucket size (padded with ”, never a lead id) and keeps the
// newest perLead of each.
func (db *DB) LeadSignals(ctx context.Context, leadIDs []string, since *time.Time, perLead int) ([]*prospector.LeadSignal, error) {
	sinceText := ""
	if since != nil {
		sinceText = formatTime(*since)
	}
	ids := slices.Compact(slices.Sorted(slices.Values(leadIDs)))
	var all []*prospector.LeadSignal
	for start := 0; start < len(ids); {
		bucket := bucketFor(len(ids) - start)
		chunk := ids[start:min(start+bucket, len(ids))]
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
		all = append(all, rows...)
	}
	return prospector.NewestPerLead(all, leadIDs, perLead), nil
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
