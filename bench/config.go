package main

import "time"

// setup is one configuration of wisp the run compares.
type setup struct {
	Name string `json:"name"`
	// Provider is openai-ws or openai.
	Provider string `json:"provider"`
	// NewConn asks the openai provider for a new connection per request
	// (model.newConnPerRequest).
	NewConn bool `json:"newConn"`
	// Streaming turns on wisp/inlineCompletionPartial.
	Streaming bool `json:"streaming"`
	// NoReuse turns typed-ahead reuse off (completion.typedAhead: false).
	NoReuse  bool          `json:"noReuse"`
	Debounce time.Duration `json:"debounce"`
}

// setups are the configurations compared side by side. The first is the
// baseline the targets are judged on.
var setups = []setup{
	{Name: "ws", Provider: "openai-ws", Streaming: true},
	{Name: "sse-keepalive", Provider: "openai", Streaming: true},
	{Name: "sse-newconn", Provider: "openai", Streaming: true, NewConn: true},
	{Name: "ws-nostream-noreuse", Provider: "openai-ws", NoReuse: true},
	{Name: "ws-debounce-20ms", Provider: "openai-ws", Streaming: true, Debounce: 20 * time.Millisecond},
	{Name: "ws-debounce-75ms", Provider: "openai-ws", Streaming: true, Debounce: 75 * time.Millisecond},
}

// flags are the `wisp serve` flags that point wisp at the model at addr:
// wisp takes the provider and endpoint only from its trusted layers (its
// command line here), never from initializationOptions.
func (s setup) flags(addr string) []string {
	endpoint := "ws://" + addr + "/v1/responses"
	if s.Provider != "openai-ws" {
		endpoint = "http://" + addr + "/v1"
	}
	return []string{"--set", "model.provider=" + s.Provider, "--set", "model.endpoint=" + endpoint}
}

// options are the initializationOptions for s (the model's address goes
// through flags).
func (s setup) options() map[string]any {
	model := map[string]any{"model": "bench"}
	if s.NewConn {
		model["newConnPerRequest"] = true
	}
	completion := map[string]any{"debounce": s.Debounce.String()}
	if s.NoReuse {
		completion["typedAhead"] = false
	}
	return map[string]any{"model": model, "streaming": s.Streaming, "completion": completion}
}
