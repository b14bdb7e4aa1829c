package gather

import (
	"fmt"
	"path/filepath"
	"slices"
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
	// maxImportedNames bounds the names the file's imports list that are
	// looked up after those near the cursor.
	maxImportedNames = 20
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
// the windows are left out. Each piece is a definition's signature
// (small types with their members), never a body: the signatures of all
// that fit come first, then the doc lines, in the same order, while the
// tokens last. More definitions fit so, and the model needs a signature
// to call a function more than the sentence saying what it does.
func (g *gatherer) definitions(tokens int) []Piece {
	if g.in.Workspace == nil || tokens <= 0 {
		return nil
	}
	near := g.cursorNames()
	names, typing := near.names, near.typing
	var syms []workspace.Symbol
	if pr, ok := g.in.Workspace.(PrefixResolver); ok && len(typing) >= minPrefix {
		// What the word being typed may become comes first: the
		// continuation starts with the rest of it.
		syms = pr.ResolvePrefix(g.in.Path, typing, maxPrefixDefinitions)
	}
	// Writing an import of a module: what the module defines is what the
	// import may bring.
	syms = append(syms, g.moduleSymbols(typing)...)
	if len(names) == 0 && len(syms) == 0 {
		return nil
	}
	syms = append(syms, g.in.Workspace.Resolve(g.in.Path, names, maxDefinitions)...)
	if hop := typesIn(syms, names, g.keywords); len(hop) > 0 {
		// The types the found functions take and return: what a local
		// holding their result is, and so what comes after its ".".
		syms = append(syms, g.in.Workspace.Resolve(g.in.Path, hop, maxDefinitions/2)...)
	}
	firstLine, lastLine := g.doc.LineOf(g.prefixStart), g.doc.LineOf(g.suffixEnd)
	comment := g.commentPrefix()
	// types maps "path\x00name" of the types shown to their signatures,
	// which list their members: a member listed there is not shown on
	// its own (Go methods, Rust impl methods are not listed).
	types := map[string]string{}
	seen := map[string]bool{} // signatures already shown
	// Member listings of the types found keep memberShare of the tokens,
	// and get what the definitions leave.
	reserve := tokens * memberShare / 100
	tokens -= reserve
	// No one type's member list may take more than a third of the share.
	typeBytes := max(tokens/3*4, 80) // about four bytes of code a token
	perName := map[string]int{}      // a name met in many types is worth two
	// Signatures come first, for every definition that fits; doc lines
	// after, in rank order, with the tokens the signatures leave (docs
	// holds them meanwhile).
	var shown []*shownDef
	var docs []pendingDoc
	// Members are shown inside their container's header, those of one
	// container together in one piece: groups maps "path\x00header" to
	// it.
	groups := map[string]*shownDef{}
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
		if len(s.Signature) > typeBytes {
			s.Signature = clipMembers(s.Signature, typeBytes)
		}
		doc := s.Doc
		s.Doc = ""
		if s.Container != "" {
			key := s.Path + "\x00" + s.Container
			d := groups[key]
			if d == nil {
				d = &shownDef{container: s.Container}
			}
			next := &shownDef{container: s.Container, syms: append(slices.Clip(d.syms), s)}
			p := newPiece("definition", definitionWhy(s), s.Path, next.render(comment), syntax.Span{})
			cost := p.Tokens
			if d.syms != nil {
				cost -= d.piece.Tokens
				p.Why = d.piece.Why + "; " + p.Why
			}
			if cost > tokens {
				continue
			}
			tokens -= cost
			seen[s.Signature] = true
			perName[s.Name]++
			d.syms, d.piece = next.syms, p
			if groups[key] == nil {
				groups[key] = d
				shown = append(shown, d)
			}
			docs = append(docs, pendingDoc{d, len(d.syms) - 1, doc})
			continue
		}
		d := &shownDef{syms: []workspace.Symbol{s}}
		d.piece = newPiece("definition", definitionWhy(s), s.Path, d.render(comment), g.placeOf(s))
		if d.piece.Tokens > tokens {
			continue
		}
		tokens -= d.piece.Tokens
		seen[s.Signature] = true
		perName[s.Name]++
		if s.IsType() {
			types[s.Path+"\x00"+s.Name] = s.Signature
		}
		shown = append(shown, d)
		docs = append(docs, pendingDoc{d, 0, doc})
	}
	// A type shown whole after some of its members were shown in their
	// container already lists them: the group says it twice.
	for _, d := range groups {
		s := d.syms[0]
		sig, ok := types[s.Path+"\x00"+s.Parent]
		if ok && s.Parent != "" && !slices.ContainsFunc(d.syms, func(m workspace.Symbol) bool { return !containsWord(sig, m.Name) }) {
			d.dropped = true
			tokens += d.piece.Tokens
		}
	}
	for _, pd := range docs {
		d := pd.def
		if d.dropped || pd.doc == "" {
			continue
		}
		d.syms[pd.member].Doc = pd.doc
		text := d.render(comment)
		if cost := Estimate(text) - d.piece.Tokens; cost <= tokens {
			tokens -= cost
			d.piece.Text, d.piece.Tokens = text, d.piece.Tokens+cost
		} else {
			d.syms[pd.member].Doc = ""
		}
	}
	var out []Piece
	for _, d := range shown {
		if !d.dropped {
			out = append(out, d.piece)
		}
	}
	return append(out, g.members(syms, seen, types, comment, tokens+reserve)...)
}

// shownDef is a definition piece being chosen: one symbol, or the
// members of one container shown inside its header.
type shownDef struct {
	piece     Piece
	container string // the members' container header; "" for one symbol
	syms      []workspace.Symbol
	dropped   bool // a type shown whole lists the members already
}

// render shows d's symbols with the doc lines they carry.
func (d *shownDef) render(comment string) string {
	if d.container == "" {
		return renderSymbol(d.syms[0], comment)
	}
	members := make([]string, len(d.syms))
	for i, s := range d.syms {
		members[i] = renderMember(s, comment)
	}
	return inContainer(d.container, members, comment)
}

// pendingDoc is the doc line of the member-th symbol of def, shown once
// every signature is placed if the tokens allow.
type pendingDoc struct {
	def    *shownDef
	member int
	doc    string
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
	// kept for member listings; they also get what the signatures leave.
	// Measured with bench/context at 1,024 tokens, presence of other
	// files' definitions: 0.493 at 40%, 0.494 at 30%, 0.500 at 25%,
	// 0.501 at 20%, with recall 0.816 to 0.813. The differences are
	// within what another corpus would move: signatures first.
	memberShare = 25
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
func (g *gatherer) members(syms []workspace.Symbol, shown map[string]bool, types map[string]string, comment string, tokens int) []Piece {
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
		if !s.IsType() || listed[s.Name] {
			continue
		}
		listed[s.Name] = true
		// Signatures while they fit in half the tokens, then names.
		var sigs []workspace.Symbol
		var also []string
		for _, m := range mr.Members(g.in.Path, s.Name, maxMembers) {
			if slices.ContainsFunc(sigs, func(o workspace.Symbol) bool { return o.Name == m.Name }) ||
				slices.Contains(also, m.Name) || shown[m.Signature] || containsWord(types[s.Path+"\x00"+s.Name], m.Name) {
				continue
			}
			if len(also) == 0 && m.Signature != "" && Estimate(listing(s.Name, append(slices.Clip(sigs), m), nil, comment)) <= tokens/2 {
				sigs = append(sigs, m)
				continue
			}
			if Estimate(listing(s.Name, sigs, append(slices.Clip(also), m.Name), comment)) > tokens {
				break
			}
			also = append(also, m.Name)
		}
		if len(sigs)+len(also) == 0 {
			continue
		}
		line := listing(s.Name, sigs, also, comment)
		p := newPiece("definition", fmt.Sprintf("members of %s (%s), which the code near the cursor uses", s.Name, filepath.Base(s.Path)),
			s.Path, line, syntax.Span{})
		tokens -= p.Tokens
		out = append(out, p)
	}
	return out
}

// listing shows the members of type typeName: those in sigs by their
// signatures, inside their containers' headers (a member with none, a
// Go method, under a comment naming the type), then the names in also.
func listing(typeName string, sigs []workspace.Symbol, also []string, comment string) string {
	var headers []string
	byHeader := map[string][]string{}
	for _, m := range sigs {
		if _, ok := byHeader[m.Container]; !ok {
			headers = append(headers, m.Container)
		}
		byHeader[m.Container] = append(byHeader[m.Container], m.Signature)
	}
	if len(also) > 0 && len(headers) == 0 {
		headers = append(headers, "")
	}
	var parts []string
	for i, h := range headers {
		lines := byHeader[h]
		if i == len(headers)-1 && len(also) > 0 {
			lines = append(lines, comment+"also: "+strings.Join(also, ", "))
		}
		if h == "" {
			parts = append(parts, comment+typeName+" members:\n"+strings.Join(lines, "\n"))
			continue
		}
		parts = append(parts, inContainer(h, lines, comment))
	}
	return strings.Join(parts, "\n")
}

// renderMember shows a member for inContainer: its doc line as a
// comment, then its signature.
func renderMember(s workspace.Symbol, comment string) string {
	if s.Doc == "" {
		return s.Signature
	}
	return comment + s.Doc + "\n" + s.Signature
}

// inContainer shows members inside their container's header, as they
// are written: indented under "header:" in Python (comment "# "), within
// "header { … }" elsewhere.
func inContainer(header string, members []string, comment string) string {
	var b strings.Builder
	b.WriteString(header)
	python := comment == "# "
	if python {
		b.WriteString(":")
	} else {
		b.WriteString(" {")
	}
	for _, m := range members {
		for _, line := range strings.Split(m, "\n") {
			b.WriteString("\n    " + line)
		}
	}
	if !python {
		b.WriteString("\n}")
	}
	return b.String()
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

// commentPrefix returns the line-comment marker of the buffer's language
// (g.lang), followed by a space.
func (g *gatherer) commentPrefix() string {
	l := g.lang
	if l == nil || l.LineComment == "" {
		l = lang.Plain
	}
	return l.LineComment + " "
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

// nearNames is what the code around the cursor names (findCursorNames).
type nearNames struct {
	names      []string // worth resolving, best first
	typing     string   // the part of a word before the cursor
	qualifiers []string // used before a "." or "::", nearest first
}

// cursorNames returns findCursorNames' answer, found once per request:
// the uses listing reads its qualifiers, the definitions its names.
func (g *gatherer) cursorNames() *nearNames {
	if g.near == nil {
		names, typing, qualifiers := g.findCursorNames()
		g.near = &nearNames{names, typing, qualifiers}
	}
	return g.near
}

// findCursorNames returns the identifiers worth resolving, best first: the
// chain of objects before a "." at the cursor, then the identifiers of
// the current statement and of the enclosing function's body up to the
// cursor, most recently used first. typing is the part of a word before
// the cursor, which is not a name yet; qualifiers are the names whose
// members may be listed, after an imported module the file does not use
// yet: those used before a "." or "::" around the cursor, nearest first,
// then the other names near it of two letters or more.
func (g *gatherer) findCursorNames() (names []string, typing string, qualifiers []string) {
	src := g.doc.String()
	after := min(len(src), g.cursor+suffixBytes)
	for after > g.cursor && after < len(src) && isIdentPart(src[after]) {
		after-- // not into a word: its head would be looked up
	}
	// Locals are not looked up: the function's at the cursor, including
	// those it declares further on, and those of the code after it.
	skip := map[string]bool{}
	modules := map[string]bool{}
	var imported []string // the names the file's imports list
	if g.in.Tree != nil {
		for _, off := range []int{g.cursor, after} {
			for _, n := range g.in.Tree.LocalNames(off) {
				skip[n] = true
			}
		}
		rust := g.in.Tree.Language().Name() == "rust"
		for _, imp := range g.in.Tree.ImportTargets() {
			modules[imp.Name()] = true
			imported = append(imported, imp.Names...)
			for _, n := range imp.Names {
				// Rust's "use std::fmt;" binds the module fmt: by the
				// language's convention a lower-case item is a module.
				if rust && n != "" && n[0] >= 'a' && n[0] <= 'z' {
					modules[n] = true
				}
			}
		}
	}
	seen := map[string]bool{}
	add := func(w string) {
		if q, _, ok := strings.Cut(w, "."); ok && (g.keywords[q] || skip[q]) {
			return // a local's member: its type is what resolves
		}
		if len(w) > 1 && !g.keywords[w] && !skip[w] && !seen[w] {
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
		if w := src[start : end-1]; len(w) > 1 && !g.keywords[w] && !seen[w] {
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
	hash := g.commentPrefix() == "# "
	near := nearIdentifiers(src[from:word], src[g.cursor:after], hash, modules)
	// What the file imports and does not use yet is what the code being
	// written is about to use: it comes right after the object at the
	// cursor, and an unused module's usual members are listed first.
	unused := unusedImports(src, g.index.Imports, imported, modules)
	// The names used before a "." come first; then the others near the
	// cursor, which the project's other code may use with one (measured
	// with bench/context at 1,024 tokens: recall 0.830 -> 0.833, Python
	// 0.797 -> 0.803).
	qualifiers = qualifiersIn(near)
	for _, w := range near {
		if !strings.Contains(w, ".") && len(w) > 1 && !g.keywords[w] && !slices.Contains(qualifiers, w) {
			qualifiers = append(qualifiers, w)
		}
	}
	if g.inImports() {
		// Writing an import: what the file uses and neither defines nor
		// imports yet is what it is about to import.
		for _, w := range g.unboundNames(hash, imported, modules) {
			add(w)
		}
	}
	for _, w := range unused {
		if modules[w] {
			if !slices.Contains(qualifiers, w) {
				qualifiers = append([]string{w}, qualifiers...)
			}
			continue
		}
		add(w)
	}
	for _, w := range near {
		add(w)
		if len(names) >= maxDefinitionNames {
			break
		}
	}
	for i, w := range g.similarNames(hash, modules) {
		if i == maxSimilarNames {
			break
		}
		add(w)
	}
	// Then what the file imports by name: what it uses, further away.
	for _, w := range imported {
		if len(names) >= maxDefinitionNames+maxImportedNames {
			break
		}
		if w != "self" && w != "*" {
			add(w)
		}
	}
	return names, typing, qualifiers
}

// inImports reports whether the cursor is in the file's import section:
// from the line of its first import to the line after its last.
func (g *gatherer) inImports() bool {
	imps := g.index.Imports
	if len(imps) == 0 {
		return false
	}
	line := g.doc.LineOf(g.cursor)
	return line >= g.doc.LineOf(min(imps[0].Start, g.doc.Len())) && line <= g.doc.LineOf(min(imps[len(imps)-1].End, g.doc.Len()))+1
}

// maxUnboundNames bounds the names unboundNames returns.
const maxUnboundNames = 24

// unboundNames returns the names the file's code (its import sections
// left out) uses bare (not after "q.") that it neither defines (its
// functions, methods and classes) nor imports (imported, modules), in
// the order of first use, keywords and one-letter names left out: the
// names its imports still lack. Locals are among them; the workspace
// finds no definition of most.
func (g *gatherer) unboundNames(hash bool, imported []string, modules map[string]bool) []string {
	known := map[string]bool{}
	for _, n := range imported {
		known[n] = true
	}
	for _, d := range g.index.Defs {
		known[d.Name] = true
	}
	src := g.doc.String()
	var out []string
	eachOutside(src, g.index.Imports, func(start, end int) {
		// A name after "q." is q's member, not used bare: eachIdentifier
		// gives it, then "q.name" at the same offset.
		bare, bareAt := "", -1
		take := func() {
			if bare != "" && len(out) < maxUnboundNames && !known[bare] && !modules[bare] && !g.keywords[bare] {
				known[bare] = true
				out = append(out, bare)
			}
			bare = ""
		}
		eachIdentifier(src[start:end], hash, modules, func(w string, i int) {
			if strings.Contains(w, ".") {
				if i == bareAt {
					bare = "" // a member
				}
				return
			}
			take()
			if len(w) > 1 {
				bare, bareAt = w, i
			}
		})
		take()
	})
	return out
}

// unusedImports returns the names among imported and modules (what the
// file's imports bind) that src uses nowhere outside its import sections
// (spans), in imported's order, then modules'. A use in a comment counts
// (wordsIn reads words, not code).
func unusedImports(src string, spans []syntax.Span, imported []string, modules map[string]bool) []string {
	want := make(map[string]bool, len(imported)+len(modules))
	for _, n := range imported {
		want[n] = true
	}
	for n := range modules {
		want[n] = true
	}
	delete(want, "")
	delete(want, "self")
	delete(want, "*")
	if len(want) == 0 {
		return nil
	}
	used := wordsIn(src, spans, want)
	var out []string
	for _, n := range imported {
		if want[n] && !used[n] && !slices.Contains(out, n) {
			out = append(out, n)
		}
	}
	var mods []string
	for n := range modules {
		if want[n] && !used[n] && !slices.Contains(out, n) {
			mods = append(mods, n)
		}
	}
	sort.Strings(mods)
	return append(out, mods...)
}

// wordsIn returns which of want occur in src as whole identifiers outside
// skip (sorted, disjoint spans). It is one pass over src's words, ended
// once every word is found: the whole document is read on each request.
func wordsIn(src string, skip []syntax.Span, want map[string]bool) map[string]bool {
	found := map[string]bool{}
	eachOutside(src, skip, func(start, end int) {
		for i := start; i < end && len(found) < len(want); {
			if !isIdentStart(src[i]) || i > 0 && isIdentPart(src[i-1]) {
				i++
				continue
			}
			j := i + 1
			for j < end && isIdentPart(src[j]) {
				j++
			}
			if w := src[i:j]; want[w] {
				found[w] = true
			}
			i = j
		}
	})
	return found
}

// eachOutside calls f with the bounds of each stretch of src outside
// spans (sorted, disjoint), in order; spans past src's end are cut.
func eachOutside(src string, spans []syntax.Span, f func(start, end int)) {
	at := 0
	for _, sp := range append(slices.Clip(spans), syntax.Span{Start: len(src), End: len(src)}) {
		f(at, max(at, min(sp.Start, len(src))))
		at = max(at, min(sp.End, len(src)))
	}
}

// maxSimilarNames bounds the names of similar code looked up.
const maxSimilarNames = 6

// orderedIdentifiers returns the identifiers of the code s in the order
// they first occur (as identifierOffsets reads them).
func orderedIdentifiers(s string, hash bool, modules map[string]bool) []string {
	at := identifierOffsets(s, hash, false, modules)
	out := make([]string, 0, len(at))
	for w := range at {
		out = append(out, w)
	}
	sort.Slice(out, func(i, j int) bool { return at[out[i]] < at[out[j]] || at[out[i]] == at[out[j]] && out[i] < out[j] })
	return out
}

// qualifiersIn returns the qualifiers of the "q.name" forms among names,
// in order, each once.
func qualifiersIn(names []string) []string {
	var out []string
	for _, w := range names {
		if q, _, ok := strings.Cut(w, "."); ok && !slices.Contains(out, q) {
			out = append(out, q)
		}
	}
	return out
}

// suffixBytes bounds how far after the cursor identifiers are read: the
// code the continuation will meet uses the names it is likely to use.
const suffixBytes = 1500

// nearIdentifiers returns the identifiers of before (the code up to the
// cursor) and after (the code from it), each once, nearest the cursor
// first: an identifier's distance is from its last use before the cursor
// or its first after it, whichever is closer.
func nearIdentifiers(before, after string, hash bool, modules map[string]bool) []string {
	dist := map[string]int{}
	for w, at := range identifierOffsets(before, hash, true, modules) {
		dist[w] = len(before) - at
	}
	for w, at := range identifierOffsets(after, hash, false, modules) {
		if d, ok := dist[w]; !ok || at*suffixNameWeight < d {
			dist[w] = at * suffixNameWeight
		}
	}
	out := make([]string, 0, len(dist))
	for w := range dist {
		out = append(out, w)
	}
	sort.Slice(out, func(i, j int) bool {
		if dist[out[i]] != dist[out[j]] {
			return dist[out[i]] < dist[out[j]]
		}
		if len(out[i]) != len(out[j]) {
			return len(out[i]) > len(out[j]) // q.name before name
		}
		return out[i] < out[j]
	})
	return out
}

// suffixNameWeight is how many bytes before the cursor a byte after it is
// worth in nearIdentifiers' distance.
const suffixNameWeight = 2

// identifierOffsets returns where each identifier of the code s occurs,
// its last use when last is true, else its first; an identifier right
// after "q." (or Rust's "q::") comes also as "q.name". Comments and
// string literals are skipped. hash says "#" starts a comment (Python), else "//" and "/*" do.
// A name right after "m." for m in modules (the names the file's imports
// bind) comes only as "m.name": alone it would name something else.
func identifierOffsets(s string, hash, last bool, modules map[string]bool) map[string]int {
	at := map[string]int{}
	eachIdentifier(s, hash, modules, func(w string, i int) {
		if _, ok := at[w]; last || !ok {
			at[w] = i
		}
	})
	return at
}

// eachIdentifier calls mark for each identifier of s and where it starts,
// as identifierOffsets describes.
func eachIdentifier(s string, hash bool, modules map[string]bool, mark func(w string, i int)) {
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
			// "q.name", or Rust's "q::name"
			qualified := prevEnd >= 0 && (prevEnd == i-1 && s[i-1] == '.' || prevEnd == i-2 && s[i-2:i] == "::")
			if !qualified || !modules[prev] {
				mark(s[i:j], i)
			}
			if qualified {
				mark(prev+"."+s[i:j], i)
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
}

// typesIn returns the type-like names (capitalised identifiers) in the
// signatures of the functions and methods in syms that are not in names.
func typesIn(syms []workspace.Symbol, names []string, keywords map[string]bool) []string {
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
