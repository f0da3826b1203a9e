package main

import (
	"fmt"

	"github.com/spf13/cobra"
)

func newMigrateCommand(e *env, so *storeOptions) *cobra.Command {
	return &cobra.Command{
		Use:   "migrate",
		Short: "Apply pending database migrations and exit",
		Long:  "Apply every pending schema migration of the store (SQLite in --data, or PostgreSQL), then exit. serve also migrates on start; this lets a deployment migrate once before rolling out nodes.",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			st, err := so.open(cmd.Context(), e)
			if err != nil {
				return err
			}
			defer st.Close()
			fmt.Fprintf(e.stdout, "migrations applied (%s)\n", so.describe(e))
			return nil
		},
	}
}
