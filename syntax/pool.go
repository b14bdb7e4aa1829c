package syntax

import (
	sitter "github.com/smacker/go-tree-sitter"
)

// idleParsers is how many idle parsers each language keeps: one per
// concurrent parse that is likely (the read loop and one request).
const idleParsers = 2

// parserPool reuses parsers of one grammar. Unlike a sync.Pool it closes a
// parser it cannot keep at once: a parser's memory is C memory, which the
// garbage collector neither sees nor hurries to release, so leaving spare
// parsers to finalizers lets the process grow after a burst of parses.
type parserPool struct {
	grammar *sitter.Language // immutable
	// idle holds parsers already set to grammar; at most idleParsers.
	idle chan *sitter.Parser
}

func newParserPool(grammar *sitter.Language) *parserPool {
	return &parserPool{grammar: grammar, idle: make(chan *sitter.Parser, idleParsers)}
}

// get returns an idle parser, or a new one.
func (p *parserPool) get() *sitter.Parser {
	select {
	case q := <-p.idle:
		return q
	default:
		return p.fresh()
	}
}

// fresh returns a new parser, never one from the pool.
func (p *parserPool) fresh() *sitter.Parser {
	q := sitter.NewParser()
	q.SetLanguage(p.grammar)
	return q
}

// put returns q to the pool, or closes it if the pool is full. Trees q
// made stay valid: a tree does not use its parser's memory.
func (p *parserPool) put(q *sitter.Parser) {
	select {
	case p.idle <- q:
	default:
		q.Close()
	}
}
