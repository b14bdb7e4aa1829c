package transport

import (
	"fmt"
	"net"
	"net/url"
	"strings"
)

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
		if !allowInsecure && !IsLoopback(u.Hostname()) {
			return nil, fmt.Errorf("model endpoint %s uses plain %s:// to a host that is not loopback: use %s:// (or set model.allowInsecure)", u.Host, family, secure)
		}
	default:
		return nil, fmt.Errorf("model endpoint %q: scheme %q, want %s:// or %s://", raw, u.Scheme, secure, family)
	}
	return u, nil
}

// IsLoopback reports whether host (no port) names this machine.
func IsLoopback(host string) bool {
	if strings.EqualFold(host, "localhost") || strings.HasSuffix(strings.ToLower(host), ".localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

func hasSuffixPath(p, suffix string) bool { return strings.HasSuffix(trimSlash(p), suffix) }

func trimSlash(p string) string { return strings.TrimRight(p, "/") }
