package postgres

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/prospectorhq/prospector"
)

// Kinds of rows of qInsights: GROUPING(title, company, signal_mask) has a
// bit set for each column a row is not grouped by.
const (
	insightTitle   = 0b011
	insightCompany = 0b101
	insightSignals = 0b110
)

// qInsights reads the workspace's lead_feedback rows (one per lead)
// through lead_feedback_workspace once and groups them three ways with
// grouping sets; the flags compare the newest event of a kind with the
// window's start ($2). The titles and companies are ranked in SQL and cut
// to $3, names in byte order (COLLATE "C") as on SQLite; every signal
// mask group is returned, since each adds to the summary.
const qInsights = `SELECT kind, coalesce(title, company, ''), coalesce(signal_mask, 0), total, replies, positive,
		meetings, bounced_or_skipped, replied_no_meeting
	FROM (SELECT g.*, row_number() OVER (PARTITION BY kind ORDER BY positive DESC, replies DESC, meetings DESC,
			total DESC, coalesce(title, company) COLLATE "C") AS rank
		FROM (SELECT GROUPING(title, company, signal_mask) AS kind, title, company, signal_mask, count(*) AS total,
				count(*) FILTER (WHERE last_reply_at >= $2) AS replies,
				count(*) FILTER (WHERE last_positive_at >= $2) AS positive,
				count(*) FILTER (WHERE last_meeting_at >= $2) AS meetings,
				count(*) FILTER (WHERE last_bounce_at >= $2 OR status = 'skipped') AS bounced_or_skipped,
				count(*) FILTER (WHERE last_reply_at >= $2 AND last_meeting_at IS NULL) AS replied_no_meeting
			FROM lead_feedback WHERE workspace_id = $1 AND last_event_at >= $2
			GROUP BY GROUPING SETS ((title), (company), (signal_mask))) g
		WHERE coalesce(title, company) IS DISTINCT FROM '') r
	WHERE rank <= $3 OR kind = 6 -- insightSignals
	ORDER BY kind, rank`

const qInsightBounces = `SELECT email_domain, count(*), 0::bigint, 0::bigint, 0::bigint FROM lead_feedback
	WHERE workspace_id = $1 AND last_bounce_at >= $2 AND email_domain <> ''
	GROUP BY email_domain ORDER BY count(*) DESC, email_domain COLLATE "C" LIMIT 3`

func scanPersona(row pgx.Row) (prospector.PersonaStat, error) {
	var p prospector.PersonaStat
	if err := row.Scan(&p.Value, &p.Total, &p.Replies, &p.Positive, &p.Meetings); err != nil {
		return p, fmt.Errorf("postgres: scan persona: %w", err)
	}
	return p, nil
}

// FeedbackInsights runs the grouping query and the bounce query at once.
func (db *DB) FeedbackInsights(ctx context.Context, workspaceID string, since time.Time, top int) (*prospector.FeedbackInsights, error) {
	var (
		in     prospector.FeedbackInsights
		groups []prospector.SignalGroup
		errs   [2]error
		wg     sync.WaitGroup
	)
	wg.Add(1)
	go func() {
		defer wg.Done()
		in.BounceDomains, errs[1] = queryList(ctx, db, qInsightBounces, scanPersona, workspaceID, since)
	}()
	rows, err := db.pool.Query(ctx, qInsights, workspaceID, since, top)
	if err == nil {
		var (
			kind int
			g    prospector.SignalGroup
		)
		_, err = pgx.ForEachRow(rows, []any{&kind, &g.Value, &g.Mask, &g.Total, &g.Replies, &g.Positive, &g.Meetings,
			&g.BouncedOrSkipped, &g.RepliedNoMeeting}, func() error {
			switch kind {
			case insightTitle:
				in.Titles = append(in.Titles, g.PersonaStat)
			case insightCompany:
				in.Companies = append(in.Companies, g.PersonaStat)
			case insightSignals:
				g.Value = ""
				groups = append(groups, g)
			}
			return nil
		})
	}
	errs[0] = err
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return nil, fmt.Errorf("postgres: feedback insights: %w", err)
		}
	}
	in.Summary, in.RepliedNoMeeting, in.SignalTypes = prospector.SummariseSignalGroups(groups, top)
	return &in, nil
}
