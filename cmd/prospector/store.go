package main

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/prospectorhq/prospector"
	"github.com/prospectorhq/prospector/postgres"
	"github.com/prospectorhq/prospector/sqlite"
)

// storeOptions are the flags every command shares to find its store.
type storeOptions struct {
	dataDir     string
	databaseURL string
	// synchronous is SQLite's synchronous setting (sqlite.Options).
	synchronous string
	// statementTimeout bounds each PostgreSQL statement (serve sets it to
	// its request deadline); zero leaves the server's setting.
	statementTimeout time.Duration
}

// describe names the store without its credentials, for logs.
func (o storeOptions) describe(e *env) string {
	if url := o.url(e); url != "" {
		return "postgresql"
	}
	sync, err := sqlite.ParseSynchronous(o.sqliteSynchronous(e))
	if err != nil {
		sync = "invalid"
	}
	return "sqlite in " + o.dir(e) + " (synchronous=" + sync + ")"
}

func (o storeOptions) sqliteSynchronous(e *env) string {
	if o.synchronous != "" {
		return o.synchronous
	}
	return e.getenv("PROSPECTOR_SQLITE_SYNCHRONOUS")
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
		return postgres.OpenWith(ctx, url, postgres.Options{StatementTimeout: o.statementTimeout})
	}
	db, err := sqlite.OpenWith(ctx, o.dir(e), sqlite.Options{Synchronous: o.sqliteSynchronous(e)})
	if prospector.ErrorCode(err) == prospector.EINVALID {
		return nil, fmt.Errorf("--sqlite-synchronous: %s", prospector.ErrorMessage(err))
	}
	if err != nil {
		return nil, err
	}
	return db, nil
}
