package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"text/tabwriter"
	"time"

	"github.com/prospectorhq/prospector"
	"github.com/spf13/cobra"
)

// The --json shapes of workspace list and show. A null limit is
// unlimited; bypassed limits are reported but not enforced. Times are
// RFC 3339 in UTC.
type (
	creditsJSON struct {
		Used      int64  `json:"used"`
		Limit     *int64 `json:"limit"`
		Remaining *int64 `json:"remaining"`
		Bypassed  bool   `json:"bypassed"`
	}
	quotaJSON struct {
		Used     int64  `json:"used"`
		Limit    *int64 `json:"limit"`
		Bypassed bool   `json:"bypassed"`
	}
	workspaceRowJSON struct {
		Name       string      `json:"name"`
		ID         string      `json:"id"`
		Plan       string      `json:"plan"`
		PublicAPI  bool        `json:"public_api"`
		Credits    creditsJSON `json:"credits"`
		Radars     quotaJSON   `json:"radars"`
		ActiveKeys int         `json:"active_keys"`
		CreatedAt  string      `json:"created_at"`
	}
	keyJSON struct {
		ID        string  `json:"id"`
		Prefix    string  `json:"prefix"`
		Tier      string  `json:"tier"`
		Status    string  `json:"status"`
		CreatedAt string  `json:"created_at"`
		ExpiresAt *string `json:"expires_at"`
	}
	radarRefJSON struct {
		ID     string `json:"id"`
		Name   string `json:"name"`
		Status string `json:"status"`
	}
	workspaceJSON struct {
		Name        string      `json:"name"`
		ID          string      `json:"id"`
		Plan        string      `json:"plan"`
		Email       string      `json:"email"`
		PublicAPI   bool        `json:"public_api"`
		CreatedAt   string      `json:"created_at"`
		PeriodStart string      `json:"period_start"`
		PeriodEnd   string      `json:"period_end"`
		Credits     creditsJSON `json:"credits"`
		Quotas      struct {
			Radars          quotaJSON `json:"radars"`
			NetworkAccounts quotaJSON `json:"network_accounts"`
			RadarSignals    quotaJSON `json:"radar_signals"`
		} `json:"quotas"`
		Keys   []keyJSON      `json:"keys"`
		Radars []radarRefJSON `json:"radars"`
	}
)

func stamp(t time.Time) string { return t.UTC().Format(time.RFC3339) }

func stampPtr(t *time.Time) *string {
	if t == nil {
		return nil
	}
	s := stamp(*t)
	return &s
}

// keyStatus is active, expired or revoked.
func keyStatus(k *prospector.APIKey, now time.Time) string {
	switch {
	case k.RevokedAt != nil:
		return "revoked"
	case !k.Active(now):
		return "expired"
	}
	return "active"
}

func credits(u *prospector.CreditUsage) creditsJSON {
	return creditsJSON{Used: u.CreditsUsed, Limit: u.Credits.Limit, Remaining: u.Remaining(), Bypassed: u.Credits.Bypassed}
}

// used formats "used of limit", "used of unlimited", with "(not
// enforced)" for a bypassed limit.
func used(n int64, l prospector.Limit) string {
	s := fmt.Sprintf("%d of %s", n, limitText(l.Limit))
	if l.Bypassed {
		s += " (not enforced)"
	}
	return s
}

func limitText(l *int64) string {
	if l == nil {
		return "unlimited"
	}
	return fmt.Sprint(*l)
}

func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

func newWorkspaceListCommand(e *env, so *storeOptions) *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "list",
		Short: "List workspaces with their plan, credits used this period, radars and active keys",
		Long: `List every workspace by name: plan, credits used this period of the limit,
radars in use of the limit, active keys, whether the public API is on.
--json prints an array of objects instead (limit null: unlimited).`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			ctx := cmd.Context()
			st, err := so.open(ctx, e)
			if err != nil {
				return err
			}
			defer st.Close()
			ws, err := st.ListWorkspaces(ctx)
			if err != nil {
				return err
			}
			now := time.Now()
			rows := make([]workspaceRowJSON, 0, len(ws))
			for _, w := range ws {
				u, err := st.CreditUsage(ctx, w.ID, now)
				if err != nil {
					return fmt.Errorf("workspace %q: %w", w.Name, err)
				}
				keys, err := st.ListAPIKeys(ctx, w.ID)
				if err != nil {
					return fmt.Errorf("workspace %q: %w", w.Name, err)
				}
				active := 0
				for _, k := range keys {
					if k.Active(now) {
						active++
					}
				}
				rows = append(rows, workspaceRowJSON{Name: w.Name, ID: w.ID, Plan: w.Plan, PublicAPI: w.PublicAPI,
					Credits: credits(u), Radars: quotaJSON{u.Radars.Used, u.Radars.Limit.Limit, u.Radars.Bypassed},
					ActiveKeys: active, CreatedAt: stamp(w.CreatedAt)})
			}
			if asJSON {
				return writeJSON(e.stdout, rows)
			}
			tw := tabwriter.NewWriter(e.stdout, 0, 4, 2, ' ', 0)
			fmt.Fprintln(tw, "NAME\tPLAN\tCREDITS USED\tRADARS\tACTIVE KEYS\tPUBLIC API\tCREATED")
			for _, r := range rows {
				fmt.Fprintf(tw, "%s\t%s\t%d of %s\t%d of %s\t%d\t%t\t%s\n", r.Name, r.Plan, r.Credits.Used, limitText(r.Credits.Limit),
					r.Radars.Used, limitText(r.Radars.Limit), r.ActiveKeys, r.PublicAPI, r.CreatedAt)
			}
			return tw.Flush()
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON instead of a table")
	return cmd
}

func newWorkspaceShowCommand(e *env, so *storeOptions) *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "show NAME",
		Short: "Show a workspace: plan, credits and quotas this period, keys (never the key), radars",
		Long: `Show a workspace: its plan, the credits used, limit and remaining in the
current billing period, its quotas (radars, network accounts, radar signals)
used of their limits, its API keys (id, prefix, tier, status; the key itself
is never stored) and its radars (id, name, status). --json prints one object
instead (limit null: unlimited).`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			ctx := cmd.Context()
			st, err := so.open(ctx, e)
			if err != nil {
				return err
			}
			defer st.Close()
			v, err := showWorkspace(ctx, st, args[0])
			if err != nil {
				return err
			}
			if asJSON {
				return writeJSON(e.stdout, v)
			}
			return printWorkspace(e.stdout, v)
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON instead of text")
	return cmd
}

// showWorkspace reads everything workspace show prints.
func showWorkspace(ctx context.Context, st prospector.Store, name string) (*workspaceJSON, error) {
	w, err := workspaceNamed(ctx, st, name)
	if err != nil {
		return nil, err
	}
	now := time.Now()
	u, err := st.CreditUsage(ctx, w.ID, now)
	if err != nil {
		return nil, err
	}
	signals, err := st.RadarSignalsUsed(ctx, w.ID, u.PeriodStart)
	if err != nil {
		return nil, err
	}
	keys, err := st.ListAPIKeys(ctx, w.ID)
	if err != nil {
		return nil, err
	}
	radars, err := st.RadarSummaries(ctx, w.ID)
	if err != nil {
		return nil, err
	}
	v := &workspaceJSON{Name: w.Name, ID: w.ID, Plan: w.Plan, Email: w.Email, PublicAPI: w.PublicAPI,
		CreatedAt: stamp(w.CreatedAt), PeriodStart: stamp(u.PeriodStart), PeriodEnd: stamp(u.PeriodEnd),
		Credits: credits(u), Keys: []keyJSON{}, Radars: []radarRefJSON{}}
	v.Quotas.Radars = quotaJSON{u.Radars.Used, u.Radars.Limit.Limit, u.Radars.Bypassed}
	v.Quotas.NetworkAccounts = quotaJSON{u.NetworkAccounts.Used, u.NetworkAccounts.Limit.Limit, u.NetworkAccounts.Bypassed}
	v.Quotas.RadarSignals = quotaJSON{signals, u.RadarSignals.Limit, u.RadarSignals.Bypassed}
	for _, k := range keys {
		v.Keys = append(v.Keys, keyJSON{ID: k.ID, Prefix: k.Prefix, Tier: k.Tier, Status: keyStatus(k, now),
			CreatedAt: stamp(k.CreatedAt), ExpiresAt: stampPtr(k.ExpiresAt)})
	}
	for _, r := range radars {
		v.Radars = append(v.Radars, radarRefJSON{ID: r.ID, Name: r.Name, Status: r.Status()})
	}
	return v, nil
}

func printWorkspace(out io.Writer, v *workspaceJSON) error {
	limit := func(q quotaJSON) string { return used(q.Used, prospector.Limit{Limit: q.Limit, Bypassed: q.Bypassed}) }
	remaining := "unlimited"
	if v.Credits.Remaining != nil {
		remaining = fmt.Sprint(*v.Credits.Remaining)
	}
	tw := tabwriter.NewWriter(out, 0, 4, 2, ' ', 0)
	fmt.Fprintf(tw, "workspace\t%s (%s)\n", v.Name, v.ID)
	fmt.Fprintf(tw, "plan\t%s\n", v.Plan)
	email := v.Email
	if email == "" {
		email = "(none)"
	}
	fmt.Fprintf(tw, "email\t%s\n", email)
	fmt.Fprintf(tw, "public API\t%t\n", v.PublicAPI)
	fmt.Fprintf(tw, "created\t%s\n", v.CreatedAt)
	fmt.Fprintf(tw, "period\t%s to %s\n", v.PeriodStart, v.PeriodEnd)
	fmt.Fprintf(tw, "credits\t%s used, %s remaining\n",
		used(v.Credits.Used, prospector.Limit{Limit: v.Credits.Limit, Bypassed: v.Credits.Bypassed}), remaining)
	fmt.Fprintf(tw, "radars\t%s\n", limit(v.Quotas.Radars))
	fmt.Fprintf(tw, "network accounts\t%s\n", limit(v.Quotas.NetworkAccounts))
	fmt.Fprintf(tw, "radar signals\t%s this period\n", limit(v.Quotas.RadarSignals))
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintf(out, "\nkeys (%d)\n", len(v.Keys))
	if len(v.Keys) > 0 {
		tw = tabwriter.NewWriter(out, 0, 4, 2, ' ', 0)
		fmt.Fprintln(tw, "ID\tPREFIX\tTIER\tSTATUS\tCREATED\tEXPIRES")
		for _, k := range v.Keys {
			exp := "never"
			if k.ExpiresAt != nil {
				exp = *k.ExpiresAt
			}
			fmt.Fprintf(tw, "%s\t%s…\t%s\t%s\t%s\t%s\n", k.ID, k.Prefix, k.Tier, k.Status, k.CreatedAt, exp)
		}
		if err := tw.Flush(); err != nil {
			return err
		}
	}
	fmt.Fprintf(out, "\nradars (%d)\n", len(v.Radars))
	if len(v.Radars) > 0 {
		tw = tabwriter.NewWriter(out, 0, 4, 2, ' ', 0)
		fmt.Fprintln(tw, "ID\tNAME\tSTATUS")
		for _, r := range v.Radars {
			fmt.Fprintf(tw, "%s\t%s\t%s\n", r.ID, r.Name, r.Status)
		}
		return tw.Flush()
	}
	return nil
}
