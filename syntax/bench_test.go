package syntax

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/wisp-lsp/wisp/text"
)

// goFile generates a realistic Go file of about lines lines: a package
// clause, imports, and repeated types with methods and control flow.
func goFile(lines int) string {
	var b strings.Builder
	b.WriteString("package store\n\nimport (\n\t\"context\"\n\t\"errors\"\n\t\"fmt\"\n\t\"sync\"\n)\n\n")
	for i := 0; strings.Count(b.String(), "\n") < lines; i++ {
		fmt.Fprintf(&b, `// Shard%[1]d holds one slice of the keyspace.
type Shard%[1]d struct {
	mu    sync.Mutex
	items map[string][]byte // guarded by mu
	hits  int
}

// Get returns the value stored under key.
func (s *Shard%[1]d) Get(ctx context.Context, key string) ([]byte, error) {
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("get %%q: %%w", key, err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	v, ok := s.items[key]
	if !ok {
		return nil, errors.New("not found")
	}
	s.hits++
	return v, nil
}

// Put stores value under key, replacing any earlier value.
func (s *Shard%[1]d) Put(key string, value []byte) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.items == nil {
		s.items = make(map[string][]byte)
	}
	for i := 0; i < len(value); i++ {
		if value[i] == 0 {
			value = value[:i]
			break
		}
	}
	s.items[key] = value
}

`, i)
	}
	return b.String()
}

// BenchmarkKeystroke measures one keystroke in the middle of a ~5,000-line
// Go file: replace one character, reparse incrementally, and find the
// enclosing scopes at the cursor.
func BenchmarkKeystroke(b *testing.B) {
	src := text.New(goFile(5000))
	tree, err := Parse(context.Background(), langGo, src)
	if err != nil {
		b.Fatal(err)
	}
	// The cursor: inside "s.hits++" of a method halfway down the file.
	cursor := strings.Index(src.String()[src.Len()/2:], "s.hits++") + src.Len()/2 + 2
	chars := []string{"x", "y"}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		next, e, err := src.Replace(cursor, cursor+1, chars[i%2])
		if err != nil {
			b.Fatal(err)
		}
		nt, err := tree.Reparse(context.Background(), next, []text.Edit{e})
		if err != nil {
			b.Fatal(err)
		}
		if s, ok := nt.Enclosing(cursor, KindMethod); !ok || s.Name != "Get" {
			b.Fatalf("Enclosing = %+v, %v", s, ok)
		}
		tree.Close()
		tree, src = nt, next
	}
	b.StopTimer()
	tree.Close()
}
