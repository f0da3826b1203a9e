package main

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/prospectorhq/prospector"
	"github.com/prospectorhq/prospector/boards"
	"github.com/spf13/cobra"
)

func newWatchCommand(e *env, so *storeOptions) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "watch",
		Short: "Choose the companies whose public sources Prospector polls",
		Long: `Polling is opt-in per company: nothing is fetched for a company nobody
watches. A company is watched when it is added here, or while a radar names
it (the company it targets, whose followers it targets, or a competitor).
The watch list is deployment-wide, like companies and signals.`,
	}
	cmd.AddCommand(newWatchAddCommand(e, so), newWatchListCommand(e, so), newWatchRemoveCommand(e, so))
	return cmd
}

func newWatchAddCommand(e *env, so *storeOptions) *cobra.Command {
	var (
		file   string
		boardF []string
		feeds  []string
	)
	cmd := &cobra.Command{
		Use:   "add DOMAIN... [--file FILE] [--board SOURCE:TOKEN]... [--feed URL]...",
		Short: "Watch companies by domain, with their job boards and feeds",
		Long: `Watch companies by domain: their homepage and careers page are crawled daily,
their job boards every 6 hours (by serve, or now with 'sources run --once').
A domain the store does not know becomes a company, named after what the
sources learn (its board's company name, its homepage's title).

--file reads more domains, one a line (blank lines and # comments skipped).
--board names a job board as SOURCE:TOKEN (greenhouse:acme, lever-eu:acme)
or by its URL (https://boards.greenhouse.io/acme); boards are otherwise
found on the company's website. --feed adds an RSS or Atom feed. --board
and --feed need exactly one domain. Adding a watched domain again adds its
new boards and feeds.`,
		RunE: func(cmd *cobra.Command, args []string) error {
			reqs, err := watchRequests(args, file, boardF, feeds)
			if err != nil {
				return err
			}
			ctx := cmd.Context()
			st, err := so.open(ctx, e)
			if err != nil {
				return err
			}
			defer st.Close()
			added, err := st.AddWatches(ctx, reqs, time.Now())
			if err != nil {
				return err
			}
			suppressed := 0
			for _, a := range added {
				if a.Suppressed {
					suppressed++
					continue
				}
				var notes []string
				if !a.NewWatch {
					notes = append(notes, "already watched")
				}
				if a.NewCompany {
					notes = append(notes, "new company")
				}
				notes = append(notes, fmt.Sprintf("%d new targets", a.NewTargets))
				fmt.Fprintf(e.stdout, "watching %s (%s)\n", a.Domain, strings.Join(notes, ", "))
			}
			if suppressed > 0 {
				// Not named: the list itself must not say who opted out.
				fmt.Fprintf(e.stdout, "suppressed %d (on the suppression list: not watched)\n", suppressed)
			}
			return nil
		},
	}
	f := cmd.Flags()
	f.StringVar(&file, "file", "", "a file of domains, one a line")
	f.StringArrayVar(&boardF, "board", nil, "a job board of the company: SOURCE:TOKEN or its URL (repeatable)")
	f.StringArrayVar(&feeds, "feed", nil, "an RSS or Atom feed of the company (repeatable)")
	return cmd
}

// watchRequests reads watch add's domains and flags; an error names the
// flag or the line at fault, before anything is written.
func watchRequests(args []string, file string, boardF, feeds []string) ([]prospector.WatchRequest, error) {
	type domainAt struct{ raw, where string }
	var raw []domainAt
	for _, a := range args {
		raw = append(raw, domainAt{a, "argument"})
	}
	if file != "" {
		f, err := os.Open(file)
		if err != nil {
			return nil, fmt.Errorf("--file: %w", err)
		}
		defer f.Close()
		sc := bufio.NewScanner(f)
		for n := 1; sc.Scan(); n++ {
			line := strings.TrimSpace(sc.Text())
			if line == "" || strings.HasPrefix(line, "#") {
				continue
			}
			raw = append(raw, domainAt{line, fmt.Sprintf("--file %s line %d", file, n)})
		}
		if err := sc.Err(); err != nil {
			return nil, fmt.Errorf("--file: %w", err)
		}
	}
	if len(raw) == 0 {
		return nil, errors.New("give one or more domains (or --file)")
	}
	if (len(boardF) > 0 || len(feeds) > 0) && len(raw) != 1 {
		return nil, fmt.Errorf("--board and --feed belong to one company: give exactly one domain with them, not %d", len(raw))
	}
	var reqs []prospector.WatchRequest
	seen := map[string]bool{}
	for _, d := range raw {
		norm := prospector.NormalizeDomain(d.raw)
		if norm == "" {
			return nil, fmt.Errorf("%s: %q is not a domain", d.where, d.raw)
		}
		if seen[norm] {
			continue
		}
		seen[norm] = true
		reqs = append(reqs, prospector.WatchRequest{Domain: norm, AddedBy: "cli"})
	}
	for _, b := range boardF {
		ref, err := boards.ParseRef(b)
		if err != nil {
			return nil, err
		}
		reqs[0].Boards = append(reqs[0].Boards, prospector.BoardRef{Kind: ref.Endpoint(), Token: ref.Token})
	}
	reqs[0].Feeds = append(reqs[0].Feeds, feeds...)
	for i := range reqs {
		if err := reqs[i].Validate(); err != nil {
			msg := prospector.ErrorMessage(err)
			if strings.HasPrefix(msg, "feed:") {
				return nil, fmt.Errorf("--%s", msg)
			}
			if strings.HasPrefix(msg, "token:") || strings.HasPrefix(msg, "board:") {
				return nil, fmt.Errorf("--board: %s", msg)
			}
			return nil, fmt.Errorf("%s: %s", reqs[i].Domain, msg)
		}
	}
	return reqs, nil
}

// watchJSON is one watched company of watch list --json.
type watchJSON struct {
	Domain   string   `json:"domain"`
	Explicit bool     `json:"explicit"`
	AddedBy  string   `json:"added_by,omitempty"`
	AddedAt  *string  `json:"added_at"`
	Radars   []string `json:"radars"`
	Boards   []string `json:"boards"`
	Feeds    []string `json:"feeds"`
}

func newWatchListCommand(e *env, so *storeOptions) *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "list [--json]",
		Short: "List the watched companies: why each is watched, its boards and feeds",
		Long: `List every watched domain: whether watch add named it (and who, when), the
radars that name it, and the boards and feeds given with --board and --feed
(boards found on the website are listed by 'sources status').`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			ctx := cmd.Context()
			st, err := so.open(ctx, e)
			if err != nil {
				return err
			}
			defer st.Close()
			if _, err := st.SyncWatches(ctx, time.Now()); err != nil {
				return err
			}
			ws, err := st.Watches(ctx)
			if err != nil {
				return err
			}
			rows := make([]watchJSON, 0, len(ws))
			for _, w := range ws {
				r := watchJSON{Domain: w.Domain, Explicit: w.Explicit, AddedBy: w.AddedBy, Radars: orNone(w.RadarIDs),
					Feeds: orNone(w.Feeds), Boards: []string{}}
				if w.Explicit {
					r.AddedAt = stampPtr(&w.AddedAt)
				}
				for _, b := range w.Boards {
					r.Boards = append(r.Boards, b.String())
				}
				rows = append(rows, r)
			}
			if asJSON {
				return writeJSON(e.stdout, rows)
			}
			tw := tabwriter.NewWriter(e.stdout, 0, 4, 2, ' ', 0)
			fmt.Fprintln(tw, "DOMAIN\tWATCHED BY\tADDED\tBOARDS\tFEEDS")
			for _, r := range rows {
				var by []string
				if r.Explicit {
					by = append(by, "watch add")
				}
				for _, id := range r.Radars {
					by = append(by, "radar "+id)
				}
				added := "-"
				if r.AddedAt != nil {
					added = *r.AddedAt
				}
				fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", r.Domain, strings.Join(by, ", "), added, dash(r.Boards), dash(r.Feeds))
			}
			if err := tw.Flush(); err != nil {
				return err
			}
			fmt.Fprintf(e.stdout, "%d watched\n", len(rows))
			return nil
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON instead of a table")
	return cmd
}

func newWatchRemoveCommand(e *env, so *storeOptions) *cobra.Command {
	return &cobra.Command{
		Use:   "remove DOMAIN...",
		Short: "Stop watching companies (what was learned about them stays)",
		Long: `Stop watching the domains that watch add named. A company a radar names stays
watched while the radar exists. The company, its targets, openings and
technologies are kept; they are not polled while nobody watches it.`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			var domains []string
			for _, a := range args {
				d := prospector.NormalizeDomain(a)
				if d == "" {
					return fmt.Errorf("%q is not a domain", a)
				}
				domains = append(domains, d)
			}
			ctx := cmd.Context()
			st, err := so.open(ctx, e)
			if err != nil {
				return err
			}
			defer st.Close()
			n, err := st.RemoveWatches(ctx, domains)
			if err != nil {
				return err
			}
			fmt.Fprintf(e.stdout, "stopped watching %d of %d domains\n", n, len(domains))
			if n < len(domains) {
				fmt.Fprintln(e.stdout, "(a domain watch add did not name is left as it is; radars keep watching the companies they name)")
			}
			return nil
		},
	}
}

func orNone(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

func dash(s []string) string {
	if len(s) == 0 {
		return "-"
	}
	return strings.Join(s, " ")
}
