// Package marker reads and writes wisp's test cases: txtar archives
// holding source files with the cursor or a selection marked in them,
// the model's canned reply, and golden sections of the expected result,
// in the manner of gopls's marker tests. One format serves every runner:
// the completion and quick-edit cases that go through the real server
// (this package's tests), and the unit tests of one step that read the
// same cases (completion/shape, edits, syntax, completion/gather).
//
// # Format
//
// The archive's comment says what the case is about. A comment line
// "KEY: VALUE" or a bare "KEY" is a directive (Directive): "crlf" turns
// the files' line breaks into CRLF; runners read their own ("plan: multi",
// "budget: 200").
//
// A section named "reply", "instruction" or "want…" is a section; any
// other section is a file, named by its path, whose extension picks the
// language. The first file holding a cursor is the document. In files:
//
//   - ‸ (U+2038 CARET) marks the cursor; two mark a selection.
//   - ⟨NAME⟩ marks a named position.
//   - ⟦N×TEXT⟧ stands for N copies of TEXT, so a case can hold a 10 KB
//     line without being one.
//
// Markers are removed before the file is used; offsets are bytes of the
// file as used (after CRLF).
//
// A completion case has a document with a cursor, a "reply" and a "want"
// (the text inserted at the cursor) or an empty "want-none". A quick-edit
// case also has an "instruction"; its "want" is the whole file after the
// edit, or "want-error" the error's message, and "want-edits" lists the
// edits ("L:C-L:C \"text\"", 1-based, byte columns). The newline that ends
// a completion's "reply" and "want" belongs to the archive, not to the
// text (see Fragment).
//
// Run with -update, runners rewrite the goldens they own from what the
// code produces (Golden, Save). The goldens are the specification: read
// every change.
package marker
