package main

import (
	"context"
	"os"

	"go.uber.org/zap"

	"github.com/wisp-lsp/wisp/config"
	"github.com/wisp-lsp/wisp/transport"
	"github.com/wisp-lsp/wisp/transport/provider"
)

// modelOpener returns the function the server uses to open a model.
func modelOpener(log *zap.Logger) func(context.Context, config.Model) (transport.Model, error) {
	return func(ctx context.Context, m config.Model) (transport.Model, error) {
		return openModel(m, log)
	}
}

// openModel opens the model m names with the key from the process's
// environment.
func openModel(m config.Model, log *zap.Logger) (transport.Model, error) {
	return provider.Open(m, os.Getenv, log)
}
