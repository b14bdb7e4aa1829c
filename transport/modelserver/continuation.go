package modelserver

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// Continuation answers completions as a perfect model would: with the true
// continuation of the text before the cursor, read from the full versions
// of the files under a folder. Like a real model it does not stop at the
// end of the cursor's line: it runs on into the lines after, until the
// text reaches the request's suffix (fill-in-the-middle), one of its stop
// sequences, the end of the file, or the server's bound of MaxTokens.
//
// The cursor is found by the end of the prompt's prefix: the shortest tail
// of it (256 bytes or more, doubling) that occurs exactly once in the
// files, or, if even the whole prefix occurs several times, its first
// occurrence (files in name order). A prefix that occurs nowhere (the user
// wrote something the files lack, or a speculative prompt took a
// suggestion the files do not hold) and quick edits go to Fallback. The
// files are indexed once (corpus), so a request does not search them all.
type Continuation struct {
	corpus   *corpus // the files in name order; immutable after NewContinuation
	fallback Backend
}

// NewContinuation reads the files under root (skipping hidden folders and
// files over 4 MB) and returns a Continuation that hands what it cannot
// answer to fallback; a nil fallback fails those with ErrNoReply.
func NewContinuation(root string, fallback Backend) (*Continuation, error) {
	type file struct{ name, text string }
	var files []file
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if path != root && strings.HasPrefix(d.Name(), ".") {
				return filepath.SkipDir
			}
			return nil
		}
		info, err := d.Info()
		if err != nil || !info.Mode().IsRegular() || info.Size() > 4<<20 {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		files = append(files, file{name: path, text: string(b)})
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("continuation corpus %s: %w", root, err)
	}
	slices.SortFunc(files, func(a, b file) int { return strings.Compare(a.name, b.name) })
	texts := make([]string, len(files))
	for i, f := range files {
		texts[i] = f.text
	}
	return &Continuation{corpus: newCorpus(texts), fallback: fallback}, nil
}

// Generate implements Backend.
func (c *Continuation) Generate(ctx context.Context, q Query, yield func(string) bool) error {
	text, ok := c.continuation(q)
	if !ok {
		if c.fallback == nil {
			return ErrNoReply
		}
		return c.fallback.Generate(ctx, q, yield)
	}
	return TextBackend(text).Generate(ctx, q, yield)
}

// minTail is the shortest prefix tail the cursor is located by.
const minTail = 256

// continuation returns the true continuation for q, bounded, and whether
// the prefix was found.
func (c *Continuation) continuation(q Query) (string, bool) {
	if q.Instruction != "" || q.Prefix == "" {
		return "", false
	}
	text, ok := c.locate(q.Prefix)
	if !ok {
		return "", false
	}
	// A generous bound in bytes: the server stops at MaxTokens tokens,
	// each at most a few bytes; 4 KB when the request sets none.
	limit := 4 << 10
	if q.MaxTokens > 0 {
		limit = 8 * q.MaxTokens
	}
	text = text[:min(len(text), limit)]
	if head := q.Suffix[:min(len(q.Suffix), 64)]; head != "" {
		// Fill in the middle: the text ends where the suffix begins.
		if i := strings.Index(text, head); i >= 0 {
			text = text[:i]
		}
	}
	cut := len(text)
	for _, s := range q.Stop {
		if i := strings.Index(text, s); s != "" && i >= 0 && i < cut {
			cut = i
		}
	}
	return text[:cut], true
}

// locate returns what follows prefix in the files: after the shortest
// tail of at least minTail bytes that occurs once, or after the first
// occurrence of the longest that occurs at all. A prompt may leave out
// lines far from the cursor (comments, in completion/gather), so a
// prefix whose last minTail bytes occur nowhere is located by a shorter
// tail that occurs once.
func (c *Continuation) locate(prefix string) (string, bool) {
	found := "" // the longest tail seen more than once
	for n := min(len(prefix), minTail); ; n = min(2*n, len(prefix)) {
		tail := prefix[len(prefix)-n:]
		at := c.corpus.find(tail, 2)
		switch {
		case len(at) == 1:
			return c.corpus.rest(at[0] + n), true
		case len(at) == 0 && found != "":
			return c.corpus.rest(c.closest(prefix, found) + len(found)), true
		case len(at) == 0:
			return c.locateShort(prefix)
		case n == len(prefix): // the whole prefix, several times: its first occurrence
			return c.corpus.rest(c.corpus.first(tail) + n), true
		}
		found = tail
	}
}

// closest returns where tail, a tail of prefix found several times,
// occurs after the text that agrees most with the rest of prefix
// (agreement); the first occurrence among equals, and the first of all
// when tail occurs more than maxCandidates times.
func (c *Continuation) closest(prefix, tail string) int {
	at := c.corpus.find(tail, maxCandidates+1)
	if len(at) > maxCandidates {
		return c.corpus.first(tail)
	}
	slices.Sort(at)
	best, bestScore := at[0], -1
	for _, a := range at {
		if score := agreement(c.corpus.text[max(0, a-agreementWindow):a], prefix[:len(prefix)-len(tail)]); score > bestScore {
			best, bestScore = a, score
		}
	}
	return best
}

// maxCandidates is the most occurrences of a tail closest compares.
const maxCandidates = 64

// agreementWindow is how much text before a candidate agreement reads.
const agreementWindow = 8 << 10

// agreement returns how many bytes of prefix's last lines occur in
// before, in order from its end, with any lines of before between them:
// a prompt that left lines out (far comments) still agrees with the text
// it was made from.
func agreement(before, prefix string) int {
	score := 0
	for prefix != "" && before != "" {
		i := strings.LastIndexByte(prefix[:len(prefix)-1], '\n') + 1
		line := prefix[i:]
		j := strings.LastIndex(before, line)
		if j < 0 {
			break
		}
		score += len(line)
		prefix, before = prefix[:i], before[:j]
	}
	return score
}

// locateShort locates prefix by a tail shorter than minTail, down to
// minTail/8 bytes: the longest found at all, after its occurrence that
// agrees most with the rest of prefix (closest).
func (c *Continuation) locateShort(prefix string) (string, bool) {
	for n := min(minTail, len(prefix)) / 2; n >= minTail/8; n /= 2 {
		tail := prefix[len(prefix)-n:]
		switch at := c.corpus.find(tail, 2); len(at) {
		case 0:
			continue
		case 1:
			return c.corpus.rest(at[0] + n), true
		default:
			return c.corpus.rest(c.closest(prefix, tail) + n), true
		}
	}
	return "", false
}
