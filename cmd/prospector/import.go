package main

import (
	"fmt"
	"os"
	"runtime/debug"
	"time"

	"github.com/prospectorhq/prospector/importer"
	"github.com/spf13/cobra"
)

// importMemoryLimit is the Go soft memory limit an import runs under,
// with no proportional collection, unless GOGC or GOMEMLIMIT say
// otherwise. The importer's live heap is a few batches, but it allocates
// fast (a map per JSONL line), so the default collector ran every few
// megabytes: about 8 % of the CPU over 2M people. Collecting only near
// the limit took 2M people from 44,000/s to 48,000/s with peak RSS at
// 465 MB, SQLite's page cache and mapped pages included.
const importMemoryLimit = 192 << 20

func newImportCommand(e *env, so *storeOptions) *cobra.Command {
	var (
		kind, format string
		batch        int
		commitSize   int
		maxErrors    int
	)
	cmd := &cobra.Command{
		Use:   "import --kind KIND FILE",
		Short: "Import companies, people, signals, news or financing events from JSONL or CSV",
		Long: `Import a JSONL or CSV file (format from the extension, or --format) of one kind:
companies, people, signals, news-events or financing-events. Rows are upserted by
their natural key (company: domain; person: profile URL, else id; the rest: id),
so importing the same file twice changes nothing. Import companies before the
people, signals and events that refer to them.

Each bad line is reported on stderr with its number and reason, and the good
lines still land. A summary (read, inserted, updated, unchanged, rejected) ends
the run; the exit status is non-zero if any line was rejected. Formats and the
vendor layouts understood are in docs/import.md.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if e.getenv("GOGC") == "" && e.getenv("GOMEMLIMIT") == "" {
				defer debug.SetGCPercent(debug.SetGCPercent(-1))
				defer debug.SetMemoryLimit(debug.SetMemoryLimit(importMemoryLimit))
			}
			k, err := importer.ParseKind(kind)
			if err != nil {
				return fmt.Errorf("--kind: %w", err)
			}
			if format == "" {
				if format, err = importer.FormatOf(args[0]); err != nil {
					return err
				}
			}
			f, err := os.Open(args[0])
			if err != nil {
				return err
			}
			defer f.Close()
			st, err := so.open(cmd.Context(), e)
			if err != nil {
				return err
			}
			defer st.Close()
			start, shown, last := time.Now(), 0, time.Now()
			stats, err := importer.Import(cmd.Context(), st, f, importer.Options{
				Kind: k, Format: format, BatchSize: batch, CommitSize: commitSize,
				OnLineError: func(line int, reason string) {
					if shown < maxErrors {
						fmt.Fprintf(e.stderr, "%s:%d: %s\n", args[0], line, reason)
					} else if shown == maxErrors {
						fmt.Fprintf(e.stderr, "%s: more rejected lines not shown (--max-errors %d)\n", args[0], maxErrors)
					}
					shown++
				},
				OnProgress: func(s importer.Stats) {
					if time.Since(last) >= time.Second {
						last = time.Now()
						fmt.Fprintf(e.stderr, "%s: %d lines read (%.0f/s), %d rejected\n", args[0], s.Read,
							float64(s.Read)/time.Since(start).Seconds(), s.Rejected)
					}
				},
			})
			elapsed := time.Since(start)
			fmt.Fprintf(e.stdout, "%s %s: read %d, inserted %d, updated %d, unchanged %d, rejected %d, suppressed %d in %s (%.0f lines/s)\n",
				kind, args[0], stats.Read, stats.Inserted, stats.Updated, stats.Unchanged, stats.Rejected, stats.Suppressed,
				elapsed.Round(time.Millisecond), float64(stats.Read)/elapsed.Seconds())
			if err != nil {
				return err
			}
			if stats.Rejected > 0 {
				return fmt.Errorf("%d of %d lines rejected", stats.Rejected, stats.Read)
			}
			return nil
		},
	}
	f := cmd.Flags()
	f.StringVar(&kind, "kind", "", "companies, people, signals, news-events or financing-events (required)")
	f.StringVar(&format, "format", "", "jsonl or csv (default: from the file extension)")
	f.IntVar(&batch, "batch-size", importer.DefaultBatchSize, "records per write (batches wait parsed in memory: memory grows with them)")
	f.IntVar(&commitSize, "commit-size", importer.DefaultCommitSize, "records per transaction, in whole batches (fewer commits rewrite index pages less often; a failure rolls back what is not committed)")
	f.IntVar(&maxErrors, "max-errors", 100, "rejected lines to print (all are counted)")
	_ = cmd.MarkFlagRequired("kind")
	return cmd
}
