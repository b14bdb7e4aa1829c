package completion

import "github.com/wisp-lsp/wisp/completion/gather"

// Buffer is another open document a completion's context may draw from.
type Buffer = gather.Buffer

// Workspace is every lookup the context builder makes across the
// workspace: definitions by name and by prefix, a type's members, and code
// like the cursor's. A Resolver that offers only some of them is used for
// what it offers (see gather.Input.Workspace).
type Workspace interface {
	gather.Resolver
	gather.PrefixResolver
	gather.MemberResolver
	gather.SimilarFinder
}
