package main

import (
	"context"
	"fmt"
	"strings"

	"github.com/prospectorhq/prospector"
	"github.com/prospectorhq/prospector/postgres"
	"github.com/prospectorhq/prospector/sqlite"
)

// storeOptions are the flags every command shares to find its store.
type storeOptions struct {
	dataDir     string
	databaseURL string
}

// describe names the store without its credentials, for logs.
func (o storeOptions) describe(e *env) string {
	if url := o.url(e); url != "" {
		return "postgresql"
	}
	return "sqlite in " + o.dir(e)
}

func (o storeOptions) url(e *env) string {
	if o.databaseURL != "" {
		return o.databaseURL
	}
	return e.getenv("PROSPECTOR_DATABASE_URL")
}

func (o storeOptions) dir(e *env) string {
	if o.dataDir != "" {
		return o.dataDir
	}
	if d := e.getenv("PROSPECTOR_DATA"); d != "" {
		return d
	}
	return "data"
}

// open opens and migrates the store the options name.
func (o storeOptions) open(ctx context.Context, e *env) (prospector.Store, error) {
	if url := o.url(e); url != "" {
		if !strings.HasPrefix(url, "postgres://") && !strings.HasPrefix(url, "postgresql://") {
			return nil, fmt.Errorf("database URL must start with postgres:// or postgresql://")
		}
		return postgres.Open(ctx, url)
	}
	return sqlite.Open(ctx, o.dir(e))
}
