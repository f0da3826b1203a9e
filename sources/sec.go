package sources

import (
	"context"
	"fmt"
	"time"

	"github.com/prospectorhq/prospector"
)

// Filings reads SEC EDGAR: daily form indexes and the filings they
// list. Package sources/adapters implements it over package sec, whose
// client keeps the fair-access pace and backs off when EDGAR throttles.
type Filings interface {
	// Index lists the filings of the forms the source reads (D, D/A, 8-K,
	// 8-K/A) in day's daily index, each once; ok is false, with no error,
	// when EDGAR has no index for the day (a weekend, a holiday, a day
	// not yet published).
	Index(ctx context.Context, day time.Time) (refs []FilingRef, ok bool, err error)
	// Filing fetches and reads one filing and resolves its issuer among
	// the companies lookup returns, ready for SECStore.ApplyFiling; at is
	// when it was processed.
	Filing(ctx context.Context, ref FilingRef, lookup IssuerLookup, at time.Time) (*prospector.SECFiling, error)
	// RetryAt tells an error of EDGAR asking the client to wait (429, or
	// its rate-limit 403) and until when: the run stops there.
	RetryAt(err error) (time.Time, bool)
}

// FilingRef is one filing a daily index lists.
type FilingRef struct {
	Form      string // D, D/A, 8-K, 8-K/A
	Company   string
	CIK       string
	Filed     string // YYYY-MM-DD
	Accession string
}

// IssuerLookup returns the companies an issuer may be
// (SECStore.IssuerCandidates).
type IssuerLookup func(ctx context.Context, q prospector.IssuerCandidateQuery) ([]*prospector.Company, error)

// SECStore is what the SEC source reads and writes: issuers' candidate
// companies, filings, and its state in the settings.
type SECStore interface {
	IssuerCandidates(ctx context.Context, q prospector.IssuerCandidateQuery) ([]*prospector.Company, error)
	ApplyFiling(ctx context.Context, f *prospector.SECFiling) (prospector.FilingResult, error)
	SECSettings
}

// SECSettings keeps the SEC source's state (LoadSECState).
type SECSettings interface {
	LookupSetting(ctx context.Context, name string) (string, error)
	SetSetting(ctx context.Context, name, value string) error
}

// SEC is the SEC EDGAR source: Form D and D/A notices become financing
// events and funding_announcement signals, 8-K Item 5.02 reports
// job_change signals, for the issuers resolved to companies; the others
// wait in UnresolvedIssuers. It reads the daily indexes from the day
// after the last one read up to today.
type SEC struct {
	Store  SECStore
	Reader Filings
	// Interval is how often serve looks for new indexes; default
	// DefaultSECInterval. EDGAR publishes a day's index in the evening
	// (Eastern time), so a look every few hours finds it the same night.
	Interval time.Duration
	// Backfill is how many days before today a first run reads when not
	// told where to start; default 1 (yesterday and today).
	Backfill int
}

// DefaultSECInterval is how often serve reads EDGAR's new indexes.
const DefaultSECInterval = 6 * time.Hour

// JobSEC is the job kind of one run of the SEC source; its key is
// constant, so one run is queued or running at a time across nodes.
const JobSEC = "sources.sec"

// secRecentDays is how old a day must be before a missing index is taken
// for a holiday and passed over: a recent one may not be published yet.
const secRecentDays = 3

// SECOptions select the days a run reads.
type SECOptions struct {
	// Since is the first day; zero: the day after the last one read, or
	// Backfill days ago on a first run.
	Since time.Time
	// Until is the last day; zero: today (UTC).
	Until time.Time
	// Progress, when set, is told each filing's outcome.
	Progress func(line string)
}

// SECSummary counts what a run did.
type SECSummary struct {
	Days        int // indexes read
	DaysMissing int // days without an index
	Filings     int // filings read and stored
	Applied     int // with their event or signals written
	Pending     int // waiting for their issuer to be resolved
	Recorded    int // kept with nothing to apply (pooled funds, 8-Ks without Item 5.02)
	Duplicates  int // stored already, nothing written
	Failed      int // filings that could not be read
	prospector.FilingResult
	// NextDay is the first day the next run reads.
	NextDay string
	// Stopped is why the run stopped early (EDGAR throttling, an index
	// that failed); "" when it read every day.
	Stopped  string
	Duration time.Duration
}

// RunSEC reads the daily indexes of o's days and stores their filings.
// A filing that cannot be read is counted and skipped; EDGAR throttling
// or an index that fails stops the run (recorded in the state, the next
// run starts again from that day); the error is the store's or ctx's.
func (p *Poller) RunSEC(ctx context.Context, o SECOptions) (*SECSummary, error) {
	s := p.SEC
	if s == nil || s.Reader == nil {
		return nil, fmt.Errorf("sources: the SEC source is off")
	}
	start := time.Now()
	now := p.now()
	state, err := LoadSECState(ctx, s.Store)
	if err != nil {
		return nil, err
	}
	until := o.Until
	if until.IsZero() {
		until = now
	}
	until = day(until)
	since := o.Since
	if since.IsZero() {
		if d, err := time.Parse(time.DateOnly, state.NextDay); err == nil {
			since = d
		} else {
			backfill := s.Backfill
			if backfill <= 0 {
				backfill = 1
			}
			since = until.AddDate(0, 0, -backfill)
		}
	}
	since = day(since)
	sum := &SECSummary{NextDay: since.Format(time.DateOnly)}
	lookup := IssuerLookup(s.Store.IssuerCandidates)
	progress := func(format string, args ...any) {
		if o.Progress != nil {
			o.Progress(fmt.Sprintf(format, args...))
		}
	}
	var runErr error
days:
	for d := since; !d.After(until); d = d.AddDate(0, 0, 1) {
		if wd := d.Weekday(); wd == time.Saturday || wd == time.Sunday {
			sum.NextDay = d.AddDate(0, 0, 1).Format(time.DateOnly)
			continue
		}
		refs, ok, err := s.Reader.Index(ctx, d)
		if err != nil {
			if ctx.Err() != nil {
				return sum, ctx.Err()
			}
			sum.Stopped = prospector.CleanText(err.Error())
			if at, ok := s.Reader.RetryAt(err); ok {
				state.PausedUntil = &at
			}
			break
		}
		if !ok {
			progress("sec index %s: none", d.Format(time.DateOnly))
			if until.Sub(d) < secRecentDays*24*time.Hour {
				break // not published yet: read it next time
			}
			sum.DaysMissing++
			sum.NextDay = d.AddDate(0, 0, 1).Format(time.DateOnly)
			continue
		}
		sum.Days++
		progress("sec index %s: %d filings", d.Format(time.DateOnly), len(refs))
		for _, ref := range refs {
			f, err := s.Reader.Filing(ctx, ref, lookup, p.now())
			if err != nil {
				if ctx.Err() != nil {
					return sum, ctx.Err()
				}
				if at, ok := s.Reader.RetryAt(err); ok {
					state.PausedUntil = &at
					sum.Stopped = prospector.CleanText(err.Error())
					break days
				}
				sum.Failed++
				progress("sec %s %s (%s): failed: %s", ref.Form, ref.Accession, ref.Company, prospector.CleanText(err.Error()))
				continue
			}
			res, err := s.Store.ApplyFiling(ctx, f)
			if err != nil {
				if storeError(err) {
					runErr = fmt.Errorf("sources: store filing %s: %w", ref.Accession, err)
					break days
				}
				sum.Failed++
				progress("sec %s %s (%s): refused: %v", ref.Form, ref.Accession, ref.Company, err)
				continue
			}
			sum.Filings++
			sum.FilingResult.Add(res)
			switch {
			case res.Duplicate:
				sum.Duplicates++
			case res.Status == prospector.FilingApplied:
				sum.Applied++
			case res.Status == prospector.FilingPending:
				sum.Pending++
			default:
				sum.Recorded++
			}
			progress("sec %s %s (%s): %s%s", f.Form, f.Accession, f.Issuer.Name, res.Status, map[bool]string{true: ", seen before"}[res.Duplicate])
		}
		sum.NextDay = d.AddDate(0, 0, 1).Format(time.DateOnly)
	}
	at := p.now()
	state.LastRunAt = &at
	state.Filings += sum.Filings
	if sum.NextDay > state.NextDay { // a backfill of older days does not move it back
		state.NextDay = sum.NextDay
	}
	if sum.Stopped != "" || runErr != nil {
		state.Failures++
		state.LastError = sum.Stopped
		if runErr != nil {
			state.LastError = prospector.CleanText(runErr.Error())
		}
	} else {
		state.Failures, state.LastError, state.PausedUntil = 0, "", nil
		state.LastSuccessAt = &at
	}
	next := at.Add(s.interval())
	if state.PausedUntil != nil && state.PausedUntil.After(next) {
		next = *state.PausedUntil
	}
	state.NextRunAt = &next
	sum.Duration = time.Since(start)
	if err := saveSECState(ctx, s.Store, state); err != nil && runErr == nil {
		runErr = err
	}
	return sum, runErr
}

func (s *SEC) interval() time.Duration {
	if s.Interval > 0 {
		return s.Interval
	}
	return DefaultSECInterval
}

// day is t's date at UTC midnight.
func day(t time.Time) time.Time {
	y, m, d := t.UTC().Date()
	return time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
}

// scheduleSEC queues a run of the SEC source when its next run has come
// (JobSEC, one across nodes).
func (p *Poller) scheduleSEC(ctx context.Context, q Enqueuer) (bool, error) {
	if p.SEC == nil {
		return false, nil
	}
	state, err := LoadSECState(ctx, p.SEC.Store)
	if err != nil {
		return false, err
	}
	if state.NextRunAt != nil && state.NextRunAt.After(p.now()) {
		return false, nil
	}
	return q.Enqueue(ctx, &prospector.Job{Kind: JobSEC, Key: "sec", Payload: []byte("{}"), MaxAttempts: 3})
}

// SECJob is the handler of JobSEC jobs: one run from where the last
// stopped. EDGAR's failures are recorded in the state and the job
// succeeds; the store's fail it, to be retried.
func (p *Poller) SECJob(ctx context.Context, _ *prospector.Job) error {
	state, err := LoadSECState(ctx, p.SEC.Store)
	if err != nil {
		return err
	}
	if state.NextRunAt != nil && state.NextRunAt.After(p.now()) {
		return nil // another node's run overtook this one
	}
	sum, err := p.RunSEC(ctx, SECOptions{})
	if err != nil {
		return err
	}
	p.logger().Info("sec source run", "days", sum.Days, "filings", sum.Filings, "applied", sum.Applied,
		"pending", sum.Pending, "failed", sum.Failed, "next_day", sum.NextDay, "stopped", sum.Stopped)
	return nil
}
