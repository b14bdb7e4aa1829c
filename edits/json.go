package edits

import (
	"encoding/json"

	"github.com/wisp-lsp/wisp/text"
)

// jsonResult is the --json shape of a FileResult; see MarshalJSON.
type jsonResult struct {
	File   string     `json:"file"`
	Status string     `json:"status"`
	Edits  []jsonEdit `json:"edits"`
	Diff   string     `json:"diff,omitempty"`
	Error  string     `json:"error,omitempty"`
	// Wrote is the file written (a symbolic link's target) and InPlace why
	// it was written in place; both only after a write.
	Wrote   string `json:"wrote,omitempty"`
	InPlace string `json:"inPlace,omitempty"`
}

type jsonEdit struct {
	Start   jsonPos `json:"start"`
	End     jsonPos `json:"end"`
	NewText string  `json:"newText"`
}

type jsonPos struct {
	Line int `json:"line"`
	Col  int `json:"col"`
}

// MarshalJSON renders r for "wisp edit --json" as
//
//	{"file": "main.go", "status": "changed",
//	 "edits": [{"start": {"line": 12, "col": 3}, "end": {"line": 12, "col": 8}, "newText": "total"}],
//	 "diff": "--- main.go\n+++ main.go\n@@ …", "error": "…",
//	 "wrote": "/src/main.go", "inPlace": "it has 2 hard links, …"}
//
// where status is "changed", "unchanged" or "failed", lines and columns are
// 1-based, columns count bytes, end is exclusive, edits is always an array
// (empty when nothing changed), and diff and error appear only when set;
// wrote (the file written: a symbolic link's target) only after a write,
// and inPlace (why the file was rewritten in place rather than replaced)
// only when it was.
func (r FileResult) MarshalJSON() ([]byte, error) {
	out := jsonResult{File: r.Target.Path, Status: r.Status.String(), Edits: []jsonEdit{}, Diff: r.Diff}
	if r.Err != nil {
		out.Error = r.Err.Error()
	}
	if r.Written != nil {
		out.Wrote, out.InPlace = r.Written.Path, r.Written.InPlaceWhy
	}
	if len(r.Edits) > 0 {
		doc := text.New(r.Before)
		pos := func(off int) jsonPos {
			p := doc.Point(off)
			return jsonPos{Line: p.Row + 1, Col: p.Column + 1}
		}
		for _, e := range r.Edits {
			out.Edits = append(out.Edits, jsonEdit{Start: pos(e.Start), End: pos(e.End), NewText: e.Text})
		}
	}
	return json.Marshal(out)
}
