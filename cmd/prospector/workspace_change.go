package main

import (
	"bufio"
	"fmt"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/prospectorhq/prospector"
	"github.com/spf13/cobra"
)

func newWorkspaceUpdateCommand(e *env, so *storeOptions) *cobra.Command {
	var (
		plan      string
		credits   int64
		unlimited bool
		radars    int64
		publicAPI bool
	)
	cmd := &cobra.Command{
		Use:   "update NAME [--plan default|starter|growth] [--credits N | --unlimited] [--radars N] [--public-api=true|false]",
		Short: "Change a workspace's plan, credits, radar limit or public API switch",
		Long: `Change a workspace. The change applies at once (running servers see it
within their --key-cache-ttl, default 5s); the billing period and the credits
already used in it stay.

--plan moves the workspace to another plan:
  - each limit (credits, radars, network accounts, radar signals) that still
    holds the old plan's default takes the new plan's; a limit set
    explicitly before (--credits, --unlimited, --radars) is kept, and the
    command says so: pass the flag again to change it;
  - the workspace's unrevoked keys whose tier is the old plan take the new
    plan as their tier (rate limit); keys created with another --tier keep it.
--credits N or --unlimited sets the monthly credits, --radars N the radar
limit, both overriding the plan's. --public-api=false makes every API call of
the workspace answer 404.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			f := cmd.Flags()
			if f.Changed("credits") && unlimited {
				return fmt.Errorf("--credits and --unlimited exclude each other")
			}
			if !f.Changed("plan") && !f.Changed("credits") && !unlimited && !f.Changed("radars") && !f.Changed("public-api") {
				return fmt.Errorf("nothing to change: give --plan, --credits, --unlimited, --radars or --public-api")
			}
			if f.Changed("plan") && !prospector.ValidPlan(plan) {
				return fmt.Errorf("--plan must be default, starter or growth")
			}
			if credits < 0 || radars < 0 {
				return fmt.Errorf("--credits and --radars must not be negative")
			}
			ctx := cmd.Context()
			st, err := so.open(ctx, e)
			if err != nil {
				return err
			}
			defer st.Close()
			w, err := workspaceNamed(ctx, st, args[0])
			if err != nil {
				return err
			}
			old := *w
			var (
				kept []string
				move prospector.TierMove
			)
			if f.Changed("plan") && plan != w.Plan {
				kept = w.ChangePlan(plan)
				move = prospector.TierMove{From: old.Plan, To: plan}
			}
			switch {
			case unlimited:
				w.Credits.Limit = nil
			case f.Changed("credits"):
				w.Credits.Limit = &credits
			}
			if unlimited || f.Changed("credits") {
				kept = slices.DeleteFunc(kept, func(s string) bool { return s == "credits" })
			}
			if f.Changed("radars") {
				w.Radars.Limit = &radars
				kept = slices.DeleteFunc(kept, func(s string) bool { return s == "radars" })
			}
			if f.Changed("public-api") {
				w.PublicAPI = publicAPI
			}
			moved, err := st.UpdateWorkspace(ctx, w, move)
			if err != nil {
				return fmt.Errorf("update workspace %q: %w", w.Name, err)
			}
			printUpdate(e, &old, w, kept, move, moved)
			return nil
		},
	}
	f := cmd.Flags()
	f.StringVar(&plan, "plan", "", "plan: default, starter or growth")
	f.Int64Var(&credits, "credits", 0, "credits per month, overriding the plan's")
	f.BoolVar(&unlimited, "unlimited", false, "unlimited credits")
	f.Int64Var(&radars, "radars", 0, "radar limit, overriding the plan's")
	f.BoolVar(&publicAPI, "public-api", true, "enable the public API (false: every call answers 404 not_found)")
	return cmd
}

// printUpdate says what changed, what a plan change kept, and how many
// keys followed the plan.
func printUpdate(e *env, old, w *prospector.Workspace, kept []string, move prospector.TierMove, moved int) {
	tw := tabwriter.NewWriter(e.stdout, 0, 4, 2, ' ', 0)
	changes := 0
	line := func(what, from, to string) {
		if from != to {
			fmt.Fprintf(tw, "  %s\t%s -> %s\n", what, from, to)
			changes++
		}
	}
	fmt.Fprintf(tw, "updated workspace %s\n", w.Name)
	line("plan", old.Plan, w.Plan)
	line("credits per month", limitText(old.Credits.Limit), limitText(w.Credits.Limit))
	line("radars", limitText(old.Radars.Limit), limitText(w.Radars.Limit))
	line("network accounts", limitText(old.NetworkAccounts.Limit), limitText(w.NetworkAccounts.Limit))
	line("radar signals", limitText(old.RadarSignals.Limit), limitText(w.RadarSignals.Limit))
	line("public API", fmt.Sprint(old.PublicAPI), fmt.Sprint(w.PublicAPI))
	if move.From != "" {
		fmt.Fprintf(tw, "  keys\t%d of tier %s now %s\n", moved, move.From, move.To)
	}
	tw.Flush()
	defaults := prospector.DefaultPlanLimits(w.Plan)
	for _, k := range kept {
		var l *int64
		var def *int64
		flag := "--" + strings.ReplaceAll(k, "_", "-")
		switch k {
		case "credits":
			l, def = w.Credits.Limit, defaults.Credits
		case "radars":
			l, def = w.Radars.Limit, defaults.Radars
		case "network_accounts":
			l, def, flag = w.NetworkAccounts.Limit, defaults.NetworkAccounts, ""
		case "radar_signals":
			l, def, flag = w.RadarSignals.Limit, defaults.RadarSignals, ""
		}
		fmt.Fprintf(e.stdout, "kept %s %s: it was set explicitly (the %s plan gives %s)", strings.ReplaceAll(k, "_", " "),
			limitText(l), w.Plan, limitText(def))
		if flag != "" {
			fmt.Fprintf(e.stdout, "; %s %s takes the plan's", flag, limitText(def))
		}
		fmt.Fprintln(e.stdout)
	}
	if changes == 0 && move.From == "" {
		fmt.Fprintln(e.stdout, "nothing changed")
		return
	}
	fmt.Fprintln(e.stdout, "running servers apply it within their --key-cache-ttl (default 5s)")
}

func newWorkspaceDeleteCommand(e *env, so *storeOptions) *cobra.Command {
	var yes bool
	cmd := &cobra.Command{
		Use:   "delete NAME [--yes]",
		Short: "Delete a workspace and everything it owns (asks first, or --yes)",
		Long: `Delete a workspace and everything it owns, in one transaction: its API keys,
radars, leads (with their attached signals and feedback state), deliveries,
feedback events, integrations (webhook settings, outreach tools), credit
charges and enrich/email lookups. Companies, people, signals and events are
shared by every workspace and stay. It cannot be undone.

On a terminal it asks you to type the workspace's name; --yes skips the
question. Without --yes it refuses to run when stdin is not a terminal.
Running servers refuse the workspace's keys within their --key-cache-ttl.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			ctx := cmd.Context()
			name := args[0]
			if !yes && !e.terminal {
				return fmt.Errorf("refusing to delete workspace %q without --yes: stdin is not a terminal to confirm on", name)
			}
			st, err := so.open(ctx, e)
			if err != nil {
				return err
			}
			defer st.Close()
			w, err := workspaceNamed(ctx, st, name)
			if err != nil {
				return err
			}
			if !yes {
				keys, err := st.ListAPIKeys(ctx, w.ID)
				if err != nil {
					return err
				}
				radars, err := st.RadarSummaries(ctx, w.ID)
				if err != nil {
					return err
				}
				var leads int64
				for _, r := range radars {
					leads += r.Leads
				}
				fmt.Fprintf(e.stderr, "Delete workspace %s (%s) with %d keys, %d radars and %d leads, and everything else it owns?\n"+
					"This cannot be undone. Type the workspace's name to confirm: ", w.Name, w.ID, len(keys), len(radars), leads)
				answer, _ := bufio.NewReader(e.stdin).ReadString('\n')
				if strings.TrimSpace(answer) != w.Name {
					return fmt.Errorf("not confirmed: workspace %q was not deleted", w.Name)
				}
			}
			d, err := st.DeleteWorkspace(ctx, w.ID)
			if err != nil {
				return fmt.Errorf("delete workspace %q: %w", w.Name, err)
			}
			fmt.Fprintf(e.stdout, "deleted workspace %s (%s): %d keys, %d radars, %d leads with %d attached signals, "+
				"%d deliveries, %d feedback events, %d integrations, %d charges, %d email lookups\n",
				w.Name, w.ID, d.Keys, d.Radars, d.Leads, d.LeadSignals, d.Deliveries, d.FeedbackEvents, d.Integrations,
				d.Charges, d.EmailLookups)
			fmt.Fprintln(e.stdout, "running servers refuse its keys within their --key-cache-ttl (default 5s)")
			return nil
		},
	}
	cmd.Flags().BoolVar(&yes, "yes", false, "delete without asking")
	return cmd
}
