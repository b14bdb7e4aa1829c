package workspace_test

import (
	"path/filepath"
	"slices"
	"testing"
)

// Members lists a type's methods first, then its fields, from the whole
// Go package; from another package only the exported ones.
func TestMembers(t *testing.T) {
	ix, root := openFixture(t, "gomod")
	names := func(from string) []string {
		var out []string
		for _, s := range ix.Members(filepath.Join(root, from), "Cart", 10) {
			out = append(out, s.Name)
		}
		return out
	}
	if got, want := names("cart/item.go"), []string{"Add", "Total", "Items", "owner"}; !slices.Equal(got, want) {
		t.Errorf("from its own package: Cart's members are %v, want %v", got, want)
	}
	if got, want := names("main.go"), []string{"Add", "Total", "Items"}; !slices.Equal(got, want) {
		t.Errorf("from another package: Cart's members are %v, want %v", got, want)
	}
	if got := ix.Members(filepath.Join(root, "main.go"), "Cart", 1); len(got) != 1 {
		t.Errorf("max 1 gave %d members", len(got))
	}
	if got := ix.Members(filepath.Join(root, "main.go"), "New", 10); len(got) != 0 {
		t.Errorf("a function has no members, got %v", got)
	}
}
