package main

import (
	"bufio"
	"context"
	"fmt"
	"hash"
	"hash/fnv"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"

	"github.com/wisp-lsp/wisp/completion/gather"
	"github.com/wisp-lsp/wisp/workspace"
)

// Sampling: holes per tree, spread over at most so many of its files
// (a small tree gets more holes a file, up to maxHolesPerFile). Fixed,
// like the seed, so runs compare.
const (
	holesPerCorpus, filesPerCorpus           = 96, 24
	quickHolesPerCorpus, quickFilesPerCorpus = 24, 8
	maxHolesPerFile                          = 16
)

// The compared contexts, in table order.
const (
	methodWisp  = "wisp"
	methodBytes = "75/25 window"
	methodLines = "75/25 lines"
)

var methods = []string{methodWisp, methodBytes, methodLines}

// Recall ceilings: a context holding the whole document as the user has
// it, or every file of the workspace besides (the continuation's own
// new names are in neither).
const (
	ceilingFile      = "ceiling: file"
	ceilingWorkspace = "ceiling: workspace"
)

// results are one run's figures.
type results struct {
	// scores[budget][lang][method]
	scores map[int]map[string]map[string]*tally
	// trees are the trees measured, skipped the trees missing, with
	// the reason.
	trees   []measured
	skipped []string
	// calibration and promptTokens are set by -calibrate; prompts, the
	// wisp prompts they count, is nil without it.
	calibration  []calibration
	promptTokens []promptCount
	prompts      map[promptKey]*promptSample
	// digest hashes the cursor set (tree, file, offset, kind of every
	// hole): two runs with the same digest measured the same holes.
	digest hash.Hash64
}

// measured is one tree that was measured.
type measured struct {
	corpus corpus
	root   string
	files  []*file // every source file of the tree, for calibration
	holes  int
}

func (r *results) tally(budget int, lang, method string) *tally {
	if r.scores[budget] == nil {
		r.scores[budget] = make(map[string]map[string]*tally)
	}
	if r.scores[budget][lang] == nil {
		r.scores[budget][lang] = make(map[string]*tally)
	}
	t := r.scores[budget][lang][method]
	if t == nil {
		t = &tally{}
		r.scores[budget][lang][method] = t
	}
	return t
}

// measure cuts the holes of every corpus in set and scores each context.
func measure(set []corpus, o options) (*results, error) {
	r := &results{scores: make(map[int]map[string]map[string]*tally), digest: fnv.New64a()}
	if o.calibrate {
		r.prompts = make(map[promptKey]*promptSample)
	}
	var cursors *bufio.Writer
	if o.cursors != "" {
		f, err := os.Create(o.cursors)
		if err != nil {
			return nil, err
		}
		defer f.Close()
		cursors = bufio.NewWriter(f)
		defer cursors.Flush()
		fmt.Fprintln(cursors, "# tree\tfile\tline:col\tkind\ttargets")
	}
	files, want := filesPerCorpus, holesPerCorpus
	if o.quick {
		files, want = quickFilesPerCorpus, quickHolesPerCorpus
	}
	for _, c := range set {
		root, err := c.Locate()
		if err != nil {
			r.skipped = append(r.skipped, fmt.Sprintf("%s (%s): %v", c.Name, c.Lang, err))
			fmt.Fprintf(os.Stderr, "bench/context: skipping %s: %v\n", c.Name, err)
			continue
		}
		m, err := measureTree(r, c, root, files, want, o, cursors)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", c.Name, err)
		}
		r.trees = append(r.trees, m)
	}
	return r, nil
}

// measureTree scores the holes of one tree rooted at root.
func measureTree(r *results, c corpus, root string, nFiles, want int, o options, cursors *bufio.Writer) (measured, error) {
	m := measured{corpus: c, root: root}
	rels, err := sourceFiles(root, c.Lang)
	if err != nil {
		return m, err
	}
	defs := make(defIndex)
	vocab := make(wordFiles)
	module := modulePath(root)
	var eligible []*file
	for _, rel := range rels {
		data, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(rel)))
		if err != nil {
			return m, err
		}
		f := newFile(c.Lang, rel, string(data))
		if c.Lang == "go" {
			f.external = goExternalPackages(f.Src, module)
		}
		m.files = append(m.files, f)
		for _, d := range definitions(c.Lang, rel, f.Src, f.Mask) {
			defs[d.Name] = append(defs[d.Name], d)
		}
		vocab.add(f.Src)
		if (c.Sub == "" || strings.HasPrefix(rel, c.Sub+"/")) && !generated(f.Src) && f.lines.LineCount() >= minFileLines {
			eligible = append(eligible, f)
		}
	}
	h := fnv.New64a()
	h.Write([]byte(c.Name))
	rng := rand.New(rand.NewPCG(o.seed, h.Sum64()))
	rng.Shuffle(len(eligible), func(i, j int) { eligible[i], eligible[j] = eligible[j], eligible[i] })
	eligible = eligible[:min(nFiles, len(eligible))]
	if len(eligible) == 0 {
		return m, nil
	}
	perFile := min(maxHolesPerFile, (want+len(eligible)-1)/len(eligible))
	ws := project{Root: root, Lang: c.Lang}
	// wisp indexes the tree as an editor opening it would (an empty disk
	// cache: no run reads another's), and completes with what the index
	// holds once it is built.
	ws.Index = workspace.Open(root, workspace.Options{CacheDir: "-"})
	defer ws.Index.Close()
	if err := ws.Index.Wait(context.Background()); err != nil {
		return m, fmt.Errorf("index %s: %w", root, err)
	}
	for _, f := range eligible {
		for _, hl := range holes(c.Lang, f, o.seed, perFile) {
			m.holes++
			fmt.Fprintf(r.digest, "%s\t%s\t%d\t%s\n", c.Name, f.Rel, hl.Cursor, hl.Kind)
			if cursors != nil {
				l := f.lines.LineOf(hl.Cursor)
				fmt.Fprintf(cursors, "%s\t%s\t%d:%d\t%s\t%s\n", c.Name, f.Rel, l+1, hl.Cursor-f.lines.LineStart(l)+1, hl.Kind, strings.Join(hl.Targets, " "))
			}
			scoreHole(r, ws, defs, vocab, hl, o.budgets)
		}
	}
	return m, nil
}

// scoreHole scores the three contexts of one hole at every budget.
func scoreHole(r *results, ws project, defs defIndex, vocab wordFiles, hl hole, budgets []int) {
	doc := hl.Doc()
	foreign := defs.foreign(ws.Lang, hl)
	inFile := recall(doc, hl.Targets)
	inWorkspace := vocab.reachable(doc, hl)
	for _, b := range budgets {
		r.tally(b, ws.Lang, ceilingFile).add(tally{holes: 1, recallSum: inFile})
		r.tally(b, ws.Lang, ceilingWorkspace).add(tally{holes: 1, recallSum: inWorkspace})
		w := wispContext(ws, hl.File.Rel, doc, hl.File.Src, hl.Cursor, b)
		texts := map[string]string{
			methodWisp:  w.Text,
			methodBytes: byteWindow(doc, hl.Cursor, b),
			methodLines: lineWindow(doc, hl.Cursor, b),
		}
		for _, method := range methods {
			t := tally{holes: 1, recallSum: recall(texts[method], hl.Targets)}
			if method == methodWisp {
				t.missed = vocab.misses(texts[method], texts[methodBytes], doc, hl)
			}
			if len(foreign) > 0 {
				t.defHoles = 1
				t.presenceSum = float64(presence(texts[method], foreign)) / float64(len(foreign))
			}
			if method == methodWisp && estimateDoc(doc) > b && r.prompts != nil {
				r.samplePrompt(ws.Lang, b, w)
			}
			if method == methodWisp && estimateDoc(doc) > b {
				use := float64(w.Used) / float64(w.Budget)
				t.bigHoles, t.useSum = 1, use
				if use >= 0.95 {
					t.full = 1
				}
			}
			r.tally(b, ws.Lang, method).add(t)
		}
	}
}

// estimateDoc is wisp's token estimate of a whole document.
func estimateDoc(doc string) int { return gather.Estimate(doc) }

// promptKey names the wisp prompts of one language at one budget.
type promptKey struct {
	lang   string
	budget int
}

// promptSample holds wisp prompts for real token counting, and wisp's
// own estimate of their size.
type promptSample struct {
	texts []string
	used  int
}

func (r *results) samplePrompt(lang string, budget int, w sent) {
	k := promptKey{lang, budget}
	p := r.prompts[k]
	if p == nil {
		p = &promptSample{}
		r.prompts[k] = p
	}
	p.texts = append(p.texts, w.Text)
	p.used += w.Used
}
