package lsp

import (
	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/wisp-lsp/wisp/text"
)

// The LSP boundary: protocol positions and ranges become text positions
// here, and only here; the text package turns them into byte offsets.

func fromPosition(p protocol.Position) text.Position {
	return text.Position{Line: int(p.Line), Character: int(p.Character)}
}

func fromRange(r protocol.Range) text.Range {
	return text.Range{Start: fromPosition(r.Start), End: fromPosition(r.End)}
}

func toPosition(p text.Position) protocol.Position {
	return protocol.Position{Line: uint32(p.Line), Character: uint32(p.Character)}
}

func toRange(r text.Range) protocol.Range {
	return protocol.Range{Start: toPosition(r.Start), End: toPosition(r.End)}
}

// rangeOf converts byte offsets in t to a protocol range in enc. The
// offsets are clamped to t, and end to no earlier than start: a range
// computed from an offset that went wrong (a text that changed, a long
// line's window) still names a place in the document the client holds.
func rangeOf(t *text.Text, start, end int, enc text.Encoding) (protocol.Range, error) {
	start = max(0, min(start, t.Len()))
	end = max(start, min(end, t.Len()))
	r, err := t.RangeOf(start, end, enc)
	if err != nil {
		return protocol.Range{}, err
	}
	return toRange(r), nil
}

// versionedWorkspaceEdit puts edits of u at version in a workspace edit,
// versioned when the client takes document changes.
func versionedWorkspaceEdit(client clientFeatures, u uri.URI, version int32, textEdits []protocol.TextEdit) protocol.WorkspaceEdit {
	if !client.documentChanges {
		return protocol.WorkspaceEdit{Changes: map[uri.URI][]protocol.TextEdit{u: textEdits}}
	}
	elems := make([]protocol.TextDocumentEditElement, 0, len(textEdits))
	for i := range textEdits {
		elems = append(elems, &textEdits[i])
	}
	return protocol.WorkspaceEdit{DocumentChanges: []protocol.DocumentChange{&protocol.TextDocumentEdit{
		TextDocument: protocol.OptionalVersionedTextDocumentIdentifier{
			TextDocumentIdentifier: protocol.TextDocumentIdentifier{URI: u},
			Version:                &version,
		},
		Edits: elems,
	}}}
}
