// Package config loads wisp's settings from their layers — defaults, the
// user's config file, WISP_* environment variables, the editor's
// initializationOptions and workspace/didChangeConfiguration — and
// remembers where each value came from, so `wisp doctor` can say.
//
// Later layers win. The key names are part of wisp's contract with editor
// plugins and scripts; see the table in keys.go.
package config

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
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
	// Completion tunes the inline completion engine.
	Completion Completion

	// sources maps each key set by any layer to the layer that set it last.
	sources map[string]string
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
	// FirstTokenTimeout bounds a generation's wait for its first token,
	// IdleTimeout the silence between two tokens: past either the
	// generation is cancelled at the model and its requests answer empty.
	FirstTokenTimeout, IdleTimeout time.Duration
}

// Default returns the built-in configuration.
func Default() Config {
	return Config{
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
			// Helix-style clients merge the first reply; 150 ms lets a
			// model 100 ms away answer, yet never holds up other servers'
			// menus for long.
			ItemBudget: 150 * time.Millisecond,
			// Long enough for the editor's next request after a keystroke
			// (VS Code cancels and re-asks within a few ms), short enough
			// that an abandoned generation stops quickly.
			Grace:      250 * time.Millisecond,
			TypedAhead: true,
			// Several times the slow tail of a fast model's first token
			// (0.1–0.6 s, plus a TLS handshake after a reconnect), and of
			// the gap between tokens (tens of ms): these end stalls, they
			// do not judge slow models. Ghost text later than this is
			// for a cursor the user has left.
			FirstTokenTimeout: 3 * time.Second,
			IdleTimeout:       2 * time.Second,
		},
		sources: map[string]string{},
	}
}

// Source names for the layers.
const (
	SourceDefault    = "default"
	SourceInitialize = "initializationOptions"
	SourceDidChange  = "didChangeConfiguration"
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
			c, warnings = c.apply(flatten("", tree, nil), "file "+path)
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
	c, w = c.applyEach(env, func(name string) string { return "env " + envOf(name) })
	return c, append(warnings, w...), nil
}

// Merge returns c with the settings in raw, a JSON object shaped like the
// TOML file (e.g. {"model":{"provider":"openai-ws"}}), applied on top and
// attributed to source. A null or empty raw changes nothing. Clients that
// wrap settings in a "wisp" section (didChangeConfiguration) are unwrapped.
func (c Config) Merge(raw []byte, source string) (Config, []string, error) {
	s := strings.TrimSpace(string(raw))
	if s == "" || s == "null" {
		return c, nil, nil
	}
	var tree map[string]any
	if err := json.Unmarshal(raw, &tree); err != nil {
		return c, nil, fmt.Errorf("%s: settings must be a JSON object: %w", source, err)
	}
	if inner, ok := tree["wisp"].(map[string]any); ok && len(tree) == 1 {
		tree = inner
	}
	next, warnings := c.apply(flatten("", tree, nil), source)
	return next, warnings, nil
}

func (c Config) apply(flat map[string]any, source string) (Config, []string) {
	return c.applyEach(flat, func(string) string { return source })
}

// applyEach sets every known key in flat, in a stable order, recording
// sourceOf(key) as its source.
func (c Config) applyEach(flat map[string]any, sourceOf func(string) string) (Config, []string) {
	next := c
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
		if !ok {
			warnings = append(warnings, fmt.Sprintf("unknown setting %q (%s)", name, sourceOf(name)))
			continue
		}
		if err := k.set(&next, flat[name]); err != nil {
			warnings = append(warnings, fmt.Sprintf("setting %q (%s): %v", name, sourceOf(name), err))
			continue
		}
		next.sources[name] = sourceOf(name)
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
	return m
}

// Setting is one key's merged value and where it came from.
type Setting struct {
	Key, Value, Source, Env string
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
		out = append(out, Setting{Key: k.name, Value: k.get(&c), Source: src, Env: k.env})
	}
	return out
}
