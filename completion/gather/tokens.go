package gather

// DefaultBudget is the context size, in estimated tokens, when the caller
// names none. 1,500 tokens (about 5 KB of code: the enclosing function,
// its neighbours, the imports and a handful of signatures) is where
// completion quality stops improving noticeably for line and block
// completions, while prefill time, which adds directly to the time to the
// first token, keeps growing with every token sent.
const DefaultBudget = 1500

// bytesPerToken is the estimator's ratio, calibrated against real BPE
// tokenisers (cl100k_base and o200k_base agree within 1%) on the context
// benchmark's trees (`go run ./bench/context -calibrate`; 7.7 MB of
// source, up to 1 MiB per tree), in bytes per o200k token:
//
//	Go 3.55, Python 4.57, TypeScript 4.48, JavaScript 3.81, Rust 3.20
//	(all bytes pooled: 3.71)
//
// 3.8 is the ratio that minimises the mean relative error over the five
// languages (it lies at their median, JavaScript, and near their
// geometric mean, 3.89). No single ratio is right to within a few percent
// for every language: at 3.8 a budget is spent as about 16% more real
// tokens in Rust and 7% more in Go, and 17-20% fewer in Python and
// TypeScript (prose in docstrings and comments tokenises cheaply; Rust's
// punctuation dearly). The old 3.5 was 24-31% short in Python and
// TypeScript.
const bytesPerToken = 3.8

// Estimate returns the estimated token count of s: its length in bytes
// divided by 3.8, rounded up. It is deliberately tokeniser-free: exact
// counts differ between models and languages (see bytesPerToken), and
// the budget only has to keep prompts small, not exact.
func Estimate(s string) int {
	return (len(s)*5 + 18) / 19
}

// bytesFor returns how many bytes of text fit in tokens.
func bytesFor(tokens int) int {
	return int(float64(tokens) * bytesPerToken)
}
