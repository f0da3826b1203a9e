package prospector

import (
	"cmp"
	"slices"
	"strings"
)

// FeedbackInsights aggregates a workspace's leads with activity (a
// feedback event) in a window; docs/decisions.md, "Feedback", defines
// each count.
type FeedbackInsights struct {
	Summary FeedbackSummary
	// Titles, Companies and SignalTypes are ranked by RankPersonas.
	Titles      []PersonaStat
	Companies   []PersonaStat
	SignalTypes []PersonaStat
	// RepliedNoMeeting counts the replied leads that never booked a meeting.
	RepliedNoMeeting int64
	// BounceDomains are the mail domains with the most leads that
	// bounced in the window, most first (then by name), at most 3.
	BounceDomains []PersonaStat
}

// FeedbackSummary counts leads, not events.
type FeedbackSummary struct {
	TotalLeads       int64 // leads with an event in the window
	Replied          int64 // of those, with a reply, positive_reply or meeting_booked in it
	Positive         int64 // with a positive_reply or meeting_booked in it
	Meetings         int64 // with a meeting_booked in it
	BouncedOrSkipped int64 // with a bounce in it, or whose status is skipped
}

// PersonaStat is one title, company, signal type or domain (Value) with
// the leads of the window it covers: Total, and of them the Replies,
// Positive and Meetings as FeedbackSummary counts them.
type PersonaStat struct {
	Value    string
	Total    int64
	Replies  int64
	Positive int64
	Meetings int64
}

// comparePersonas orders the best first: most positive, then most
// replies, most meetings, most leads, then by value.
func comparePersonas(a, b PersonaStat) int {
	return cmp.Or(cmp.Compare(b.Positive, a.Positive), cmp.Compare(b.Replies, a.Replies),
		cmp.Compare(b.Meetings, a.Meetings), cmp.Compare(b.Total, a.Total), strings.Compare(a.Value, b.Value))
}

// RankPersonas sorts ps best first (comparePersonas) and keeps top.
func RankPersonas(ps []PersonaStat, top int) []PersonaStat {
	slices.SortFunc(ps, comparePersonas)
	return ps[:min(len(ps), top)]
}

// signalBits gives each signal type its bit in a SignalMask. The order is
// stored in the database: append only.
var signalBits = [...]string{"keyword_post", "keyword_comment", "competitor_engagement", "influencer_engagement",
	"asking_for_recommendations", "job_change", "company_hiring", "funding_announcement", "event_rsvp", "tech_changes"}

// SignalMask encodes a set of signal types as bits, so the insights can
// group leads by their set of types on one integer column. Unknown types
// are left out.
func SignalMask(types []string) int64 {
	var m int64
	for _, t := range types {
		if i := slices.Index(signalBits[:], t); i >= 0 {
			m |= 1 << i
		}
	}
	return m
}

// SignalGroup is the window's leads with one SignalMask.
type SignalGroup struct {
	Mask int64
	PersonaStat
	BouncedOrSkipped int64
	RepliedNoMeeting int64
}

// SummariseSignalGroups turns the window's leads grouped by signal mask
// (each lead in exactly one group) into the summary, the replied leads
// without a meeting and the signal types ranked, at most top: a lead
// counts once for each type it has.
func SummariseSignalGroups(gs []SignalGroup, top int) (FeedbackSummary, int64, []PersonaStat) {
	var (
		sum      FeedbackSummary
		noMeet   int64
		byType   [len(signalBits)]PersonaStat
		anyTyped [len(signalBits)]bool
	)
	for _, g := range gs {
		sum.TotalLeads += g.Total
		sum.Replied += g.Replies
		sum.Positive += g.Positive
		sum.Meetings += g.Meetings
		sum.BouncedOrSkipped += g.BouncedOrSkipped
		noMeet += g.RepliedNoMeeting
		for i := range signalBits {
			if g.Mask&(1<<i) == 0 {
				continue
			}
			t := &byType[i]
			t.Total += g.Total
			t.Replies += g.Replies
			t.Positive += g.Positive
			t.Meetings += g.Meetings
			anyTyped[i] = true
		}
	}
	var types []PersonaStat
	for i, name := range signalBits {
		if anyTyped[i] {
			t := byType[i]
			t.Value = name
			types = append(types, t)
		}
	}
	return sum, noMeet, RankPersonas(types, top)
}
