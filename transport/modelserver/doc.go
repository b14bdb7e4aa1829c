// Package modelserver is the loopback model server that tests, benchmarks
// and `wisp model-server` run against: it speaks the OpenAI Responses
// WebSocket wire, the OpenAI-compatible SSE wires and the FIM wires
// (Codestral, DeepSeek, llama.cpp, Ollama), answers from a script of canned
// replies, the true continuation of a folder's files (a perfect model,
// Continuation) or a fallback transport.Model, paces tokens with knobs for
// time-to-first-token, rate and network delay, can model a prompt cache
// (prefill time for uncached prompt tokens, warm-ups) and a model that is
// sometimes wrong (a seeded share of plausible wrong lines) and says, as
// token logprobs on every wire that reports them (logprobs.go), as
// calibrated as asked, where it doubted, injects faults, and counts what
// it generated after a cancel so tests can prove that cancellation stops
// the model.
package modelserver
