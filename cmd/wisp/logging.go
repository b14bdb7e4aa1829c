package main

import (
	"flag"
	"fmt"
	"io"
	"os"

	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"
)

// logFlags are the logging flags every long-running command takes.
type logFlags struct {
	file, level *string
}

func addLogFlags(fs *flag.FlagSet) logFlags {
	return logFlags{
		file:  fs.String("log-file", os.Getenv("WISP_LOG_FILE"), "write logs to this file instead of stderr (env WISP_LOG_FILE)"),
		level: fs.String("log-level", os.Getenv("WISP_LOG_LEVEL"), "debug, info, warn or error (env WISP_LOG_LEVEL; default info in the log file, error on stderr)"),
	}
}

// open builds the logger: JSON lines to the log file, or console lines to
// stderr. Never stdout, which carries LSP. Editors record a server's stderr
// as errors (Neovim's lsp.log says [ERROR] for every line), so without a
// level asked for, stderr carries errors only and the log file info and up.
func (l logFlags) open(stderr io.Writer) (*zap.Logger, func(), error) {
	name := *l.level
	if name == "" {
		name = "error"
		if *l.file != "" {
			name = "info"
		}
	}
	level, err := zapcore.ParseLevel(name)
	if err != nil {
		return nil, nil, fmt.Errorf("--log-level: %w", err)
	}
	var sink zapcore.WriteSyncer = zapcore.AddSync(stderr)
	encoder := zapcore.NewConsoleEncoder(zap.NewDevelopmentEncoderConfig())
	closeFn := func() {}
	if *l.file != "" {
		f, err := os.OpenFile(*l.file, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
		if err != nil {
			return nil, nil, fmt.Errorf("--log-file: %w", err)
		}
		sink = zapcore.AddSync(f)
		encoder = zapcore.NewJSONEncoder(zap.NewProductionEncoderConfig())
		closeFn = func() { f.Sync(); f.Close() }
	}
	core := zapcore.NewCore(encoder, zapcore.Lock(sink), level)
	return zap.New(core), closeFn, nil
}
