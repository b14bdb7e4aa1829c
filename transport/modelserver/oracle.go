package modelserver

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/wisp-lsp/wisp/transport"
)

// Oracle answers next-edit requests (transport.NextEdit) from the "after"
// versions of files: a folder holding, for each file being edited, the
// text it should end up as. It finds where the request's region lies in
// the after file (aligning the region and the lines around it by lines)
// and answers that part of the after file, so tests and benchmarks of
// next-edit suggestions are deterministic. A region whose after version
// is the same, or a file the folder lacks, is answered unchanged: nothing
// follows. Every other request goes to Fallback.
type Oracle struct {
	// Root is the folder of after versions; a request's path is matched
	// to the file under Root sharing the longest path suffix with it.
	Root string
	// Fallback answers what is not a next-edit request; nil fails those
	// with ErrNoReply.
	Fallback Backend
}

// Generate implements Backend.
func (o Oracle) Generate(ctx context.Context, q Query, yield func(string) bool) error {
	ne, ok := transport.ParseNextEdit(q.Instruction)
	if !ok {
		if o.Fallback == nil {
			return ErrNoReply
		}
		return o.Fallback.Generate(ctx, q, yield)
	}
	rewrite := q.Prefix
	if after, err := o.after(ne.Path); err == nil {
		rewrite = Rewrite(ne.Above, q.Prefix, ne.Below, after)
	}
	if !strings.HasSuffix(rewrite, "\n") {
		rewrite += "\n"
	}
	return TextBackend("```\n"+rewrite+"```\n").Generate(ctx, q, yield)
}

// after reads the after version of path: the file under Root whose path
// relative to Root is the longest suffix of path.
func (o Oracle) after(path string) (string, error) {
	parts := strings.Split(filepath.ToSlash(filepath.Clean(path)), "/")
	for k := range parts {
		rel := filepath.Join(parts[k:]...)
		if rel == "" || rel == "." || strings.HasPrefix(rel, "..") || filepath.IsAbs(rel) {
			continue
		}
		data, err := os.ReadFile(filepath.Join(o.Root, rel))
		if err == nil {
			return string(data), nil
		}
		if !errors.Is(err, os.ErrNotExist) {
			return "", fmt.Errorf("oracle: %w", err)
		}
	}
	return "", fmt.Errorf("oracle: no after version of %s under %s: %w", path, o.Root, os.ErrNotExist)
}

// Rewrite returns what region, found between above and below in the
// current text, is in after. The lines of above+region+below are aligned
// with after's (longest common subsequence); the region's edges map
// through the alignment, and lines inserted right at an edge belong to
// the region.
func Rewrite(above, region, below, after string) string {
	w := splitKeep(above + region + below)
	a := splitKeep(after)
	start, end := len(splitKeep(above)), len(splitKeep(above+region))
	segs := align(w, a)
	s, e := mapEdge(segs, start, false), mapEdge(segs, end, true)
	if e < s {
		e = s
	}
	return strings.Join(a[s:e], "")
}

// segment is a run of the alignment: n equal lines, or a hunk of del
// lines of the current text replaced by ins lines of the after text.
type segment struct {
	wi, aj   int // where the run starts in each text
	equal    bool
	n        int // equal lines
	del, ins int // a hunk's lines in each text
}

// align returns the line alignment of w and a as runs, in order.
func align(w, a []string) []segment {
	// lcs[i][j] is the length of the longest common subsequence of
	// w[i:] and a[j:].
	lcs := make([][]int32, len(w)+1)
	for i := range lcs {
		lcs[i] = make([]int32, len(a)+1)
	}
	for i := len(w) - 1; i >= 0; i-- {
		for j := len(a) - 1; j >= 0; j-- {
			if w[i] == a[j] {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	var segs []segment
	add := func(equal bool, i, j int) {
		if n := len(segs); n == 0 || segs[n-1].equal != equal {
			segs = append(segs, segment{wi: i, aj: j, equal: equal})
		}
	}
	i, j := 0, 0
	for i < len(w) || j < len(a) {
		switch {
		case i < len(w) && j < len(a) && w[i] == a[j] && lcs[i][j] == lcs[i+1][j+1]+1:
			add(true, i, j)
			segs[len(segs)-1].n++
			i, j = i+1, j+1
		case i < len(w) && (j == len(a) || lcs[i+1][j] >= lcs[i][j+1]):
			add(false, i, j)
			segs[len(segs)-1].del++
			i++
		default:
			add(false, i, j)
			segs[len(segs)-1].ins++
			j++
		}
	}
	return segs
}

// mapEdge maps a line boundary b of the current text into the after
// text. Inside a hunk, deleted and inserted lines pair up in order; an
// end edge at a hunk's end takes all of its inserted lines, a start edge
// at a hunk's start none of them are left out.
func mapEdge(segs []segment, b int, isEnd bool) int {
	for _, s := range segs {
		if s.equal {
			if b >= s.wi && b < s.wi+s.n {
				return s.aj + b - s.wi
			}
			continue
		}
		if b >= s.wi && b <= s.wi+s.del {
			k := b - s.wi
			if isEnd && k == s.del {
				return s.aj + s.ins
			}
			return s.aj + min(k, s.ins)
		}
	}
	// Past the last run: the end of both texts.
	if n := len(segs); n > 0 {
		last := segs[n-1]
		return last.aj + last.n + last.ins
	}
	return 0
}

// splitKeep splits s into lines that keep their newlines; "" has none.
func splitKeep(s string) []string {
	if s == "" {
		return nil
	}
	lines := strings.SplitAfter(s, "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	return lines
}
