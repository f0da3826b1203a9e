package main

import (
	"fmt"
	"text/tabwriter"

	"github.com/spf13/cobra"
)

func newRadarCommand(e *env, so *storeOptions) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "radar",
		Short: "List a workspace's radars",
	}
	cmd.AddCommand(newRadarListCommand(e, so))
	return cmd
}

// radarJSON is one radar of radar list --json.
type radarJSON struct {
	ID         string  `json:"id"`
	Name       string  `json:"name"`
	Status     string  `json:"status"`
	Leads      int64   `json:"leads"`
	Signals    int64   `json:"signals"`
	LastScanAt *string `json:"last_scan_at"`
	CreatedAt  string  `json:"created_at"`
}

func newRadarListCommand(e *env, so *storeOptions) *cobra.Command {
	var (
		workspace string
		asJSON    bool
	)
	cmd := &cobra.Command{
		Use:   "list --workspace NAME [--json]",
		Short: "List a workspace's radars: id, name, status, leads, signals, last scan",
		Long: `List a workspace's radars, oldest first: id, name, status (backfilling until
its backfill over the stored signals completes, then active), its leads, the
signals attached to them, and when the radar engine last recorded progress
for it (a scan of new signals or the end of its backfill; "never" before).
--json prints an array of objects instead (last_scan_at null: never).`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if workspace == "" {
				return fmt.Errorf("--workspace is required")
			}
			ctx := cmd.Context()
			st, err := so.open(ctx, e)
			if err != nil {
				return err
			}
			defer st.Close()
			w, err := workspaceNamed(ctx, st, workspace)
			if err != nil {
				return err
			}
			sums, err := st.RadarSummaries(ctx, w.ID)
			if err != nil {
				return err
			}
			rows := make([]radarJSON, 0, len(sums))
			for _, r := range sums {
				rows = append(rows, radarJSON{ID: r.ID, Name: r.Name, Status: r.Status(), Leads: r.Leads, Signals: r.Signals,
					LastScanAt: stampPtr(r.LastScanAt), CreatedAt: stamp(r.CreatedAt)})
			}
			if asJSON {
				return writeJSON(e.stdout, rows)
			}
			tw := tabwriter.NewWriter(e.stdout, 0, 4, 2, ' ', 0)
			fmt.Fprintln(tw, "ID\tNAME\tSTATUS\tLEADS\tSIGNALS\tLAST SCAN\tCREATED")
			for _, r := range rows {
				last := "never"
				if r.LastScanAt != nil {
					last = *r.LastScanAt
				}
				fmt.Fprintf(tw, "%s\t%s\t%s\t%d\t%d\t%s\t%s\n", r.ID, r.Name, r.Status, r.Leads, r.Signals, last, r.CreatedAt)
			}
			return tw.Flush()
		},
	}
	cmd.Flags().StringVar(&workspace, "workspace", "", "workspace name (required)")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON instead of a table")
	return cmd
}
