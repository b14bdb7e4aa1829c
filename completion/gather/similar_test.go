package gather_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/wisp-lsp/wisp/completion/gather"
)

// Code like the code at the cursor, from the files related to it, is
// shown: in main.go, using a cart, the cart package's own code that uses
// the same names.
func TestSimilarCodeInContext(t *testing.T) {
	ix, root := openFixture(t, "gomod")
	path := filepath.Join(root, "main.go")
	src := readFile(t, path)
	cursor := strings.Index(src, "fmt.Println")
	c := gather.Gather(gather.Input{Buffer: buffer(t, path, src), Cursor: cursor, Budget: 1000, Workspace: ix})
	for _, p := range c.Pieces {
		if p.Kind == "similar" && p.Path == filepath.Join(root, "cart", "cart.go") && strings.Contains(p.Text, "func (c *Cart) Add(it Item)") {
			if c.Tokens > c.Budget {
				t.Errorf("tokens %d over budget %d", c.Tokens, c.Budget)
			}
			return
		}
	}
	t.Fatalf("no similar code from cart/cart.go in %+v", c.Pieces)
}
