package main

import (
	"bytes"
	"context"
	"errors"
	"io"
	"log/slog"

	"github.com/prospectorhq/prospector/ratelimit"
)

// routeProcessLogs sends what other code writes through process-wide
// loggers into logger, so every line of the process is JSON: the log
// package's default logger (and slog's default) and go-redis's own
// logger, rate-limited because it repeats every second during an
// outage. Only main may call it: it changes globals.
func routeProcessLogs(logger *slog.Logger) {
	slog.SetDefault(logger)
	ratelimit.UseRedisLog(ratelimit.NewRedisLog(logger, nil))
}

// logLines returns a writer that logs each line written to it as an info
// record, for helpers that report progress as text.
func logLines(logger *slog.Logger) io.Writer { return lineLogger{logger} }

type lineLogger struct{ logger *slog.Logger }

func (l lineLogger) Write(p []byte) (int, error) {
	for line := range bytes.Lines(p) {
		if line = bytes.TrimSpace(line); len(line) > 0 {
			l.logger.LogAttrs(context.Background(), slog.LevelInfo, string(line))
		}
	}
	return len(p), nil
}

// loggedError is an error already written to the JSON log; main exits 1
// without printing it again as plain text.
type loggedError struct{ error }

func (e loggedError) Unwrap() error { return e.error }

// logFailure logs err, when there is one, and marks it as logged.
func logFailure(logger *slog.Logger, err error) error {
	var logged loggedError
	if err == nil || errors.As(err, &logged) {
		return err
	}
	logger.LogAttrs(context.Background(), slog.LevelError, "serve failed", slog.String("error", err.Error()))
	return loggedError{err}
}
