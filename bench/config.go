package main

import "time"

// setup is one configuration of wisp the run compares.
type setup struct {
	Name string `json:"name"`
	// Provider is openai-ws, openai, or fim (llama.cpp's /infill).
	Provider string `json:"provider"`
	// NewConn asks the openai provider for a new connection per request
	// (model.newConnPerRequest).
	NewConn bool `json:"newConn"`
	// Streaming turns on wisp/inlineCompletionPartial.
	Streaming bool `json:"streaming"`
	// NoReuse turns typed-ahead reuse off (completion.typedAhead: false).
	NoReuse  bool          `json:"noReuse"`
	Debounce time.Duration `json:"debounce"`
	// Speculate and LookAhead turn on completion.speculate and
	// completion.lookAhead; both are off in the rows that measure what
	// came before them.
	Speculate bool `json:"speculate"`
	LookAhead bool `json:"lookAhead"`
	// Unsure is completion.unsure: "branch" or "trim"; empty runs
	// "show", the behaviour before the model's doubts were read.
	Unsure string `json:"unsure,omitempty"`
	// Accuracy, when set, is the model server's --accuracy: the share of
	// reply lines left true.
	Accuracy float64 `json:"accuracy,omitempty"`
	// Calibration, when not nil, replaces the run's --calibration for
	// this row's model server.
	Calibration *float64 `json:"calibration,omitempty"`
	// WarmAfterIdle is completion.warmAfterIdle; 0 turns warm-ups off.
	WarmAfterIdle time.Duration `json:"warmAfterIdle,omitempty"`
	// Accept makes the user take a correct suggestion with one key (an
	// editor's Tab: one didChange inserting what the ghost text shows)
	// instead of typing it out; each trace is then as many keys as the
	// others, over more of its file.
	Accept bool `json:"accept,omitempty"`
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
	{Name: "ws-speculate", Provider: "openai-ws", Streaming: true, Speculate: true},
	{Name: "ws-speculate-lookahead", Provider: "openai-ws", Streaming: true, Speculate: true, LookAhead: true},
	{Name: "ws@0.8", Provider: "openai-ws", Streaming: true, Accuracy: 0.8},
	{Name: "ws-speculate@0.8", Provider: "openai-ws", Streaming: true, Speculate: true, Accuracy: 0.8},
	{Name: "ws-speculate-lookahead@0.8", Provider: "openai-ws", Streaming: true, Speculate: true, LookAhead: true, Accuracy: 0.8},
	{Name: "ws-all", Provider: "openai-ws", Streaming: true, Speculate: true, LookAhead: true, Unsure: "branch"},
	{Name: "ws-all@0.8", Provider: "openai-ws", Streaming: true, Speculate: true, LookAhead: true, Unsure: "branch", Accuracy: 0.8},
	{Name: "ws-trim@0.8", Provider: "openai-ws", Streaming: true, Speculate: true, LookAhead: true, Unsure: "trim", Accuracy: 0.8},
	{Name: "ws-all@0.8,uncalibrated", Provider: "openai-ws", Streaming: true, Speculate: true, LookAhead: true, Unsure: "branch", Accuracy: 0.8, Calibration: new(0.0)},
	{Name: "infill@0.8", Provider: "fim", Streaming: true, Speculate: true, LookAhead: true, Accuracy: 0.8},
	{Name: "infill-all@0.8", Provider: "fim", Streaming: true, Speculate: true, LookAhead: true, Unsure: "branch", Accuracy: 0.8},
	{Name: "ws+accept", Provider: "openai-ws", Streaming: true, Accept: true},
	{Name: "ws-speculate-lookahead+accept", Provider: "openai-ws", Streaming: true, Speculate: true, LookAhead: true, Accept: true},
	{Name: "ws@0.8+accept", Provider: "openai-ws", Streaming: true, Accuracy: 0.8, Accept: true},
	{Name: "ws-speculate-lookahead@0.8+accept", Provider: "openai-ws", Streaming: true, Speculate: true, LookAhead: true, Accuracy: 0.8, Accept: true},
	{Name: "ws-all+accept", Provider: "openai-ws", Streaming: true, Speculate: true, LookAhead: true, Unsure: "branch", Accept: true},
	{Name: "ws-all@0.8+accept", Provider: "openai-ws", Streaming: true, Speculate: true, LookAhead: true, Unsure: "branch", Accuracy: 0.8, Accept: true},
}

// flags are the `wisp serve` flags that point wisp at the model at addr:
// wisp takes the provider and endpoint only from its trusted layers (its
// command line here), never from initializationOptions.
func (s setup) flags(addr string) []string {
	endpoint := "http://" + addr + "/v1"
	switch s.Provider {
	case "openai-ws":
		endpoint = "ws://" + addr + "/v1/responses"
	case "fim":
		endpoint = "http://" + addr + "/infill"
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
	unsure := s.Unsure
	if unsure == "" {
		unsure = "show"
	}
	completion := map[string]any{"debounce": s.Debounce.String(), "speculate": s.Speculate, "lookAhead": s.LookAhead,
		"warmAfterIdle": s.WarmAfterIdle.String(), "unsure": unsure}
	if s.NoReuse {
		completion["typedAhead"] = false
	}
	return map[string]any{"model": model, "streaming": s.Streaming, "completion": completion}
}
