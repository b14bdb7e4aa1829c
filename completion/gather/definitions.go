package gather

import (
	"fmt"
	"path/filepath"
	"sort"
	"strings"

	"github.com/wisp-lsp/wisp/lang"
	"github.com/wisp-lsp/wisp/syntax"
	"github.com/wisp-lsp/wisp/workspace"
)

// Resolver finds definitions of names as seen from a file: the workspace
// index (*workspace.Index) implements it. Resolve must be safe to call
// from any goroutine and must not block on indexing.
type Resolver interface {
	Resolve(fromPath string, names []string, max int) []workspace.Symbol
}

// PrefixResolver is a Resolver that also finds the definitions a word
// being typed may complete to, in the files related to fromPath
// (*workspace.Index implements it).
type PrefixResolver interface {
	ResolvePrefix(fromPath, prefix string, max int) []workspace.Symbol
}

// Limits of the definition search.
const (
	// maxDefinitionNames bounds the identifiers looked up per request.
	maxDefinitionNames = 40
	// maxDefinitions bounds the definitions asked of the resolver.
	maxDefinitions = 48
	// bodyLines bounds how far back the enclosing body is read.
	bodyLines = 200
	// statementLines is how far back identifiers are read when the
	// cursor is in no function.
	statementLines = 30
	// maxPrefixDefinitions bounds the definitions the word being typed
	// may complete to; minPrefix is the shortest word looked up so.
	maxPrefixDefinitions = 3
	minPrefix            = 2
)

// definitions returns, within tokens, the definitions of the identifiers
// the code around the cursor uses, from the workspace index: the
// receiver or object before a "." at the cursor first, then the current
// statement's and the enclosing function's identifiers, most recently
// used first. Keywords, the word being typed and names declared locally
// (parameters, local variables) are not looked up; definitions already in
// the windows are left out. Each piece is the definition's doc line and
// signature (small types with their members), never a body.
func (g *gatherer) definitions(tokens int) []Piece {
	if g.in.Workspace == nil || tokens <= 0 {
		return nil
	}
	names, typing := g.cursorNames()
	var syms []workspace.Symbol
	if pr, ok := g.in.Workspace.(PrefixResolver); ok && len(typing) >= minPrefix {
		// What the word being typed may become comes first: the
		// continuation starts with the rest of it.
		syms = pr.ResolvePrefix(g.in.Path, typing, maxPrefixDefinitions)
	}
	if len(names) == 0 && len(syms) == 0 {
		return nil
	}
	syms = append(syms, g.in.Workspace.Resolve(g.in.Path, names, maxDefinitions)...)
	if hop := typesIn(syms, names); len(hop) > 0 {
		// The types the found functions take and return: what a local
		// holding their result is, and so what comes after its ".".
		syms = append(syms, g.in.Workspace.Resolve(g.in.Path, hop, maxDefinitions/2)...)
	}
	firstLine, lastLine := g.doc.LineOf(g.prefixStart), g.doc.LineOf(g.suffixEnd)
	comment := commentPrefix(g.in.Tree, g.in.Path)
	// types maps "path\x00name" of the types found to their signatures,
	// which list their members: a member listed there is not shown on
	// its own (Go methods, Rust impl methods are not listed).
	types := map[string]string{}
	for _, s := range syms {
		switch s.Kind {
		case "type", "class", "interface", "enum":
			types[s.Path+"\x00"+s.Name] = s.Signature
		}
	}
	seen := map[string]bool{} // signatures already shown
	// Member listings of the types found keep memberShare of the tokens,
	// and get what the definitions leave.
	reserve := tokens * memberShare / 100
	tokens -= reserve
	// No one type's member list may take more than a third of the share.
	typeBytes := max(tokens/3*4, 80) // about four bytes of code a token
	perName := map[string]int{}      // a name met in many types is worth two
	var out []Piece
	for _, s := range syms {
		if perName[s.Name] == maxDefsPerName {
			continue
		}
		if sameFile(s.Path, g.in.Path) && s.Line >= firstLine && s.Line <= lastLine {
			continue // in view already
		}
		if sig, ok := types[s.Path+"\x00"+s.Parent]; ok && s.Parent != "" && containsWord(sig, s.Name) {
			continue // listed in its type's signature
		}
		if seen[s.Signature] || s.Signature == "" {
			continue
		}
		seen[s.Signature] = true
		if len(s.Signature) > typeBytes {
			s.Signature = clipMembers(s.Signature, typeBytes)
		}
		p := newPiece("definition", definitionWhy(s), s.Path, renderSymbol(s, comment), g.placeOf(s))
		if p.Tokens > tokens {
			continue
		}
		tokens -= p.Tokens
		perName[s.Name]++
		out = append(out, p)
	}
	return append(out, g.members(syms, seen, comment, tokens+reserve)...)
}

// MemberResolver is a Resolver that also lists a type's members
// (*workspace.Index implements it).
type MemberResolver interface {
	Members(fromPath, typeName string, max int) []workspace.Symbol
}

// Limits of the member listings.
const (
	// maxMemberTypes bounds the types whose members are listed.
	maxMemberTypes = 3
	// maxMembers bounds the members read of one type.
	maxMembers = 80
	// memberShare is the share of the definitions' tokens, in percent,
	// kept for member listings.
	memberShare = 40
)

// members lists, within tokens, the members of the types among syms
// (the ones found for the code at the cursor, most relevant first) that
// no piece shows yet: what may follow a "." on a value of that type. Go
// methods and Rust impl items live apart from their type's declaration,
// so its signature does not list them. Each listing is one piece, a
// comment naming the type, then its members, methods first: their
// signatures while they fit in half the tokens, then their names alone,
// because a type may have dozens of members and the model needs to know
// which exist more than how each is declared.
func (g *gatherer) members(syms []workspace.Symbol, shown map[string]bool, comment string, tokens int) []Piece {
	mr, ok := g.in.Workspace.(MemberResolver)
	if !ok || tokens <= 0 {
		return nil
	}
	var out []Piece
	listed := map[string]bool{}
	for _, s := range syms {
		if len(listed) == maxMemberTypes || tokens <= 0 {
			break
		}
		switch s.Kind {
		case "type", "class", "interface", "enum":
		default:
			continue
		}
		if listed[s.Name] {
			continue
		}
		listed[s.Name] = true
		// Signatures while they fit in half the tokens, then names.
		var b strings.Builder
		b.WriteString(comment + s.Name + " members:")
		full, names := true, 0
		seenName := map[string]bool{}
		for _, m := range mr.Members(g.in.Path, s.Name, maxMembers) {
			if seenName[m.Name] || shown[m.Signature] || m.Kind == "field" && containsWord(s.Signature, m.Name) {
				continue
			}
			seenName[m.Name] = true
			var next string
			switch {
			case full && m.Signature != "" && Estimate(b.String()+"\n"+m.Signature) <= tokens/2:
				next = "\n" + m.Signature
			case full:
				full = false
				next = "\n" + comment + "also: " + m.Name
			default:
				next = ", " + m.Name
			}
			if Estimate(b.String()+next) > tokens {
				break
			}
			names++
			b.WriteString(next)
		}
		if names == 0 {
			continue
		}
		line := b.String()
		p := newPiece("definition", fmt.Sprintf("members of %s (%s), which the code near the cursor uses", s.Name, filepath.Base(s.Path)),
			s.Path, line, syntax.Span{})
		tokens -= p.Tokens
		out = append(out, p)
	}
	return out
}

// renderSymbol shows a definition compactly: a comment line naming a
// member's owner and the doc line, then the signature.
func renderSymbol(s workspace.Symbol, comment string) string {
	note := s.Doc
	if s.Parent != "" && !strings.Contains(s.Signature, s.Parent) {
		note = s.Parent + "." + s.Name
		if s.Doc != "" {
			note += ": " + s.Doc
		}
	}
	if note == "" {
		return s.Signature
	}
	return comment + note + "\n" + s.Signature
}

func definitionWhy(s workspace.Symbol) string {
	name := s.Name
	if s.Parent != "" {
		name = s.Parent + "." + s.Name
	}
	return fmt.Sprintf("defines %s (%s, %s line %d), used near the cursor", name, s.Reason, filepath.Base(s.Path), s.Line+1)
}

// commentPrefix returns the line-comment marker of the buffer's language.
func commentPrefix(tree *syntax.Tree, path string) string {
	facts := lang.Detect("", path)
	if tree != nil {
		facts = tree.Language().Facts()
	}
	if facts == nil || facts.LineComment == "" {
		facts = lang.Plain
	}
	return facts.LineComment + " "
}

// placeOf returns the line s is defined on when that is in the current
// buffer, so that a window grown over the line drops the piece; the zero
// Span (no place) otherwise.
func (g *gatherer) placeOf(s workspace.Symbol) syntax.Span {
	if !sameFile(s.Path, g.in.Path) || s.Line < 0 || s.Line >= g.doc.LineCount() {
		return syntax.Span{}
	}
	return syntax.Span{Start: g.doc.LineStart(s.Line), End: g.doc.LineEnd(s.Line)}
}

func sameFile(a, b string) bool {
	if a == b {
		return true
	}
	aa, err1 := filepath.Abs(a)
	bb, err2 := filepath.Abs(b)
	return err1 == nil && err2 == nil && aa == bb
}

// cursorNames returns the identifiers worth resolving, best first: the
// chain of objects before a "." at the cursor, then the identifiers of
// the current statement and of the enclosing function's body up to the
// cursor, most recently used first. typing is the part of a word before
// the cursor, which is not a name yet.
func (g *gatherer) cursorNames() (names []string, typing string) {
	src := g.doc.String()
	skip := map[string]bool{}
	if g.in.Tree != nil {
		for _, n := range g.in.Tree.LocalNames(g.cursor) {
			skip[n] = true
		}
	}
	seen := map[string]bool{}
	add := func(w string) {
		if q, _, ok := strings.Cut(w, "."); ok && (keywords[q] || skip[q]) {
			return // a local's member: its type is what resolves
		}
		if len(w) > 1 && !keywords[w] && !skip[w] && !seen[w] {
			seen[w] = true
			names = append(names, w)
		}
	}
	// The word being typed is not a name yet; what precedes its "." is.
	word := g.cursor
	for word > 0 && isIdentPart(src[word-1]) {
		word--
	}
	if typing = src[word:g.cursor]; typing != "" && !isIdentStart(typing[0]) {
		typing = ""
	}
	for end := word; end > 0 && src[end-1] == '.'; {
		start := end - 1
		for start > 0 && isIdentPart(src[start-1]) {
			start--
		}
		if start == end-1 {
			break
		}
		// The object is looked up even when it is a local: its type's
		// name appears in the body and is resolved from there.
		if w := src[start : end-1]; len(w) > 1 && !keywords[w] && !seen[w] {
			seen[w] = true
			names = append(names, w)
		}
		end = start
	}
	from := g.doc.LineStart(max(0, g.doc.LineOf(g.cursor)-statementLines))
	for _, s := range g.scopes {
		if s.Kind == syntax.KindFunction || s.Kind == syntax.KindMethod {
			from = max(s.Span.Start, g.doc.LineStart(max(0, g.doc.LineOf(g.cursor)-bodyLines)))
		}
	}
	hash := commentPrefix(g.in.Tree, g.in.Path) == "# "
	for _, w := range recentIdentifiers(src[from:word], hash) {
		add(w)
		if len(names) == maxDefinitionNames {
			break
		}
	}
	return names, typing
}

// recentIdentifiers returns the identifiers in the code s, each once, the
// one used last first; an identifier right after "q." comes also as
// "q.name", just before it. Comments and string literals are skipped:
// their words are prose. hash says "#" starts a comment (Python), else
// "//" and "/*" do.
func recentIdentifiers(s string, hash bool) []string {
	last := map[string]int{}
	prev, prevEnd := "", -1 // the last identifier and where it ended
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case hash && c == '#', !hash && strings.HasPrefix(s[i:], "//"):
			i = skipTo(s, i, "\n")
		case !hash && strings.HasPrefix(s[i:], "/*"):
			i = skipTo(s, i+2, "*/")
		case c == '"' || c == '\'' || c == '`':
			i = skipString(s, i)
		case isIdentStart(c):
			j := i + 1
			for j < len(s) && isIdentPart(s[j]) {
				j++
			}
			last[s[i:j]] = i
			if prevEnd >= 0 && prevEnd == i-1 && s[i-1] == '.' {
				last[prev+"."+s[i:j]] = i
			}
			prev, prevEnd = s[i:j], j
			i = j
		case c >= '0' && c <= '9':
			for i < len(s) && isIdentPart(s[i]) {
				i++
			}
		default:
			i++
		}
	}
	out := make([]string, 0, len(last))
	for w := range last {
		out = append(out, w)
	}
	sort.Slice(out, func(i, j int) bool {
		if last[out[i]] != last[out[j]] {
			return last[out[i]] > last[out[j]]
		}
		return len(out[i]) > len(out[j]) // q.name before name
	})
	return out
}

// typesIn returns the type-like names (capitalised identifiers) in the
// signatures of the functions and methods in syms that are not in names.
func typesIn(syms []workspace.Symbol, names []string) []string {
	known := map[string]bool{}
	for _, n := range names {
		known[n] = true
	}
	var out []string
	for _, s := range syms {
		if s.Kind != "func" && s.Kind != "method" {
			continue
		}
		sig := s.Signature
		for i := 0; i < len(sig); {
			if !isIdentStart(sig[i]) {
				i++
				continue
			}
			j := i + 1
			for j < len(sig) && isIdentPart(sig[j]) {
				j++
			}
			if w := sig[i:j]; w[0] >= 'A' && w[0] <= 'Z' && len(w) > 1 && !keywords[w] && !known[w] {
				known[w] = true
				out = append(out, w)
			}
			i = j
		}
	}
	return out
}

// clipMembers cuts a type's one-line member list ("type T struct { a; b;
// c }") at a member boundary within n bytes, marking the cut with "…".
// A signature with no member list is returned as is.
func clipMembers(sig string, n int) string {
	cut := strings.LastIndex(sig[:min(n, len(sig))], "; ")
	if cut < 0 || strings.HasSuffix(sig[:cut], "; …") {
		return sig
	}
	if strings.HasSuffix(sig, " }") {
		return sig[:cut] + "; … }"
	}
	return sig[:cut] + "; …"
}

// containsWord reports whether w occurs in s as a whole identifier.
func containsWord(s, w string) bool {
	for i := 0; ; {
		j := strings.Index(s[i:], w)
		if j < 0 {
			return false
		}
		start, end := i+j, i+j+len(w)
		if (start == 0 || !isIdentPart(s[start-1])) && (end == len(s) || !isIdentPart(s[end])) {
			return true
		}
		i = start + 1
	}
}

// skipTo returns the offset just past the first end at or after i, or
// len(s).
func skipTo(s string, i int, end string) int {
	if j := strings.Index(s[i:], end); j >= 0 {
		return i + j + len(end)
	}
	return len(s)
}

// skipString returns the offset just past the string literal opening at
// i: to the same quote, over backslash escapes (not in raw ` strings),
// and never past the line's end for ' and " (an unclosed quote). A '
// with no other within a few bytes is a Rust lifetime.
func skipString(s string, i int) int {
	q := s[i]
	if q == '\'' && !strings.Contains(s[i+1:min(len(s), i+12)], "'") {
		return i + 1 // a Rust lifetime, not a character literal
	}
	for j := i + 1; j < len(s); j++ {
		switch {
		case s[j] == '\\' && q != '`':
			j++
		case s[j] == q:
			return j + 1
		case s[j] == '\n' && q != '`':
			return j
		}
	}
	return len(s)
}

// coveredByDefinition reports whether a signature piece repeats what a
// definition piece already shows.
func coveredByDefinition(taken []Piece, p Piece) bool {
	for _, t := range taken {
		if t.Kind == "definition" && strings.Contains(t.Text, p.Text) {
			return true
		}
	}
	return false
}
