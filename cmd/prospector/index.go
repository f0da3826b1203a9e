package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"io/fs"
	"log/slog"
	"path/filepath"
	"time"

	"github.com/prospectorhq/prospector"
	"github.com/prospectorhq/prospector/search"
	"github.com/spf13/cobra"
)

// indexSnapshotFile is the snapshot's name in a SQLite data directory.
const indexSnapshotFile = "search-index.snapshot"

// indexOptions say how the search index follows the store and where its
// snapshot lives.
type indexOptions struct {
	poll          time.Duration
	snapshot      string // path; "" for none once resolved
	snapshotEvery time.Duration
}

func (o *indexOptions) addFlags(cmd *cobra.Command) {
	f := cmd.Flags()
	f.DurationVar(&o.poll, "index-poll", time.Second, "how often the search index reads writes made by other processes and nodes")
	f.StringVar(&o.snapshot, "index-snapshot", "", "file the search index is saved to on shutdown and loaded from on start, then caught up from the database (default "+indexSnapshotFile+" in --data on SQLite, none on PostgreSQL; \"off\" for none)")
	f.DurationVar(&o.snapshotEvery, "index-snapshot-every", 0, "also save the index snapshot this often (0: only on shutdown), so a crash restarts from a recent one")
}

// resolve fills in the default snapshot path: next to the SQLite
// database; with PostgreSQL only where asked, since nodes come and go.
func (o indexOptions) resolve(e *env, so *storeOptions) indexOptions {
	switch {
	case o.snapshot == "off":
		o.snapshot = ""
	case o.snapshot == "" && so.url(e) == "":
		o.snapshot = filepath.Join(so.dir(e), indexSnapshotFile)
	}
	return o
}

// startIndex loads the search index from its snapshot when there is a
// valid one (then catches up from the store in the background) or builds
// it from the store, and keeps it in step until ctx ends. It also returns
// the cursor key every node shares, and save, which writes the snapshot
// (a no-op without one) for the caller to run once it has stopped.
func startIndex(ctx context.Context, st prospector.Store, o indexOptions, logger *slog.Logger) (ix *search.Index, key []byte, save func(), err error) {
	cursorKey, err := st.Setting(ctx, "search_cursor_key", randomHex())
	if err != nil {
		return nil, nil, nil, err
	}
	// The store's identity stamps snapshots: one taken of another
	// database is never loaded.
	database, err := st.Setting(ctx, "database_id", randomHex())
	if err != nil {
		return nil, nil, nil, err
	}
	ix = search.New(st)
	start := time.Now()
	loaded := false
	if o.snapshot != "" {
		info, err := ix.LoadSnapshot(ctx, o.snapshot, database)
		switch {
		case err == nil:
			loaded = true
			stats := ix.Stats()
			logger.Info("search index loaded from snapshot", "path", o.snapshot, "bytes", info.Bytes,
				"companies", stats.Companies, "people", stats.People, "duration_ms", time.Since(start).Milliseconds())
		case errors.Is(err, fs.ErrNotExist):
			logger.Info("no search index snapshot yet: building from the database", "path", o.snapshot)
		default:
			logger.Warn("search index snapshot not used: building from the database", "path", o.snapshot, "error", err.Error())
		}
	}
	if !loaded {
		n, err := ix.Sync(ctx)
		if err != nil {
			return nil, nil, nil, err
		}
		stats := ix.Stats()
		logger.Info("search index built", "rows", n, "companies", stats.Companies, "people", stats.People,
			"bitmap_bytes", stats.Bytes, "duration_ms", time.Since(start).Milliseconds())
	}
	save = func() {}
	var then func(context.Context)
	if o.snapshot != "" {
		save = func() { saveIndex(ix, o.snapshot, database, logger) }
		if o.snapshotEvery > 0 {
			last := time.Now()
			then = func(context.Context) {
				if time.Since(last) >= o.snapshotEvery {
					save()
					last = time.Now()
				}
			}
		}
	}
	go func() {
		if loaded {
			// Searches are answered from the snapshot meanwhile.
			begin := time.Now()
			n, err := ix.Sync(ctx)
			if err != nil && ctx.Err() == nil {
				logger.Warn("search index catch-up after snapshot failed; retrying", "error", err.Error())
			} else if err == nil {
				logger.Info("search index caught up after snapshot", "rows", n, "duration_ms", time.Since(begin).Milliseconds())
			}
		}
		ix.FollowThen(ctx, o.poll, logger, then)
	}()
	return ix, []byte(cursorKey), save, nil
}

func saveIndex(ix *search.Index, path, database string, logger *slog.Logger) {
	start := time.Now()
	info, err := ix.SaveSnapshot(path, database)
	if err != nil {
		logger.Error("search index snapshot not saved", "path", path, "error", err.Error())
		return
	}
	logger.Info("search index snapshot saved", "path", path, "bytes", info.Bytes, "people_seq", info.People,
		"duration_ms", time.Since(start).Milliseconds())
}

func randomHex() string {
	b := make([]byte, 32)
	_, _ = rand.Read(b) // never fails (crypto/rand)
	return hex.EncodeToString(b)
}
