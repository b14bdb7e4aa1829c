package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"path/filepath"
	"regexp"
	"time"

	"go.uber.org/zap"

	"github.com/wisp-lsp/wisp/completion"
	"github.com/wisp-lsp/wisp/config"
	"github.com/wisp-lsp/wisp/edits"
	"github.com/wisp-lsp/wisp/syntax"
	"github.com/wisp-lsp/wisp/text"
	"github.com/wisp-lsp/wisp/transport"
	"github.com/wisp-lsp/wisp/transport/provider"
)

// cursorFile is a file read for a headless command, with the cursor a
// FILE:LINE:COL argument names and its syntax tree.
type cursorFile struct {
	// name is the file as the argument named it, for the user; path is it
	// made absolute, for the engine, so that what the model is shown
	// (paths relative to the workspace) does not depend on the working
	// directory.
	name, path string
	doc        *text.Text
	tree       *syntax.Tree // nil for languages wisp cannot parse
	cursor     int
}

// signedPosition matches an argument ending in a position with a
// negative line or column.
var signedPosition = regexp.MustCompile(`:-\d+(:-?\d+)?$`)

func loadCursor(ctx context.Context, arg string) (*cursorFile, error) {
	t, err := edits.ParseTarget(arg)
	if err != nil {
		return nil, err
	}
	if t.Line == 0 {
		return nil, fmt.Errorf("%s: give the cursor as FILE:LINE:COL", arg)
	}
	// The same checks as wisp edit's: a regular file (a FIFO would
	// block), and text.
	data, err := edits.ReadRegular(t.Path)
	if errors.Is(err, fs.ErrNotExist) && signedPosition.MatchString(arg) {
		// "conn.go:-1:1" parses as line 1 of a file "conn.go:-1"; with
		// no such file, it was meant as a position (a file that does
		// exist under such a name is read above).
		return nil, fmt.Errorf("%s: give the cursor as FILE:LINE:COL, lines and columns counting from 1", arg)
	}
	if err != nil {
		return nil, err
	}
	if err := edits.CheckText(data); err != nil {
		return nil, fmt.Errorf("%s: %w", t.Path, err)
	}
	abs, err := filepath.Abs(t.Path)
	if err != nil {
		return nil, err
	}
	f := &cursorFile{name: t.Path, path: abs, doc: text.New(string(data))}
	if f.cursor, _, err = t.Offsets(f.doc); err != nil {
		return nil, err
	}
	if lang := syntax.Detect("", t.Path); lang != nil {
		f.tree, _ = syntax.Parse(ctx, lang, f.doc)
	}
	return f, nil
}

// query is the completion query for f, the same for `wisp complete` and
// `wisp context`.
func (f *cursorFile) query() completion.Query {
	return completion.Query{URI: f.path, Path: f.path, Text: f.doc, Tree: f.tree, Cursor: f.cursor}
}

// position is the cursor as FILE:LINE:COL named it: lines broken where
// the text package breaks them (a lone "\r" too, unlike a tree-sitter
// row), columns in bytes, both from 1.
func (f *cursorFile) position() jsonPos {
	p, _ := f.doc.Position(f.cursor, text.UTF8) // f.cursor lies in f.doc
	return jsonPos{Line: p.Line + 1, Col: p.Character + 1}
}

func (f *cursorFile) close() {
	if f.tree != nil {
		f.tree.Close()
	}
}

// completeResult is what `wisp complete --json` prints. Positions are
// 1-based, columns in bytes.
type completeResult struct {
	File   string   `json:"file"`
	Text   string   `json:"text"`
	Range  jsonSpan `json:"range"`
	TTFTMs float64  `json:"ttftMs"`
	Total  float64  `json:"totalMs"`
	Source string   `json:"source"`
	// Index is the workspace index the context came from.
	Index indexReport `json:"index"`
}

type jsonSpan struct {
	Start jsonPos `json:"start"`
	End   jsonPos `json:"end"`
}

type jsonPos struct {
	Line int `json:"line"`
	Col  int `json:"col"`
}

// runComplete prints one inline completion for FILE:LINE:COL.
func runComplete(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("wisp complete", flag.ContinueOnError)
	fs.SetOutput(stderr)
	asJSON := fs.Bool("json", false, "print JSON: the text, its range, time to first token and total")
	timeout := fs.Duration("timeout", 30*time.Second, "give up after this long")
	sets := addSetFlag(fs)
	if err := fs.Parse(reorder(fs, args)); err != nil {
		return 2
	}
	if fs.NArg() != 1 {
		fmt.Fprintln(stderr, "usage: wisp complete FILE:LINE:COL [--json]")
		return 2
	}
	f, err := loadCursor(ctx, fs.Arg(0))
	if err != nil {
		fmt.Fprintln(stderr, "wisp complete:", err)
		return 1
	}
	defer f.close()
	cfg, err := loadConfigWarn(sets, "wisp complete", stderr)
	if err != nil {
		fmt.Fprintln(stderr, "wisp complete:", err)
		return 1
	}
	model, err := openModel(cfg.Model, zap.NewNop())
	if err != nil {
		fmt.Fprintln(stderr, "wisp complete:", err)
		return 1
	}
	defer model.Close()
	if o, ok := model.(transport.Observer); ok {
		o.Observe(f.path, f.doc.String())
	}
	timedOut := fmt.Errorf("timed out after %s", *timeout)
	ctx, cancel := context.WithTimeoutCause(ctx, *timeout, timedOut)
	defer cancel()
	ix, report, err := openIndex(ctx, f.path, stderr)
	if err != nil {
		fmt.Fprintln(stderr, "wisp complete:", whyFailed(ctx, err, timedOut))
		return 1
	}
	defer ix.Close()
	// One answer, then exit: nothing after it would use a speculation or
	// a warm-up. Look-ahead stays as configured, so the request is the
	// one `wisp context` prints (the answer shows one line either way).
	cc := cfg.Completion
	cc.Speculate, cc.WarmAfterIdle = false, 0
	if cc.Unsure == config.UnsureBranch {
		cc.Unsure = config.UnsureTrim // the same request, no runner-up asked for
	}
	engine := completion.NewEngine(completion.Options{Model: model, Config: cc, Workspace: ix})
	defer engine.Close()
	sugg, err := engine.Suggest(ctx, f.query())
	if err != nil || ctx.Err() != nil {
		fmt.Fprintln(stderr, "wisp complete:", whyFailed(ctx, err, timedOut))
		return 1
	}
	if !*asJSON {
		fmt.Fprintln(stdout, sugg.Text)
		return 0
	}
	pos := f.position()
	out := completeResult{File: f.name, Text: sugg.Text, Range: jsonSpan{pos, pos}, Source: string(sugg.Source),
		TTFTMs: ms(sugg.TTFT), Total: ms(sugg.Total), Index: report}
	enc := json.NewEncoder(stdout)
	enc.SetIndent("", "  ")
	enc.Encode(out)
	return 0
}

// whyFailed is what to say when work under ctx ended with err (maybe
// nil, the engine answering empty): the --timeout (timedOut, ctx's
// cause), an interruption (main's ctx, ended by a signal), or err.
func whyFailed(ctx context.Context, err, timedOut error) error {
	switch {
	case ctx.Err() == nil:
		return err
	case errors.Is(context.Cause(ctx), timedOut):
		return timedOut
	}
	return errors.New("interrupted")
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// contextResult is what `wisp context --json` prints: exactly the
// request `wisp complete` (and the language server) would send for the
// cursor.
type contextResult struct {
	File   string  `json:"file"`
	Cursor jsonPos `json:"cursor"`
	// Provider is the configured model provider; Wire is the body it is
	// sent (provider.Wire).
	Provider string `json:"provider"`
	completion.Built
	Wire any `json:"wire"`
	// Index is the workspace index the context came from.
	Index indexReport `json:"index"`
}

// runContext prints the request a completion at FILE:LINE:COL would send:
// each piece of context, why it was chosen and its token count, the
// tokens used and the budget, the plan, the request (stop sequences,
// output bound, language) and the body the configured provider sends.
func runContext(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("wisp context", flag.ContinueOnError)
	fs.SetOutput(stderr)
	budget := fs.Int("budget", 0, "context budget in tokens (default: completion.budget from the configuration)")
	fs.Bool("json", true, "print JSON (the only format)")
	sets := addSetFlag(fs)
	if err := fs.Parse(reorder(fs, args)); err != nil {
		return 2
	}
	if fs.NArg() != 1 {
		fmt.Fprintln(stderr, "usage: wisp context FILE:LINE:COL [--budget TOKENS] --json")
		return 2
	}
	if *budget < 0 {
		fmt.Fprintf(stderr, "wisp context: --budget %d: a budget counts tokens, it cannot be negative (0: completion.budget)\n", *budget)
		return 2
	}
	f, err := loadCursor(ctx, fs.Arg(0))
	if err != nil {
		fmt.Fprintln(stderr, "wisp context:", err)
		return 1
	}
	defer f.close()
	cfg, err := loadConfigWarn(sets, "wisp context", stderr)
	if err != nil {
		fmt.Fprintln(stderr, "wisp context:", err)
		return 1
	}
	ix, report, err := openIndex(ctx, f.path, stderr)
	if err != nil {
		fmt.Fprintln(stderr, "wisp context:", err)
		return 1
	}
	defer ix.Close()
	if *budget > 0 {
		cfg.Completion.Budget = *budget
	}
	out := contextResult{File: f.name, Provider: cfg.Model.Provider, Index: report}
	q := f.query()
	q.Workspace = ix
	out.Built = completion.BuildRequest(q, cfg.Completion, 0)
	out.Context = out.Context.Shown()
	if out.Wire, err = provider.Wire(cfg.Model, out.Request); err != nil {
		fmt.Fprintln(stderr, "wisp context:", err)
		return 1
	}
	out.Cursor = f.position()
	enc := json.NewEncoder(stdout)
	enc.SetIndent("", "  ")
	enc.Encode(out)
	return 0
}
