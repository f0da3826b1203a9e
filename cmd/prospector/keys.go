package main

import (
	"fmt"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/prospectorhq/prospector"
	"github.com/spf13/cobra"
)

func newKeysCommand(e *env, so *storeOptions) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "keys",
		Short: "Create, list and revoke API keys",
		Long:  "API keys authenticate calls in the X-Service-API-Key header. A key is shown once, when created; only its SHA-256 hash and a short prefix are stored.",
	}
	cmd.AddCommand(newKeysCreateCommand(e, so), newKeysListCommand(e, so), newKeysRevokeCommand(e, so))
	return cmd
}

func newKeysCreateCommand(e *env, so *storeOptions) *cobra.Command {
	var (
		workspace string
		tier      string
		expires   string
	)
	cmd := &cobra.Command{
		Use:   "create --workspace NAME",
		Short: "Create an API key; the key is printed alone on the last line",
		Long: `Create an API key for a workspace. Its tier sets the rate limit
(default 100/min, starter 300/min, growth 1000/min; default: the workspace's plan).
--expires takes a duration such as 720h, 90m or 30d. The key is printed once,
alone on the last line of stdout, and cannot be shown again.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if workspace == "" {
				return fmt.Errorf("--workspace is required")
			}
			if tier != "" && !prospector.ValidPlan(tier) {
				return fmt.Errorf("--tier must be default, starter or growth")
			}
			var expiresAt *time.Time
			if expires != "" {
				d, err := parseDuration(expires)
				if err != nil || d <= 0 {
					return fmt.Errorf("--expires %q: want a positive duration such as 720h or 30d", expires)
				}
				t := time.Now().Add(d).UTC()
				expiresAt = &t
			}
			st, err := so.open(cmd.Context(), e)
			if err != nil {
				return err
			}
			defer st.Close()
			w, err := st.WorkspaceByName(cmd.Context(), workspace)
			if err != nil {
				return fmt.Errorf("workspace %q: %w", workspace, err)
			}
			if tier == "" {
				tier = w.Plan
			}
			k, secret := prospector.NewAPIKey(w.ID, tier, expiresAt)
			if err := st.CreateAPIKey(cmd.Context(), k); err != nil {
				return fmt.Errorf("create key: %w", err)
			}
			exp := "never"
			if expiresAt != nil {
				exp = expiresAt.Format(time.RFC3339)
			}
			fmt.Fprintf(e.stdout, "created key %s for workspace %s, tier %s, expires %s\n", k.ID, w.Name, k.Tier, exp)
			fmt.Fprintln(e.stdout, "store it now: it is shown only this once")
			fmt.Fprintln(e.stdout, secret)
			return nil
		},
	}
	f := cmd.Flags()
	f.StringVar(&workspace, "workspace", "", "workspace name (required)")
	f.StringVar(&tier, "tier", "", "rate-limit tier: default, starter or growth (default: the workspace's plan)")
	f.StringVar(&expires, "expires", "", "lifetime, e.g. 720h or 30d (default: never expires)")
	return cmd
}

// parseDuration is time.ParseDuration plus a "d" suffix for days.
func parseDuration(s string) (time.Duration, error) {
	if days, ok := strings.CutSuffix(s, "d"); ok {
		n, err := strconv.Atoi(days)
		if err != nil {
			return 0, err
		}
		return time.Duration(n) * 24 * time.Hour, nil
	}
	return time.ParseDuration(s)
}

func newKeysListCommand(e *env, so *storeOptions) *cobra.Command {
	var workspace string
	cmd := &cobra.Command{
		Use:   "list --workspace NAME",
		Short: "List a workspace's keys (prefix, tier, status; never the key)",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if workspace == "" {
				return fmt.Errorf("--workspace is required")
			}
			st, err := so.open(cmd.Context(), e)
			if err != nil {
				return err
			}
			defer st.Close()
			w, err := st.WorkspaceByName(cmd.Context(), workspace)
			if err != nil {
				return fmt.Errorf("workspace %q: %w", workspace, err)
			}
			keys, err := st.ListAPIKeys(cmd.Context(), w.ID)
			if err != nil {
				return err
			}
			tw := tabwriter.NewWriter(e.stdout, 0, 4, 2, ' ', 0)
			fmt.Fprintln(tw, "ID\tPREFIX\tTIER\tCREATED\tEXPIRES\tSTATUS")
			now := time.Now()
			for _, k := range keys {
				exp := "never"
				if k.ExpiresAt != nil {
					exp = k.ExpiresAt.Format(time.RFC3339)
				}
				fmt.Fprintf(tw, "%s\t%s…\t%s\t%s\t%s\t%s\n", k.ID, k.Prefix, k.Tier, k.CreatedAt.Format(time.RFC3339), exp, keyStatus(k, now))
			}
			return tw.Flush()
		},
	}
	cmd.Flags().StringVar(&workspace, "workspace", "", "workspace name (required)")
	return cmd
}

func newKeysRevokeCommand(e *env, so *storeOptions) *cobra.Command {
	return &cobra.Command{
		Use:   "revoke KEY_ID",
		Short: "Revoke a key; running servers refuse it within their key cache TTL (default 5s)",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			st, err := so.open(cmd.Context(), e)
			if err != nil {
				return err
			}
			defer st.Close()
			if err := st.RevokeAPIKey(cmd.Context(), args[0], time.Now()); err != nil {
				return fmt.Errorf("revoke %s: %w", args[0], err)
			}
			fmt.Fprintf(e.stdout, "revoked key %s\n", args[0])
			return nil
		},
	}
}
