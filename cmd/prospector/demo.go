package main

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/prospectorhq/prospector"
	"github.com/prospectorhq/prospector/demo"
	"github.com/prospectorhq/prospector/importer"
	"github.com/spf13/cobra"
)

// The demo serve loads on an empty store: small enough to load in a few
// seconds, big enough to make every endpoint interesting.
const (
	demoCompanies = 2000
	demoPeople    = 20000
	demoSeed      = 1
)

func newDemoCommand(e *env, so *storeOptions) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "demo",
		Short: "Generate demo data",
	}
	var (
		companies, people int
		seed              int64
		out               string
	)
	seedCmd := &cobra.Command{
		Use:   "seed",
		Short: "Load a realistic, deterministic synthetic dataset",
		Long: `Generate companies, people (with titles across every level and function and
known emails following each company's pattern), signals of every type, and news
and financing events, and upsert them into the store. The same --seed gives the
same data (timestamps are spread over the 180 days before now). Seeding again
with the same seed updates nothing but the time-relative fields. All names,
domains (.example) and profile URLs are synthetic. Progress goes to stderr.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if companies < 1 || people < 0 {
				return fmt.Errorf("--companies must be at least 1 and --people at least 0")
			}
			cfg := demo.Config{Companies: companies, People: people, Seed: seed, Now: time.Now()}
			if out != "" {
				return exportDemo(cmd.Context(), cfg, out, e.stdout)
			}
			st, err := so.open(cmd.Context(), e)
			if err != nil {
				return err
			}
			defer st.Close()
			return seedData(cmd.Context(), st, cfg, e.stdout, e.stderr)
		},
	}
	f := seedCmd.Flags()
	f.IntVar(&companies, "companies", demoCompanies, "companies to generate")
	f.IntVar(&people, "people", demoPeople, "people to generate, spread over the companies")
	f.Int64Var(&seed, "seed", demoSeed, "random seed")
	f.StringVar(&out, "out", "", "write KIND.jsonl files in the import format to this directory instead of the store")
	cmd.AddCommand(seedCmd)
	return cmd
}

// seedData generates cfg into st, printing progress about every second
// and a summary at the end.
func seedData(ctx context.Context, st prospector.Store, cfg demo.Config, stdout, stderr io.Writer) error {
	sink := &importer.StoreSink{Store: st}
	start, last := time.Now(), time.Now()
	err := demo.Generate(ctx, cfg, sink, func(p demo.Progress) {
		if time.Since(last) >= time.Second {
			last = time.Now()
			fmt.Fprintf(stderr, "demo: %d/%d companies, %d/%d people, %d signals (%.0f people/s)\n",
				p.Companies, cfg.Companies, p.People, cfg.People, p.Signals, float64(p.People)/time.Since(start).Seconds())
		}
	})
	if err == nil {
		err = sink.Commit(ctx)
	}
	// After a failure, what was not committed is rolled back.
	if cerr := sink.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("demo seed: %w", err)
	}
	s := sink.Stats()
	elapsed := time.Since(start)
	fmt.Fprintf(stdout, "demo: %d companies and %d people (seed %d) in %s: inserted %d, updated %d, unchanged %d, suppressed %d rows\n",
		cfg.Companies, cfg.People, cfg.Seed, elapsed.Round(time.Millisecond), s.Inserted, s.Updated, s.Unchanged, s.Suppressed)
	return nil
}

// exportDemo writes the dataset as import files.
func exportDemo(ctx context.Context, cfg demo.Config, dir string, stdout io.Writer) error {
	sink, err := importer.NewFileSink(dir)
	if err != nil {
		return err
	}
	start := time.Now()
	err = demo.Generate(ctx, cfg, sink, nil)
	if cerr := sink.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("demo export: %w", err)
	}
	fmt.Fprintf(stdout, "demo: wrote %d companies and %d people (seed %d) as JSONL to %s in %s\n",
		cfg.Companies, cfg.People, cfg.Seed, dir, time.Since(start).Round(time.Millisecond))
	return nil
}
