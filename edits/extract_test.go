package edits

import (
	"errors"
	"testing"
)

func TestExtractCode(t *testing.T) {
	for _, tc := range []struct{ name, reply, want string }{
		{"plain code", "func f() {}\n", "func f() {}\n"},
		{"fenced with prose",
			"Sure! Here is the updated function:\n\n```go\nfunc f() int {\n\treturn 1\n}\n```\n\nI changed the return value.\n",
			"func f() int {\n\treturn 1\n}\n"},
		{"largest of several fences",
			"```\nx\n```\nand the whole thing:\n```python\ndef f():\n    return 2\n```\n",
			"def f():\n    return 2\n"},
		{"tilde fence", "~~~\na = 1\n~~~\n", "a = 1\n"},
		{"unclosed fence", "```go\nfunc f() {\n\treturn\n", "func f() {\n\treturn\n"},
		{"leading chatter", "Here is the code:\nx := 1\ny := 2\n", "x := 1\ny := 2\n"},
		{"short python line is code", "return total\n", "return total\n"},
		{"comment is code", "// Add adds two numbers.\n", "// Add adds two numbers.\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := ExtractCode(tc.reply)
			if err != nil {
				t.Fatalf("ExtractCode: %v", err)
			}
			if got != tc.want {
				t.Errorf("ExtractCode = %q, want %q", got, tc.want)
			}
		})
	}
}

func TestExtractCodeRefuses(t *testing.T) {
	for _, reply := range []string{
		"",
		"  \n\n",
		"I'm sorry, I can't help with that.",
		"I cannot rewrite this code because it is incomplete.\n",
		"The function already does what you ask. No change is needed.\n",
		"```go\n```\n",
	} {
		if got, err := ExtractCode(reply); !errors.Is(err, ErrNotCode) {
			t.Errorf("ExtractCode(%q) = %q, %v; want ErrNotCode", reply, got, err)
		}
	}
}

func TestConform(t *testing.T) {
	for _, tc := range []struct{ region, code, want string }{
		{"a\nb\n", "x\ny", "x\ny\n"},
		{"a\nb\n", "x\ny\n\n\n", "x\ny\n"},
		{"a\nb", "x\ny\n", "x\ny"},
		{"a\r\nb\r\n", "x\ny\n", "x\r\ny\r\n"},
		{"a\r\nb\r\n", "x\r\ny", "x\r\ny\r\n"},
		{"a\nb\n", "x\r\ny\r\n", "x\ny\n"},
	} {
		if got := Conform(tc.region, tc.code); got != tc.want {
			t.Errorf("Conform(%q, %q) = %q, want %q", tc.region, tc.code, got, tc.want)
		}
	}
}
