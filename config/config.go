// Package config loads wisp's settings from their layers — defaults, the
// user's config file, WISP_* environment variables, command-line flags,
// the editor's initializationOptions and workspace/didChangeConfiguration —
// and remembers where each value came from, so `wisp doctor` can say.
//
// Later layers win, except that the editor's layers may not choose where
// code and keys go (see trust.go). The key names are part of wisp's
// contract with editor plugins and scripts; see the table in keys.go.
package config

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/BurntSushi/toml"
)

// Config is the merged configuration. A Config is a value: Merge returns a
// new one and never changes its receiver's settings.
type Config struct {
	// Model is the model for inline completions.
	Model Model
	// Edit holds the quick-edit model's own settings; unset fields fall back
	// to Model (see EditModel).
	Edit Model
	// Streaming turns on wisp/inlineCompletionPartial notifications.
	Streaming bool
	// Status says the editor shows wisp/status notifications (wisp's own
	// plugins set it). Without it wisp tells each change of the model's
	// state (unavailable, answering again) once with window/showMessage.
	Status bool
	// QuickEditPrompt says the editor asks the user for the instruction
	// of the "Quick edit…" code action, whose wisp.quickEdit command comes
	// without one. Without it wisp leaves that action out (it would fail);
	// the actions that carry their own instruction are offered anyway.
	QuickEditPrompt bool
	// Completion tunes the inline completion engine.
	Completion Completion
	// NextEdit tunes next-edit suggestions.
	NextEdit NextEdit
	// TrustedEndpoints are endpoints the editor's settings may choose (and
	// that then receive the trusted key). Only trusted layers set it.
	TrustedEndpoints []string

	// sources maps each key set by any layer to the layer that set it last.
	sources map[string]string
	// trust holds the values the trusted layers set; never nil in a
	// Config from Default, Load or Merge.
	trust *trustBase
	// refused lists what untrusted layers were refused, oldest first.
	refused []Refusal
	// userFile is the user's config file path, for messages.
	userFile string
}

// NextEdit tunes next-edit suggestions (the edit that follows an edit).
type NextEdit struct {
	// Enabled turns them on; they are opt-in.
	Enabled bool
	// MinPause is how long typing must pause before the server asks the
	// model on its own (for the code action); a client's request asks at
	// once.
	MinPause time.Duration
	// Aggressiveness is "low", "medium" or "high": how far around the
	// last edit the model may rewrite.
	Aggressiveness string
}

// Completion tunes inline completion. Each default is explained where it is
// set, in Default.
type Completion struct {
	// Budget is the context budget of a prompt, in tokens.
	Budget int
	// Debounce is the longest a request waits before asking the model.
	Debounce time.Duration
	// ItemBudget is how long textDocument/completion waits for the model
	// before answering an empty, complete list.
	ItemBudget time.Duration
	// Grace is how long a generation no request wants lives on.
	Grace time.Duration
	// TypedAhead lets a generation keep serving while the user types what
	// it shows. Off only to measure what it saves.
	TypedAhead bool
	// Speculate starts, once a generation is done, the generation for the
	// document as it will be when its suggestion is taken, so the ghost
	// text after an accept (or after typing it through) is there at once.
	Speculate bool
	// StartOnChange starts the generation a typing-shaped change calls for
	// when the change arrives, before the editor's request (which then
	// joins it). For clients that ask only a while after each keystroke
	// (VS Code); off by default, since an editor that asks at once gains
	// nothing from it.
	StartOnChange bool
	// LookAhead lets a one-line suggestion's generation run on past its
	// line (bounded by its max tokens); what is shown is unchanged, and
	// the lines after are ready when the user breaks the line.
	LookAhead bool
	// Unsure says what ghost text does where the model was unsure of a
	// token (gave it less than even odds; providers that report token
	// probabilities only): "show" shows the model's text whole; "trim"
	// ends the ghost text before the first such token past the cursor
	// (where it and the model's runner-up agree), and shows on once the
	// user has typed up to it; "branch" trims, and also asks the model
	// ahead for the text that follows the runner-up, so typing that
	// shows the next ghost text at once.
	Unsure string
	// WarmAfterIdle is how long a document sits idle before its last
	// prompt is read into the model's prompt cache again (and again after
	// each further interval, a few times); 0 turns warm-ups off. Only
	// providers with prompt caching are warmed.
	WarmAfterIdle time.Duration
	// FirstTokenTimeout bounds a generation's wait for its first token,
	// IdleTimeout the silence between two tokens: past either the
	// generation is cancelled at the model and its requests answer empty.
	FirstTokenTimeout, IdleTimeout time.Duration
}

// What ghost text does where the model was unsure (Completion.Unsure).
const (
	UnsureShow   = "show"
	UnsureTrim   = "trim"
	UnsureBranch = "branch"
)

// Default returns the built-in configuration.
func Default() Config {
	c := Config{
		Model: Model{Provider: ProviderLocal},
		Completion: Completion{
			// 1,500 tokens keeps the prompt small enough that prefill adds
			// little to time to first token on fast hosted models, while
			// holding the enclosing function, imports and nearby signatures.
			Budget: 1500,
			// No fixed debounce: stale generations are cancelled at the
			// model on the next keystroke, so waiting only adds latency.
			// The engine adapts upward while typing outruns the model.
			Debounce: 0,
			// Helix (25.07) opens its menu with the servers that answered
			// first and adds a later item to it, so waiting for the model
			// holds up no other server's items; the wait follows typing
			// (each key restarts it). A second lets a hosted model's first
			// line arrive, yet gives up before the user has moved on.
			ItemBudget: time.Second,
			// Long enough for the editor's next request after a keystroke
			// (VS Code cancels and re-asks within a few ms), short enough
			// that an abandoned generation stops quickly.
			Grace:      250 * time.Millisecond,
			TypedAhead: true,
			// Measured in BENCHMARKS.md: the keys after each suggestion
			// no longer wait a model round trip.
			Speculate: true,
			LookAhead: true,
			// Measured in BENCHMARKS.md against a model that is sometimes
			// wrong: fewer keys show wrong text, and a wrong guess the
			// model doubted costs one key instead of a round trip.
			Unsure: UnsureBranch,
			// Hosted prompt caches keep a prefix for five to ten idle
			// minutes: refresh it before the shorter runs out.
			WarmAfterIdle: 4 * time.Minute,
			// Several times the slow tail of a fast model's first token
			// (0.1–0.6 s, plus a TLS handshake after a reconnect), and of
			// the gap between tokens (tens of ms): these end stalls, they
			// do not judge slow models. Ghost text later than this is
			// for a cursor the user has left.
			FirstTokenTimeout: 3 * time.Second,
			IdleTimeout:       2 * time.Second,
		},
		NextEdit: NextEdit{
			// Off unless asked for: it sends a second request to the
			// model after each pause in typing.
			Enabled: false,
			// A pause, not a keystroke: long enough that a word being
			// typed does not ask, short next to reading the suggestion.
			MinPause:       300 * time.Millisecond,
			Aggressiveness: "medium",
		},
		sources:  map[string]string{},
		userFile: "~/.config/wisp/config.toml",
	}
	c.capture()
	return c
}

// Source names for the layers.
const (
	SourceDefault    = "default"
	SourceInitialize = "initializationOptions"
	SourceDidChange  = "didChangeConfiguration"
	SourceFlag       = "flag --set"
)

// UserFile returns the path of the user's config file:
// $XDG_CONFIG_HOME/wisp/config.toml, or ~/.config/wisp/config.toml.
func UserFile(getenv func(string) string) string {
	dir := getenv("XDG_CONFIG_HOME")
	if dir == "" {
		home, err := os.UserHomeDir()
		if err != nil {
			return ""
		}
		dir = filepath.Join(home, ".config")
	}
	return filepath.Join(dir, "wisp", "config.toml")
}

// Load returns defaults < the user's config file < WISP_* environment. A
// missing file is not an error; a malformed one is. Warnings name keys that
// were ignored (unknown names, wrong types).
func Load(getenv func(string) string) (c Config, warnings []string, err error) {
	c = Default()
	if path := UserFile(getenv); path != "" {
		c.userFile = path
		data, err := os.ReadFile(path)
		switch {
		case errors.Is(err, os.ErrNotExist):
		case err != nil:
			return c, nil, fmt.Errorf("read config: %w", err)
		default:
			var tree map[string]any
			if _, err := toml.Decode(string(data), &tree); err != nil {
				return c, nil, fmt.Errorf("parse %s: %w", path, err)
			}
			c, warnings = c.applyEach(flatten("", tree, nil), func(string) string { return "file " + path }, true)
		}
	}
	env := map[string]any{}
	for _, k := range keys {
		if k.env == "" {
			continue
		}
		if v := getenv(k.env); v != "" {
			env[k.name] = v
		}
	}
	var w []string
	c, w = c.applyEach(env, func(name string) string { return "env " + envOf(name) }, true)
	return c, append(warnings, w...), nil
}

// Override returns c with pairs ("model.endpoint=wss://…", as given to
// `wisp serve --set`) applied as a trusted layer attributed to source.
// A pair without "=" is an error.
func (c Config) Override(pairs []string, source string) (Config, []string, error) {
	flat := map[string]any{}
	for _, p := range pairs {
		name, value, ok := strings.Cut(p, "=")
		if !ok || strings.TrimSpace(name) == "" {
			return c, nil, fmt.Errorf("%s: want KEY=VALUE, got %q", source, p)
		}
		flat[strings.TrimSpace(name)] = value
	}
	next, warnings := c.applyEach(flat, func(string) string { return source }, true)
	return next, warnings, nil
}

// Merge returns c with the settings in raw, a JSON object shaped like the
// TOML file (e.g. {"model":{"provider":"openai-ws"}}), applied on top as an
// untrusted layer attributed to source: trusted keys are kept unless the
// value is one the trusted layers allow, and the refusals are added to
// Refused. A null or empty raw, or an empty list ([], which is how Lua
// clients encode an empty table), changes nothing. Clients that wrap
// settings in a "wisp" section (didChangeConfiguration) are unwrapped.
func (c Config) Merge(raw []byte, source string) (Config, []string, error) {
	s := strings.TrimSpace(string(raw))
	if s == "" || s == "null" || s == "[]" {
		return c, nil, nil
	}
	var tree map[string]any
	if err := json.Unmarshal(raw, &tree); err != nil {
		return c, nil, fmt.Errorf("%s: settings must be a JSON object: %w", source, err)
	}
	if inner, ok := tree["wisp"].(map[string]any); ok && len(tree) == 1 {
		tree = inner
	}
	next, warnings := c.applyEach(flatten("", tree, nil), func(string) string { return source }, false)
	return next, warnings, nil
}

// applyEach sets every known key in flat, in a stable order, recording
// sourceOf(key) as its source. A trusted layer's values become the
// trusted ones; an untrusted layer's values for trusted keys are refused
// unless the trusted layers allow them.
func (c Config) applyEach(flat map[string]any, sourceOf func(string) string, trusted bool) (Config, []string) {
	next := c
	if next.trust == nil {
		next.capture() // a zero Config: its values are the code's own
	}
	next.refused = slices.Clone(c.refused)
	next.sources = make(map[string]string, len(c.sources)+len(flat))
	for k, v := range c.sources {
		next.sources[k] = v
	}
	names := make([]string, 0, len(flat))
	for name := range flat {
		names = append(names, name)
	}
	sort.Strings(names)
	var warnings []string
	for _, name := range names {
		k, ok := keyByName(name)
		if !ok && isKeySetting(name) {
			warnings = append(warnings, fmt.Sprintf("setting %q (%s) ignored: keys live only in the environment, never in configuration; "+
				"put the key in an environment variable and name that variable in apiKeyEnv", name, sourceOf(name)))
			continue
		}
		if !ok {
			warnings = append(warnings, fmt.Sprintf("unknown setting %q (%s)", name, sourceOf(name)))
			continue
		}
		if !trusted && k.trusted {
			candidate := next
			if err := k.set(&candidate, flat[name]); err != nil {
				warnings = append(warnings, fmt.Sprintf("setting %q (%s): %v", name, sourceOf(name), err))
				continue
			}
			if !next.trust.allows(k, &candidate) {
				next.refused = append(next.refused, Refusal{Key: name, Value: k.get(&candidate),
					Source: sourceOf(name), Env: k.env, File: next.userFile})
				continue
			}
		}
		if err := k.set(&next, flat[name]); err != nil {
			warnings = append(warnings, fmt.Sprintf("setting %q (%s): %v", name, sourceOf(name), err))
			continue
		}
		next.sources[name] = sourceOf(name)
	}
	if trusted {
		next.capture()
	}
	return next, warnings
}

// flatten turns nested maps into dotted keys: {"model":{"provider":x}}
// becomes {"model.provider": x}.
func flatten(prefix string, tree map[string]any, out map[string]any) map[string]any {
	if out == nil {
		out = map[string]any{}
	}
	for k, v := range tree {
		name := k
		if prefix != "" {
			name = prefix + "." + k
		}
		if sub, ok := v.(map[string]any); ok {
			flatten(name, sub, out)
			continue
		}
		out[name] = v
	}
	return out
}

// EditModel returns the quick-edit model: Edit's fields where set, Model's
// otherwise.
func (c Config) EditModel() Model {
	m := c.Model
	e := c.Edit
	if e.Provider != "" {
		m.Provider = e.Provider
		// A different provider does not share the completion endpoint.
		m.Endpoint, m.Model, m.FIMTemplate = "", "", ""
	}
	for dst, src := range map[*string]string{&m.Endpoint: e.Endpoint, &m.Model: e.Model, &m.APIKeyEnv: e.APIKeyEnv, &m.FIMTemplate: e.FIMTemplate} {
		if src != "" {
			*dst = src
		}
	}
	if e.MaxTokens != 0 {
		m.MaxTokens = e.MaxTokens
	}
	m.AllowInsecure = m.AllowInsecure || e.AllowInsecure
	m.keyTrust = e.keyTrust
	return m
}

// Setting is one key's merged value and where it came from.
type Setting struct {
	Key, Value, Source, Env string
	// TrustedOnly keys take values from the editor's settings only when
	// the trusted layers allow them.
	TrustedOnly bool
}

// Settings lists every known key with its value and source, in table
// order.
func (c Config) Settings() []Setting {
	out := make([]Setting, 0, len(keys))
	for _, k := range keys {
		src := c.sources[k.name]
		if src == "" {
			src = SourceDefault
		}
		out = append(out, Setting{Key: k.name, Value: k.get(&c), Source: src, Env: k.env, TrustedOnly: k.trusted})
	}
	return out
}
