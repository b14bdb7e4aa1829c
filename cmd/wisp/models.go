package main

import (
	"context"
	"os"

	"go.uber.org/zap"

	"github.com/wisp-lsp/wisp/config"
	"github.com/wisp-lsp/wisp/transport"
	"github.com/wisp-lsp/wisp/transport/local"
)

// modelOpener returns the function the server uses to open a model: the
// embedded local engine, or a network provider through transport.Open.
func modelOpener(log *zap.Logger) func(context.Context, config.Model) (transport.Model, error) {
	return func(ctx context.Context, m config.Model) (transport.Model, error) {
		return openModel(m, log)
	}
}

func openModel(m config.Model, log *zap.Logger) (transport.Model, error) {
	if m.Provider == "" || m.Provider == config.ProviderLocal {
		return local.New(local.Options{MaxTokens: m.MaxTokens}), nil
	}
	return transport.Open(m, os.Getenv, log)
}
