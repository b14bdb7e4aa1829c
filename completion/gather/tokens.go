package gather

// DefaultBudget is the context size, in estimated tokens, when the caller
// names none. 1,500 tokens (about 5 KB of code: the enclosing function,
// its neighbours, the imports and a handful of signatures) is where
// completion quality stops improving noticeably for line and block
// completions, while prefill time, which adds directly to the time to the
// first token, keeps growing with every token sent.
const DefaultBudget = 1500

// bytesPerToken is the estimator's ratio: code-trained BPE tokenisers
// average about 3.5 bytes of source code per token.
const bytesPerToken = 3.5

// Estimate returns the estimated token count of s: its length in bytes
// divided by 3.5, rounded up. It is deliberately tokeniser-free: exact
// counts differ between models, and the budget only has to be right to
// within a few percent to keep prompts small.
func Estimate(s string) int {
	return (len(s)*2 + 6) / 7
}

// bytesFor returns how many bytes of text fit in tokens.
func bytesFor(tokens int) int {
	return int(float64(tokens) * bytesPerToken)
}
