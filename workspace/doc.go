// Package workspace indexes a project's source files for completion
// context: every file's top-level and member definitions (with signature
// and doc line) and what it imports, so a completion can show the model
// the definitions the code around the cursor uses, even from files that
// are not open.
//
// An Index builds in the background with a bounded number of workers,
// respects .gitignore, skips vendored, generated and huge files, and keeps
// what it read in a disk cache keyed by path, size and modification time,
// so the next headless run in the same repository starts warm. It never
// blocks a caller: Resolve answers from whatever is indexed at that moment.
package workspace
