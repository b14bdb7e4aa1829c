package transport

import "context"

// Observer is implemented by models that learn from the open buffers, such
// as the local engine. The server tells it about every open and change.
type Observer interface {
	Observe(path, text string)
	Forget(path string)
}

// Unavailable returns a Model whose every generation fails with err. The
// server stands it in for a model that could not be opened, so requests
// get the reason instead of a crash.
func Unavailable(err error) Model { return unavailable{err} }

type unavailable struct{ err error }

func (u unavailable) Generate(context.Context, Request, func(string)) (Result, error) {
	return Result{}, u.err
}

func (unavailable) Close() error { return nil }

// Indexer is implemented by models that learn from the workspace's files,
// such as the local engine. The server hands it the workspace folders at
// initialize, in the background.
type Indexer interface {
	IndexDir(ctx context.Context, root string, maxFiles int, maxBytes int64) error
}
