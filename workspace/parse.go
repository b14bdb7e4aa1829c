package workspace

import (
	"bytes"
	"context"

	"github.com/wisp-lsp/wisp/syntax"
	"github.com/wisp-lsp/wisp/text"
)

// file is what the index knows of one source file. It is immutable once
// built: an update replaces the whole value.
type file struct {
	Path string
	// Size and MTime (Unix nanoseconds) are the disk file's when the
	// symbols were read from the disk; both 0 when they came from an
	// editor buffer that differs from it (never cached).
	Size  int64
	MTime int64
	Lang  string
	// Symbols carry Path; Reason is left empty.
	Symbols []Symbol
	Imports []syntax.Import
	// dir is filepath.Dir(Path), set when the file enters the index.
	dir string
}

// maxSymbolsPerFile bounds what one file adds to the index's memory.
const maxSymbolsPerFile = 2000

// generatedMarkers mark machine-written files in their first bytes.
var generatedMarkers = [][]byte{[]byte("Code generated"), []byte("@generated"), []byte("DO NOT EDIT")}

// isGenerated reports whether src says it was generated, in its first
// 1,024 bytes (where Go's "// Code generated ... DO NOT EDIT." line and
// the "@generated" convention live).
func isGenerated(src []byte) bool {
	head := src[:min(len(src), 1024)]
	for _, m := range generatedMarkers {
		if bytes.Contains(head, m) {
			return true
		}
	}
	return false
}

// parseFile reads path's definitions and imports from src. ok is false
// for languages wisp cannot parse and for generated files.
func parseFile(path string, src []byte) (f *file, ok bool) {
	lang := syntax.Detect("", path)
	if lang == nil || isGenerated(src) || bytes.IndexByte(src, 0) >= 0 {
		return nil, false
	}
	tree, err := syntax.Parse(context.Background(), lang, text.New(string(src)))
	if err != nil {
		return nil, false
	}
	defer tree.Close()
	f = &file{Path: path, Lang: lang.Name(), Imports: tree.ImportTargets()}
	syms := tree.Symbols()
	if len(syms) > maxSymbolsPerFile {
		syms = syms[:maxSymbolsPerFile] // a table-like file: its head is enough
	}
	for _, s := range syms {
		f.Symbols = append(f.Symbols, Symbol{Name: s.Name, Kind: s.Kind, Path: path, Parent: s.Parent, Container: s.Container,
			Signature: s.Signature, Doc: s.Doc, Line: s.Line})
	}
	return f, true
}
