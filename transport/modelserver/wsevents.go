package modelserver

import (
	"encoding/json"
	"slices"
)

// The Responses API WebSocket events, as they travel (transport/wswire.go
// has the whole wire as wisp speaks it). Beyond the basic fields, a
// response.create may carry
//
//	"include":["message.output_text.logprobs"]   score every token
//	"top_logprobs":K                               0–20 alternatives per token
//
// and then every response.output_text.delta carries, one entry per token
// of the delta, in order, their tokens spelling the delta exactly:
//
//	"logprobs":[{"token":T,"logprob":L,"top_logprobs":[{"token":T2,"logprob":L2},…]},…]
//
// with at most K alternatives, likeliest first (the chosen token among them
// when it is in the top K). A top_logprobs outside 0–20 is refused with an
// error event, include or not; without the include, deltas carry no
// logprobs field. The server sends one token per delta.

// logprobsInclude is the include value that asks for token scores.
const logprobsInclude = "message.output_text.logprobs"

// wsRequest is a client event: response.create or response.cancel.
type wsRequest struct {
	Type            string          `json:"type"`
	Model           string          `json:"model"`
	Instructions    string          `json:"instructions"`
	Input           json.RawMessage `json:"input"`
	MaxOutputTokens int             `json:"max_output_tokens"`
	// Generate false asks only to read the prompt into the cache.
	Generate *bool `json:"generate"`
	// Include may hold logprobsInclude; other values are ignored.
	Include []string `json:"include"`
	// TopLogprobs is how many alternatives each token's score lists.
	TopLogprobs int    `json:"top_logprobs"`
	StreamID    string `json:"stream_id"`
	ResponseID  string `json:"response_id"`
}

// scored reports whether the request asks for token scores.
func (r wsRequest) scored() bool {
	return slices.Contains(r.Include, logprobsInclude)
}

// textEvent is response.output_text.delta (Delta set) or
// response.output_text.done (Text set).
type textEvent struct {
	Type         string `json:"type"`
	StreamID     string `json:"stream_id,omitempty"`
	ResponseID   string `json:"response_id"`
	ItemID       string `json:"item_id"`
	OutputIndex  int    `json:"output_index"`
	ContentIndex int    `json:"content_index"`
	Delta        string `json:"delta,omitempty"`
	Text         string `json:"text,omitempty"`
	// Logprobs scores the tokens of Delta, when the create asked.
	Logprobs []tokenLogprob `json:"logprobs,omitempty"`
}

// responseEvent is response.created and the terminal events.
type responseEvent struct {
	Type     string     `json:"type"`
	StreamID string     `json:"stream_id,omitempty"`
	Response wsResponse `json:"response"`
}

// wsResponse is the response object inside a responseEvent.
type wsResponse struct {
	ID                string             `json:"id"`
	Object            string             `json:"object"`
	Status            string             `json:"status"`
	Model             string             `json:"model,omitempty"`
	Output            []outputItem       `json:"output,omitempty"`
	Usage             *usage             `json:"usage,omitempty"`
	IncompleteDetails *incompleteDetails `json:"incomplete_details,omitempty"`
	Error             *apiError          `json:"error,omitempty"`
}

// outputItem is the assistant message a response produced.
type outputItem struct {
	Type    string `json:"type"`
	ID      string `json:"id"`
	Role    string `json:"role"`
	Status  string `json:"status"`
	Content []part `json:"content"`
}

type usage struct {
	InputTokens  int `json:"input_tokens"`
	OutputTokens int `json:"output_tokens"`
	TotalTokens  int `json:"total_tokens"`
}

type incompleteDetails struct {
	Reason string `json:"reason"`
}

// errorEvent is the error event.
type errorEvent struct {
	Type       string   `json:"type"`
	StreamID   string   `json:"stream_id,omitempty"`
	ResponseID string   `json:"response_id,omitempty"`
	Status     int      `json:"status"`
	Error      apiError `json:"error"`
}

// apiError is the error object of every wire.
type apiError struct {
	Type    string `json:"type"`
	Code    string `json:"code,omitempty"`
	Message string `json:"message"`
}
