// Package lang is the one table of what wisp knows about each language it
// reads: the names editors and files give it, its comments, brackets and
// string delimiters, how its blocks end and how it indents, and the
// keywords that carry its structure.
//
// Everything that needs a per-language fact reads it here: the syntax
// package pairs each row with its tree-sitter grammar, completion shaping
// lexes brackets and quotes by it, and the local engine keeps its keywords.
// Adding a language is one row in table.go (and, to parse it, a grammar in
// syntax). The package has no dependencies and no cgo, so the parts of
// wisp that must not link tree-sitter can read it too.
package lang
