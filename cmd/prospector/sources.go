package main

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/prospectorhq/prospector"
	"github.com/prospectorhq/prospector/fetch"
	"github.com/prospectorhq/prospector/sources"
	"github.com/spf13/cobra"
)

func newSourcesCommand(e *env, so *storeOptions) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "sources",
		Short: "See and run the live sources: job boards, company websites, news, SEC EDGAR",
		Long: `Prospector polls the public sources of watched companies (see 'watch'): their
job boards (Greenhouse, Lever, Ashby, Workable, SmartRecruiters, Recruitee,
Personio), their websites (homepage and careers page: boards, feeds,
technologies) and their news (feeds, and GDELT with --gdelt). SEC EDGAR's
daily indexes (Form D financings, 8-K executive changes) are read for the
whole deployment (serve --sec, or 'sources run --once --source sec').
serve polls them on a schedule as durable jobs; 'sources run --once' polls
now. See docs/sources.md.`,
	}
	cmd.AddCommand(newSourcesListCommand(e, so), newSourcesStatusCommand(e, so), newSourcesRunCommand(e, so),
		newSourcesUnresolvedCommand(e, so), newSourcesMapCommand(e, so))
	return cmd
}

// sourceKindJSON is one row of sources list --json.
type sourceKindJSON struct {
	Source     string  `json:"source"` // "board greenhouse", "homepage", ...
	Kind       string  `json:"kind"`
	Board      string  `json:"board,omitempty"`
	Targets    int     `json:"targets"`
	Due        int     `json:"due"`
	Failing    int     `json:"failing"`
	Paused     int     `json:"paused"`
	Health     string  `json:"health"`
	LastPollAt *string `json:"last_poll_at"`
	// SEC only: the next day read and the issuers waiting.
	NextDay    string `json:"next_day,omitempty"`
	Unresolved *int   `json:"unresolved_issuers,omitempty"`
	LastError  string `json:"last_error,omitempty"`
}

func newSourcesListCommand(e *env, so *storeOptions) *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "list [--json]",
		Short: "List the kinds of source: targets, due, failing, paused, last poll",
		Long: `List each kind of source target (a board vendor, homepages, careers pages,
feeds) with its targets, how many are due now (of watched companies), how
many failed their last poll, how many are paused after failing three times
in a row, the latest poll, and a health summary: ok, or the failing and
paused counts. A last row is SEC EDGAR: the next day it reads, its last
run, and the issuers waiting to be resolved ('sources unresolved').`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			ctx := cmd.Context()
			st, err := so.open(ctx, e)
			if err != nil {
				return err
			}
			defer st.Close()
			now := time.Now()
			if _, err := st.SyncWatches(ctx, now); err != nil {
				return err
			}
			sums, err := st.SummarizeTargets(ctx, now)
			if err != nil {
				return err
			}
			ws, err := st.Watches(ctx)
			if err != nil {
				return err
			}
			rows := make([]sourceKindJSON, 0, len(sums))
			for _, s := range sums {
				name := s.Kind
				if s.Board != "" {
					name += " " + s.Board
				}
				health := "ok"
				switch {
				case s.Targets > 0 && s.LastPollAt == nil:
					health = "new"
				case s.Failing > 0 || s.Paused > 0:
					health = fmt.Sprintf("%d failing, %d paused", s.Failing-s.Paused, s.Paused)
				}
				rows = append(rows, sourceKindJSON{Source: name, Kind: s.Kind, Board: s.Board, Targets: s.Targets, Due: s.Due,
					Failing: s.Failing, Paused: s.Paused, Health: health, LastPollAt: stampPtr(s.LastPollAt)})
			}
			sec, err := secRow(ctx, st, now)
			if err != nil {
				return err
			}
			rows = append(rows, sec)
			if asJSON {
				return writeJSON(e.stdout, rows)
			}
			fmt.Fprintf(e.stdout, "%d watched companies\n", len(ws))
			tw := tabwriter.NewWriter(e.stdout, 0, 4, 2, ' ', 0)
			fmt.Fprintln(tw, "SOURCE\tTARGETS\tDUE\tFAILING\tPAUSED\tLAST POLL\tHEALTH")
			for _, r := range rows {
				fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%d\t%s\t%s\n", r.Source, r.Targets, r.Due, r.Failing, r.Paused,
					orNever(r.LastPollAt), r.Health)
			}
			return tw.Flush()
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON instead of a table")
	return cmd
}

// targetJSON is one target of sources status --json.
type targetJSON struct {
	ID            int64   `json:"id"`
	Domain        string  `json:"domain"`
	Kind          string  `json:"kind"`
	Source        string  `json:"source"` // board:token or URL
	Origin        string  `json:"origin"`
	DiscoveredOn  string  `json:"discovered_on,omitempty"`
	Health        string  `json:"health"`
	LastPollAt    *string `json:"last_poll_at"`
	LastSuccessAt *string `json:"last_success_at"`
	NextPollAt    string  `json:"next_poll_at"`
	Failures      int     `json:"failures"`
	PausedUntil   *string `json:"paused_until"`
	LastError     string  `json:"last_error,omitempty"`
	BoardCompany  string  `json:"board_company,omitempty"`
	NameCheck     string  `json:"name_check,omitempty"`
}

func newSourcesStatusCommand(e *env, so *storeOptions) *cobra.Command {
	var (
		domain string
		asJSON bool
	)
	cmd := &cobra.Command{
		Use:   "status [--domain D] [--json]",
		Short: "Show each target: health, last and next poll, failures, pause, last error",
		Long: `Show every source target (or a company's, with --domain): where it came from
(flag, watch, radar, or discovered on a page), its health (new, ok,
failing, paused), its last poll and success, its next poll, the failures in
a row, until when it is paused (three failures in a row pause a target for
1 h, doubling up to 24 h), the last error, and for boards the company name
their API gives and whether it matches the company (confirmed, mismatch).`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			f := prospector.TargetFilter{}
			if domain != "" {
				if f.Domain = prospector.NormalizeDomain(domain); f.Domain == "" {
					return fmt.Errorf("--domain: %q is not a domain", domain)
				}
			}
			ctx := cmd.Context()
			st, err := so.open(ctx, e)
			if err != nil {
				return err
			}
			defer st.Close()
			ts, err := st.ListTargets(ctx, f)
			if err != nil {
				return err
			}
			now := time.Now()
			rows := make([]targetJSON, 0, len(ts))
			for _, t := range ts {
				rows = append(rows, targetJSON{ID: t.ID, Domain: t.Domain, Kind: t.Kind, Source: sources.Label(t),
					Origin: t.Origin, DiscoveredOn: t.DiscoveredOn, Health: t.Health(now), LastPollAt: stampPtr(t.LastPollAt),
					LastSuccessAt: stampPtr(t.LastSuccessAt), NextPollAt: stamp(t.NextPollAt), Failures: t.Failures,
					PausedUntil: stampPtr(t.PausedUntil), LastError: t.LastError, BoardCompany: t.BoardCompanyName,
					NameCheck: t.NameCheck})
			}
			if asJSON {
				return writeJSON(e.stdout, rows)
			}
			if len(rows) == 0 {
				fmt.Fprintln(e.stdout, "no targets (watch a company with 'prospector watch add DOMAIN')")
			} else {
				printTargets(e.stdout, rows)
			}
			if domain == "" {
				state, err := sources.LoadSECState(ctx, st)
				if err != nil {
					return err
				}
				if state.LastRunAt != nil {
					fmt.Fprintf(e.stdout, "sec: %s, last run %s, next day %s, next run %s, %d failures%s\n", state.Health(now),
						stamp(*state.LastRunAt), state.NextDay, orNever(stampPtr(state.NextRunAt)), state.Failures,
						map[bool]string{true: ", last error: " + state.LastError}[state.LastError != ""])
				}
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&domain, "domain", "", "only this company's targets")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON instead of a table")
	return cmd
}

func printTargets(w io.Writer, rows []targetJSON) {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tDOMAIN\tKIND\tSOURCE\tORIGIN\tHEALTH\tLAST POLL\tNEXT POLL\tFAILURES\tPAUSED UNTIL\tNAME CHECK\tLAST ERROR")
	for _, r := range rows {
		check := r.NameCheck
		if r.BoardCompany != "" {
			check = fmt.Sprintf("%s (%q)", or(check, "unchecked"), r.BoardCompany)
		}
		fmt.Fprintf(tw, "%d\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%d\t%s\t%s\t%s\n", r.ID, r.Domain, r.Kind, r.Source, r.Origin,
			r.Health, orNever(r.LastPollAt), r.NextPollAt, r.Failures, orDash(r.PausedUntil), or(check, "-"),
			or(r.LastError, "-"))
	}
	tw.Flush()
}

func newSourcesRunCommand(e *env, so *storeOptions) *cobra.Command {
	var (
		o           sourceOptions
		once        bool
		source      string
		domain      string
		retryPaused bool
		since       string
		until       string
	)
	cmd := &cobra.Command{
		Use:   "run --once [--source NAME] [--domain D] [flags]",
		Short: "Poll every matching source target now, in the foreground",
		Long: `Run one poll cycle in the foreground: every target of the watched companies
that matches --source and --domain is polled now, whatever its schedule
(targets paused after three failures in a row wait out their backoff unless
--retry-paused). A board found on a website during the cycle is polled in
the same cycle. Each target's result is printed on stderr as it is done; a
summary follows on stdout: targets, requests, new/changed/closed openings,
signals created and failures. Failures of sources are recorded on their
targets ('sources status') and do not make the command fail.

--source is boards, website, news (feeds and GDELT targets), feed, gdelt,
sec, or one board source (greenhouse, lever, ...). SEC EDGAR runs only
when named: '--source sec' reads the daily indexes from the day after the
last one read (yesterday on a first run) to today, or from --since (a
backfill; --until ends it); it needs --contact-email, as EDGAR requires.
Fetching follows docs/sources.md: robots.txt on company sites, per-host
pacing, conditional requests, Retry-After, no internal addresses.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if !once {
				return fmt.Errorf("--once is required: serve polls on a schedule; 'sources run --once' polls now")
			}
			if err := checkSourceName(source); err != nil {
				return err
			}
			if source == sources.SourceSEC && (domain != "" || retryPaused) {
				return fmt.Errorf("--source sec reads EDGAR for the whole deployment: --domain and --retry-paused do not apply")
			}
			var sinceDay, untilDay time.Time
			for _, d := range []struct {
				flag, v string
				t       *time.Time
			}{{"--since", since, &sinceDay}, {"--until", until, &untilDay}} {
				if d.v == "" {
					continue
				}
				if source != sources.SourceSEC {
					return fmt.Errorf("%s: only with --source sec", d.flag)
				}
				t, err := time.Parse(time.DateOnly, d.v)
				if err != nil {
					return fmt.Errorf("%s: %q is not a day (YYYY-MM-DD)", d.flag, d.v)
				}
				*d.t = t
			}
			opts := sources.CycleOptions{All: true, Source: source, RetryPaused: retryPaused}
			if domain != "" {
				if opts.Domain = prospector.NormalizeDomain(domain); opts.Domain == "" {
					return fmt.Errorf("--domain: %q is not a domain", domain)
				}
			}
			kit, err := o.build(e)
			if err != nil {
				return err
			}
			printFingerprintStats(e.stderr, kit.detector)
			ctx := cmd.Context()
			st, err := so.open(ctx, e)
			if err != nil {
				return err
			}
			defer st.Close()
			p, secErr := kit.poller(st)
			opts.Progress = func(done, total int, r *sources.Result) {
				fmt.Fprintf(e.stderr, "[%d/%d] %s\n", done, total, r.Line())
			}
			if source == sources.SourceSEC {
				if secErr != nil {
					return secErr
				}
				so := sources.SECOptions{Since: sinceDay, Until: untilDay, Progress: func(line string) { fmt.Fprintln(e.stderr, line) }}
				sum, err := p.RunSEC(ctx, so)
				if err != nil {
					return err
				}
				printSECSummary(e.stdout, sum, kit.client.Stats())
				return nil
			}
			sum, err := p.Cycle(ctx, opts)
			if err != nil {
				return err
			}
			printSummary(e.stdout, sum, kit.client.Stats())
			return nil
		},
	}
	f := cmd.Flags()
	f.BoolVar(&once, "once", false, "run one cycle now (required)")
	f.StringVar(&source, "source", "", "only this source: boards, website, news, feed, gdelt, sec, or a board source ("+strings.Join(sourceNames()[6:], ", ")+")")
	f.StringVar(&domain, "domain", "", "only this company's targets")
	f.BoolVar(&retryPaused, "retry-paused", false, "also poll targets paused after failing")
	f.StringVar(&since, "since", "", "with --source sec: the first day read, YYYY-MM-DD (a backfill)")
	f.StringVar(&until, "until", "", "with --source sec: the last day read, YYYY-MM-DD (default today)")
	o.addFlags(cmd)
	return cmd
}

func printSummary(w io.Writer, s *sources.Summary, fs fetch.Stats) {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintf(tw, "targets\t%d (boards %d, websites %d, news %d): %d ok, %d not modified, %d failed, %d skipped\n",
		s.Targets, s.Boards, s.Websites, s.Feeds, s.OK, s.NotModified, s.Failed, s.Skipped)
	fmt.Fprintf(tw, "requests\t%d (%d answered 304, %d robots.txt, %d retried), %d bytes\n", fs.Requests, fs.NotModified,
		fs.RobotsFetches, fs.Retries, fs.Bytes)
	fmt.Fprintf(tw, "openings\t%d new, %d changed, %d closed, %d reopened\n", s.Openings.New, s.Openings.Changed,
		s.Openings.Closed, s.Openings.Reopened)
	fmt.Fprintf(tw, "technologies\t%d added, %d removed, %d seen for the first time\n", s.Tech.Added, s.Tech.Removed,
		s.Tech.Candidates)
	fmt.Fprintf(tw, "news\t%d items, %d new events, %d merged, %d seen before, %d refused\n", s.Items, s.News.Events,
		s.News.Merged, s.News.Seen, len(s.News.Refused))
	fmt.Fprintf(tw, "signals\t%d created (%d hiring, %d technology changes, %d news)\n", s.Signals(), s.Openings.Signals,
		s.Tech.Signals, s.News.Signals)
	fmt.Fprintf(tw, "discovered\t%d new targets\n", s.Discovered)
	fmt.Fprintf(tw, "failures\t%d\n", s.Failed)
	fmt.Fprintf(tw, "took\t%s\n", s.Duration.Round(time.Millisecond))
	tw.Flush()
}

func orNever(s *string) string {
	if s == nil {
		return "never"
	}
	return *s
}

func orDash(s *string) string {
	if s == nil {
		return "-"
	}
	return *s
}

func or(s, def string) string {
	if s == "" {
		return def
	}
	return s
}
