package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"

	"go.uber.org/zap"

	"github.com/wisp-lsp/wisp/config"
	"github.com/wisp-lsp/wisp/lsp"
)

// stdio joins stdin and stdout into the LSP connection. Closing it closes
// both, so the client sees the server go.
type stdio struct{}

func (stdio) Read(p []byte) (int, error)  { return os.Stdin.Read(p) }
func (stdio) Write(p []byte) (int, error) { return os.Stdout.Write(p) }
func (stdio) Close() error {
	os.Stdin.Close()
	return os.Stdout.Close()
}

// runServe serves LSP on stdio. stdout carries only LSP: logs go to
// stderr or the log file.
func runServe(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("wisp serve", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Bool("stdio", true, "serve on stdin/stdout (the only transport; accepted for editors that pass it)")
	logf := addLogFlags(fs)
	sets := addSetFlag(fs)
	if err := fs.Parse(args); err != nil {
		return 2
	}
	log, closeLog, err := logf.open(stderr)
	if err != nil {
		fmt.Fprintln(stderr, "wisp:", err)
		return 2
	}
	defer closeLog()
	cfg, warnings, err := loadConfig(sets)
	if err != nil {
		log.Error("configuration", zap.Error(err))
		cfg = config.Default()
	}
	for _, w := range warnings {
		log.Warn("configuration", zap.String("warning", w))
	}
	srv := lsp.New(lsp.Options{Log: log, Config: cfg, OpenModel: modelOpener(log)})
	log.Info("serving LSP on stdio", zap.String("version", lsp.Version))
	return srv.Serve(ctx, stdio{})
}
