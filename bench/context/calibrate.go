package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"

	"github.com/wisp-lsp/wisp/completion/gather"
)

// calibration is one language's bytes and real BPE token counts, with
// wisp's estimate of the same texts.
type calibration struct {
	Lang                           string
	Bytes, CL100K, O200K, Estimate int
}

// promptCount is the real size of wisp's prompts for one language at one
// budget, over holes whose document is larger than the budget.
type promptCount struct {
	Lang         string
	Budget, N    int
	Used         int // wisp's own estimate, summed
	Bytes, O200K int
}

// calibrationBytes caps how much of one tree is tokenised.
const calibrationBytes = 1 << 20

// calibrate counts real tokens for a sample of every measured tree's
// files, grouped by language: up to calibrationBytes per tree, files taken
// in an order fixed by their paths' hashes. The counting is done by
// bench/context/tokenizer/count.mjs (cl100k_base and o200k_base).
func calibrate(trees []measured, prompts map[promptKey]*promptSample) ([]calibration, []promptCount, error) {
	root, err := repoRoot()
	if err != nil {
		return nil, nil, err
	}
	dir := filepath.Join(root, "bench", "context", "tokenizer")
	if _, err := os.Stat(filepath.Join(dir, "node_modules", "gpt-tokenizer")); err != nil {
		// The tokenizer is pinned by the folder's package-lock.json.
		npm := exec.Command("npm", "ci", "--no-audit", "--no-fund")
		npm.Dir, npm.Stdout, npm.Stderr = dir, os.Stderr, os.Stderr
		if err := npm.Run(); err != nil {
			return nil, nil, fmt.Errorf("calibration needs the tokenizer: npm ci in %s: %w", dir, err)
		}
	}
	var in bytes.Buffer
	enc := json.NewEncoder(&in)
	estimates := make(map[string]int) // by language
	for _, t := range trees {
		files := append([]*file(nil), t.files...)
		sort.Slice(files, func(i, j int) bool { return pathHash(files[i].Rel) < pathHash(files[j].Rel) })
		total := 0
		for _, f := range files {
			if total >= calibrationBytes {
				break
			}
			total += len(f.Src)
			estimates[t.corpus.Lang] += gather.Estimate(f.Src)
			enc.Encode(map[string]string{"group": t.corpus.Lang, "text": f.Src})
		}
	}
	for k, p := range prompts {
		for _, t := range p.texts {
			enc.Encode(map[string]string{"group": promptGroup(k), "text": t})
		}
	}
	cmd := exec.Command("node", "count.mjs")
	cmd.Dir = dir
	cmd.Stdin = &in
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, nil, fmt.Errorf("node count.mjs: %w", err)
	}
	var counts map[string]struct{ Bytes, Cl100k, O200k int }
	if err := json.Unmarshal(out, &counts); err != nil {
		return nil, nil, fmt.Errorf("node count.mjs: %w", err)
	}
	var cs []calibration
	for _, lang := range languages {
		if c, ok := counts[lang]; ok {
			cs = append(cs, calibration{Lang: lang, Bytes: c.Bytes, CL100K: c.Cl100k, O200K: c.O200k, Estimate: estimates[lang]})
		}
	}
	var ps []promptCount
	for k, p := range prompts {
		c := counts[promptGroup(k)]
		ps = append(ps, promptCount{Lang: k.lang, Budget: k.budget, N: len(p.texts), Used: p.used, Bytes: c.Bytes, O200K: c.O200k})
	}
	sort.Slice(ps, func(i, j int) bool {
		if ps[i].Budget != ps[j].Budget {
			return ps[i].Budget < ps[j].Budget
		}
		return slices.Index(languages, ps[i].Lang) < slices.Index(languages, ps[j].Lang)
	})
	return cs, ps, nil
}

func promptGroup(k promptKey) string { return fmt.Sprintf("prompt/%s/%d", k.lang, k.budget) }

func pathHash(s string) uint64 {
	h := fnv.New64a()
	h.Write([]byte(s))
	return h.Sum64()
}
