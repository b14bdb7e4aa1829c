package edits

import "strings"

// Conform fits code, extracted from a model's reply, to the region it will
// replace: it takes the region's line terminator ("\r\n" when most of the
// region's lines end so, else "\n") and ends with exactly the region's run
// of trailing line terminators, since models add or drop final newlines at
// will.
func Conform(region, code string) string {
	crlf := strings.Count(region, "\r\n")
	if crlf > 0 && crlf*2 >= strings.Count(region, "\n") {
		code = strings.ReplaceAll(code, "\r\n", "\n")
		code = strings.ReplaceAll(code, "\n", "\r\n")
	} else if crlf == 0 {
		code = strings.ReplaceAll(code, "\r\n", "\n")
	}
	tail := region[len(strings.TrimRight(region, "\r\n")):]
	return strings.TrimRight(code, "\r\n") + tail
}
