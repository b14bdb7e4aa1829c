// Command context measures how well a completion's context shows the model
// what it must write. It cuts holes at seeded, reproducible cursors in real
// source trees that are on this machine (never in wisp's own sources),
// builds wisp's request for each and two naive windows of the same token
// budget, and scores them: identifier recall (the share of the true
// continuation's identifiers that the context holds as whole words),
// other-file definition presence, and wisp's budget use.
//
//	go run ./bench/context                 # full run, table on stdout
//	go run ./bench/context -quick          # the small subset
//	go run ./bench/context -lang go,rust   # some languages only
//	go run ./bench/context -calibrate -write   # also tokens, into BENCHMARKS.md
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"
)

// options are the command's flags.
type options struct {
	quick, write, calibrate bool
	seed                    uint64
	budgets                 []int
	cursors                 string          // file to write the cursor set to
	langs                   map[string]bool // only these languages; nil: all
	out                     io.Writer
}

func main() {
	var o options
	var budgets string
	flag.BoolVar(&o.quick, "quick", false, "run the quick subset (fewer trees, files and cursors)")
	flag.BoolVar(&o.write, "write", false, "write the results into BENCHMARKS.md's \"Context selection\" section")
	flag.BoolVar(&o.calibrate, "calibrate", false, "also count real BPE tokens (node; runs npm ci in bench/context/tokenizer when needed)")
	flag.Uint64Var(&o.seed, "seed", defaultSeed, "cursor seed; change it and no figure compares with a recorded run")
	flag.StringVar(&budgets, "budgets", "1024,2048", "token budgets, comma-separated")
	flag.StringVar(&o.cursors, "cursors", "", "write the cursor set (one hole a line) to this file")
	langs := flag.String("lang", "", "only these languages, comma-separated (go, python, typescript, javascript, rust); not with -write")
	flag.Parse()
	o.out = os.Stdout
	if *langs != "" {
		o.langs = make(map[string]bool)
		for _, l := range strings.Split(*langs, ",") {
			if !slices.Contains(languages, strings.TrimSpace(l)) {
				fmt.Fprintf(os.Stderr, "bench/context: unknown language %q\n", l)
				os.Exit(2)
			}
			o.langs[strings.TrimSpace(l)] = true
		}
		if o.write {
			fmt.Fprintln(os.Stderr, "bench/context: -write records whole runs only; drop -lang")
			os.Exit(2)
		}
	}
	for _, b := range strings.Split(budgets, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(b))
		if err != nil || n <= 0 {
			fmt.Fprintf(os.Stderr, "bench/context: bad budget %q\n", b)
			os.Exit(2)
		}
		o.budgets = append(o.budgets, n)
	}
	if err := run(o); err != nil {
		fmt.Fprintln(os.Stderr, "bench/context:", err)
		os.Exit(1)
	}
}

// defaultSeed fixes the cursor sets of recorded runs.
const defaultSeed = 20261123

// run measures every corpus, prints the tables and, with o.write, records
// them in BENCHMARKS.md.
func run(o options) error {
	var set []corpus
	for _, c := range corpora {
		if (c.Quick || !o.quick) && (o.langs == nil || o.langs[c.Lang]) {
			set = append(set, c)
		}
	}
	res, err := measure(set, o)
	if err != nil {
		return err
	}
	if o.calibrate {
		if res.calibration, res.promptTokens, err = calibrate(res.trees, res.prompts); err != nil {
			return err
		}
	}
	report := res.markdown(o)
	fmt.Fprint(o.out, report)
	if o.write {
		root, err := repoRoot()
		if err != nil {
			return err
		}
		return writeSection(root+"/BENCHMARKS.md", report)
	}
	return nil
}
