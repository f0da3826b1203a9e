package feedback

import (
	"context"
	"fmt"
	"math"
	"time"

	"github.com/prospectorhq/prospector"
	"github.com/prospectorhq/prospector/input"
	"github.com/prospectorhq/prospector/wire"
)

// Bounds of GET /feedback/insights.
const (
	defaultInsightDays = 30
	maxInsightDays     = 365
	insightTop         = 10 // entries of each winning_personas list
)

// Insights is what converts over a window of days: the outcomes of the
// workspace's leads, their rates, the personas that win and next steps.
type Insights struct {
	Period          insightPeriod   `json:"period"`
	Summary         insightSummary  `json:"summary"`
	Rates           insightRates    `json:"rates"`
	WinningPersonas winningPersonas `json:"winning_personas"`
	NextActions     []string        `json:"next_actions"`
}

type insightPeriod struct {
	Days  int    `json:"days"`
	Since string `json:"since"`
}

type insightSummary struct {
	TotalLeads       int64 `json:"total_leads"`
	Replied          int64 `json:"replied"`
	Positive         int64 `json:"positive"`
	Meetings         int64 `json:"meetings"`
	BouncedOrSkipped int64 `json:"bounced_or_skipped"`
}

type insightRates struct {
	ReplyRate    float64 `json:"reply_rate"`
	PositiveRate float64 `json:"positive_rate"`
	MeetingRate  float64 `json:"meeting_rate"`
}

type winningPersonas struct {
	Titles      []titleStat      `json:"titles"`
	Companies   []companyStat    `json:"companies"`
	SignalTypes []signalTypeStat `json:"signal_types"`
}

type personaCounts struct {
	Total    int64 `json:"total"`
	Replies  int64 `json:"replies"`
	Positive int64 `json:"positive"`
	Meetings int64 `json:"meetings"`
}

type titleStat struct {
	Title string `json:"title"`
	personaCounts
}

type companyStat struct {
	Company string `json:"company"`
	personaCounts
}

type signalTypeStat struct {
	SignalType string `json:"signal_type"`
	personaCounts
}

func counts(p prospector.PersonaStat) personaCounts {
	return personaCounts{Total: p.Total, Replies: p.Replies, Positive: p.Positive, Meetings: p.Meetings}
}

// InsightsRequest is GET /feedback/insights's query: the window, in
// days, as text ("" for 30).
type InsightsRequest struct {
	Days string `json:"days"`
}

// Insights returns what converted in the workspace over the last days;
// a validation error names days.
func (s *Service) Insights(ctx context.Context, ws *prospector.Workspace, req InsightsRequest) (*Insights, error) {
	days, err := input.Int("days", req.Days, 1, maxInsightDays, defaultInsightDays)
	if err != nil {
		return nil, err
	}
	// Milliseconds, the precision of timestamps in responses: the window
	// starts exactly at the echoed since.
	since := s.now().UTC().Add(-time.Duration(days) * 24 * time.Hour).Truncate(time.Millisecond)
	in, err := s.Store.FeedbackInsights(ctx, ws.ID, since, insightTop)
	if err != nil {
		return nil, err
	}
	sum := in.Summary
	res := &Insights{
		Period: insightPeriod{Days: days, Since: wire.Timestamp(since)},
		Summary: insightSummary{TotalLeads: sum.TotalLeads, Replied: sum.Replied, Positive: sum.Positive,
			Meetings: sum.Meetings, BouncedOrSkipped: sum.BouncedOrSkipped},
		Rates: insightRates{ReplyRate: rate(sum.Replied, sum.TotalLeads), PositiveRate: rate(sum.Positive, sum.TotalLeads),
			MeetingRate: rate(sum.Meetings, sum.TotalLeads)},
		WinningPersonas: winningPersonas{Titles: []titleStat{}, Companies: []companyStat{}, SignalTypes: []signalTypeStat{}},
		NextActions:     nextActions(days, in),
	}
	for _, p := range in.Titles {
		res.WinningPersonas.Titles = append(res.WinningPersonas.Titles, titleStat{p.Value, counts(p)})
	}
	for _, p := range in.Companies {
		res.WinningPersonas.Companies = append(res.WinningPersonas.Companies, companyStat{p.Value, counts(p)})
	}
	for _, p := range in.SignalTypes {
		res.WinningPersonas.SignalTypes = append(res.WinningPersonas.SignalTypes, signalTypeStat{p.Value, counts(p)})
	}
	return res, nil
}

// rate is n/total rounded to 4 decimals, 0 when total is 0.
func rate(n, total int64) float64 {
	if total == 0 {
		return 0
	}
	return math.Round(float64(n)/float64(total)*1e4) / 1e4
}

func plural(n int64, one, many string) string {
	if n == 1 {
		return fmt.Sprintf("%d %s", n, one)
	}
	return fmt.Sprintf("%d %s", n, many)
}

// nextActions suggests steps from the window's numbers: the title,
// company and signal type that convert best, replied leads still without
// a meeting, and the domains whose addresses bounce.
func nextActions(days int, in *prospector.FeedbackInsights) []string {
	sum := in.Summary
	window := fmt.Sprintf("the last %s", plural(int64(days), "day", "days"))
	if sum.TotalLeads == 0 {
		return []string{fmt.Sprintf("No lead had a feedback event in %s: report opens, replies, bounces and meetings "+
			"to POST /api/v1/feedback/events to see which personas convert.", window)}
	}
	var out []string
	if sum.Replied == 0 {
		out = append(out, fmt.Sprintf("None of the %s with activity in %s replied: revisit the message or the targeting.",
			plural(sum.TotalLeads, "lead", "leads"), window))
	}
	best := func(ps []prospector.PersonaStat, format string) {
		if len(ps) > 0 && ps[0].Replies > 0 {
			p := ps[0]
			out = append(out, fmt.Sprintf(format, p.Value, p.Replies, plural(p.Total, "lead", "leads"),
				p.Positive, plural(p.Meetings, "meeting", "meetings")))
		}
	}
	best(in.Titles, "Prioritise %s: %d of %s replied (%d positive, %s booked).")
	best(in.Companies, "Find more contacts at %s: %d of %s replied (%d positive, %s booked).")
	best(in.SignalTypes, "Favour leads surfaced by %s signals: %d of %s replied (%d positive, %s booked).")
	if n := in.RepliedNoMeeting; n > 0 {
		out = append(out, fmt.Sprintf("Follow up the %s that replied in %s with no meeting booked yet.",
			plural(n, "lead", "leads"), window))
	}
	for _, d := range in.BounceDomains {
		out = append(out, fmt.Sprintf("Check email addresses at %s: %s bounced in %s; enrich/email now ranks "+
			"that address pattern lower there.", d.Value, plural(d.Total, "lead", "leads"), window))
	}
	return out
}
