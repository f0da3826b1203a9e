package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"time"
)

// defaultMetricsAddr is loopback: metrics need no key, so they stay off
// the network unless an operator puts them there.
const defaultMetricsAddr = "127.0.0.1:9464"

// serveMetrics serves h (Prometheus metrics) at GET /metrics on a
// listener of its own at addr, never on the API's. An empty addr serves
// nothing. It returns a function that stops the listener, or an error
// when addr cannot be listened on.
func serveMetrics(addr string, h http.Handler, logger *slog.Logger) (stop func(), err error) {
	if addr == "" {
		logger.Info("metrics listener disabled (--metrics-addr is empty)")
		return func() {}, nil
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("metrics listener: %w", err)
	}
	mux := http.NewServeMux()
	mux.Handle("GET /metrics", h)
	srv := &http.Server{
		Handler:           mux,
		ReadHeaderTimeout: 10 * time.Second,
		WriteTimeout:      30 * time.Second,
		IdleTimeout:       120 * time.Second,
		ErrorLog:          slog.NewLogLogger(logger.Handler(), slog.LevelWarn),
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			logger.Error("metrics listener stopped", "error", err.Error())
		}
	}()
	logger.Info("metrics listening", "url", "http://"+ln.Addr().String()+"/metrics")
	return func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if srv.Shutdown(ctx) != nil {
			_ = srv.Close()
		}
		<-done
	}, nil
}
