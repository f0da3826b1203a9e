package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"text/tabwriter"
	"time"

	"github.com/prospectorhq/prospector"
	"github.com/prospectorhq/prospector/fetch"
	"github.com/prospectorhq/prospector/sec"
	"github.com/prospectorhq/prospector/sources"
	"github.com/spf13/cobra"
)

// secRow is the SEC source's row of sources list.
func secRow(ctx context.Context, st prospector.Store, now time.Time) (sourceKindJSON, error) {
	state, err := sources.LoadSECState(ctx, st)
	if err != nil {
		return sourceKindJSON{}, err
	}
	is, err := st.UnresolvedIssuers(ctx, 0)
	if err != nil {
		return sourceKindJSON{}, err
	}
	n := len(is)
	row := sourceKindJSON{Source: "sec", Kind: "sec", Health: state.Health(now), LastPollAt: stampPtr(state.LastRunAt),
		NextDay: state.NextDay, Unresolved: &n, LastError: state.LastError}
	if state.Failures > 0 {
		row.Failing = 1
	}
	if row.Health == prospector.HealthPaused {
		row.Paused = 1
	}
	if row.Health == prospector.HealthFailing || row.Health == prospector.HealthPaused {
		row.Health += ": " + state.LastError
	}
	if state.NextDay != "" {
		row.Health += fmt.Sprintf(" (next day %s, %d issuers unresolved)", state.NextDay, n)
	}
	return row, nil
}

func printSECSummary(w io.Writer, s *sources.SECSummary, fs fetch.Stats) {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintf(tw, "days\t%d indexes read, %d without one\n", s.Days, s.DaysMissing)
	fmt.Fprintf(tw, "filings\t%d: %d applied, %d waiting for their issuer, %d recorded, %d seen before, %d failed\n",
		s.Filings, s.Applied, s.Pending, s.Recorded, s.Duplicates, s.Failed)
	fmt.Fprintf(tw, "events\t%d new, %d updated\n", s.EventsInserted, s.EventsUpdated)
	fmt.Fprintf(tw, "signals\t%d created, %d updated\n", s.SignalsInserted, s.SignalsUpdated)
	fmt.Fprintf(tw, "requests\t%d, %d bytes\n", fs.Requests, fs.Bytes)
	fmt.Fprintf(tw, "next day\t%s\n", s.NextDay)
	if s.Stopped != "" {
		fmt.Fprintf(tw, "stopped\t%s\n", s.Stopped)
	}
	fmt.Fprintf(tw, "took\t%s\n", s.Duration.Round(time.Millisecond))
	tw.Flush()
}

// issuerJSON is one issuer of sources unresolved --json.
type issuerJSON struct {
	CIK        string   `json:"cik"`
	Name       string   `json:"name"`
	State      string   `json:"state,omitempty"`
	City       string   `json:"city,omitempty"`
	Website    string   `json:"website,omitempty"`
	Pending    int      `json:"pending_filings"`
	Candidate  string   `json:"best_candidate,omitempty"` // its domain
	Confidence float64  `json:"confidence"`
	Match      string   `json:"match,omitempty"`
	Filings    []string `json:"filings,omitempty"` // with --cik: form, date and link of each pending filing
}

func newSourcesUnresolvedCommand(e *env, so *storeOptions) *cobra.Command {
	var (
		asJSON bool
		limit  int
		cik    string
	)
	cmd := &cobra.Command{
		Use:   "unresolved [--cik CIK] [--limit N] [--json]",
		Short: "List the SEC issuers waiting to be matched to a company",
		Long: `List the SEC issuers whose filings wait because no company matched them well
enough (docs/sources.md, "Issuer to company"): CIK, name, state and city,
website, the filings waiting, and the best candidate with its confidence.
With --cik, that issuer's waiting filings too. Resolve one with
'prospector sources map CIK DOMAIN'.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			ctx := cmd.Context()
			st, err := so.open(ctx, e)
			if err != nil {
				return err
			}
			defer st.Close()
			is, err := st.UnresolvedIssuers(ctx, limit)
			if err != nil {
				return err
			}
			want := ""
			if cik != "" {
				if want = sec.NormalizeCIK(cik); !prospector.ValidCIK(want) {
					return fmt.Errorf("--cik: %q is not a CIK", cik)
				}
			}
			var ids []int64
			for _, i := range is {
				if i.CandidateID != nil {
					ids = append(ids, *i.CandidateID)
				}
			}
			domains := map[int64]string{}
			if len(ids) > 0 {
				cs, err := st.CompaniesByID(ctx, ids)
				if err != nil {
					return err
				}
				for _, c := range cs {
					domains[c.ID] = c.Domain
				}
			}
			rows := []issuerJSON{}
			for _, i := range is {
				if want != "" && i.CIK != want {
					continue
				}
				r := issuerJSON{CIK: i.CIK, Name: i.Name, State: i.State, City: i.City, Website: i.Website, Pending: i.Pending,
					Confidence: i.Confidence, Match: i.Match}
				if i.CandidateID != nil {
					r.Candidate = domains[*i.CandidateID]
				}
				if want != "" {
					fs, err := st.SECFilings(ctx, prospector.SECFilingFilter{CIK: i.CIK, Status: prospector.FilingPending})
					if err != nil {
						return err
					}
					for _, f := range fs {
						r.Filings = append(r.Filings, f.Form+" "+f.Filed+" "+f.URL)
					}
				}
				rows = append(rows, r)
			}
			if asJSON {
				return writeJSON(e.stdout, rows)
			}
			if len(rows) == 0 {
				fmt.Fprintln(e.stdout, "no issuers waiting")
				return nil
			}
			tw := tabwriter.NewWriter(e.stdout, 0, 4, 2, ' ', 0)
			fmt.Fprintln(tw, "CIK\tNAME\tSTATE\tCITY\tWEBSITE\tWAITING\tBEST CANDIDATE\tCONFIDENCE")
			for _, r := range rows {
				cand := "-"
				if r.Candidate != "" {
					cand = fmt.Sprintf("%s (%s)", r.Candidate, r.Match)
				}
				fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%d\t%s\t%s\n", r.CIK, r.Name, or(r.State, "-"), or(r.City, "-"),
					or(r.Website, "-"), r.Pending, cand, strconv.FormatFloat(r.Confidence, 'f', 2, 64))
				for _, f := range r.Filings {
					fmt.Fprintf(tw, "\t  %s\n", f)
				}
			}
			return tw.Flush()
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON instead of a table")
	cmd.Flags().IntVar(&limit, "limit", 0, "at most this many issuers, most waiting filings first (0: all)")
	cmd.Flags().StringVar(&cik, "cik", "", "only this issuer, with its waiting filings")
	return cmd
}

func newSourcesMapCommand(e *env, so *storeOptions) *cobra.Command {
	return &cobra.Command{
		Use:   "map CIK DOMAIN",
		Short: "Resolve an SEC issuer to a company by hand and apply its filings",
		Long: `Resolve the SEC issuer CIK (leading zeros optional) to the company with DOMAIN
and apply its filings in one transaction: the financing events and
signals of the filings waiting (and of those applied to another company
before, which move to this one). The signals reach radars and auto-sync
like any other. A mapping by hand stays until mapped again.`,
		Args: cobra.ExactArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			cik := sec.NormalizeCIK(args[0])
			if !prospector.ValidCIK(cik) {
				return fmt.Errorf("%q is not a CIK", args[0])
			}
			domain := prospector.NormalizeDomain(args[1])
			if domain == "" {
				return fmt.Errorf("%q is not a domain", args[1])
			}
			ctx := cmd.Context()
			st, err := so.open(ctx, e)
			if err != nil {
				return err
			}
			defer st.Close()
			res, err := st.MapIssuer(ctx, cik, domain, time.Now())
			if errors.Is(err, prospector.ErrNotFound) {
				return fmt.Errorf("map %s to %s: %w (see 'sources unresolved'; import or watch the company first)", cik, domain, err)
			}
			if err != nil {
				return err
			}
			fmt.Fprintf(e.stdout, "mapped %s (%s) to %s: %d filings applied, %d events new, %d updated, %d signals new, %d updated\n",
				cik, res.Issuer.Name, domain, res.Applied, res.EventsInserted, res.EventsUpdated, res.SignalsInserted,
				res.SignalsUpdated)
			return nil
		},
	}
}
