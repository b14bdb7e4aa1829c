package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"slices"
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

// loadConfigWarn is loadConfig for a command whose stdout is its result
// (complete, context, edit): each warning — an unknown key, a value of
// the wrong type, kept at its default — is printed once on stderr,
// after the command's name, where a script's output does not see it.
func loadConfigWarn(sets *setFlags, command string, stderr io.Writer) (config.Config, error) {
	cfg, warnings, err := loadConfig(sets)
	for i, w := range warnings {
		if !slices.Contains(warnings[:i], w) {
			fmt.Fprintf(stderr, "%s: warning: %s\n", command, w)
		}
	}
	return cfg, err
}
