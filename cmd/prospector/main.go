// Command prospector runs the Prospector API and administers its store.
package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

	"github.com/spf13/cobra"
)

// version is reported by --version and GET /api/v1/health.
const version = "0.1.0"

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, os.Args[1:], os.Getenv, os.Stdout, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "prospector:", err)
		os.Exit(1)
	}
}

// env carries what commands read from outside, so tests can run them
// in-process.
type env struct {
	getenv func(string) string
	stdout io.Writer
	stderr io.Writer
	// ready, when set, is told the address serve listens on.
	ready func(addr string)
}

// run executes one command line. Cancelling ctx stops a running server
// gracefully.
func run(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	return runEnv(ctx, args, &env{getenv: getenv, stdout: stdout, stderr: stderr})
}

func runEnv(ctx context.Context, args []string, e *env) error {
	root := newRootCommand(e)
	root.SetArgs(args)
	root.SetOut(e.stdout)
	root.SetErr(e.stderr)
	return root.ExecuteContext(ctx)
}

func newRootCommand(e *env) *cobra.Command {
	var so storeOptions
	root := &cobra.Command{
		Use:   "prospector",
		Short: "Prospector: a self-hostable prospecting intelligence API",
		Long: `Prospector finds accounts and people, verifies emails, watches buying signals
and collects leads, behind the HTTP API under /api/v1.

It runs on an embedded SQLite store in --data (default ./data), or on
PostgreSQL when PROSPECTOR_DATABASE_URL (or --database-url) is set.`,
		Version:       version,
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	pf := root.PersistentFlags()
	pf.StringVar(&so.dataDir, "data", "", "directory of the embedded SQLite store (default ./data, or $PROSPECTOR_DATA)")
	pf.StringVar(&so.databaseURL, "database-url", "", "PostgreSQL URL (postgres://...); overrides --data (default $PROSPECTOR_DATABASE_URL)")
	root.AddCommand(
		newServeCommand(e, &so),
		newWorkspaceCommand(e, &so),
		newKeysCommand(e, &so),
		newMigrateCommand(e, &so),
		newBenchCommand(e, &so),
		newImportCommand(e, &so),
		newDemoCommand(e, &so),
		newIntegrationsCommand(e, &so),
		newDeliveriesCommand(e, &so),
	)
	return root
}
