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
	"golang.org/x/term"

	"github.com/wisp-lsp/wisp/edits"
)

// Exit codes of wisp edit. Printing a diff, they are diff(1)'s, as in a
// formatter's check mode: 0 no change, 1 changes, 2 trouble. With --write
// a change is the success asked for: 0 written (or nothing to change), 2
// trouble.
const (
	exitNoChange = 0
	exitChanged  = 1
	exitTrouble  = 2
)

const editUsage = `usage: wisp edit FILE[:LINE[:COL[-LINE:COL]]]... -m INSTRUCTION [--write] [--json]

Asks the edit model to carry out INSTRUCTION on each target (a whole file,
the code around a line or column, or a range; "-" reads targets from
stdin, one a line) and prints the changes as a unified diff.

--write writes the changes instead. A file is replaced atomically, keeping
its owner, group and mode (setuid, setgid and sticky bits included); a
symbolic link's target is written (and named); a file with other hard
links, or one that a new file could not be faithful to, is rewritten in
place. Refused: a file changed since it was read, one the user may not
write (a read-only file is not replaced), and anything but a regular file
(a FIFO, a device).

Exit status: without --write, 0 when nothing would change, 1 when the diff
shows changes, 2 on trouble; with --write, 0 when every file was written
or needed nothing, 2 on trouble.

Flags:
`

// runEdit runs a quick edit on one or more targets: a unified diff on
// stdout, or with --write the files rewritten atomically; --json prints
// the edits. A target of "-" reads more targets from stdin, one a line.
func runEdit(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("wisp edit", flag.ContinueOnError)
	fs.SetOutput(stderr)
	instruction := fs.String("m", "", "the instruction (required)")
	write := fs.Bool("write", false, "write the changes to the files instead of printing a diff (see above)")
	asJSON := fs.Bool("json", false, "print the edits as JSON")
	jobs := fs.Int("j", 4, "files edited at once")
	sets := addSetFlag(fs)
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), editUsage)
		fs.PrintDefaults()
	}
	if err := fs.Parse(reorder(fs, args)); err != nil {
		return exitTrouble
	}
	if *instruction == "" || fs.NArg() == 0 {
		fs.Usage()
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
	cfg, err := loadConfigWarn(sets, "wisp edit", stderr)
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
	if len(targets) > 1 && isTerminal(stderr) {
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
// file failed; else, printing diffs, changed if any would change; else
// no change.
func report(results []edits.FileResult, asJSON, wrote bool, stdout, stderr io.Writer) int {
	code := exitNoChange
	changed, failed := 0, 0
	for _, r := range results {
		switch r.Status {
		case edits.Changed:
			changed++
			if code == exitNoChange && !wrote {
				code = exitChanged
			}
		case edits.Failed:
			failed++
			code = exitTrouble
			fmt.Fprintf(stderr, "wisp edit: %s\n", failure(r))
		}
		if w := r.Written; w != nil {
			if w.Path != r.Target.Path {
				fmt.Fprintf(stderr, "wisp edit: %s is a symbolic link; wrote its target %s\n", r.Target.Path, w.Path)
			}
			if w.InPlaceWhy != "" {
				fmt.Fprintf(stderr, "wisp edit: %s: written in place, not atomically: %s\n", w.Path, w.InPlaceWhy)
			}
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

// isTerminal reports whether w is a terminal: a progress bar, drawn with
// carriage returns, is for a person watching, not for a file or a pipe.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// failure says why r failed, naming its file once: with its target's
// position when the error does not name the file otherwise.
func failure(r edits.FileResult) string {
	msg, _ := strings.CutPrefix(r.Err.Error(), r.Target.Path+": ")
	if strings.Contains(msg, r.Target.Path) {
		return msg
	}
	return r.Target.String() + ": " + msg
}

// reorder moves flags after positional arguments to the front, so
// `wisp edit file.go -m "..."` and `wisp complete main.go:3:4 --timeout 5s`
// work as people type them: a flag of fs that takes a value (any but a
// boolean) keeps the argument after it.
func reorder(fs *flag.FlagSet, args []string) []string {
	var flags, rest []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			rest = append(rest, args[i+1:]...)
			i = len(args)
		case strings.HasPrefix(a, "-") && a != "-":
			flags = append(flags, a)
			if takesValue(fs, a) && i+1 < len(args) {
				flags = append(flags, args[i+1])
				i++
			}
		default:
			rest = append(rest, a)
		}
	}
	return append(flags, rest...)
}

// takesValue reports whether arg ("-m", "--set") names a flag of fs that
// takes its value from the next argument.
func takesValue(fs *flag.FlagSet, arg string) bool {
	name := strings.TrimLeft(arg, "-")
	if strings.Contains(name, "=") {
		return false
	}
	f := fs.Lookup(name)
	if f == nil {
		return false
	}
	b, ok := f.Value.(interface{ IsBoolFlag() bool })
	return !ok || !b.IsBoolFlag()
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
