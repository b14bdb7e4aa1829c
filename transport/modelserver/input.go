package modelserver

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/wisp-lsp/wisp/transport"
)

// message is a chat message in either wire's form: content is a string or
// an array of parts ({"type":"input_text"|"text","text":…}).
type message struct {
	Role    string          `json:"role"`
	Content json.RawMessage `json:"content"`
}

// part is one piece of a message's content.
type part struct {
	Type string `json:"type"`
	Text string `json:"text"`
}

// contentText returns the text of a message's content.
func contentText(raw json.RawMessage) (string, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return "", nil
	}
	var s string
	if err := json.Unmarshal(raw, &s); err == nil {
		return s, nil
	}
	var parts []part
	if err := json.Unmarshal(raw, &parts); err != nil {
		return "", fmt.Errorf("content is neither a string nor an array of parts: %w", err)
	}
	var b strings.Builder
	for _, p := range parts {
		b.WriteString(p.Text)
	}
	return b.String(), nil
}

// lastUser returns the text of the last user message and the text of the
// system (or developer) messages.
func lastUser(msgs []message) (user, system string, err error) {
	for _, m := range msgs {
		text, err := contentText(m.Content)
		if err != nil {
			return "", "", fmt.Errorf("%s message: %w", m.Role, err)
		}
		switch m.Role {
		case "user", "":
			user = text
		case "system", "developer":
			system += text
		}
	}
	return user, system, nil
}

// responsesInput returns the user text of a Responses API input, which is
// a string or an array of messages.
func responsesInput(raw json.RawMessage) (user, system string, err error) {
	if len(raw) == 0 || string(raw) == "null" {
		return "", "", nil
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s, "", nil
	}
	var msgs []message
	if err := json.Unmarshal(raw, &msgs); err != nil {
		return "", "", fmt.Errorf("input is neither a string nor an array of messages: %w", err)
	}
	return lastUser(msgs)
}

// chatQuery recovers a Query from a chat user message rendered by
// transport.RenderChat; a message without wisp's markers is all prefix.
func chatQuery(user, system string, maxTokens int) Query {
	prefix, suffix, instruction, ok := transport.ParseChat(user)
	if !ok {
		prefix = user
	}
	return Query{Prefix: prefix, Suffix: suffix, Instruction: instruction, System: system, MaxTokens: maxTokens}
}

// fimQuery builds a Query from a FIM request. A prompt sent without a
// suffix may be a raw FIM template (transport.RenderFIM), which is taken
// apart; any other prompt is all prefix.
func fimQuery(prompt, suffix string, maxTokens int) Query {
	if suffix == "" {
		if _, p, s, ok := transport.ParseFIM(prompt); ok {
			prompt, suffix = p, s
		}
	}
	return Query{Prefix: prompt, Suffix: suffix, MaxTokens: maxTokens}
}
