package config

import (
	"fmt"
	"slices"
	"strings"
)

// Trust. The trusted layers are the defaults, the user's config file, the
// server process's environment and its command-line flags: only the user
// controls them. Settings that arrive over LSP (initializationOptions,
// workspace/didChangeConfiguration) may come from a workspace — Helix's
// .helix/languages.toml, a Neovim exrc, Emacs dir-locals — so from them
// the keys marked trusted in keys.go (provider, endpoint, key variable,
// insecure transport, trustedEndpoints) are refused unless the value is
// one the trusted layers already allow:
//
//   - the value the trusted layers gave that same key;
//   - for an endpoint, a URL listed in trustedEndpoints;
//   - a value that can only make wisp send less: provider "local" (the
//     in-process engine) or allowInsecure false.
//
// Every Model that comes out of a Config also carries what the trusted
// layers allow its key to do (keyTrust), and transports check it with
// CheckKey where they attach the key, so a bug in the merge still cannot
// send the key to an endpoint the user did not choose.

// Refusal is a trusted key that an untrusted layer tried to set.
type Refusal struct {
	// Key is the setting's dotted name, Value what the layer asked for,
	// Source the layer (SourceInitialize, SourceDidChange).
	Key, Value, Source string
	// Env is the key's environment variable, if it has one.
	Env string
	// File is the user's config file, where the setting belongs.
	File string
}

// Reason says why the value was refused and where the setting belongs,
// in words fit for the user.
func (r Refusal) Reason() string {
	where := r.File
	if r.Env != "" {
		where += ", $" + r.Env
	}
	where += " or `wisp serve --set " + r.Key + "=…`"
	if strings.HasSuffix(r.Key, ".endpoint") {
		where += "; or list the URL in trustedEndpoints in " + r.File
	}
	what := "where your code and key go"
	switch {
	case strings.HasSuffix(r.Key, "apiKeyEnv"):
		what = "which secret wisp sends"
	case r.Key == "trustedEndpoints":
		what = "which endpoints editor settings may choose"
	}
	return fmt.Sprintf("editor settings may come from a workspace, and %s decides %s: set it in %s", r.Key, what, where)
}

// String is the whole message: what was refused, from where, and why.
func (r Refusal) String() string {
	return fmt.Sprintf("wisp ignored %s %q from %s: %s", r.Key, r.Value, r.Source, r.Reason())
}

// trustBase is what the trusted layers set. Immutable once built.
type trustBase struct {
	model, edit Model
	endpoints   []string // trustedEndpoints
}

// asConfig returns a Config holding the trusted values, for reading them
// through the key table.
func (t *trustBase) asConfig() *Config {
	return &Config{Model: t.model, Edit: t.edit, TrustedEndpoints: t.endpoints}
}

// allows reports whether the untrusted layers may give k the value it has
// in candidate.
func (t *trustBase) allows(k key, candidate *Config) bool {
	value := k.get(candidate)
	if value == k.get(t.asConfig()) {
		return true
	}
	switch {
	case strings.HasSuffix(k.name, ".endpoint"):
		return listed(value, t.endpoints)
	case strings.HasSuffix(k.name, ".provider"):
		return value == ProviderLocal
	case strings.HasSuffix(k.name, ".allowInsecure"):
		return value == "false"
	}
	return false
}

// listed reports whether endpoint is one of list, ignoring a trailing
// slash and surrounding space.
func listed(endpoint string, list []string) bool {
	norm := func(s string) string { return strings.TrimRight(strings.TrimSpace(s), "/") }
	return endpoint != "" && slices.ContainsFunc(list, func(e string) bool { return norm(e) == norm(endpoint) })
}

// keyTrust is what the trusted layers allow one model's key: the
// endpoints it may be sent to and the variable it may be read from. The
// zero value (set false) marks a Model built in code rather than from
// settings; code is trusted.
type keyTrust struct {
	set       bool
	endpoints string // newline-separated; a string keeps Model comparable
	keyEnv    string
}

// capture records c's current values as the trusted ones and stamps
// c.Model and c.Edit with what their keys may do. Called after each
// trusted layer.
func (c *Config) capture() {
	t := &trustBase{model: c.Model, edit: c.Edit, endpoints: slices.Clone(c.TrustedEndpoints)}
	c.trust = t
	em := t.asConfig().EditModel()
	c.Model.keyTrust = stamp(t.model.Endpoint, t.model.APIKeyEnv, t.endpoints)
	c.Edit.keyTrust = stamp(em.Endpoint, em.APIKeyEnv, t.endpoints)
}

func stamp(endpoint, keyEnv string, list []string) keyTrust {
	all := append([]string{endpoint}, list...)
	return keyTrust{set: true, endpoints: strings.Join(all, "\n"), keyEnv: keyEnv}
}

// CheckKey reports whether the key named by m.APIKeyEnv may be read and
// sent to m.Endpoint: for a Model from settings, only when both are what
// the trusted layers chose (or the endpoint is in trustedEndpoints).
// Transports call it before they read the key.
func (m Model) CheckKey() error {
	if !m.keyTrust.set {
		return nil
	}
	if m.APIKeyEnv != m.keyTrust.keyEnv {
		return fmt.Errorf("not reading a key from $%s: model.apiKeyEnv did not come from your config file, environment or flags", m.APIKeyEnv)
	}
	if !listed(m.Endpoint, strings.Split(m.keyTrust.endpoints, "\n")) {
		return fmt.Errorf("not sending a key to %s: that endpoint did not come from your config file, environment or flags (list it in trustedEndpoints)", m.Endpoint)
	}
	return nil
}

// Refused returns the settings untrusted layers tried to set and were
// refused, in the order they arrived.
func (c Config) Refused() []Refusal { return slices.Clone(c.refused) }

// TrustedOnly reports whether the key named name may be set only by the
// trusted layers (or to a value they allow).
func TrustedOnly(name string) bool {
	k, ok := keyByName(name)
	return ok && k.trusted
}
