package workspace

import (
	"bufio"
	"os"
	"path"
	"strings"
)

// ignoreRule is one .gitignore line.
type ignoreRule struct {
	// base is the slash-separated folder, relative to the root, of the
	// .gitignore that holds the rule ("" for the root's).
	base string
	// segments is the pattern split at "/"; "**" matches any number of
	// segments.
	segments []string
	// negate: the line started with "!" (re-include).
	negate bool
	// dirOnly: the line ended with "/" (folders only).
	dirOnly bool
	// anchored: the pattern held a "/" before its end, so it matches
	// relative to base; otherwise it matches a name at any depth.
	anchored bool
}

// ignorer decides which paths .gitignore files exclude. It implements the
// gitignore rules wisp needs: comments, negation, folder-only patterns,
// anchoring, "*", "?", "[...]" and "**". Rules of deeper files come later
// and the last matching rule wins, as in git.
type ignorer struct {
	rules []ignoreRule
}

// load reads the .gitignore at file, whose folder is base (relative to
// the root, slash-separated). A missing file adds nothing.
func (ig *ignorer) load(file, base string) {
	f, err := os.Open(file)
	if err != nil {
		return
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		ig.add(base, sc.Text())
	}
}

// add parses one .gitignore line of the file in base.
func (ig *ignorer) add(base, line string) {
	line = strings.TrimRight(line, " \t\r")
	if line == "" || strings.HasPrefix(line, "#") {
		return
	}
	r := ignoreRule{base: base}
	if strings.HasPrefix(line, "!") {
		r.negate, line = true, line[1:]
	} else if strings.HasPrefix(line, `\`) {
		line = line[1:] // an escaped leading "#" or "!"
	}
	if strings.HasSuffix(line, "/") {
		r.dirOnly, line = true, strings.TrimRight(line, "/")
	}
	r.anchored = strings.Contains(line, "/")
	line = strings.TrimPrefix(line, "/")
	if line == "" {
		return
	}
	r.segments = strings.Split(line, "/")
	ig.rules = append(ig.rules, r)
}

// ignored reports whether rel (slash-separated, relative to the root) is
// excluded. A path inside an excluded folder is never asked about: the
// walk does not descend into one.
func (ig *ignorer) ignored(rel string, isDir bool) bool {
	ignored := false
	for _, r := range ig.rules {
		if r.dirOnly && !isDir {
			continue
		}
		sub := rel
		if r.base != "" {
			if !strings.HasPrefix(rel, r.base+"/") {
				continue
			}
			sub = rel[len(r.base)+1:]
		}
		var match bool
		if r.anchored {
			match = matchSegments(r.segments, strings.Split(sub, "/"))
		} else {
			match = matchSegment(r.segments[0], path.Base(sub))
		}
		if match {
			ignored = !r.negate
		}
	}
	return ignored
}

// matchSegments matches a path's segments against a pattern's, where a
// "**" segment matches zero or more path segments.
func matchSegments(pat, segs []string) bool {
	for len(pat) > 0 {
		if pat[0] == "**" {
			for i := 0; i <= len(segs); i++ {
				if matchSegments(pat[1:], segs[i:]) {
					return true
				}
			}
			return false
		}
		if len(segs) == 0 || !matchSegment(pat[0], segs[0]) {
			return false
		}
		pat, segs = pat[1:], segs[1:]
	}
	return len(segs) == 0
}

// matchSegment matches one name against one glob segment; a malformed
// pattern matches nothing.
func matchSegment(pat, name string) bool {
	ok, err := path.Match(pat, name)
	return err == nil && ok
}
