package transport

// Wire shapes of the Responses API WebSocket mode, exactly as the openai-ws
// client sends and accepts them. The loopback model server speaks the same.
//
// Handshake:
//
//	GET wss://HOST/v1/responses   (Upgrade: websocket)
//	Authorization: Bearer KEY
//	OpenAI-Beta: responses_websockets=2026-02-06
//
// A refused handshake is an HTTP error response (401, 429 with Retry-After,
// …) whose body may be {"error":{"type":T,"code":C,"message":M}}.
//
// Client → server, one JSON object per text frame:
//
//	{"type":"response.create","model":M,"instructions":I,"input":TEXT,
//	 "max_output_tokens":N,"stream_id":S,"store":false}
//	   with Request.DoubtBelow, also
//	   "include":["message.output_text.logprobs"],"top_logprobs":K
//	{"type":"response.cancel","response_id":R,"stream_id":S}
//
// The Responses API takes no stop sequences, so Request.Stop is applied on
// our side (the lane ends, and is cancelled at the model, where a stop
// string appears); Request.Temperature is not sent, since reasoning models
// refuse it. max_output_tokens is omitted when no limit is set; response_id is omitted
// when the cancel is sent before response.created arrived (it is sent again
// with the id once it does). The server tags every event of a response
// with its create's stream_id.
//
// Server → client (other types, such as response.in_progress or
// response.output_item.added, are accepted and ignored):
//
//	{"type":"response.created","stream_id":S,"response":{"id":R,"status":"in_progress"}}
//	{"type":"response.output_text.delta","stream_id":S,"delta":TEXT}
//	   with logprobs asked for, also "logprobs":[{"token":T,"logprob":L,
//	   "top_logprobs":[{"token":T,"logprob":L},…]},…], one per token
//	{"type":"response.output_text.done","stream_id":S,"text":TEXT}
//	{"type":"response.completed","stream_id":S,"response":{"id":R,"status":"completed","usage":{"output_tokens":N}}}
//	{"type":"response.incomplete","stream_id":S,"response":{"id":R,"status":"incomplete","incomplete_details":{"reason":"max_output_tokens"}}}
//	{"type":"response.failed","stream_id":S,"response":{"id":R,"status":"failed","error":{"code":C,"message":M}}}
//	{"type":"error","stream_id":S,"status":429,"error":{"type":T,"code":C,"message":M}}
//
// Every response ends in exactly one terminal event (completed, failed or
// incomplete), or, if its create was refused, an error event instead of
// response.created. Until then it counts against the connection's limits,
// even when wisp has stopped listening.
//
// What the service documents, and wisp keeps to:
//
//   - No cancel event. wisp sends response.cancel (servers that honour it
//     stop at once), and an error answering it (code unknown_event_type,
//     or a message naming response.cancel) fails nothing: the connection
//     stops sending cancels and supersedes instead. A stale response keeps
//     generating, so max_output_tokens stays small.
//   - At most 16 responses in flight and 32 stream_ids per connection
//     (websocket_stream_limit_reached). wisp counts a response in flight
//     from its create to its terminal event, abandoned or not; it names
//     lanes "wisp-1" … "wisp-32" per connection and reuses a name only
//     once its response has ended; a request beyond 16 waits for one to
//     end. A refusal lowers the connection's limit and the request is
//     sent again; three refusals retire the connection.
//   - Connections last 60 minutes. wisp replaces its own at 55; an error
//     with websocket_connection_limit_reached ends the connection, and
//     requests that have had no output are sent again on a new one.
//   - wisp never sends previous_response_id: every completion is a fresh
//     prompt, so nothing depends on the connection's cached responses. A
//     previous_response_not_found is treated as a refused create and sent
//     again.
//
// An error event is matched to the request it answers (its stream_id, or
// without one the oldest create not yet answered); it never fails other
// requests or the connection.

const (
	wsBetaHeader = "OpenAI-Beta"
	wsBetaValue  = "responses_websockets=2026-02-06"
)

// Event types.
const (
	evCreated    = "response.created"
	evDelta      = "response.output_text.delta"
	evTextDone   = "response.output_text.done"
	evCompleted  = "response.completed"
	evFailed     = "response.failed"
	evIncomplete = "response.incomplete"
	evError      = "error"

	codeConnLimit    = "websocket_connection_limit_reached"
	codeStreamLimit  = "websocket_stream_limit_reached"
	codePrevNotFound = "previous_response_not_found"
	codeUnknownEvent = "unknown_event_type"
)

// wsCreate is the response.create frame.
type wsCreate struct {
	Type            string `json:"type"`
	Model           string `json:"model"`
	Instructions    string `json:"instructions,omitempty"`
	Input           string `json:"input"`
	MaxOutputTokens int    `json:"max_output_tokens,omitempty"`
	StreamID        string `json:"stream_id"`
	Store           bool   `json:"store"`
	// Generate false asks only to read the prompt into the cache
	// (PromptWarmer); omitted otherwise.
	Generate *bool `json:"generate,omitempty"`
	// Include and TopLogprobs ask for each token's probability and its
	// likeliest alternatives (Request.DoubtBelow); omitted otherwise.
	Include     []string `json:"include,omitempty"`
	TopLogprobs int      `json:"top_logprobs,omitempty"`
}

// wsCancel is the response.cancel frame.
type wsCancel struct {
	Type       string `json:"type"`
	ResponseID string `json:"response_id,omitempty"`
	StreamID   string `json:"stream_id"`
}

// wsEvent is any server event; fields a type doesn't use stay zero.
type wsEvent struct {
	Type     string `json:"type"`
	StreamID string `json:"stream_id"`
	Delta    string `json:"delta"`
	// Logprobs, on a delta of a response created with the logprobs
	// include, scores each token the delta holds.
	Logprobs []tokenLogprob `json:"logprobs"`
	Status   int            `json:"status"`
	Error    *wireError     `json:"error"`
	Response *wsResponse    `json:"response"`
}

// wsResponse is the response object carried by response.* events.
type wsResponse struct {
	ID     string `json:"id"`
	Status string `json:"status"`
	Usage  *struct {
		OutputTokens int `json:"output_tokens"`
	} `json:"usage"`
	IncompleteDetails *struct {
		Reason string `json:"reason"`
	} `json:"incomplete_details"`
	Error *wireError `json:"error"`
}

// wireError is the error object of OpenAI-style APIs, in events and in
// HTTP error bodies ({"error":{…}}).
type wireError struct {
	Type    string `json:"type"`
	Code    string `json:"code"`
	Message string `json:"message"`
}
