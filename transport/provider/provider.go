// Package provider builds the Model a configuration names: the embedded
// local engine or one of the network providers. It is the one place a
// provider is chosen, by the server, the headless commands and the tests.
package provider

import (
	"fmt"
	"net/url"

	"go.uber.org/zap"

	"github.com/wisp-lsp/wisp/config"
	"github.com/wisp-lsp/wisp/transport"
	"github.com/wisp-lsp/wisp/transport/local"
)

// DefaultAPIKeyEnv is where openai-ws and openai look for the key when
// model.apiKeyEnv is unset.
const DefaultAPIKeyEnv = "OPENAI_API_KEY"

// Open builds the Model that m names; no provider means the local engine,
// the default. It dials nothing. For a network provider getenv reads the
// key from the variable m.APIKeyEnv (default DefaultAPIKeyEnv for
// openai-ws and openai); a key is required unless the endpoint is loopback
// or the provider is fim, and for any provider whose config names a
// variable. log may be nil.
func Open(m config.Model, getenv func(string) string, log *zap.Logger) (transport.Model, error) {
	if isLocal(m) {
		return local.New(local.Options{MaxTokens: m.MaxTokens}), nil
	}
	if log == nil {
		log = zap.NewNop()
	}
	u, err := checkNetwork(m)
	if err != nil {
		return nil, err
	}
	key, keyEnv, err := resolveKey(m, u, getenv)
	if err != nil {
		return nil, err
	}
	return build(m, key, keyEnv, log.With(zap.String("provider", m.Provider), zap.String("host", u.Host)))
}

// Wire returns what the provider m names sends for req, exactly as its
// Generate sends it (transport.Wire): the response.create frame for
// openai-ws (its per-attempt stream_id left empty), the POSTed JSON body
// for openai and fim, and req itself for the local engine, which takes the
// Request as it is. It needs no key and opens no connection; it fails only
// where building the provider would (an unknown provider, a bad endpoint
// or FIM template).
func Wire(m config.Model, req transport.Request) (any, error) {
	if isLocal(m) {
		return req, nil
	}
	if _, err := checkNetwork(m); err != nil {
		return nil, err
	}
	model, err := build(m, "", "", zap.NewNop())
	if err != nil {
		return nil, err
	}
	defer model.Close()
	return transport.Wire(model, req)
}

func isLocal(m config.Model) bool {
	return m.Provider == "" || m.Provider == config.ProviderLocal
}

// checkNetwork reports why m does not name a network provider with an
// endpoint, the only kind build constructs, and parses the endpoint.
func checkNetwork(m config.Model) (*url.URL, error) {
	switch m.Provider {
	case config.ProviderOpenAIWS, config.ProviderOpenAI, config.ProviderFIM:
	default:
		return nil, fmt.Errorf("unknown model provider %q: want %q, %q, %q or %q", m.Provider,
			config.ProviderLocal, config.ProviderOpenAIWS, config.ProviderOpenAI, config.ProviderFIM)
	}
	if m.Endpoint == "" {
		return nil, fmt.Errorf("model provider %q needs model.endpoint", m.Provider)
	}
	u, err := url.Parse(m.Endpoint)
	if err != nil {
		return nil, fmt.Errorf("model.endpoint %q: %w", m.Endpoint, err)
	}
	return u, nil
}

// resolveKey returns the API key for m, whose endpoint is u, and the
// variable it came from; both empty when the provider goes without.
func resolveKey(m config.Model, u *url.URL, getenv func(string) string) (key, keyEnv string, err error) {
	keyEnv = m.APIKeyEnv
	if keyEnv == "" && m.Provider != config.ProviderFIM {
		keyEnv = DefaultAPIKeyEnv
	}
	if keyEnv != "" {
		// Where the key is attached, check again that the user's own
		// settings chose both the variable and the endpoint.
		if err := m.CheckKey(); err != nil {
			return "", "", err
		}
		key = getenv(keyEnv)
	}
	required := m.APIKeyEnv != "" || (m.Provider != config.ProviderFIM && !transport.IsLoopback(u.Hostname()))
	if key == "" && required {
		return "", "", fmt.Errorf("model endpoint %s needs an API key: $%s is empty or unset", u.Host, keyEnv)
	}
	if key == "" {
		keyEnv = ""
	}
	return key, keyEnv, nil
}

// build constructs the network provider m names; it dials nothing.
func build(m config.Model, key, keyEnv string, log *zap.Logger) (transport.Model, error) {
	switch m.Provider {
	case config.ProviderOpenAIWS:
		return transport.NewWS(transport.WSConfig{Endpoint: m.Endpoint, Model: m.Model, APIKey: key, APIKeyEnv: keyEnv,
			MaxTokens: m.MaxTokens, AllowInsecure: m.AllowInsecure, Log: log})
	case config.ProviderOpenAI:
		return transport.NewSSE(transport.SSEConfig{Endpoint: m.Endpoint, Model: m.Model, APIKey: key, APIKeyEnv: keyEnv,
			MaxTokens: m.MaxTokens, AllowInsecure: m.AllowInsecure, NewConnPerRequest: m.NewConnPerRequest, Log: log})
	default:
		return transport.NewFIM(transport.FIMConfig{Endpoint: m.Endpoint, Model: m.Model, APIKey: key, APIKeyEnv: keyEnv,
			MaxTokens: m.MaxTokens, Template: m.FIMTemplate, AllowInsecure: m.AllowInsecure, NewConnPerRequest: m.NewConnPerRequest, Log: log})
	}
}
