package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"unicode/utf8"
)

// A trace is one typing session: a real file opened with its tail
// removed at Cut, then the next Typed characters typed one by one.
type trace struct {
	Name string // short name for reports
	Path string // file name inside the workspace the model indexes
	Lang string // LSP language id
	Full string // the whole original file
	Cut  int    // byte offset where typing starts; a line start
	// Typed is what the user types: Full[Cut:Cut+len(Typed)].
	Typed string
	// Keys is how many keys typing Typed takes; a user who accepts
	// suggestions (setup.Accept) presses as many, over the file's rest.
	Keys int
}

// remainder is what the user will go on to type after n bytes of Typed.
func (t trace) remainder(n int) string { return t.Full[t.Cut+n:] }

// traceFiles are the Go standard library sources (under GOROOT/src) the
// default run types into, chosen for variety (a scanner, a parser, a
// protocol's details, a data structure). They are Go's, not wisp's, so
// that the traces stay the same while wisp's own code changes.
var traceFiles = []string{"bufio/scan.go", "net/http/cookie.go", "encoding/csv/reader.go", "container/list/list.go"}

// bigSource is the package (under GOROOT/src) the large Go file is
// stitched from.
const bigSource = "net/http"

// goSourceRoot returns GOROOT/src of the go command on PATH.
func goSourceRoot(ctx context.Context) (string, error) {
	out, err := exec.CommandContext(ctx, "go", "env", "GOROOT").Output()
	if err != nil {
		return "", fmt.Errorf("go env GOROOT: %w", err)
	}
	return filepath.Join(strings.TrimSpace(string(out)), "src"), nil
}

// sampleFiles are the non-Go samples in bench/testdata.
var sampleFiles = map[string]string{"lru.py": "python", "emitter.ts": "typescript", "ring.rs": "rust"}

// loadTraces builds the traces: the standard library files (goFiles,
// relative to goSrc), the samples in repo's bench/testdata, and one 5,000-line Go
// file (big) stitched from goSrc's bigSource. Each types keys characters
// from a line about 60% of the way through.
func loadTraces(repo, goSrc string, goFiles []string, keys int, bigLines int) ([]trace, error) {
	var out []trace
	add := func(name, path, lang, full string) {
		cut := cutPoint(full, 0.6)
		n := byteLenOfRunes(full[cut:], keys)
		out = append(out, trace{Name: name, Path: path, Lang: lang, Full: full, Cut: cut, Typed: full[cut : cut+n], Keys: utf8.RuneCountInString(full[cut : cut+n])})
	}
	for _, rel := range goFiles {
		b, err := os.ReadFile(filepath.Join(goSrc, rel))
		if err != nil {
			return nil, fmt.Errorf("read trace source: %w", err)
		}
		add(rel, strings.ReplaceAll(rel, "/", "_"), "go", string(b))
	}
	names := make([]string, 0, len(sampleFiles))
	for n := range sampleFiles {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		b, err := os.ReadFile(filepath.Join(repo, "bench", "testdata", n))
		if err != nil {
			return nil, fmt.Errorf("read sample: %w", err)
		}
		add(n, n, sampleFiles[n], string(b))
	}
	if bigLines > 0 {
		big, err := stitchGo(filepath.Join(goSrc, bigSource), "big", bigLines, 0)
		if err != nil {
			return nil, err
		}
		add(fmt.Sprintf("big.go (%d lines)", bigLines), "big.go", "go", big)
	}
	return out, nil
}

// cutPoint returns the start of the first non-blank line at or after
// fraction of s.
func cutPoint(s string, fraction float64) int {
	at := int(float64(len(s)) * fraction)
	if i := strings.IndexByte(s[at:], '\n'); i >= 0 {
		at += i + 1
	}
	for at < len(s) {
		end := strings.IndexByte(s[at:], '\n')
		if end < 0 {
			break
		}
		if strings.TrimSpace(s[at:at+end]) != "" {
			return at
		}
		at += end + 1
	}
	return at
}

// byteLenOfRunes is the byte length of s's first n runes (or all of s).
func byteLenOfRunes(s string, n int) int {
	i := 0
	for k := 0; k < n && i < len(s); k++ {
		_, size := utf8.DecodeRuneInString(s[i:])
		i += size
	}
	return i
}

var (
	packageClause = regexp.MustCompile(`(?m)^package \w+\n`)
	importBlock   = regexp.MustCompile(`(?ms)^import \([^)]*\)\n|^import "[^"]*"\n`)
)

// goSources lists the non-test Go files under root, sorted, leaving out
// hidden folders, testdata and bench.
func goSources(repo string) ([]string, error) {
	var files []string
	err := filepath.WalkDir(repo, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && path != repo && (strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata" || d.Name() == "bench") {
			return filepath.SkipDir
		}
		if !d.IsDir() && strings.HasSuffix(path, ".go") && !strings.HasSuffix(path, "_test.go") {
			files = append(files, path)
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("list Go sources: %w", err)
	}
	sort.Strings(files)
	if len(files) == 0 {
		return nil, fmt.Errorf("no Go sources under %s", repo)
	}
	return files, nil
}

// stitchGo builds a realistic Go file of about lines lines by
// concatenating the Go sources under root, starting at the skip-th, with
// their package clauses and imports removed, under package pkg.
func stitchGo(repo, pkg string, lines, skip int) (string, error) {
	files, err := goSources(repo)
	if err != nil {
		return "", err
	}
	var b strings.Builder
	fmt.Fprintf(&b, "package %s\n\n", pkg)
	n := 2
	for i := skip; n < lines; i++ {
		src, err := os.ReadFile(files[i%len(files)])
		if err != nil {
			return "", fmt.Errorf("stitch: %w", err)
		}
		body := importBlock.ReplaceAllString(packageClause.ReplaceAllString(string(src), ""), "")
		for _, line := range strings.SplitAfter(body, "\n") {
			if n >= lines || line == "" {
				break
			}
			b.WriteString(line)
			if !strings.HasSuffix(line, "\n") {
				b.WriteByte('\n')
			}
			n++
		}
	}
	return b.String(), nil
}

// scaleFiles builds count Go files of lines lines each, for the scale
// run, stitched from the Go sources under root.
func scaleFiles(root string, count, lines int) ([]string, error) {
	out := make([]string, count)
	for i := range out {
		s, err := stitchGo(root, fmt.Sprintf("scale%03d", i), lines, i*3)
		if err != nil {
			return nil, err
		}
		out[i] = s
	}
	return out, nil
}

// writeWorkspace writes the full original files where the model server's
// local engine indexes them, so it answers with each file's true
// continuation.
func writeWorkspace(dir string, files map[string]string) error {
	for name, content := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			return fmt.Errorf("write workspace: %w", err)
		}
	}
	return nil
}
