package edits

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"sync"

	"golang.org/x/sync/errgroup"

	"github.com/wisp-lsp/wisp/transport"
)

// defaultConcurrency bounds how many files Run edits at once when
// RunOptions.Concurrency is not set.
const defaultConcurrency = 4

// RunOptions tunes Run. The zero value edits four files at a time and
// writes nothing.
type RunOptions struct {
	// Concurrency bounds how many files are edited at once; 0 means 4.
	Concurrency int
	// Write writes each changed file with WriteBack.
	Write bool
	// Progress, when not nil, is called after each file finishes with the
	// number finished so far, the total and the file's path. Calls never
	// overlap and done increases by one each time.
	Progress func(done, total int, path string)
	// Language is the LSP language id for every file; empty means detect
	// it from each file's extension.
	Language string
}

// Status says how the edit of one file ended.
type Status int

// The statuses of a FileResult.
const (
	// NoChange: the model's rewrite equals the original.
	NoChange Status = iota
	// Changed: the result holds edits (and, with RunOptions.Write, the
	// file was written).
	Changed
	// Failed: the file could not be edited; FileResult.Err says why.
	Failed
)

// String returns "unchanged", "changed" or "failed", the names the JSON
// output uses.
func (s Status) String() string {
	switch s {
	case Changed:
		return "changed"
	case Failed:
		return "failed"
	}
	return "unchanged"
}

// FileResult is the outcome of editing one target.
type FileResult struct {
	Target Target
	Status Status
	// Edits are byte offsets into Before, sorted and non-overlapping;
	// empty unless Status is Changed (or Failed while writing).
	Edits []Edit
	// Before is the file as read and After the file with Edits applied;
	// both empty when the file could not be read.
	Before, After string
	// Diff is the unified diff from Before to After; "" without edits.
	Diff string
	// Err is why the edit failed; nil unless Status is Failed.
	Err error
	// Written says where and how the file was written; nil unless it was.
	Written *Written
}

// Run edits every target as instruction says, asking model for each, and
// returns one result per target in the order given. Files are edited
// concurrently, at most opts.Concurrency at a time. A target that fails
// (missing, unreadable, binary or not a regular file, a range outside it,
// a reply that is not code, with RunOptions.Write a file the user may not
// write or one changed on disk before writing) fails alone and never leaves
// a partial write. A file named by two targets fails the second.
//
// The error is for the run as a whole: a nil model or an empty instruction,
// or ctx ending before every file was done.
func Run(ctx context.Context, model transport.Model, targets []Target, instruction string, opts RunOptions) ([]FileResult, error) {
	if model == nil {
		return nil, errors.New("edit: no model")
	}
	if instruction == "" {
		return nil, errors.New("edit: empty instruction")
	}
	results := make([]FileResult, len(targets))
	limit := opts.Concurrency
	if limit <= 0 {
		limit = defaultConcurrency
	}
	var (
		g    errgroup.Group
		mu   sync.Mutex // serialises Progress and guards done
		done int
	)
	g.SetLimit(limit)
	seen := make(map[string]bool, len(targets))
	for i, t := range targets {
		results[i].Target = t
		key := filepath.Clean(t.Path)
		if seen[key] {
			results[i].Status = Failed
			results[i].Err = fmt.Errorf("%s: named more than once; give one range per file", t.Path)
			continue
		}
		seen[key] = true
		g.Go(func() error {
			if err := ctx.Err(); err != nil {
				results[i].Status = Failed
				results[i].Err = fmt.Errorf("%s: %w", t.Path, err)
			} else {
				editFile(ctx, model, instruction, opts, &results[i])
			}
			if opts.Progress != nil {
				mu.Lock()
				done++
				opts.Progress(done, len(targets), t.Path)
				mu.Unlock()
			}
			return nil // a file's failure is in its result
		})
	}
	_ = g.Wait() // every goroutine returns nil
	return results, ctx.Err()
}
