package main

import (
	"log/slog"
	"net"
)

func netListen() (net.Listener, error) { return net.Listen("tcp", "127.0.0.1:0") }

func discardLogger() *slog.Logger { return slog.New(slog.DiscardHandler) }
