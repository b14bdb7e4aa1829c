package main

import (
	"path"
	"sort"
	"strings"
)

// recall returns the share of targets found as whole words in ctx: 1 when
// every target is there, 0 when none is (or ctx is empty). targets must
// not be empty.
func recall(ctx string, targets []string) float64 {
	have := wordSet(ctx)
	found := 0
	for _, t := range targets {
		if have[t] {
			found++
		}
	}
	return float64(found) / float64(len(targets))
}

// defIndex holds a workspace's definitions by name.
type defIndex map[string][]definition

// maxDefFiles bounds how many other files may define a name for it to
// count in definition presence: a name defined in more (new, len, Close)
// is too ambiguous to say which definition the continuation needs.
const maxDefFiles = 4

// foreign returns the targets of hl that its file does not define and
// other files of the workspace do, with those files' definitions. Only
// definitions the use can refer to count: a member (a field, a method)
// when the continuation uses the name after "." or "::"; in Go, a
// top-level name of another package (folder) only when qualified so, and
// never a name qualified only by a package from outside the tree
// ("net.Conn" is not the tree's Conn); a name the file binds itself (a
// parameter, a local) only after "." or "::".
func (ix defIndex) foreign(lang string, hl hole) map[string][]definition {
	out := make(map[string][]definition)
	dir := path.Dir(hl.File.Rel)
	for _, t := range hl.Targets {
		if hl.External[t] || hl.File.bound[t] && !hl.Selected[t] {
			continue // another package's, or the file's own parameter or local
		}
		var other []definition
		files := make(map[string]bool)
		local := false
		for _, d := range ix[t] {
			if d.File == hl.File.Rel {
				local = true
				break
			}
			switch {
			case d.Parent != "" && !hl.Selected[t]:
				continue
			case lang == "go" && d.Parent == "" && path.Dir(d.File) != dir && !hl.Selected[t]:
				continue
			}
			other = append(other, d)
			files[d.File] = true
		}
		if !local && len(other) > 0 && len(files) <= maxDefFiles {
			out[t] = other
		}
	}
	return out
}

// presence returns how many of the names in defs have at least one of
// their definitions shown in ctx: its signature line, squeezed, appears in
// ctx squeezed the same way, and so does its container's for a member.
func presence(ctx string, defs map[string][]definition) int {
	flat := squeeze(ctx)
	n := 0
	for _, ds := range defs {
		for _, d := range ds {
			if strings.Contains(flat, d.Sig) && strings.Contains(flat, d.Parent) {
				n++
				break
			}
		}
	}
	return n
}

// wordFiles counts, for each word, the workspace files it occurs in.
type wordFiles map[string]int

func (wf wordFiles) add(src string) {
	for w := range wordSet(src) {
		wf[w]++
	}
}

// reachable returns the share of hl's targets that occur in doc (the
// file with its hole) or in another file of the workspace.
func (wf wordFiles) reachable(doc string, hl hole) float64 {
	inDoc, own := wordSet(doc), wordSet(hl.File.Src)
	n := 0
	for _, t := range hl.Targets {
		if inDoc[t] || wf.elsewhere(t, own) {
			n++
		}
	}
	return float64(n) / float64(len(hl.Targets))
}

// elsewhere reports whether a file other than the one whose words are
// own holds word.
func (wf wordFiles) elsewhere(word string, own map[string]bool) bool {
	others := wf[word]
	if own[word] {
		others--
	}
	return others > 0
}

// misses sorts the targets of hl that ctx lacks by where they are, as
// shares of all of hl's targets (they sum to 1 - recall): in window (the
// 75/25 window holds them), elsewhere in doc, only in other files of the
// workspace, or nowhere yet (new names).
func (wf wordFiles) misses(ctx, window, doc string, hl hole) (m missTally) {
	have, inWindow, inDoc, own := wordSet(ctx), wordSet(window), wordSet(doc), wordSet(hl.File.Src)
	share := 1 / float64(len(hl.Targets))
	for _, t := range hl.Targets {
		switch {
		case have[t]:
		case inWindow[t]:
			m.window += share
		case inDoc[t]:
			m.file += share
		case wf.elsewhere(t, own):
			m.other += share
		default:
			m.nowhere += share
		}
	}
	return m
}

// missTally sums misses' shares over holes.
type missTally struct{ window, file, other, nowhere float64 }

func (m *missTally) add(o missTally) {
	m.window += o.window
	m.file += o.file
	m.other += o.other
	m.nowhere += o.nowhere
}

func wordSet(s string) map[string]bool {
	set := make(map[string]bool)
	for _, w := range words(s, nil, 0, len(s)) {
		set[w.name] = true
	}
	return set
}

// tally accumulates one method's scores over holes.
type tally struct {
	holes     int
	recallSum float64
	// defsShown and defsWanted count other-file definitions over holes
	// that need at least one; presenceSum sums each such hole's share.
	defHoles    int
	presenceSum float64
	// used and budget sum wisp's token accounting over holes whose
	// document is larger than the budget; full counts those at >= 95%.
	bigHoles int
	useSum   float64
	full     int
	// missed sums where the targets the context lacks are (wisp's only).
	missed missTally
}

func (t *tally) add(o tally) {
	t.holes += o.holes
	t.recallSum += o.recallSum
	t.defHoles += o.defHoles
	t.presenceSum += o.presenceSum
	t.bigHoles += o.bigHoles
	t.useSum += o.useSum
	t.full += o.full
	t.missed.add(o.missed)
}

func (t tally) recall() float64   { return ratio(t.recallSum, t.holes) }
func (t tally) presence() float64 { return ratio(t.presenceSum, t.defHoles) }
func (t tally) use() float64      { return ratio(t.useSum, t.bigHoles) }

func ratio(sum float64, n int) float64 {
	if n == 0 {
		return 0
	}
	return sum / float64(n)
}

func sortStrings(s []string) { sort.Strings(s) }
