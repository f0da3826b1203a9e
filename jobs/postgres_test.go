package jobs_test

import (
	"testing"

	"github.com/prospectorhq/prospector/postgres/pgtest"
)

// Two nodes, each with its own connection pool, share one queue: SKIP
// LOCKED must give every job to exactly one of them.
func TestPostgresTwoNodesRunEachJobOnce(t *testing.T) {
	url := pgtest.FreshSchema(t)
	runTwoRunners(t, pgtest.Open(t, url), pgtest.Open(t, url), 100)
}
