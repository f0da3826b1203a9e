package postgres

import (
	"context"
	"encoding/json"
	"fmt"
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
	return prospector.NewestPerLead(rows, leadIDs, perLead), nil
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
