// Package nextedit predicts the edit that follows an edit: after the user
// renames a variable at its declaration, adds a parameter or fixes one of
// several alike lines, it asks the model to rewrite a region around the
// last edit given the recent edits as diffs, the code around the region and
// the definitions the region uses, and turns the answer into the minimal
// edits that make it (edits.Diff). "Nothing follows" is an answer: no
// edits.
//
// The package works in byte offsets on text snapshots, like edits and
// completion; the lsp package serves it as textDocument/copilotInlineEdit
// and wisp/nextEdit.
package nextedit
