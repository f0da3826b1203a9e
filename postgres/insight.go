package postgres

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/prospectorhq/prospector"
)

// The insight queries read lead_feedback, one row per lead, through
// lead_feedback_workspace; the flags compare the newest event of a kind
// with the window's start ($2). Names sort in byte order (COLLATE "C"),
// as on SQLite.
const (
	insightFlags = `count(*) FILTER (WHERE last_reply_at >= $2),
		count(*) FILTER (WHERE last_positive_at >= $2), count(*) FILTER (WHERE last_meeting_at >= $2)`
	qInsightSignals = `SELECT signal_mask, count(*), ` + insightFlags + `,
		count(*) FILTER (WHERE last_bounce_at >= $2 OR status = 'skipped'),
		count(*) FILTER (WHERE last_reply_at >= $2 AND last_meeting_at IS NULL)
		FROM lead_feedback WHERE workspace_id = $1 AND last_event_at >= $2 GROUP BY signal_mask`
	qInsightTitles = `SELECT title, count(*), ` + insightFlags + `
		FROM lead_feedback WHERE workspace_id = $1 AND title <> '' AND last_event_at >= $2 GROUP BY title`
	qInsightCompanies = `SELECT company, count(*), ` + insightFlags + `
		FROM lead_feedback WHERE workspace_id = $1 AND company <> '' AND last_event_at >= $2 GROUP BY company`
	qInsightBounces = `SELECT email_domain, count(*), 0::bigint, 0::bigint, 0::bigint FROM lead_feedback
		WHERE workspace_id = $1 AND last_bounce_at >= $2 AND email_domain <> ''
		GROUP BY email_domain ORDER BY count(*) DESC, email_domain COLLATE "C" LIMIT 3`
)

// rank is how the persona queries pick their top rows, by the group
// column col.
func rank(col string) string {
	return ` ORDER BY 4 DESC, 3 DESC, 5 DESC, 2 DESC, ` + col + ` COLLATE "C" LIMIT $3`
}

func scanPersona(row pgx.Row) (prospector.PersonaStat, error) {
	var p prospector.PersonaStat
	if err := row.Scan(&p.Value, &p.Total, &p.Replies, &p.Positive, &p.Meetings); err != nil {
		return p, fmt.Errorf("postgres: scan persona: %w", err)
	}
	return p, nil
}

// FeedbackInsights runs the four queries at once on the pool.
func (db *DB) FeedbackInsights(ctx context.Context, workspaceID string, since time.Time, top int) (*prospector.FeedbackInsights, error) {
	var (
		in     prospector.FeedbackInsights
		groups []prospector.SignalGroup
		errs   [4]error
		wg     sync.WaitGroup
	)
	run := func(i int, f func() error) {
		wg.Add(1)
		go func() { defer wg.Done(); errs[i] = f() }()
	}
	run(0, func() (err error) {
		groups, err = queryList(ctx, db, qInsightSignals, func(row pgx.Row) (prospector.SignalGroup, error) {
			var g prospector.SignalGroup
			err := row.Scan(&g.Mask, &g.Total, &g.Replies, &g.Positive, &g.Meetings, &g.BouncedOrSkipped, &g.RepliedNoMeeting)
			return g, err
		}, workspaceID, since)
		return err
	})
	run(1, func() (err error) {
		in.Titles, err = queryList(ctx, db, qInsightTitles+rank("title"), scanPersona, workspaceID, since, top)
		return err
	})
	run(2, func() (err error) {
		in.Companies, err = queryList(ctx, db, qInsightCompanies+rank("company"), scanPersona, workspaceID, since, top)
		return err
	})
	run(3, func() (err error) {
		in.BounceDomains, err = queryList(ctx, db, qInsightBounces, scanPersona, workspaceID, since)
		return err
	})
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return nil, fmt.Errorf("postgres: feedback insights: %w", err)
		}
	}
	in.Summary, in.RepliedNoMeeting, in.SignalTypes = prospector.SummariseSignalGroups(groups, top)
	return &in, nil
}
