// Package syntax parses documents with tree-sitter and answers structural
// questions about them: which function, class or block encloses an offset,
// where the imports are, what a file defines and with which signatures,
// and whether an offset sits inside a string or a comment.
//
// Each language is a row of the lang table paired with its grammar and
// node-type rules (language.go, rules.go). It is the only cgo package in
// wisp. Everything it takes and returns is in
// byte offsets into a *text.Text. Tree-sitter points come from the text
// package, except in a text with a lone "\r" line break, which tree-sitter
// does not count as one (see tsPoint).
//
// A *Tree is not safe for concurrent use, not even for reads (the binding
// caches nodes in a map): give each goroutine its own Tree.Copy.
package syntax
