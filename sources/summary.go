package sources

import (
	"fmt"
	"strings"
	"time"

	"github.com/prospectorhq/prospector"
)

// Summary counts what a cycle did.
type Summary struct {
	Targets  int // polled (or skipped after a look)
	Boards   int
	Websites int
	// Feeds counts the feed and GDELT targets polled.
	Feeds int
	// OK, NotModified, Failed and Skipped count the targets by result;
	// Skipped counts too the matching targets left out because paused.
	OK, NotModified, Failed, Skipped int
	// Openings sums the board polls' results.
	Openings prospector.BoardPollResult
	// Tech sums the crawls' results.
	Tech prospector.TechCrawlResult
	// Discovered counts the targets website crawls added (boards,
	// careers pages, feeds).
	Discovered int
	Pages      int
	// Items counts the news items read; News sums what storing their
	// stories did.
	Items    int
	News     prospector.NewsResult
	Duration time.Duration
}

// Signals is how many signals the cycle created: hiring, technology
// changes and news.
func (s *Summary) Signals() int { return s.Openings.Signals + s.Tech.Signals + s.News.Signals }

func (s *Summary) add(r *Result) {
	s.Targets++
	switch r.Target.Kind {
	case prospector.TargetBoard:
		s.Boards++
	case prospector.TargetFeed, prospector.TargetGDELT:
		s.Feeds++
	default:
		s.Websites++
	}
	switch r.Status {
	case prospector.PollOK:
		s.OK++
	case prospector.PollNotModified:
		s.NotModified++
	case prospector.PollFailed:
		s.Failed++
	default:
		s.Skipped++
	}
	o := &s.Openings
	o.New += r.Openings.New
	o.Changed += r.Openings.Changed
	o.Reopened += r.Openings.Reopened
	o.Seen += r.Openings.Seen
	o.Missed += r.Openings.Missed
	o.Closed += r.Openings.Closed
	o.Signals += r.Openings.Signals
	t := &s.Tech
	t.Candidates += r.Tech.Candidates
	t.Added += r.Tech.Added
	t.Removed += r.Tech.Removed
	t.Seen += r.Tech.Seen
	t.Forgotten += r.Tech.Forgotten
	t.Signals += r.Tech.Signals
	s.Discovered += r.NewTargets
	s.Pages += r.Pages
	s.Items += r.Items
	s.News.Events += r.News.Events
	s.News.Merged += r.News.Merged
	s.News.Seen += r.News.Seen
	s.News.Signals += r.News.Signals
	s.News.Refused = append(s.News.Refused, r.News.Refused...)
}

// Line describes one target's result on one line, for progress output:
// "board greenhouse:acme (acme.example): ok, 3 new, 1 changed, 0 closed".
func (r *Result) Line() string {
	t := r.Target
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s (%s): %s", t.Kind, Label(t), t.Domain, strings.ReplaceAll(r.Status, "_", " "))
	switch {
	case t.Kind == prospector.TargetBoard && r.Status != prospector.PollFailed:
		o := r.Openings
		fmt.Fprintf(&b, ", %d new, %d changed, %d closed", o.New, o.Changed, o.Closed)
		if o.Reopened > 0 {
			fmt.Fprintf(&b, ", %d reopened", o.Reopened)
		}
	case (t.Kind == prospector.TargetFeed || t.Kind == prospector.TargetGDELT) && r.Status != prospector.PollFailed:
		fmt.Fprintf(&b, ", %d items, %d new events, %d merged, %d signals", r.Items, r.News.Events, r.News.Merged,
			r.News.Signals)
		if n := len(r.News.Refused); n > 0 {
			fmt.Fprintf(&b, ", %d refused (%v)", n, r.News.Refused[0].Err)
		}
	case t.Kind == prospector.TargetHomepage && r.Status != prospector.PollFailed:
		fmt.Fprintf(&b, ", %d pages, %d technologies added, %d removed, %d new targets", r.Pages, r.Tech.Added,
			r.Tech.Removed, r.NewTargets)
	}
	if r.Error != "" {
		b.WriteString(": " + r.Error)
	}
	if !r.RetryAt.IsZero() {
		b.WriteString(" (retry after " + r.RetryAt.UTC().Format(time.RFC3339) + ")")
	}
	return b.String()
}
