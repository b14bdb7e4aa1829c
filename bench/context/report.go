package main

import (
	"fmt"
	"os"
	"runtime"
	"slices"
	"strings"
	"time"
)

// sectionTitle heads the part of BENCHMARKS.md that -write owns.
const sectionTitle = "## Context selection"

// method explains the benchmark in the section it writes.
const method = `How much of what the model must write does its context show? ` + "`go run ./bench/context`" + `
cuts holes in real code that is on this machine, never in wisp's own
sources: Go modules wisp depends on (module cache), packages of the Python
standard library, TypeScript and JavaScript packages in
` + "`editors/vscode/node_modules`" + ` (after ` + "`npm ci`" + `), and Rust crates from Debian's
` + "`librust-*-dev`" + ` packages. Each tree is one workspace. Files and cursors are
drawn from a fixed seed and the file's path, so the cursor set is the same
on every run (` + "`-cursors FILE`" + ` writes it out): cursors lie on lines with code,
half at the start of a line's code, half just after an identifier, ` + "`.`" + ` or
` + "`(`" + `. The **continuation** is the rest of the cursor's line and the next two
lines; it is cut out, so every context is built from the document as the
user has it while typing (the text before the cursor and everything after
the continuation).

- **recall**: the share of the continuation's identifiers found as whole
  words in the context, averaged over holes. Identifiers in comments and
  string literals do not count, nor keywords and built-in names, nor any
  word of the three lines before the cursor (or the cursor line's prefix).
- **wisp** is what wisp sends: the request builder's pieces rendered as
  the WebSocket/SSE providers render them (the user message; the file's
  workspace-relative path is in it). **75/25 window**: the bytes around the
  cursor, three quarters before, one after (lsp-ai's and llm-ls's window);
  **75/25 lines**: the same in whole lines. Both baselines spend the same
  budget under wisp's own token estimate, and give what one side cannot
  use to the other.
- **ceiling**: the recall of the whole document as the user has it, and
  of it with every other file of the workspace: what no context of the
  file, or of the workspace, can exceed (a continuation's new names are
  nowhere yet).
- **defs**: over holes whose continuation uses a name defined only in
  other files of the workspace (functions, methods, types, fields,
  constants, found by line patterns), the share of those names whose
  definition line (squeezed; for a member, with its container's line)
  the context holds. Only definitions the use can mean count: a member
  when the name follows ` + "`.`" + ` or ` + "`::`" + `, a Go name of another package only
  when qualified; a name defined in more than four other files is too
  ambiguous and does not count.
- **budget use**: wisp's tokens / budget, over holes whose document is
  larger than the budget; "≥95%" is the share of those holes at 95% or
  more.
- **where wisp's misses are**: the continuation's identifiers wisp's
  context lacks, by where they are: in the 75/25 window (a wider window
  would have shown them), elsewhere in the file, only in other files of
  the workspace, or nowhere yet (new names, which no context holds). Each
  is a share of all targets, so a row sums to 1 - recall.
- **overall** is the mean of the language rows.
`

// markdown renders the run as BENCHMARKS.md's section.
func (r *results) markdown(o options) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s\n\n%s\n", sectionTitle, method)
	mode, cmd := "full", "go run ./bench/context"
	if o.quick {
		mode, cmd = "quick", cmd+" -quick"
	}
	if o.calibrate {
		cmd += " -calibrate"
	}
	fmt.Fprintf(&b, "### Run of %s (%s)\n\n`%s -write`, seed %d (cursor set %016x), on %d cores, %s %s/%s.\n\n",
		time.Now().UTC().Format("2006-01-02"), mode, cmd, o.seed, r.digest.Sum64(), runtime.NumCPU(), runtime.Version(), runtime.GOOS, runtime.GOARCH)
	fmt.Fprintln(&b, "| language | tree | files | holes |")
	fmt.Fprintln(&b, "|---|---|---:|---:|")
	for _, m := range r.trees {
		fmt.Fprintf(&b, "| %s | %s | %d | %d |\n", m.corpus.Lang, m.corpus.Name, len(m.files), m.holes)
	}
	for _, s := range r.skipped {
		fmt.Fprintf(&b, "\nSkipped: %s\n", s)
	}
	for _, budget := range o.budgets {
		fmt.Fprintf(&b, "\n#### %s tokens\n\n", thousands(budget))
		fmt.Fprintln(&b, "| language | holes | recall wisp | recall 75/25 window | recall 75/25 lines | ceiling file / workspace | defs holes | defs wisp | defs window | defs lines | wisp budget use | ≥95% |")
		fmt.Fprintln(&b, "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
		var rows [][]tally
		for _, lang := range languages {
			ts := r.scores[budget][lang]
			if ts == nil {
				continue
			}
			row := []tally{*ts[methodWisp], *ts[methodBytes], *ts[methodLines], *ts[ceilingFile], *ts[ceilingWorkspace]}
			rows = append(rows, row)
			writeRow(&b, lang, row)
		}
		if len(rows) > 0 {
			writeMean(&b, rows)
		}
	}
	if slices.Contains(o.budgets, targetBudget) {
		b.WriteString(r.verdict())
		b.WriteString(r.missTable(targetBudget))
	}
	if len(r.calibration) > 0 {
		b.WriteString(calibrationTable(r.calibration))
	}
	if len(r.promptTokens) > 0 {
		b.WriteString(promptTable(r.promptTokens))
	}
	return b.String()
}

func writeRow(b *strings.Builder, name string, row []tally) {
	w := row[0]
	fmt.Fprintf(b, "| %s | %d | %.3f | %.3f | %.3f | %.3f / %.3f | %d | %.3f | %.3f | %.3f | %s | %s |\n", name, w.holes,
		row[0].recall(), row[1].recall(), row[2].recall(), row[3].recall(), row[4].recall(), w.defHoles,
		row[0].presence(), row[1].presence(), row[2].presence(), pct(w.use(), w.bigHoles), pct(ratio(float64(w.full), w.bigHoles), w.bigHoles))
}

// writeMean writes the overall row: each figure is the mean of the
// language rows' figures.
func writeMean(b *strings.Builder, rows [][]tally) {
	var holes, defHoles, big int
	mean := func(f func(row []tally) (float64, bool)) string {
		sum, n := 0.0, 0
		for _, row := range rows {
			if v, ok := f(row); ok {
				sum += v
				n++
			}
		}
		if n == 0 {
			return "–"
		}
		return fmt.Sprintf("%.3f", sum/float64(n))
	}
	for _, row := range rows {
		holes += row[0].holes
		defHoles += row[0].defHoles
		big += row[0].bigHoles
	}
	rec := func(i int) string {
		return mean(func(row []tally) (float64, bool) { return row[i].recall(), row[i].holes > 0 })
	}
	pres := func(i int) string {
		return mean(func(row []tally) (float64, bool) { return row[i].presence(), row[i].defHoles > 0 })
	}
	use := mean(func(row []tally) (float64, bool) { return row[0].use(), row[0].bigHoles > 0 })
	full := mean(func(row []tally) (float64, bool) {
		return ratio(float64(row[0].full), row[0].bigHoles), row[0].bigHoles > 0
	})
	fmt.Fprintf(b, "| **overall** | %d | **%s** | **%s** | **%s** | %s / %s | %d | **%s** | %s | %s | %s | %s |\n", holes,
		rec(0), rec(1), rec(2), rec(3), rec(4), defHoles, pres(0), pres(1), pres(2), asPct(use), asPct(full))
}

// missTable says where the continuation's identifiers that wisp's
// context lacks at budget are: what a better choice could still find (in
// the 75/25 window, elsewhere in the file, in other files) and what no
// context can (new names). Each column is a share of all targets, per
// hole, so a row's columns sum to 1 - recall; overall is the mean of the
// language rows.
func (r *results) missTable(budget int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "\n#### Where wisp's misses are, at %s tokens\n\n", thousands(budget))
	fmt.Fprintln(&b, "| language | missed | in the 75/25 window | elsewhere in the file | only in other files | nowhere yet |")
	fmt.Fprintln(&b, "|---|---:|---:|---:|---:|---:|")
	var sum missTally
	n := 0
	row := func(name string, m missTally) {
		fmt.Fprintf(&b, "| %s | %.3f | %.3f | %.3f | %.3f | %.3f |\n", name, m.window+m.file+m.other+m.nowhere, m.window, m.file, m.other, m.nowhere)
	}
	for _, lang := range languages {
		w := r.scores[budget][lang][methodWisp]
		if w == nil || w.holes == 0 {
			continue
		}
		k := 1 / float64(w.holes)
		m := missTally{w.missed.window * k, w.missed.file * k, w.missed.other * k, w.missed.nowhere * k}
		row(lang, m)
		sum.add(m)
		n++
	}
	if n == 0 {
		return ""
	}
	k := 1 / float64(n)
	row("**overall**", missTally{sum.window * k, sum.file * k, sum.other * k, sum.nowhere * k})
	return b.String()
}

// The targets the context builder is held to, at targetBudget tokens.
const (
	targetBudget = 1024
	targetGain   = 0.10 // overall recall over the 75/25 window
	targetDefs   = 0.5  // other-file definition presence
	targetFull   = 0.95 // budget use when the document is larger
)

// verdict checks the run against the targets.
func (r *results) verdict() string {
	var b strings.Builder
	fmt.Fprintf(&b, "\n#### Targets at %s tokens\n\n", thousands(targetBudget))
	fmt.Fprintln(&b, "| target | measured | met |")
	fmt.Fprintln(&b, "|---|---|---|")
	var langs, below []string
	var gain, defs, full float64
	var defLangs, fullLangs int
	for _, lang := range languages {
		ts := r.scores[targetBudget][lang]
		if ts == nil {
			continue
		}
		langs = append(langs, lang)
		d := ts[methodWisp].recall() - ts[methodBytes].recall()
		gain += d
		if d < 0 {
			below = append(below, fmt.Sprintf("%s %+.1f", lang, 100*d))
		}
		if w := ts[methodWisp]; w.defHoles > 0 {
			defs += w.presence()
			defLangs++
		}
		if w := ts[methodWisp]; w.bigHoles > 0 {
			full += ratio(float64(w.full), w.bigHoles)
			fullLangs++
		}
	}
	if len(langs) == 0 {
		return ""
	}
	gain /= float64(len(langs))
	met := func(ok bool) string {
		if ok {
			return "yes"
		}
		return "**no**"
	}
	fmt.Fprintf(&b, "| wisp's recall at least %.0f points over the 75/25 window, overall | %+.1f points | %s |\n", 100*targetGain, 100*gain, met(gain >= targetGain))
	fmt.Fprintf(&b, "| …and not below it in any language | below in: %s | %s |\n", orNone(below), met(len(below) == 0))
	if defLangs > 0 {
		defs /= float64(defLangs)
		fmt.Fprintf(&b, "| other-file definition presence at least %.1f | %.3f | %s |\n", targetDefs, defs, met(defs >= targetDefs))
	}
	if fullLangs > 0 {
		full /= float64(fullLangs)
		fmt.Fprintf(&b, "| budget at least %.0f%% used whenever the file is larger | %.0f%% of such holes | %s |\n", 100*targetFull, 100*full, met(full >= 1))
	}
	return b.String()
}

func orNone(s []string) string {
	if len(s) == 0 {
		return "none"
	}
	return strings.Join(s, ", ")
}

// calibrationTable renders the token calibration.
func calibrationTable(cs []calibration) string {
	var b strings.Builder
	fmt.Fprintf(&b, "\n#### Token calibration\n\nBytes of source per real BPE token, on up to 1 MiB of each tree's files (`-calibrate`; counted by `bench/context/tokenizer/count.mjs` with the tokenizer its `package-lock.json` pins). \"estimate/real\" is wisp's estimate (gather.Estimate, which counts words, symbols, digit groups, line breaks and indentation) over o200k's count.\n\n")
	fmt.Fprintln(&b, "| language | bytes | cl100k tokens | bytes/token | o200k tokens | bytes/token | estimate/real (o200k) |")
	fmt.Fprintln(&b, "|---|---:|---:|---:|---:|---:|---:|")
	var all calibration
	for _, c := range append(cs, calibration{}) {
		name := c.Lang
		if name == "" {
			c, name = all, "**all**"
		} else {
			all.Bytes += c.Bytes
			all.CL100K += c.CL100K
			all.O200K += c.O200K
			all.Estimate += c.Estimate
		}
		est := float64(c.Estimate)
		fmt.Fprintf(&b, "| %s | %d | %d | %.2f | %d | %.2f | %.2f |\n", name, c.Bytes, c.CL100K,
			float64(c.Bytes)/float64(c.CL100K), c.O200K, float64(c.Bytes)/float64(c.O200K), est/float64(c.O200K))
	}
	return b.String()
}

func pct(v float64, n int) string {
	if n == 0 {
		return "–"
	}
	return fmt.Sprintf("%.0f%%", 100*v)
}

func asPct(s string) string {
	var v float64
	if _, err := fmt.Sscanf(s, "%g", &v); err != nil {
		return s
	}
	return fmt.Sprintf("%.0f%%", 100*v)
}

func thousands(n int) string {
	if n < 1000 {
		return fmt.Sprint(n)
	}
	return fmt.Sprintf("%d,%03d", n/1000, n%1000)
}

// writeSection replaces BENCHMARKS.md's "Context selection" section (up
// to the next level-2 heading) with section, or appends it.
func writeSection(path, section string) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	doc := string(data)
	start := strings.Index(doc, "\n"+sectionTitle+"\n")
	if start < 0 {
		doc = strings.TrimRight(doc, "\n") + "\n\n" + section
	} else {
		rest := doc[start+1+len(sectionTitle):]
		end := len(doc)
		if i := strings.Index(rest, "\n## "); i >= 0 {
			end = start + 1 + len(sectionTitle) + i + 1
		}
		doc = doc[:start+1] + section + "\n" + doc[end:]
	}
	return os.WriteFile(path, []byte(strings.TrimRight(doc, "\n")+"\n"), 0o644)
}

// promptTable renders the real size of wisp's prompts against the budget.
func promptTable(ps []promptCount) string {
	var b strings.Builder
	b.WriteString("\nWhat wisp's prompts really weigh, over holes whose document is larger than the budget: wisp's own count of its pieces, and the o200k tokens of the whole rendered user message (pieces, file header and markers).\n\n")
	fmt.Fprintln(&b, "| language | budget | prompts | wisp's count (mean) | real o200k tokens (mean) | real / budget |")
	fmt.Fprintln(&b, "|---|---:|---:|---:|---:|---:|")
	for _, p := range ps {
		fmt.Fprintf(&b, "| %s | %s | %d | %.0f | %.0f | %.0f%% |\n", p.Lang, thousands(p.Budget), p.N,
			float64(p.Used)/float64(p.N), float64(p.O200K)/float64(p.N), 100*float64(p.O200K)/float64(p.N*p.Budget))
	}
	return b.String()
}
