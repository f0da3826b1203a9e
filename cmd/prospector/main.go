// Command prospector runs the Prospector API and administers its store.
package main

import (
	"context"
	"errors"
	"fmt"
	"github.com/prospectorhq/prospector"
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
	e := &env{getenv: os.Getenv, stdout: os.Stdout, stderr: os.Stderr, stdin: os.Stdin, terminal: isTerminal(os.Stdin),
		process: true}
	if err := runEnv(ctx, os.Args[1:], e); err != nil {
		// serve has logged its failure as JSON already.
		var logged loggedError
		if !errors.As(err, &logged) {
			fmt.Fprintln(os.Stderr, "prospector:", err)
		}
		os.Exit(1)
	}
}

// env carries what commands read from outside, so tests can run them
// in-process.
type env struct {
	getenv func(string) string
	stdout io.Writer
	stderr io.Writer
	// stdin answers confirmations; terminal says whether it is a
	// terminal (a person who can answer) rather than a pipe or nothing.
	stdin    io.Reader
	terminal bool
	// ready, when set, is told the address serve listens on.
	ready func(addr string)
	// process is set when this run owns the process (main, not a test):
	// serve may then route process-wide loggers into its own.
	process bool
}

// isTerminal reports whether f is a character device: a terminal, where
// a person can answer a question.
func isTerminal(f *os.File) bool {
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
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
	// What the command line does is audited as the CLI's; the API
	// names each request's key instead.
	return root.ExecuteContext(prospector.WithActor(ctx, prospector.ActorCLI))
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
	pf.StringVar(&so.synchronous, "sqlite-synchronous", "", "SQLite durability: full (default) syncs every commit to disk, so acknowledged writes survive power loss and OS crashes; normal syncs at checkpoints only: faster, and safe against the process crashing but not the machine (or $PROSPECTOR_SQLITE_SYNCHRONOUS)")
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
		newRadarCommand(e, &so),
		newWatchCommand(e, &so),
		newSourcesCommand(e, &so),
		newPrivacyCommand(e, &so),
		newAuditCommand(e, &so),
		newMCPCommand(e),
	)
	root.InitDefaultCompletionCmd()
	asGroups(root)
	return root
}
