package main

import (
	"bufio"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/schollz/progressbar/v3"
	"go.uber.org/zap"

	"github.com/wisp-lsp/wisp/config"
	"github.com/wisp-lsp/wisp/edits"
)

// Exit codes of wisp edit, as diff(1) has them.
const (
	exitNoChange = 0
	exitChanged  = 1
	exitTrouble  = 2
)

// runEdit runs a quick edit on one or more targets: a unified diff on
// stdout, or with --write the files rewritten atomically; --json prints
// the edits. A target of "-" reads more targets from stdin, one a line.
func runEdit(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("wisp edit", flag.ContinueOnError)
	fs.SetOutput(stderr)
	instruction := fs.String("m", "", "the instruction (required)")
	write := fs.Bool("write", false, "write the changes to the files (atomically; refused if a file changed meanwhile)")
	asJSON := fs.Bool("json", false, "print the edits as JSON")
	jobs := fs.Int("j", 4, "files edited at once")
	if err := fs.Parse(reorder(args, map[string]bool{"-m": true, "--m": true, "-j": true, "--j": true})); err != nil {
		return exitTrouble
	}
	if *instruction == "" || fs.NArg() == 0 {
		fmt.Fprintln(stderr, "usage: wisp edit FILE[:LINE[:COL[-LINE:COL]]]... -m INSTRUCTION [--write] [--json]")
		return exitTrouble
	}
	var targets []edits.Target
	for _, a := range fs.Args() {
		names := []string{a}
		if a == "-" {
			names = readLines(os.Stdin)
		}
		for _, n := range names {
			t, err := edits.ParseTarget(n)
			if err != nil {
				fmt.Fprintln(stderr, "wisp edit:", err)
				return exitTrouble
			}
			targets = append(targets, t)
		}
	}
	cfg, _, err := config.Load(os.Getenv)
	if err != nil {
		fmt.Fprintln(stderr, "wisp edit:", err)
		return exitTrouble
	}
	model, err := openModel(cfg.EditModel(), zap.NewNop())
	if err != nil {
		fmt.Fprintln(stderr, "wisp edit:", err)
		return exitTrouble
	}
	defer model.Close()

	opts := edits.RunOptions{Concurrency: *jobs, Write: *write}
	if len(targets) > 1 {
		bar := progressbar.NewOptions(len(targets), progressbar.OptionSetWriter(stderr),
			progressbar.OptionSetDescription("editing"), progressbar.OptionShowCount(), progressbar.OptionClearOnFinish())
		opts.Progress = func(done, total int, path string) { bar.Set(done) }
	}
	results, err := edits.Run(ctx, model, targets, *instruction, opts)
	if err != nil {
		fmt.Fprintln(stderr, "wisp edit:", err)
		return exitTrouble
	}
	return report(results, *asJSON, *write, stdout, stderr)
}

// report prints the results and returns the exit code: trouble if any
// file failed, else changed if any changed, else no change.
func report(results []edits.FileResult, asJSON, wrote bool, stdout, stderr io.Writer) int {
	code := exitNoChange
	changed, failed := 0, 0
	for _, r := range results {
		switch r.Status {
		case edits.Changed:
			changed++
			if code == exitNoChange {
				code = exitChanged
			}
		case edits.Failed:
			failed++
			code = exitTrouble
			fmt.Fprintf(stderr, "wisp edit: %s: %v\n", r.Target, r.Err)
		}
	}
	if asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		enc.Encode(results)
	} else if !wrote {
		for _, r := range results {
			io.WriteString(stdout, r.Diff)
		}
	}
	if len(results) > 1 || wrote {
		verb := "would change"
		if wrote {
			verb = "changed"
		}
		fmt.Fprintf(stderr, "%d files: %s %d, unchanged %d, failed %d\n", len(results), verb, changed, len(results)-changed-failed, failed)
	}
	return code
}

// reorder moves flags after positional arguments to the front, so
// `wisp edit file.go -m "..."` works as people type it. valued names the
// flags that take a separate value.
func reorder(args []string, valued map[string]bool) []string {
	var flags, rest []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			rest = append(rest, args[i+1:]...)
			i = len(args)
		case strings.HasPrefix(a, "-") && a != "-":
			flags = append(flags, a)
			if valued[a] && i+1 < len(args) {
				flags = append(flags, args[i+1])
				i++
			}
		default:
			rest = append(rest, a)
		}
	}
	return append(flags, rest...)
}

func readLines(r io.Reader) []string {
	var out []string
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		if line := strings.TrimSpace(sc.Text()); line != "" {
			out = append(out, line)
		}
	}
	return out
}
