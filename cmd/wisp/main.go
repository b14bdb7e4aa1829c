// Command wisp is a language server that puts a fast code model in the
// editor: streamed inline completions and minimal quick edits.
//
// Usage:
//
//	wisp [serve|--stdio]                 serve LSP on stdio
//	wisp complete FILE:LINE:COL [--json] one inline completion
//	wisp edit TARGET... -m INSTRUCTION   a quick edit, as a diff or --write
//	wisp context FILE:LINE:COL --json    the context a completion would send
//	wisp model-server --listen ADDR      the loopback model server
//	wisp demo                            the whole pipeline on a sample file
//	wisp doctor                          configuration and model health
//
// Run `wisp help` for the flags of each.
package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
)

// command is one subcommand: its name, a line of help, and its body. run
// returns the process exit code. It parses its flags before it does
// anything else, printing flag errors and usage on stderr: `wisp CMD -h`
// relies on that (see help).
type command struct {
	name, usage string
	run         func(ctx context.Context, args []string, stdout, stderr io.Writer) int
}

var commands []command

func init() {
	commands = []command{
		{"serve", "serve LSP on stdio (the default)", runServe},
		{"complete", "FILE:LINE:COL [--json]: one inline completion", runComplete},
		{"edit", "FILE[:LINE[:COL[-LINE:COL]]]... -m INSTRUCTION [--write] [--json]: a quick edit", runEdit},
		{"context", "FILE:LINE:COL [--budget TOKENS] --json: the context and prompt for a completion", runContext},
		{"model-server", "--listen 127.0.0.1:PORT: serve the model wires on loopback", runModelServer},
		{"demo", "replay typing on a sample file through the real server and show the ghost text", runDemo},
		{"doctor", "print the configuration and test the model connection", runDoctor},
	}
}

func main() {
	// SIGINT and SIGTERM end ctx, and every command stops promptly and
	// cleanly; a second signal finds the default handling back and kills.
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	context.AfterFunc(ctx, stop)
	code := dispatch(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// dispatch runs the subcommand named by args[0]; no subcommand, or only
// flags such as --stdio, means serve.
func dispatch(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 || (len(args[0]) > 0 && args[0][0] == '-' && !isHelp(args[0])) {
		if asksHelp(args) {
			return help(ctx, runServe, stdout)
		}
		return runServe(ctx, args, stdout, stderr)
	}
	if isHelp(args[0]) || args[0] == "help" {
		usage(stdout)
		return 0
	}
	for _, c := range commands {
		if c.name == args[0] {
			if asksHelp(args[1:]) {
				return help(ctx, c.run, stdout)
			}
			return c.run(ctx, args[1:], stdout, stderr)
		}
	}
	fmt.Fprintf(stderr, "wisp: unknown command %q\n\n", args[0])
	usage(stderr)
	return 2
}

func isHelp(s string) bool { return s == "-h" || s == "--help" || s == "-help" }

// asksHelp reports whether args, up to a "--", ask for help.
func asksHelp(args []string) bool {
	for _, a := range args {
		if a == "--" {
			return false
		}
		if isHelp(a) {
			return true
		}
	}
	return false
}

// help prints a command's usage on stdout and returns 0: help asked for
// is no failure. Given -h alone, a command's flag set prints its usage on
// the writer the command was given for errors, and the command returns
// before doing anything else.
func help(ctx context.Context, run func(context.Context, []string, io.Writer, io.Writer) int, stdout io.Writer) int {
	run(ctx, []string{"-h"}, io.Discard, stdout)
	return 0
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "wisp: a language server for fast code models (inline completions and quick edits).")
	fmt.Fprintln(w, "\nUsage: wisp [command] [flags]")
	for _, c := range commands {
		fmt.Fprintf(w, "  %-13s %s\n", c.name, c.usage)
	}
	fmt.Fprintln(w, "\nWith no command wisp serves LSP on stdio (also: wisp --stdio).")
	fmt.Fprintln(w, "Configuration: ~/.config/wisp/config.toml, WISP_* variables, --set KEY=VALUE on any command but model-server and demo; see `wisp doctor`.")
}
