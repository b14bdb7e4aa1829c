package main

import (
	"context"
	"fmt"
	"io"

	"github.com/wisp-lsp/wisp/workspace"
)

// indexReport is how a headless command describes the workspace index it
// used, in --json output.
type indexReport struct {
	Root      string  `json:"root"`
	Files     int     `json:"files"`
	Symbols   int     `json:"symbols"`
	FromCache int     `json:"fromCache"`
	BuildMs   float64 `json:"buildMs"`
}

// openIndex indexes the workspace holding path (its root found from the
// file upward), from the disk cache where it is warm, and waits for the
// build. It tells stderr what it did. The caller closes the index, which
// writes the cache for the next run.
func openIndex(ctx context.Context, path string, stderr io.Writer) (*workspace.Index, indexReport, error) {
	root := workspace.FindRoot(path)
	ix := workspace.Open(root, workspace.Options{})
	if err := ix.Wait(ctx); err != nil {
		ix.Close()
		return nil, indexReport{}, fmt.Errorf("index %s: %w", root, err)
	}
	st := ix.Stats()
	r := indexReport{Root: root, Files: st.Files, Symbols: st.Symbols, FromCache: st.FromCache, BuildMs: ms(st.Build)}
	fmt.Fprintf(stderr, "wisp: indexed %s: %d files, %d from the cache, in %.1f ms\n", root, r.Files, r.FromCache, r.BuildMs)
	return ix, r, nil
}
