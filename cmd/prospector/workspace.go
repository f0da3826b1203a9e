package main

import (
	"context"
	"errors"
	"fmt"

	"github.com/prospectorhq/prospector"
	"github.com/spf13/cobra"
)

func newWorkspaceCommand(e *env, so *storeOptions) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "workspace",
		Short: "Manage workspaces (tenants)",
	}
	cmd.AddCommand(newWorkspaceCreateCommand(e, so), newWorkspaceListCommand(e, so), newWorkspaceShowCommand(e, so),
		newWorkspaceUpdateCommand(e, so), newWorkspaceDeleteCommand(e, so))
	return cmd
}

func newWorkspaceCreateCommand(e *env, so *storeOptions) *cobra.Command {
	var (
		plan      string
		credits   int64
		unlimited bool
		publicAPI bool
		email     string
	)
	cmd := &cobra.Command{
		Use:   "create NAME",
		Short: "Create a workspace on a plan",
		Long: `Create a workspace. The plan sets its credits and quotas per month:
  default  100 credits, 1 radar, 1 network account, 1,000 radar signals
  starter  1,000 credits, 5 radars, 3 network accounts, 10,000 radar signals
  growth   10,000 credits, 25 radars, 10 network accounts, 100,000 radar signals
--credits or --unlimited override the plan's credits. Then create a key with
'prospector keys create --workspace NAME'.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if cmd.Flags().Changed("credits") && unlimited {
				return fmt.Errorf("--credits and --unlimited exclude each other")
			}
			if credits < 0 {
				return fmt.Errorf("--credits must not be negative")
			}
			w := prospector.NewWorkspace(args[0], plan)
			w.Email, w.PublicAPI = email, publicAPI
			switch {
			case unlimited:
				w.Credits.Limit = nil
			case cmd.Flags().Changed("credits"):
				w.Credits.Limit = &credits
			}
			if err := w.Validate(); err != nil {
				return err
			}
			st, err := so.open(cmd.Context(), e)
			if err != nil {
				return err
			}
			defer st.Close()
			if err := st.CreateWorkspace(cmd.Context(), w); err != nil {
				return fmt.Errorf("create workspace %q: %w", w.Name, err)
			}
			total := "unlimited"
			if w.Credits.Limit != nil {
				total = fmt.Sprint(*w.Credits.Limit)
			}
			fmt.Fprintf(e.stdout, "created workspace %s (%s), plan %s, credits %s, public API %t\n",
				w.Name, w.ID, w.Plan, total, w.PublicAPI)
			return nil
		},
	}
	f := cmd.Flags()
	f.StringVar(&plan, "plan", prospector.PlanDefault, "plan: default, starter or growth")
	f.Int64Var(&credits, "credits", 0, "credits per month, overriding the plan's")
	f.BoolVar(&unlimited, "unlimited", false, "unlimited credits")
	f.BoolVar(&publicAPI, "public-api", true, "enable the public API (false: every call answers 404 not_found)")
	f.StringVar(&email, "email", "", "owner's email, reported by key-info and credit-usage")
	return cmd
}

// workspaceNamed reads a workspace by name; for an unknown name the
// error says how to see the names there are.
func workspaceNamed(ctx context.Context, st prospector.Store, name string) (*prospector.Workspace, error) {
	w, err := st.WorkspaceByName(ctx, name)
	if errors.Is(err, prospector.ErrNotFound) {
		return nil, fmt.Errorf("no workspace named %q (prospector workspace list shows them)", name)
	}
	if err != nil {
		return nil, fmt.Errorf("workspace %q: %w", name, err)
	}
	return w, nil
}
