package modelserver

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"
)

// Script is a list of canned replies, loaded from a file such as
//
//	{"replies": [{"prefixEndsWith": "func add(a, b int) int {", "text": "\n\treturn a + b\n}"}]}
//
// Rules are tried in order; the first whose conditions all hold answers.
type Script struct {
	// Replies are the rules, in the order they are tried.
	Replies []Reply `json:"replies"`
}

// Reply is one rule of a Script. An empty condition always holds.
type Reply struct {
	// PrefixEndsWith holds when the prefix (the text before the cursor, or
	// the region of an edit) ends with it.
	PrefixEndsWith string `json:"prefixEndsWith,omitempty"`
	// SuffixStartsWith holds when the suffix starts with it.
	SuffixStartsWith string `json:"suffixStartsWith,omitempty"`
	// InstructionContains holds when the edit instruction contains it.
	InstructionContains string `json:"instructionContains,omitempty"`
	// Text is the reply.
	Text string `json:"text"`
}

// LoadScript reads and parses a script file.
func LoadScript(path string) (*Script, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read script: %w", err)
	}
	sc, err := ParseScript(data)
	if err != nil {
		return nil, fmt.Errorf("script %s: %w", path, err)
	}
	return sc, nil
}

// ParseScript parses a script; unknown fields are an error, so a misspelt
// condition cannot silently match everything.
func ParseScript(data []byte) (*Script, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var sc Script
	if err := dec.Decode(&sc); err != nil {
		return nil, fmt.Errorf("parse script: %w", err)
	}
	return &sc, nil
}

// Match returns the text of the first rule whose conditions all hold for q.
func (sc *Script) Match(q Query) (text string, ok bool) {
	if sc == nil {
		return "", false
	}
	for _, r := range sc.Replies {
		if strings.HasSuffix(q.Prefix, r.PrefixEndsWith) &&
			strings.HasPrefix(q.Suffix, r.SuffixStartsWith) &&
			strings.Contains(q.Instruction, r.InstructionContains) {
			return r.Text, true
		}
	}
	return "", false
}

// ScriptBackend answers from a script and hands unmatched queries to a
// fallback.
type ScriptBackend struct {
	// Script holds the canned replies; nil matches nothing.
	Script *Script
	// Fallback answers what the script does not; nil makes an unmatched
	// query fail with ErrNoReply.
	Fallback Backend
}

// Generate implements Backend.
func (b ScriptBackend) Generate(ctx context.Context, q Query, yield func(string) bool) error {
	if text, ok := b.Script.Match(q); ok {
		return TextBackend(text).Generate(ctx, q, yield)
	}
	if b.Fallback == nil {
		return ErrNoReply
	}
	return b.Fallback.Generate(ctx, q, yield)
}
