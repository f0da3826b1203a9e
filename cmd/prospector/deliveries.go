package main

import (
	"fmt"
	"log/slog"
	"net/url"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/prospectorhq/prospector"
	"github.com/prospectorhq/prospector/webhook"
	"github.com/spf13/cobra"
)

func newDeliveriesCommand(e *env, so *storeOptions) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "deliveries",
		Short: "The auto-sync delivery log: list deliveries, send one again",
		Long: `Auto-sync delivers each new lead to the workspace's webhook once, retrying
failures for about a day (1m, 5m, 30m, 2h, 5h, 8h, 8h) before the delivery is
dead-lettered; a destination answering 410 Gone switches auto-sync off.`,
	}
	cmd.AddCommand(newDeliveriesListCommand(e, so), newDeliveriesRedeliverCommand(e, so))
	return cmd
}

func newDeliveriesListCommand(e *env, so *storeOptions) *cobra.Command {
	var (
		workspace string
		status    string
		limit     int
	)
	cmd := &cobra.Command{
		Use:   "list --workspace NAME",
		Short: "List a workspace's deliveries, newest first",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if workspace == "" {
				return fmt.Errorf("--workspace is required")
			}
			switch prospector.DeliveryStatus(status) {
			case "", prospector.DeliveryPending, prospector.DeliveryDelivered, prospector.DeliveryDead, prospector.DeliveryDisabled:
			default:
				return fmt.Errorf("--status must be pending, delivered, dead or disabled")
			}
			if limit < 1 || limit > 1000 {
				return fmt.Errorf("--limit must be 1 to 1000")
			}
			ctx := cmd.Context()
			st, err := so.open(ctx, e)
			if err != nil {
				return err
			}
			defer st.Close()
			w, err := st.WorkspaceByName(ctx, workspace)
			if err != nil {
				return fmt.Errorf("workspace %q: %w", workspace, err)
			}
			ds, err := st.ListDeliveries(ctx, prospector.DeliveryFilter{WorkspaceID: w.ID,
				Status: prospector.DeliveryStatus(status), Limit: limit})
			if err != nil {
				return err
			}
			tw := tabwriter.NewWriter(e.stdout, 0, 4, 2, ' ', 0)
			fmt.Fprintln(tw, "ID\tLEAD\tSTATUS\tATTEMPTS\tCODE\tWHEN\tDESTINATION\tLAST ERROR")
			for _, d := range ds {
				when := "next " + d.NextAttemptAt.Format(time.RFC3339)
				switch {
				case d.Status == prospector.DeliveryDelivered && d.DeliveredAt != nil:
					when = "at " + d.DeliveredAt.Format(time.RFC3339)
				case d.Status != prospector.DeliveryPending:
					when = "at " + d.UpdatedAt.Format(time.RFC3339)
				}
				code := "-"
				if d.LastStatusCode != 0 {
					code = fmt.Sprint(d.LastStatusCode)
				}
				fmt.Fprintf(tw, "%s\t%s\t%s\t%d/%d\t%s\t%s\t%s\t%s\n", d.ID, d.LeadID, d.Status, d.Attempts, webhook.MaxAttempts(),
					code, when, destinationHost(d.DestinationURL), oneLine(d.LastError, 80))
			}
			return tw.Flush()
		},
	}
	f := cmd.Flags()
	f.StringVar(&workspace, "workspace", "", "workspace name (required)")
	f.StringVar(&status, "status", "", "only deliveries in this status: pending, delivered, dead or disabled")
	f.IntVar(&limit, "limit", 100, "at most this many (1 to 1000)")
	return cmd
}

// destinationHost shows where a delivery goes without the URL's path and
// query, which may carry a token.
func destinationHost(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return "?"
	}
	return u.Scheme + "://" + u.Host
}

func oneLine(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > n {
		cut := n
		for cut > 0 && s[cut]&0xC0 == 0x80 { // not inside a character
			cut--
		}
		s = s[:cut] + "…"
	}
	if s == "" {
		return "-"
	}
	return s
}

func newDeliveriesRedeliverCommand(e *env, so *storeOptions) *cobra.Command {
	var (
		now       bool
		allowPriv bool
	)
	cmd := &cobra.Command{
		Use:   "redeliver DELIVERY_ID",
		Short: "Send a delivered, dead or disabled delivery again, with the same webhook-id",
		Long: `Send a finished delivery again, with the same webhook-id (so a receiver that
already has it can drop it) and a fresh retry schedule. By default the
first attempt is queued for the server's job runner; --now makes it from
this command at once and prints the outcome (later retries, if it fails, are
still queued). The destination must still be the workspace's webhook URL
with auto-sync on.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			ctx := cmd.Context()
			st, err := so.open(ctx, e)
			if err != nil {
				return err
			}
			defer st.Close()
			ob := &webhook.Outbox{Store: st, Enqueue: st.EnqueueJob,
				Client: webhook.NewClient(webhook.Config{AllowPrivate: allowPrivate(e, allowPriv), Policy: webhook.SettingPolicy(st)}),
				Logger: slog.New(slog.NewTextHandler(e.stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))}
			if !now {
				d, err := ob.Redeliver(ctx, args[0])
				if err != nil {
					return fmt.Errorf("redeliver %s: %w", args[0], err)
				}
				fmt.Fprintf(e.stdout, "queued delivery %s of lead %s to %s\n", d.ID, d.LeadID, destinationHost(d.DestinationURL))
				return nil
			}
			d, err := ob.RedeliverNow(ctx, args[0])
			if err != nil {
				return fmt.Errorf("redeliver %s: %w", args[0], err)
			}
			code := "no answer"
			if d.LastStatusCode != 0 {
				code = fmt.Sprintf("HTTP %d", d.LastStatusCode)
			}
			fmt.Fprintf(e.stdout, "delivery %s of lead %s to %s: %s (%s)\n", d.ID, d.LeadID, destinationHost(d.DestinationURL), d.Status, code)
			if d.Status == prospector.DeliveryPending {
				fmt.Fprintf(e.stdout, "next attempt at %s: %s\n", d.NextAttemptAt.Format(time.RFC3339), oneLine(d.LastError, 200))
			} else if d.Status != prospector.DeliveryDelivered {
				fmt.Fprintf(e.stdout, "%s\n", oneLine(d.LastError, 200))
			}
			return nil
		},
	}
	cmd.Flags().BoolVar(&now, "now", false, "make the first attempt from this command, at once")
	cmd.Flags().BoolVar(&allowPriv, "allow-private-webhooks", false, "allow private and loopback destinations (with --now; local testing)")
	return cmd
}
