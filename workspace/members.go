package workspace

import (
	"path/filepath"
	"slices"
	"unicode"
	"unicode/utf8"
)

// IsType reports whether s is a type-like definition, one that may own
// members: a type, class, interface or enum (Rust structs and traits
// included, whose kinds are "type" and "interface").
func (s Symbol) IsType() bool {
	switch s.Kind {
	case "type", "class", "interface", "enum":
		return true
	}
	return false
}

// Members returns up to max members of the type typeName as seen from
// fromPath: its fields, methods and constants, in source order. The type
// is the definition Resolve would pick; its members are read from the
// file defining it and, in Go, from the rest of its package, where a
// type's methods may live; from another Go package, only its exported
// members; methods first, then the rest, each in source order. It answers from what is indexed now.
func (ix *Index) Members(fromPath, typeName string, max int) []Symbol {
	if max <= 0 || typeName == "" {
		return nil
	}
	fromPath = absPath(fromPath)
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	def, ok := ix.typeDefinition(fromPath, typeName)
	if !ok {
		return nil
	}
	files := []*file{def.f}
	if def.f.Lang == "go" {
		for _, f := range ix.dirs[def.f.dir] {
			if f != def.f && f.Lang == "go" {
				files = append(files, f)
			}
		}
	}
	// From another Go package only exported members can be used.
	exportedOnly := def.f.Lang == "go" && def.f.dir != filepath.Dir(fromPath)
	var out []Symbol
	for _, f := range files {
		for _, s := range f.Symbols {
			if exportedOnly && !isExported(s.Name) {
				continue
			}
			if s.Parent == typeName && s.Name != typeName {
				out = append(out, s)
			}
		}
	}
	// Methods first: they are what a value of the type is used through.
	slices.SortStableFunc(out, func(a, b Symbol) int {
		return boolRank(a.Kind != "method") - boolRank(b.Kind != "method")
	})
	return out[:min(max, len(out))]
}

func boolRank(b bool) int {
	if b {
		return 1
	}
	return 0
}

// isExported reports whether a Go name is exported: it starts with an
// upper-case letter.
func isExported(name string) bool {
	r, _ := utf8.DecodeRuneInString(name)
	return unicode.IsUpper(r)
}

// typeDefinition picks the definition of the type typeName as Resolve
// would rank it from fromPath. The caller holds mu for reading.
func (ix *Index) typeDefinition(fromPath, typeName string) (symRef, bool) {
	tiers := ix.relatedTiers(fromPath)
	fromDir := filepath.Dir(fromPath)
	var cands []candidateSym
	for _, r := range ix.byName[typeName] {
		if !r.f.Symbols[r.i].IsType() {
			continue
		}
		tier, ok := tiers[r.f]
		if !ok {
			tier = tierWorkspace
		}
		cands = append(cands, candidateSym{ref: r, tier: tier, proximity: sharedDirs(fromDir, r.f.dir)})
	}
	if len(cands) == 0 {
		return symRef{}, false
	}
	return slices.MinFunc(cands, compareCandidates).ref, true
}
