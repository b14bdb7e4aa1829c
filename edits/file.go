package edits

import (
	"context"
	"fmt"
	"strings"
	"unicode/utf8"

	udiff "github.com/aymanbagabas/go-udiff"

	"github.com/wisp-lsp/wisp/syntax"
	"github.com/wisp-lsp/wisp/text"
	"github.com/wisp-lsp/wisp/transport"
)

// sniffLen is how much of a file is checked for being text.
const sniffLen = 8 << 10

// editFile runs one target through the quick-edit pipeline and fills r,
// whose Target is set. r.Status ends Failed with r.Err on any error.
func editFile(ctx context.Context, model transport.Model, instruction string, opts RunOptions, r *FileResult) {
	if err := editFileErr(ctx, model, instruction, opts, r); err != nil {
		r.Status = Failed
		// Errors from opening the file name it already (as os's do);
		// the others get it, so that Err names the file once.
		if !strings.Contains(err.Error(), r.Target.Path) {
			err = fmt.Errorf("%s: %w", r.Target.Path, err)
		}
		r.Err = err
	}
}

func editFileErr(ctx context.Context, model transport.Model, instruction string, opts RunOptions, r *FileResult) error {
	path := r.Target.Path
	data, err := readTarget(path, opts.Write)
	if err != nil {
		return err
	}
	if err := CheckText(data); err != nil {
		return err
	}
	doc := text.New(string(data))
	r.Before, r.After = doc.String(), doc.String()
	start, end, err := r.Target.Offsets(doc)
	if err != nil {
		return err
	}
	var tree *syntax.Tree
	if lang := syntax.Detect(opts.Language, path); lang != nil {
		// A failed parse leaves tree nil: the edit goes on as plain text.
		if tree, err = syntax.Parse(ctx, lang, doc); err == nil {
			defer tree.Close()
		} else if ctx.Err() != nil {
			return ctx.Err()
		}
	}
	region := Region{Start: 0, End: doc.Len()}
	if r.Target.Line != 0 {
		if region, err = Scope(doc, tree, start, end); err != nil {
			return err
		}
	}
	r.Edits, err = Rewrite(ctx, model, Quick{
		Doc: doc, Tree: tree, Region: region,
		Instruction: instruction, Path: path, Language: opts.Language,
	})
	if err != nil {
		return err
	}
	if len(r.Edits) == 0 {
		r.Status = NoChange
		return nil
	}
	if r.After, err = Apply(r.Before, r.Edits); err != nil {
		return err
	}
	if r.Diff, err = unified(path, r.Before, r.Edits); err != nil {
		return err
	}
	r.Status = Changed
	if opts.Write {
		w, err := WriteBack(path, data, []byte(r.After))
		if err != nil {
			return err
		}
		r.Written = &w
	}
	return nil
}

// readTarget reads the regular file at path. When the edit is to be
// written it also checks, before the model is asked, that the user may
// write the file.
func readTarget(path string, write bool) ([]byte, error) {
	if !write {
		return ReadRegular(path)
	}
	f, _, err := openForWrite(path)
	return readAndClose(f, path, err)
}

// CheckText refuses data that is not text, with an error wrapping
// ErrBinary: a NUL byte or invalid UTF-8 in its first 8 KB (a character
// cut by the 8 KB boundary is fine). wisp edit, complete and context all
// refuse through it.
func CheckText(data []byte) error {
	head := data[:min(len(data), sniffLen)]
	if len(data) > sniffLen {
		for i := len(head) - 1; i >= 0 && i >= len(head)-utf8.UTFMax; i-- {
			if utf8.RuneStart(head[i]) {
				if !utf8.FullRune(head[i:]) {
					head = head[:i]
				}
				break
			}
		}
	}
	for i, b := range head {
		if b == 0 {
			return fmt.Errorf("%w: NUL byte at offset %d", ErrBinary, i)
		}
	}
	if !utf8.Valid(head) {
		return fmt.Errorf("%w: invalid UTF-8 in the first %d bytes", ErrBinary, len(head))
	}
	return nil
}

// unified formats edits to before as a unified diff of path with three
// lines of context.
func unified(path, before string, edits []Edit) (string, error) {
	ue := make([]udiff.Edit, len(edits))
	for i, e := range edits {
		ue[i] = udiff.Edit{Start: e.Start, End: e.End, New: e.Text}
	}
	d, err := udiff.ToUnified(path, path, before, ue, udiff.DefaultContextLines)
	if err != nil {
		return "", fmt.Errorf("unified diff: %w", err)
	}
	return d, nil
}
