package marker

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// Cursor marks the cursor in a file; two mark a selection.
const Cursor = "‸" // U+2038 CARET

// markOpen and markClose enclose a named mark: ⟨name⟩.
const markOpen, markClose = "⟨", "⟩"

// expansion is ⟦N×TEXT⟧: N copies of TEXT.
var expansion = regexp.MustCompile(`⟦(\d+)×([^⟧]*)⟧`)

// parseFile removes the markers from a file section's data.
func parseFile(name, data string, crlf bool) (File, error) {
	var bad error
	data = expansion.ReplaceAllStringFunc(data, func(m string) string {
		sub := expansion.FindStringSubmatch(m)
		n, err := strconv.Atoi(sub[1])
		if err != nil && bad == nil {
			bad = fmt.Errorf("%s: %s: %w", name, m, err)
		}
		return strings.Repeat(sub[2], n)
	})
	if bad != nil {
		return File{}, bad
	}
	if crlf {
		data = strings.ReplaceAll(data, "\n", "\r\n")
	}
	f := File{Name: name, Start: -1, End: -1}
	var b strings.Builder
	var cursors []int
	for data != "" {
		i := strings.IndexAny(data, Cursor+markOpen)
		if i < 0 {
			b.WriteString(data)
			break
		}
		b.WriteString(data[:i])
		data = data[i:]
		if rest, ok := strings.CutPrefix(data, Cursor); ok {
			cursors = append(cursors, b.Len())
			data = rest
			continue
		}
		j := strings.Index(data, markClose)
		if j < 0 {
			return File{}, fmt.Errorf("%s: %s without %s", name, markOpen, markClose)
		}
		f.Marks = append(f.Marks, Mark{Name: data[len(markOpen):j], Offset: b.Len()})
		data = data[j+len(markClose):]
	}
	f.Text = b.String()
	switch len(cursors) {
	case 0:
	case 1:
		f.Start, f.End = cursors[0], cursors[0]
	case 2:
		f.Start, f.End = cursors[0], cursors[1]
	default:
		return File{}, fmt.Errorf("%s: %d cursor marks %s, want one (a cursor) or two (a selection)", name, len(cursors), Cursor)
	}
	return f, nil
}
