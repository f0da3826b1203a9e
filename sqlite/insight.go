package sqlite

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/prospectorhq/prospector"
)

// The insight queries read lead_feedback, one row per lead. Each groups
// by the leading column of a covering index after workspace_id, so it
// walks that index in order: no sort, no table lookups. The window is a
// filter on last_event_at, and the flags compare the newest event of a
// kind with the window's start (?2).
const (
	insightFlags = `count(*) FILTER (WHERE last_reply_at >= ?2),
		count(*) FILTER (WHERE last_positive_at >= ?2), count(*) FILTER (WHERE last_meeting_at >= ?2)`
	qInsightSignals = `SELECT signal_mask, count(*), ` + insightFlags + `,
		count(*) FILTER (WHERE last_bounce_at >= ?2 OR status = 'skipped'),
		count(*) FILTER (WHERE last_reply_at >= ?2 AND last_meeting_at IS NULL)
		FROM lead_feedback INDEXED BY lead_feedback_signals
		WHERE workspace_id = ?1 AND last_event_at >= ?2 GROUP BY signal_mask`
	qInsightTitles = `SELECT title, count(*) AS total, ` + insightFlags + `
		FROM lead_feedback INDEXED BY lead_feedback_titles
		WHERE workspace_id = ?1 AND title > '' AND last_event_at >= ?2 GROUP BY title`
	qInsightCompanies = `SELECT company, count(*) AS total, ` + insightFlags + `
		FROM lead_feedback INDEXED BY lead_feedback_companies
		WHERE workspace_id = ?1 AND company > '' AND last_event_at >= ?2 GROUP BY company`
	qInsightBounces = `SELECT email_domain, count(*), 0, 0, 0 FROM lead_feedback INDEXED BY lead_feedback_bounces
		WHERE workspace_id = ?1 AND email_domain > '' AND last_bounce_at >= ?2
		GROUP BY email_domain ORDER BY count(*) DESC, email_domain LIMIT 3`
)

// rank is how the persona queries pick their top rows; it is appended so
// SQLite sorts only the groups.
const rank = ` ORDER BY 4 DESC, 3 DESC, 5 DESC, 2 DESC, 1 LIMIT (?3 + 0)`

func scanPersona(row rowScanner) (prospector.PersonaStat, error) {
	var p prospector.PersonaStat
	err := row.Scan(&p.Value, &p.Total, &p.Replies, &p.Positive, &p.Meetings)
	return p, err
}

// FeedbackInsights runs the four queries at once on the reader pool.
func (db *DB) FeedbackInsights(ctx context.Context, workspaceID string, since time.Time, top int) (*prospector.FeedbackInsights, error) {
	var (
		in     prospector.FeedbackInsights
		groups []prospector.SignalGroup
		errs   [4]error
		wg     sync.WaitGroup
	)
	from := since.UnixMicro() // lead_feedback's times are Unix microseconds
	run := func(i int, f func() error) {
		wg.Add(1)
		go func() { defer wg.Done(); errs[i] = f() }()
	}
	run(0, func() (err error) {
		groups, err = queryPrepared(ctx, db, qInsightSignals, func(row rowScanner) (prospector.SignalGroup, error) {
			var g prospector.SignalGroup
			err := row.Scan(&g.Mask, &g.Total, &g.Replies, &g.Positive, &g.Meetings, &g.BouncedOrSkipped, &g.RepliedNoMeeting)
			return g, err
		}, workspaceID, from)
		return err
	})
	run(1, func() (err error) {
		in.Titles, err = queryPrepared(ctx, db, qInsightTitles+rank, scanPersona, workspaceID, from, top)
		return err
	})
	run(2, func() (err error) {
		in.Companies, err = queryPrepared(ctx, db, qInsightCompanies+rank, scanPersona, workspaceID, from, top)
		return err
	})
	run(3, func() (err error) {
		in.BounceDomains, err = queryPrepared(ctx, db, qInsightBounces, scanPersona, workspaceID, from)
		return err
	})
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return nil, fmt.Errorf("sqlite: feedback insights: %w", err)
		}
	}
	in.Summary, in.RepliedNoMeeting, in.SignalTypes = prospector.SummariseSignalGroups(groups, top)
	return &in, nil
}
