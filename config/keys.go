package config

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"
)

// key is one setting: its dotted name (TOML and initializationOptions),
// its environment variable, and how to read and write it.
type key struct {
	name string
	env  string
	get  func(*Config) string
	set  func(*Config, any) error
	// trusted keys decide where code and the key go: only the trusted
	// layers may set them (see trust.go).
	trusted bool
}

// keys is the table of every setting wisp knows. Names and environment
// variables are part of the contract (DESIGN.md, Configuration).
var keys = []key{
	trustedOnly(str("model.provider", "WISP_PROVIDER", func(c *Config) *string { return &c.Model.Provider })),
	trustedOnly(str("model.endpoint", "WISP_ENDPOINT", func(c *Config) *string { return &c.Model.Endpoint })),
	str("model.model", "WISP_MODEL", func(c *Config) *string { return &c.Model.Model }),
	trustedOnly(envName(str("model.apiKeyEnv", "WISP_API_KEY_ENV", func(c *Config) *string { return &c.Model.APIKeyEnv }))),
	str("model.fimTemplate", "WISP_FIM_TEMPLATE", func(c *Config) *string { return &c.Model.FIMTemplate }),
	trustedOnly(boolean("model.allowInsecure", "WISP_ALLOW_INSECURE", func(c *Config) *bool { return &c.Model.AllowInsecure })),
	integer("model.maxTokens", "WISP_MAX_TOKENS", func(c *Config) *int { return &c.Model.MaxTokens }),
	boolean("model.newConnPerRequest", "", func(c *Config) *bool { return &c.Model.NewConnPerRequest }),
	trustedOnly(str("edit.model.provider", "WISP_EDIT_PROVIDER", func(c *Config) *string { return &c.Edit.Provider })),
	trustedOnly(str("edit.model.endpoint", "WISP_EDIT_ENDPOINT", func(c *Config) *string { return &c.Edit.Endpoint })),
	str("edit.model.model", "WISP_EDIT_MODEL", func(c *Config) *string { return &c.Edit.Model }),
	trustedOnly(envName(str("edit.model.apiKeyEnv", "WISP_EDIT_API_KEY_ENV", func(c *Config) *string { return &c.Edit.APIKeyEnv }))),
	str("edit.model.fimTemplate", "", func(c *Config) *string { return &c.Edit.FIMTemplate }),
	trustedOnly(boolean("edit.model.allowInsecure", "WISP_EDIT_ALLOW_INSECURE", func(c *Config) *bool { return &c.Edit.AllowInsecure })),
	integer("edit.model.maxTokens", "", func(c *Config) *int { return &c.Edit.MaxTokens }),
	boolean("streaming", "", func(c *Config) *bool { return &c.Streaming }),
	boolean("status", "", func(c *Config) *bool { return &c.Status }),
	boolean("quickEditPrompt", "", func(c *Config) *bool { return &c.QuickEditPrompt }),
	integer("completion.budget", "WISP_COMPLETION_BUDGET", func(c *Config) *int { return &c.Completion.Budget }),
	duration("completion.debounce", "WISP_DEBOUNCE", func(c *Config) *time.Duration { return &c.Completion.Debounce }),
	duration("completion.itemBudget", "WISP_ITEM_BUDGET", func(c *Config) *time.Duration { return &c.Completion.ItemBudget }),
	boolean("completion.typedAhead", "", func(c *Config) *bool { return &c.Completion.TypedAhead }),
	boolean("completion.speculate", "", func(c *Config) *bool { return &c.Completion.Speculate }),
	boolean("completion.lookAhead", "", func(c *Config) *bool { return &c.Completion.LookAhead }),
	oneOf(str("completion.unsure", "", func(c *Config) *string { return &c.Completion.Unsure }), UnsureShow, UnsureTrim, UnsureBranch),
	boolean("completion.startOnChange", "", func(c *Config) *bool { return &c.Completion.StartOnChange }),
	duration("completion.warmAfterIdle", "", func(c *Config) *time.Duration { return &c.Completion.WarmAfterIdle }),
	duration("completion.grace", "WISP_GRACE", func(c *Config) *time.Duration { return &c.Completion.Grace }),
	trustedOnly(list("trustedEndpoints", "WISP_TRUSTED_ENDPOINTS", func(c *Config) *[]string { return &c.TrustedEndpoints })),
	duration("completion.firstTokenTimeout", "WISP_FIRST_TOKEN_TIMEOUT", func(c *Config) *time.Duration { return &c.Completion.FirstTokenTimeout }),
	duration("completion.idleTimeout", "WISP_IDLE_TIMEOUT", func(c *Config) *time.Duration { return &c.Completion.IdleTimeout }),
	boolean("nextEdit.enabled", "WISP_NEXT_EDIT", func(c *Config) *bool { return &c.NextEdit.Enabled }),
	duration("nextEdit.minPause", "", func(c *Config) *time.Duration { return &c.NextEdit.MinPause }),
	oneOf(str("nextEdit.aggressiveness", "", func(c *Config) *string { return &c.NextEdit.Aggressiveness }), "low", "medium", "high"),
}

func keyByName(name string) (key, bool) {
	for _, k := range keys {
		if k.name == name {
			return k, true
		}
	}
	return key{}, false
}

func envOf(name string) string {
	k, _ := keyByName(name)
	return k.env
}

// oneOf restricts a string key to the given values.
func oneOf(k key, values ...string) key {
	set := k.set
	k.set = func(c *Config, v any) error {
		if s, ok := v.(string); ok && !slices.Contains(values, s) {
			return fmt.Errorf("want one of %s, got %q", strings.Join(values, ", "), s)
		}
		return set(c, v)
	}
	return k
}

// envName restricts a string key to the name of an environment variable
// (or ""). A value that is not one is most likely the key itself, pasted
// in the wrong place: it is refused without being repeated, and a value
// that is not a name (from code) is shown masked, so no message or table
// ever prints it.
func envName(k key) key {
	get, set := k.get, k.set
	k.get = func(c *Config) string {
		if v := get(c); v == "" || IsEnvName(v) {
			return v
		}
		return maskedValue
	}
	k.set = func(c *Config, v any) error {
		if s, ok := v.(string); ok && s != "" && !IsEnvName(s) {
			return errNotEnvName
		}
		return set(c, v)
	}
	return k
}

// maskedValue stands for a value that is not shown.
const maskedValue = "(hidden: not a variable name)"

var errNotEnvName = errors.New("must name an environment variable (it looks like a key itself; put the key in the environment)")

// IsEnvName reports whether s is a usable environment variable name:
// letters, digits and underscores, not starting with a digit.
func IsEnvName(s string) bool {
	if s == "" {
		return false
	}
	for i, r := range s {
		switch {
		case r == '_', 'a' <= r && r <= 'z', 'A' <= r && r <= 'Z':
		case '0' <= r && r <= '9' && i > 0:
		default:
			return false
		}
	}
	return true
}

// isKeySetting reports whether name ("model.apiKey") tries to set an API
// key itself, which no layer may: keys live only in the environment.
func isKeySetting(name string) bool {
	last := name[strings.LastIndexByte(name, '.')+1:]
	switch strings.ToLower(strings.ReplaceAll(last, "_", "")) {
	case "apikey", "apitoken", "key":
		return true
	}
	return false
}

func trustedOnly(k key) key {
	k.trusted = true
	return k
}

func str(name, env string, field func(*Config) *string) key {
	return key{name: name, env: env,
		get: func(c *Config) string { return *field(c) },
		set: func(c *Config, v any) error {
			s, ok := v.(string)
			if !ok {
				return fmt.Errorf("want a string, got %T", v)
			}
			*field(c) = s
			return nil
		}}
}

func boolean(name, env string, field func(*Config) *bool) key {
	return key{name: name, env: env,
		get: func(c *Config) string { return strconv.FormatBool(*field(c)) },
		set: func(c *Config, v any) error {
			switch b := v.(type) {
			case bool:
				*field(c) = b
			case string:
				parsed, err := strconv.ParseBool(b)
				if err != nil {
					return fmt.Errorf("want true or false, got %q", b)
				}
				*field(c) = parsed
			default:
				return fmt.Errorf("want a boolean, got %T", v)
			}
			return nil
		}}
}

func integer(name, env string, field func(*Config) *int) key {
	return key{name: name, env: env,
		get: func(c *Config) string { return strconv.Itoa(*field(c)) },
		set: func(c *Config, v any) error {
			n, err := toInt(v)
			if err != nil {
				return err
			}
			if n < 0 {
				return fmt.Errorf("must not be negative, got %d", n)
			}
			*field(c) = n
			return nil
		}}
}

// duration keys accept Go durations ("150ms") or a number of milliseconds.
func duration(name, env string, field func(*Config) *time.Duration) key {
	return key{name: name, env: env,
		get: func(c *Config) string { return field(c).String() },
		set: func(c *Config, v any) error {
			var d time.Duration
			if s, ok := v.(string); ok {
				parsed, err := time.ParseDuration(s)
				if err != nil {
					ms, err2 := strconv.Atoi(s)
					if err2 != nil {
						return fmt.Errorf("want a duration like 150ms, got %q", s)
					}
					parsed = time.Duration(ms) * time.Millisecond
				}
				d = parsed
			} else {
				n, err := toInt(v)
				if err != nil {
					return err
				}
				d = time.Duration(n) * time.Millisecond
			}
			if d < 0 {
				return fmt.Errorf("must not be negative, got %s", d)
			}
			*field(c) = d
			return nil
		}}
}

// list keys accept an array of strings, or one string of items separated
// by commas or white space (the form an environment variable can hold).
func list(name, env string, field func(*Config) *[]string) key {
	return key{name: name, env: env,
		get: func(c *Config) string { return strings.Join(*field(c), " ") },
		set: func(c *Config, v any) error {
			var out []string
			switch l := v.(type) {
			case string:
				out = strings.FieldsFunc(l, func(r rune) bool { return r == ',' || unicode.IsSpace(r) })
			case []any:
				for _, item := range l {
					s, ok := item.(string)
					if !ok {
						return fmt.Errorf("want a list of strings, got a %T in it", item)
					}
					if s = strings.TrimSpace(s); s != "" {
						out = append(out, s)
					}
				}
			default:
				return fmt.Errorf("want a list of strings, got %T", v)
			}
			*field(c) = out
			return nil
		}}
}

func toInt(v any) (int, error) {
	switch n := v.(type) {
	case int64:
		return int(n), nil
	case int:
		return n, nil
	case float64:
		if n != float64(int(n)) {
			return 0, fmt.Errorf("want a whole number, got %v", n)
		}
		return int(n), nil
	case string:
		i, err := strconv.Atoi(n)
		if err != nil {
			return 0, fmt.Errorf("want a number, got %q", n)
		}
		return i, nil
	}
	return 0, fmt.Errorf("want a number, got %T", v)
}
