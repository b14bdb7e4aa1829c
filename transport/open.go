package transport

import (
	"fmt"
	"net"
	"net/url"
	"strings"

	"go.uber.org/zap"

	"github.com/wisp-lsp/wisp/config"
)

// DefaultAPIKeyEnv is where openai-ws and openai look for the key when
// model.apiKeyEnv is unset.
const DefaultAPIKeyEnv = "OPENAI_API_KEY"

// Open builds the Model that m names. getenv reads the key from the
// variable m.APIKeyEnv (default DefaultAPIKeyEnv for openai-ws and openai);
// a key is required unless the endpoint is loopback or the provider is fim,
// and for any provider whose config names a variable. log may be nil.
//
// The "local" provider is not built here: it lives in a package that
// imports this one, so the caller constructs it.
func Open(m config.Model, getenv func(string) string, log *zap.Logger) (Model, error) {
	if log == nil {
		log = zap.NewNop()
	}
	if err := checkNetwork(m); err != nil {
		return nil, err
	}
	u, err := url.Parse(m.Endpoint)
	if err != nil {
		return nil, fmt.Errorf("model.endpoint %q: %w", m.Endpoint, err)
	}
	keyEnv := m.APIKeyEnv
	if keyEnv == "" && m.Provider != config.ProviderFIM {
		keyEnv = DefaultAPIKeyEnv
	}
	key := ""
	if keyEnv != "" {
		// Where the key is attached, check again that the user's own
		// settings chose both the variable and the endpoint.
		if err := m.CheckKey(); err != nil {
			return nil, err
		}
		key = getenv(keyEnv)
	}
	required := m.APIKeyEnv != "" || (m.Provider != config.ProviderFIM && !isLoopback(u.Hostname()))
	if key == "" && required {
		return nil, fmt.Errorf("model endpoint %s needs an API key: $%s is empty or unset", u.Host, keyEnv)
	}
	if key == "" {
		keyEnv = ""
	}
	return build(m, key, keyEnv, log.With(zap.String("provider", m.Provider), zap.String("host", u.Host)))
}

// checkNetwork reports why m does not name a network provider with an
// endpoint, the only kind build constructs.
func checkNetwork(m config.Model) error {
	switch m.Provider {
	case config.ProviderOpenAIWS, config.ProviderOpenAI, config.ProviderFIM:
	case config.ProviderLocal:
		return fmt.Errorf("model provider %q is the in-process engine: the caller must construct it (transport.Open builds network providers only)", m.Provider)
	case "":
		return fmt.Errorf("no model provider configured: set model.provider to %q, %q, %q or %q",
			config.ProviderLocal, config.ProviderOpenAIWS, config.ProviderOpenAI, config.ProviderFIM)
	default:
		return fmt.Errorf("unknown model provider %q: want %q, %q, %q or %q", m.Provider,
			config.ProviderLocal, config.ProviderOpenAIWS, config.ProviderOpenAI, config.ProviderFIM)
	}
	if m.Endpoint == "" {
		return fmt.Errorf("model provider %q needs model.endpoint", m.Provider)
	}
	return nil
}

// build constructs the network provider m names; it dials nothing.
func build(m config.Model, key, keyEnv string, log *zap.Logger) (Model, error) {
	switch m.Provider {
	case config.ProviderOpenAIWS:
		return NewWS(WSConfig{Endpoint: m.Endpoint, Model: m.Model, APIKey: key, APIKeyEnv: keyEnv,
			MaxTokens: m.MaxTokens, AllowInsecure: m.AllowInsecure, Log: log})
	case config.ProviderOpenAI:
		return NewSSE(SSEConfig{Endpoint: m.Endpoint, Model: m.Model, APIKey: key, APIKeyEnv: keyEnv,
			MaxTokens: m.MaxTokens, AllowInsecure: m.AllowInsecure, NewConnPerRequest: m.NewConnPerRequest, Log: log})
	default:
		return NewFIM(FIMConfig{Endpoint: m.Endpoint, Model: m.Model, APIKey: key, APIKeyEnv: keyEnv,
			MaxTokens: m.MaxTokens, Template: m.FIMTemplate, AllowInsecure: m.AllowInsecure, NewConnPerRequest: m.NewConnPerRequest, Log: log})
	}
}

// checkEndpoint parses raw and checks its scheme: family "ws" accepts
// ws/wss, "http" accepts http/https. The plain variant is refused for a
// host that is not loopback unless allowInsecure.
func checkEndpoint(raw, family string, allowInsecure bool) (*url.URL, error) {
	u, err := url.Parse(raw)
	if err != nil {
		return nil, fmt.Errorf("model endpoint %q: %w", raw, err)
	}
	if u.Host == "" {
		return nil, fmt.Errorf("model endpoint %q has no host", raw)
	}
	if u.User != nil {
		return nil, fmt.Errorf("model endpoint for %s must not carry credentials in the URL: name the key's variable in model.apiKeyEnv", u.Host)
	}
	secure := family + "s"
	switch u.Scheme {
	case secure:
	case family:
		if !allowInsecure && !isLoopback(u.Hostname()) {
			return nil, fmt.Errorf("model endpoint %s uses plain %s:// to a host that is not loopback: use %s:// (or set model.allowInsecure)", u.Host, family, secure)
		}
	default:
		return nil, fmt.Errorf("model endpoint %q: scheme %q, want %s:// or %s://", raw, u.Scheme, secure, family)
	}
	return u, nil
}

// isLoopback reports whether host (no port) names this machine.
func isLoopback(host string) bool {
	if strings.EqualFold(host, "localhost") || strings.HasSuffix(strings.ToLower(host), ".localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

func hasSuffixPath(p, suffix string) bool { return strings.HasSuffix(trimSlash(p), suffix) }

func trimSlash(p string) string { return strings.TrimRight(p, "/") }
