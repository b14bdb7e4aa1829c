package config

// Model selects and addresses one model. Its field names, as TOML keys and
// initializationOptions members under "model" (or "edit.model"), are part of
// wisp's contract with editor plugins and scripts.
type Model struct {
	// Provider is "local", "openai-ws", "openai" or "fim".
	Provider string `toml:"provider" json:"provider"`
	// Endpoint is ws(s)://…/v1/responses, http(s)://…/v1, or a FIM route.
	Endpoint string `toml:"endpoint" json:"endpoint"`
	// Model is the model's name at the endpoint.
	Model string `toml:"model" json:"model"`
	// APIKeyEnv names the environment variable that holds the key. The key
	// itself never appears in configuration.
	APIKeyEnv string `toml:"apiKeyEnv" json:"apiKeyEnv"`
	// FIMTemplate is the raw FIM template family (qwen, deepseek,
	// starcoder, codellama, codestral) for endpoints that take a raw prompt.
	FIMTemplate string `toml:"fimTemplate" json:"fimTemplate"`
	// AllowInsecure permits plain ws:// and http:// to non-loopback hosts.
	AllowInsecure bool `toml:"allowInsecure" json:"allowInsecure"`
	// MaxTokens bounds each generation; 0 means the provider's default.
	MaxTokens int `toml:"maxTokens" json:"maxTokens"`
	// NewConnPerRequest turns HTTP keep-alive off: every request pays a
	// new connection. Only for comparison benchmarks.
	NewConnPerRequest bool `toml:"newConnPerRequest" json:"newConnPerRequest"`

	// keyTrust is what the trusted layers allow this model's key (see
	// CheckKey); set by Config, zero for a Model built in code.
	keyTrust keyTrust
}

// Provider names.
const (
	ProviderLocal    = "local"
	ProviderOpenAIWS = "openai-ws"
	ProviderOpenAI   = "openai"
	ProviderFIM      = "fim"
)
