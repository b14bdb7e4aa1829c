package main

import (
	"regexp"
	"strings"
)

// definition is one named definition in a workspace file.
type definition struct {
	Name string
	// File is the workspace-relative path.
	File string
	// Sig is the definition's first line, code only, squeezed and with
	// trailing openers ({ : ( = , ;) trimmed: the text a context must hold
	// for the definition to count as shown.
	Sig string
	// Parent, for a member (a field, a method inside its class or impl,
	// an enum variant), is the container's first line in the same form
	// without leading modifiers (export, pub, …): a member line such as
	// "id: string" counts as shown only with its container's.
	Parent string
}

// definitions finds the definitions of a file by line patterns: functions,
// methods, types, classes, top-level constants and variables, struct and
// interface fields, class members, Python instance attributes, Rust enum
// variants. Like classify, it is independent of wisp's parser on purpose.
func definitions(lang, file, src string, mask []byte) []definition {
	var defs []definition
	parent := "" // the container of the line being read, "" at top level
	add := func(name, line string) {
		if name == "" || vocabulary[lang][name] || name == "_" {
			return
		}
		defs = append(defs, definition{Name: name, File: file, Sig: trimSig(squeeze(line)), Parent: parent})
	}
	// Brace depth at each line start (code braces only) and the depths at
	// which a member block (struct, class, interface, enum, impl, trait)
	// opened, so members are recognised only directly inside one.
	depth := 0
	var members []int    // depths of open member blocks' bodies
	var openers []string // their containers, as Parent is written
	var classes []pyClass
	group := "" // Go: "const", "var" or "type" inside a ( … ) group
	off := 0
	for _, raw := range strings.SplitAfter(src, "\n") {
		lineMask := mask[off : off+len(raw)]
		off += len(raw)
		line := codeOnly(raw, lineMask)
		trimmed := strings.TrimSpace(line)
		inMembers := len(members) > 0 && members[len(members)-1] == depth
		parent = ""
		if inMembers {
			parent = openers[len(openers)-1]
		}
		// A line that starts inside a string (a docstring, a template)
		// defines nothing.
		first := len(raw) - len(strings.TrimLeft(raw, " \t"))
		if trimmed != "" && first < len(raw) && lineMask[first] == code {
			switch lang {
			case "go":
				goDefs(trimmed, line, group, inMembers, add)
				switch {
				case group != "" && strings.HasPrefix(trimmed, ")"):
					group = ""
				case group == "" && depth == 0:
					if m := goGroup.FindStringSubmatch(trimmed); m != nil {
						group = m[1]
					}
				}
			case "python":
				indent := len(line) - len(strings.TrimLeft(line, " \t"))
				for len(classes) > 0 && classes[len(classes)-1].indent >= indent {
					classes = classes[:len(classes)-1]
				}
				if len(classes) > 0 {
					parent = classes[len(classes)-1].header
				}
				pyDefs(line, add)
				if m := pyClassRe.FindStringSubmatch(line); m != nil {
					classes = append(classes, pyClass{indent, container(line)})
				}
			case "typescript", "javascript":
				jsDefs(trimmed, line, depth, inMembers, add)
			case "rust":
				rustDefs(trimmed, inMembers, add)
			}
		}
		opens := memberOpener[lang].MatchString(trimmed)
		for i := 0; i < len(line); i++ {
			if lineMask[i] != code {
				continue
			}
			switch line[i] {
			case '{':
				depth++
				if opens {
					members = append(members, depth)
					openers = append(openers, container(line[:i]))
					opens = false
				}
			case '}':
				if len(members) > 0 && members[len(members)-1] == depth {
					members = members[:len(members)-1]
					openers = openers[:len(openers)-1]
				}
				depth = max(0, depth-1)
			}
		}
	}
	return defs
}

var (
	memberOpener = map[string]*regexp.Regexp{
		"go":         regexp.MustCompile(`^(type\s+)?\w+(\[[^\]]*\])?\s+(struct|interface)\s*\{`),
		"python":     regexp.MustCompile(`^$.`),
		"typescript": regexp.MustCompile(`\b(class|interface|enum)\s+[\w$]+[^=]*\{\s*$|\btype\s+[\w$]+.*=\s*\{\s*$`),
		"javascript": regexp.MustCompile(`\bclass\s+[\w$]+[^=]*\{\s*$`),
		"rust":       regexp.MustCompile(`^(pub(\([^)]*\))?\s+)?(struct|enum|union|trait|impl)\b`),
	}

	goGroup  = regexp.MustCompile(`^(const|var|type)\s*\(\s*$`)
	goFunc   = regexp.MustCompile(`^func\s+(?:\([^)]*\)\s*)?(\w+)`)
	goDecl   = regexp.MustCompile(`^(?:type|const|var)\s+(\w+)`)
	goSpec   = regexp.MustCompile(`^(\w+)(?:\s*,\s*\w+)*(?:\s|=|$)`)
	goField  = regexp.MustCompile(`^(\w+)((?:\s*,\s*\w+)*)\s+\S|^(\w+)\(`)
	pyDef    = regexp.MustCompile(`^\s*(?:async\s+)?(?:def|class)\s+(\w+)`)
	pyGlobal = regexp.MustCompile(`^(\w+)\s*(?::[^=]*)?=[^=]`)
	pyAttr   = regexp.MustCompile(`^\s+self\.(\w+)\s*(?::[^=]*)?=[^=]`)
	jsDecl   = regexp.MustCompile(`^(?:export\s+)?(?:default\s+)?(?:declare\s+)?(?:abstract\s+)?(?:async\s+)?(?:function\*?|class|interface|type|enum|namespace)\s+([\w$]+)`)
	jsVar    = regexp.MustCompile(`^(?:export\s+)?(?:declare\s+)?(?:const|let|var)\s+([\w$]+)`)
	jsExport = regexp.MustCompile(`^(?:module\.)?exports\.([\w$]+)\s*=|^[\w$]+\.prototype\.([\w$]+)\s*=`)
	jsMember = regexp.MustCompile(`^(?:(?:public|private|protected|static|readonly|async|abstract|override|declare|get|set)\s+)*\*?(#?[\w$]+)\s*[?!]?\s*[(<:=;]`)
	rsItem   = regexp.MustCompile(`^(?:pub(?:\([^)]*\))?\s+)?(?:(?:const|async|unsafe|default|extern\s+"[^"]*")\s+)*(?:fn|struct|enum|union|trait|type|mod)\s+(\w+)`)
	rsConst  = regexp.MustCompile(`^(?:pub(?:\([^)]*\))?\s+)?(?:const|static)\s+(?:mut\s+)?(\w+)\s*:`)
	rsMacro  = regexp.MustCompile(`^macro_rules!\s*(\w+)`)
	rsMember = regexp.MustCompile(`^(?:pub(?:\([^)]*\))?\s+)?(\w+)\s*(?::|,|\(|\{|=|$)`)
)

func goDefs(trimmed, line, group string, inMembers bool, add func(name, line string)) {
	if m := goFunc.FindStringSubmatch(line); m != nil {
		add(m[1], line)
		return
	}
	if m := goDecl.FindStringSubmatch(line); m != nil {
		add(m[1], line)
		return
	}
	if group != "" && line != trimmed {
		if m := goSpec.FindStringSubmatch(trimmed); m != nil {
			add(m[1], line)
		}
		return
	}
	if inMembers {
		if m := goField.FindStringSubmatch(trimmed); m != nil {
			name := m[1] + m[3]
			add(name, line)
			for _, more := range strings.Split(m[2], ",") {
				add(strings.TrimSpace(more), line)
			}
		}
	}
}

func pyDefs(line string, add func(name, line string)) {
	for _, re := range []*regexp.Regexp{pyDef, pyGlobal, pyAttr} {
		if m := re.FindStringSubmatch(line); m != nil {
			add(m[1], line)
			return
		}
	}
}

func jsDefs(trimmed, line string, depth int, inMembers bool, add func(name, line string)) {
	if m := jsDecl.FindStringSubmatch(trimmed); m != nil {
		add(m[1], line)
		return
	}
	if m := jsVar.FindStringSubmatch(trimmed); m != nil && depth == 0 {
		add(m[1], line)
		return
	}
	if m := jsExport.FindStringSubmatch(trimmed); m != nil {
		add(m[1]+m[2], line)
		return
	}
	if inMembers {
		if m := jsMember.FindStringSubmatch(trimmed); m != nil && !jsStatement[m[1]] {
			add(strings.TrimPrefix(m[1], "#"), line)
		}
	}
}

// jsStatement are words a line inside a class body may start with that
// are not member names.
var jsStatement = set(`if for while switch return throw case default`)

func rustDefs(trimmed string, inMembers bool, add func(name, line string)) {
	for _, re := range []*regexp.Regexp{rsItem, rsConst, rsMacro} {
		if m := re.FindStringSubmatch(trimmed); m != nil {
			add(m[1], trimmed)
			return
		}
	}
	if inMembers && !strings.HasPrefix(trimmed, "#") {
		if m := rsMember.FindStringSubmatch(trimmed); m != nil {
			add(m[1], trimmed)
		}
	}
}

// pyClass is an open Python class: its indentation and header.
type pyClass struct {
	indent int
	header string
}

var pyClassRe = regexp.MustCompile(`^\s*class\s+\w+`)

// modifiers are the leading words a container's header drops in Parent.
var modifiers = regexp.MustCompile(`^(?:(?:export|default|declare|abstract|pub(?:\([^)]*\))?|unsafe)\s+)+`)

// container returns a container's header line as Parent is written.
func container(line string) string {
	return modifiers.ReplaceAllString(trimSig(squeeze(line)), "")
}

// codeOnly blanks the comment bytes of line (mask says which).
func codeOnly(line string, mask []byte) string {
	b := []byte(line)
	for i := range b {
		if mask[i] == comment && b[i] != '\n' {
			b[i] = ' '
		}
	}
	return string(b)
}

// squeeze trims s and turns each run of white space into one space, with
// none just inside brackets, as wisp's own signatures are written.
func squeeze(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	return squeezer.Replace(s)
}

var squeezer = strings.NewReplacer("( ", "(", " )", ")", "[ ", "[", " ]", "]")

// trimSig drops what follows a definition's name on its first line and is
// not part of its signature: an opening brace, colon, paren or "=".
func trimSig(s string) string {
	return strings.TrimRight(s, " {:(=,;")
}
