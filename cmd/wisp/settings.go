package main

import (
	"flag"
	"os"
	"strings"

	"github.com/wisp-lsp/wisp/config"
)

// setFlags collects repeated --set KEY=VALUE flags: a trusted layer above
// the environment, for editors that start wisp with arguments rather than
// environment variables.
type setFlags []string

func (s *setFlags) String() string     { return strings.Join(*s, " ") }
func (s *setFlags) Set(v string) error { *s = append(*s, v); return nil }

func addSetFlag(fs *flag.FlagSet) *setFlags {
	s := &setFlags{}
	fs.Var(s, "set", "`KEY=VALUE`: set a configuration key (repeatable), e.g. --set model.endpoint=wss://host/v1/responses")
	return s
}

// loadConfig returns the trusted configuration: defaults, the user's
// file, WISP_* environment, then the --set flags.
func loadConfig(sets *setFlags) (config.Config, []string, error) {
	cfg, warnings, err := config.Load(os.Getenv)
	if err != nil {
		return cfg, warnings, err
	}
	cfg, w, err := cfg.Override(*sets, config.SourceFlag)
	return cfg, append(warnings, w...), err
}
