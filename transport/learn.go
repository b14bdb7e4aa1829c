package transport

import "context"

// Models that learn from the user's code implement these besides Model;
// the server finds them with a type assertion.

// Observer is implemented by models that learn from the open buffers, such
// as the local engine. The server tells it about every open and change.
type Observer interface {
	Observe(path, text string)
	Forget(path string)
}

// Indexer is implemented by models that learn from the workspace's files,
// such as the local engine. The server hands it the workspace folders at
// initialize, in the background.
type Indexer interface {
	IndexDir(ctx context.Context, root string, maxFiles int, maxBytes int64) error
}
