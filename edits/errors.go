package edits

import "errors"

// Errors a quick edit can end with. Each is wrapped with the details of the
// case; test for them with errors.Is.
var (
	// ErrNotCode: the model's reply holds no code (a refusal, an
	// explanation, or nothing at all), so there is nothing to apply.
	ErrNotCode = errors.New("the model did not reply with code")
	// ErrConflict: the document changed, while the model worked, in a
	// place the edits touch; applying them would overwrite the user's
	// typing.
	ErrConflict = errors.New("the document changed where the edit applies")
	// ErrChangedOnDisk: the file on disk is no longer what was read and
	// edited, so writing would lose someone else's change.
	ErrChangedOnDisk = errors.New("file changed on disk since it was read")
	// ErrNotRegular: the path names a FIFO, a device, a socket or a
	// folder, which an edit neither reads nor replaces.
	ErrNotRegular = errors.New("not a regular file")
	// ErrNotWritable: the system does not let the user write the file
	// (its mode, an ACL, a read-only mount), so an edit does not replace
	// it, even where the folder would allow a new file in its place.
	ErrNotWritable = errors.New("not writable")
	// ErrNotFaithful: the file cannot be written without losing one of
	// its properties (a setuid or setgid bit only its owner may set
	// again), so it is left alone.
	ErrNotFaithful = errors.New("cannot be written without changing it beyond its content")
	// ErrBinary: the file is not UTF-8 text.
	ErrBinary = errors.New("not a text file")
	// ErrBadEdits: edits are out of bounds, unsorted or overlapping.
	ErrBadEdits = errors.New("invalid edits")
	// ErrEmptyRegion: there is nothing to edit at the cursor.
	ErrEmptyRegion = errors.New("nothing to edit here")
	// ErrBadTarget: a FILE[:LINE[:COL[-LINE:COL]]] target does not parse
	// or names a place outside its file.
	ErrBadTarget = errors.New("bad target")
)
