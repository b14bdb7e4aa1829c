// Package edits turns a quick-edit instruction into the smallest text edits
// that carry it out.
//
// A quick edit runs in five steps, each its own function so the LSP server
// and the command line can share them: Scope picks the region to rewrite
// (the selection, or the function under the cursor), BuildRequest asks the
// model to rewrite it, ExtractCode pulls the code out of the model's reply,
// Diff reduces the rewrite to minimal edits, and Rebase moves those edits
// over changes the user made while the model was working. Rewrite is the
// one pipeline from a chosen region to minimal edits (BuildRequest, the
// model, ExtractCode, Diff); the language server and Run, which edits
// files for the headless "wisp edit" command, both call it. WriteBack
// writes Run's results to disk, changing nothing about a file but its
// content.
//
// Everything here works in byte offsets into a *text.Text; the LSP server
// converts to and from protocol positions at its boundary.
package edits
