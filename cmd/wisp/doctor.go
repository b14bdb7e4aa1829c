package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"text/tabwriter"
	"time"

	"go.uber.org/zap"

	"github.com/wisp-lsp/wisp/config"
	"github.com/wisp-lsp/wisp/transport"
)

// runDoctor prints the merged configuration with where each value came
// from, and which editor settings it refuses and why, then measures the
// configured model: connection time, time to first token and tokens per
// second for a tiny request. It names what is wrong in plain words.
func runDoctor(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("wisp doctor", flag.ContinueOnError)
	fs.SetOutput(stderr)
	timeout := fs.Duration("timeout", 10*time.Second, "give up on the model after this long")
	sets := addSetFlag(fs)
	editor := fs.String("settings", "", "`JSON` (or @FILE): the editor's settings for wisp, as its initializationOptions; shows what wisp would refuse")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	cfg, warnings, err := loadConfig(sets)
	if err != nil {
		fmt.Fprintln(stdout, "config:", err)
		return 1
	}
	if *editor != "" {
		raw := []byte(*editor)
		if path, ok := strings.CutPrefix(*editor, "@"); ok {
			if raw, err = os.ReadFile(path); err != nil {
				fmt.Fprintln(stdout, "settings:", err)
				return 1
			}
		}
		var w []string
		if cfg, w, err = cfg.Merge(raw, config.SourceInitialize); err != nil {
			fmt.Fprintln(stdout, "settings:", err)
			return 1
		}
		warnings = append(warnings, w...)
	}
	fmt.Fprintf(stdout, "config file: %s\n\n", config.UserFile(os.Getenv))
	tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "SETTING\tVALUE\tFROM\tENV\tEDITOR MAY SET")
	for _, s := range cfg.Settings() {
		editorMay := "yes"
		if s.TrustedOnly {
			editorMay = "only values set here"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", s.Key, orDash(s.Value), s.Source, orDash(s.Env), editorMay)
	}
	tw.Flush()
	for _, w := range warnings {
		fmt.Fprintln(stdout, "warning:", w)
	}
	printRefused(stdout, cfg.Refused(), *editor != "")
	fmt.Fprintln(stdout)
	ok := checkModel(ctx, stdout, "completion model", cfg.Model, *timeout)
	if em := cfg.EditModel(); em != cfg.Model {
		ok = checkModel(ctx, stdout, "edit model", em, *timeout) && ok
	}
	if !ok {
		return 1
	}
	return 0
}

// printRefused lists the editor's settings that wisp refuses, with why.
// checked says whether the editor's settings were given at all.
func printRefused(w io.Writer, refused []config.Refusal, checked bool) {
	fmt.Fprintln(w)
	switch {
	case !checked:
		fmt.Fprintln(w, "editor settings: provider, endpoint, apiKeyEnv, allowInsecure and trustedEndpoints are taken from the")
		fmt.Fprintln(w, "  editor (initializationOptions, didChangeConfiguration) only when they equal the values above or the")
		fmt.Fprintln(w, "  endpoint is in trustedEndpoints; check an editor's settings with: wisp doctor --settings 'JSON'")
	case len(refused) == 0:
		fmt.Fprintln(w, "editor settings: nothing refused")
	default:
		fmt.Fprintln(w, "editor settings refused:")
		for _, r := range refused {
			fmt.Fprintf(w, "  %s = %q (%s)\n    why: %s\n", r.Key, r.Value, r.Source, r.Reason())
		}
	}
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// checkModel opens m, warms it and times a tiny generation.
func checkModel(ctx context.Context, w io.Writer, what string, m config.Model, timeout time.Duration) bool {
	fmt.Fprintf(w, "%s: %s %s %s\n", what, m.Provider, m.Endpoint, m.Model)
	model, err := openModel(m, zap.NewNop())
	if err != nil {
		fmt.Fprintf(w, "  problem: %v\n", err)
		return false
	}
	defer model.Close()
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	if warm, ok := model.(transport.Warmer); ok {
		start := time.Now()
		if err := warm.Warm(ctx); err != nil {
			fmt.Fprintf(w, "  problem: cannot connect: %v\n", err)
			return false
		}
		fmt.Fprintf(w, "  connected in %s\n", time.Since(start).Round(time.Millisecond))
	}
	deltas := 0
	res, err := model.Generate(ctx, transport.Request{
		Prefix: "func add(a, b int) int {\n\treturn ", Suffix: "\n}\n", Language: "go", Path: "doctor.go",
		MaxTokens: 16, Stop: []string{"\n"},
	}, func(string) { deltas++ })
	if err != nil {
		fmt.Fprintf(w, "  problem: a test completion failed: %v\n", err)
		return false
	}
	gen := res.Total - res.TTFT
	rate := "n/a"
	if deltas > 1 && gen > 0 {
		rate = fmt.Sprintf("%.0f deltas/s", float64(deltas-1)/gen.Seconds())
	}
	fmt.Fprintf(w, "  time to first token %s, total %s, %s, reply %q\n",
		res.TTFT.Round(time.Millisecond), res.Total.Round(time.Millisecond), rate, res.Text)
	if m.Provider == config.ProviderLocal || m.Provider == "" {
		fmt.Fprintln(w, "  note: the local engine predicts from your open files and workspace; configure a model for real completions")
	}
	return true
}
