package main

import (
	"encoding/json"
	"fmt"
	"text/tabwriter"
	"time"

	"github.com/prospectorhq/prospector/privacy"
	"github.com/spf13/cobra"
)

const subjectHelp = `SUBJECT is a person's profile URL (https://...), an e-mail address,
"Full Name@company-domain" (a name at a company's domain: quote it) or a
bare domain (a company and everyone at it).`

func newPrivacyCommand(e *env, so *storeOptions) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "privacy",
		Short: "Answer access and deletion requests; keep the suppression list",
		Long: `Subject requests and opt-outs (docs/privacy.md). ` + subjectHelp + `
A suppressed subject is deleted and never written again: imports, the demo,
sources and enrich/email skip it and count it as suppressed.`,
	}
	cmd.AddCommand(newPrivacyFindCommand(e, so), newPrivacyDeleteCommand(e, so, false),
		newPrivacyDeleteCommand(e, so, true), newPrivacyUnsuppressCommand(e, so), newPrivacyListCommand(e, so))
	return cmd
}

func newPrivacyFindCommand(e *env, so *storeOptions) *cobra.Command {
	return &cobra.Command{
		Use:   "find SUBJECT",
		Short: "Print as JSON everything held about a subject",
		Long: `Print as JSON everything the store holds about SUBJECT: companies and people,
signals, leads in every workspace, enrich/email lookups, deliveries, feedback
events and SEC filings naming them, with sources and dates. ` + subjectHelp,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			st, err := so.open(cmd.Context(), e)
			if err != nil {
				return err
			}
			defer st.Close()
			rec, err := (&privacy.Service{Store: st}).Find(cmd.Context(), args[0])
			if err != nil {
				return err
			}
			enc := json.NewEncoder(e.stdout)
			enc.SetIndent("", "  ")
			return enc.Encode(rec)
		},
	}
}

func newPrivacyDeleteCommand(e *env, so *storeOptions, suppressOnly bool) *cobra.Command {
	var (
		suppress bool
		reason   string
	)
	use, short := "delete SUBJECT [--suppress]", "Delete everything held about a subject"
	if suppressOnly {
		use, short = "suppress SUBJECT [--reason TEXT]", "Delete a subject and keep it out for good"
	}
	cmd := &cobra.Command{
		Use:   use,
		Short: short,
		Long: short + `, in one transaction: people and companies, their signals,
their leads in every workspace (pending deliveries of them are cancelled),
e-mail lookups and outcomes. With --suppress (or as "suppress") the subject is
also added to the suppression list, kept as a keyed hash. ` + subjectHelp,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			st, err := so.open(cmd.Context(), e)
			if err != nil {
				return err
			}
			defer st.Close()
			res, err := (&privacy.Service{Store: st}).Delete(cmd.Context(), args[0], suppress || suppressOnly, reason)
			if err != nil {
				return err
			}
			fmt.Fprintf(e.stdout, "deleted %d companies, %d people, %d signals, %d leads (workspaces: %v), %d email lookups, "+
				"%d feedback events, %d SEC filing names; cancelled %d pending deliveries\n",
				res.Companies, res.People, res.Signals, res.Leads, res.Workspaces, res.EmailLookups, res.FeedbackEvents,
				res.SECPeople, res.Cancelled)
			if res.Suppressed {
				fmt.Fprintln(e.stdout, "suppressed: it will be skipped by every import, source and lookup")
			}
			return nil
		},
	}
	f := cmd.Flags()
	if !suppressOnly {
		f.BoolVar(&suppress, "suppress", false, "also add the subject to the suppression list")
	}
	f.StringVar(&reason, "reason", "", "why (kept with the suppression entry; do not put the subject here)")
	return cmd
}

func newPrivacyUnsuppressCommand(e *env, so *storeOptions) *cobra.Command {
	return &cobra.Command{
		Use:   "unsuppress ID|SUBJECT",
		Short: "Take an entry off the suppression list",
		Long:  `Take an entry off the suppression list, by the id "privacy list" shows or by the subject. ` + subjectHelp,
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			st, err := so.open(cmd.Context(), e)
			if err != nil {
				return err
			}
			defer st.Close()
			if err := (&privacy.Service{Store: st}).Unsuppress(cmd.Context(), args[0]); err != nil {
				return err
			}
			fmt.Fprintln(e.stdout, "unsuppressed")
			return nil
		},
	}
}

func newPrivacyListCommand(e *env, so *storeOptions) *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "list [--json]",
		Short: "List the suppression list: id, kind, reason, time (never the subject)",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			st, err := so.open(cmd.Context(), e)
			if err != nil {
				return err
			}
			defer st.Close()
			list, err := (&privacy.Service{Store: st}).List(cmd.Context())
			if err != nil {
				return err
			}
			if asJSON {
				type entry struct {
					ID        string    `json:"id"`
					Kind      string    `json:"kind"`
					Reason    string    `json:"reason"`
					CreatedAt time.Time `json:"created_at"`
				}
				out := make([]entry, len(list))
				for i, s := range list {
					out[i] = entry{s.ID(), string(s.Kind), s.Reason, s.CreatedAt}
				}
				return json.NewEncoder(e.stdout).Encode(out)
			}
			tw := tabwriter.NewWriter(e.stdout, 0, 4, 2, ' ', 0)
			fmt.Fprintln(tw, "ID\tKIND\tSUPPRESSED\tREASON")
			for _, s := range list {
				fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", s.ID(), s.Kind, s.CreatedAt.Format(time.RFC3339), s.Reason)
			}
			return tw.Flush()
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	return cmd
}

func newAuditCommand(e *env, so *storeOptions) *cobra.Command {
	var (
		workspace, since string
		asJSON           bool
		limit            int
	)
	cmd := &cobra.Command{
		Use:   "audit [--workspace NAME] [--since 2026-11-01|720h]",
		Short: "Print a workspace's audit trail (without --workspace: the deployment's privacy actions)",
		Long: `Print the append-only audit trail of a workspace, oldest first: key creation
and revocation, exports and pushes (which leads, to where, by which key
prefix), radar creation and deletion, privacy actions. Without --workspace,
the deployment's own trail (privacy actions). --since takes a date, an
RFC 3339 time or a duration back from now (720h, 30d).`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			var from time.Time
			if since != "" {
				t, err := parseSince(since, time.Now())
				if err != nil {
					return err
				}
				from = t
			}
			st, err := so.open(cmd.Context(), e)
			if err != nil {
				return err
			}
			defer st.Close()
			events, err := (&privacy.Service{Store: st}).Audit(cmd.Context(), workspace, from, limit)
			if err != nil {
				return err
			}
			if asJSON {
				return json.NewEncoder(e.stdout).Encode(events)
			}
			tw := tabwriter.NewWriter(e.stdout, 0, 4, 2, ' ', 0)
			fmt.Fprintln(tw, "TIME\tACTION\tACTOR\tTARGET\tDETAIL")
			for _, ev := range events {
				fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", ev.CreatedAt.Format(time.RFC3339), ev.Action, ev.Actor, ev.Target, ev.Detail)
			}
			return tw.Flush()
		},
	}
	f := cmd.Flags()
	f.StringVar(&workspace, "workspace", "", "the workspace whose trail to print")
	f.StringVar(&since, "since", "", "only events from this date, time or duration ago on")
	f.BoolVar(&asJSON, "json", false, "print JSON")
	f.IntVar(&limit, "limit", 10000, "at most this many events")
	return cmd
}

// parseSince reads a date (2006-01-02), an RFC 3339 time or a duration
// back from now.
func parseSince(s string, now time.Time) (time.Time, error) {
	if t, err := time.Parse(time.RFC3339, s); err == nil {
		return t, nil
	}
	if t, err := time.Parse("2006-01-02", s); err == nil {
		return t, nil
	}
	if d, err := parseDuration(s); err == nil && d >= 0 {
		return now.Add(-d), nil
	}
	return time.Time{}, fmt.Errorf("--since %q: want a date (2026-11-01), an RFC 3339 time or a duration (720h, 30d)", s)
}
