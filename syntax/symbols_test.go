package syntax

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/wisp-lsp/wisp/text"
)

func parseString(t *testing.T, path, src string) *Tree {
	t.Helper()
	tree, err := Parse(context.Background(), Detect("", path), text.New(src))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(tree.Close)
	return tree
}

// symbolLines renders symbols one per line: kind parent.name@line: signature // doc
func symbolLines(syms []Symbol) []string {
	var out []string
	for _, s := range syms {
		line := fmt.Sprintf("%s %s.%s@%d: %s", s.Kind, s.Parent, s.Name, s.Line, s.Signature)
		if s.Doc != "" {
			line += " // " + s.Doc
		}
		if s.Container != "" {
			line += " [in " + s.Container + "]"
		}
		out = append(out, line)
	}
	return out
}

// Symbols gives top-level definitions and their members with one-line
// signatures (small types with their members) and first doc lines, in
// each language with member rules.
func TestSymbols(t *testing.T) {
	cases := []struct {
		path, src string
		want      []string
	}{
		{"a.go", "package p\n\n// Point is a point.\ntype Point struct {\n\tX, Y int // coords\n\tName string\n}\n\n" +
			"type R interface {\n\tio.Reader\n\t// Run runs.\n\tRun(ctx context.Context) error\n}\n\n" +
			"const (\n\tA = 1\n\t// B is two.\n\tB int = 2\n)\n\nfunc (p *Point) Len() int { return p.X }\n\n" +
			"var (\n\t// errClosed is returned after Close.\n\terrClosed = errors.New(\"closed\")\n\tsingle int\n)\n",
			[]string{
				"type .Point@3: type Point struct { X, Y int; Name string } // Point is a point.",
				"field Point.X@4: X, Y int [in type Point struct]",
				"field Point.Y@4: X, Y int [in type Point struct]",
				"field Point.Name@5: Name string [in type Point struct]",
				"interface .R@8: type R interface { io.Reader; Run(ctx context.Context) error }",
				"method R.Run@11: Run(ctx context.Context) error // Run runs. [in type R interface]",
				"const .A@15: const A = 1",
				"const .B@17: const B int = 2 // B is two.",
				"method Point.Len@20: func (p *Point) Len() int",
				"var .errClosed@24: var errClosed = errors.New(\"closed\") // errClosed is returned after Close.",
				"var .single@25: var single int",
			}},
		{"a.py", "LIMIT = 3\n\nclass User(Base):\n    \"\"\"Unique user.\"\"\"\n    role: str = \"x\"\n\n    def __init__(self, name):\n        self.name = name\n\n" +
			"    def greet(self) -> str:\n        return self.name\n\ndef top(a, b=2):\n    pass\n",
			[]string{
				"const .LIMIT@0: LIMIT = 3",
				"class .User@2: class User(Base): role: str = \"x\"; def __init__(self, name); self.name; def greet(self) -> str // Unique user.",
				"field User.role@4: role: str = \"x\" [in class User(Base)]",
				"method User.__init__@6: def __init__(self, name): [in class User(Base)]",
				"field User.name@7: self.name = name [in class User(Base)]",
				"method User.greet@9: def greet(self) -> str: [in class User(Base)]",
				"func .top@12: def top(a, b=2):",
			}},
		{"a.ts", "/** A shape. */\nexport interface Shape {\n  area(): number;\n  name: string;\n}\n" +
			"export enum Color { Red, Green = 2 }\nexport const make = (n: number): Shape => ({ area: () => n, name: \"\" });\n",
			[]string{
				"interface .Shape@1: export interface Shape { area(): number; name: string } // A shape.",
				"method Shape.area@2: area(): number [in export interface Shape]",
				"field Shape.name@3: name: string [in export interface Shape]",
				"enum .Color@5: export enum Color { Red; Green = 2 }",
				"field Color.Red@5: Red [in export enum Color]",
				"field Color.Green@5: Green = 2 [in export enum Color]",
				"func .make@6: export const make = (n: number): Shape =>",
			}},
		{"a.rs", "/// A point.\npub struct Point { pub x: i32, y: i32 }\n\npub trait Draw {\n    fn draw(&self) -> String;\n}\n\n" +
			"impl Draw for Point {\n    fn draw(&self) -> String { String::new() }\n}\n\npub const MAX: usize = 3;\n\n" +
			"/// Return early with an error.\n#[macro_export]\nmacro_rules! bail {\n    ($msg:literal $(,)?) => { return Err(anyhow!($msg)) };\n    ($err:expr $(,)?) => { return Err(anyhow!($err)) };\n}\n",
			[]string{
				"type .Point@1: pub struct Point { pub x: i32; y: i32 } // A point.",
				"field Point.x@1: pub x: i32 [in pub struct Point]",
				"field Point.y@1: y: i32 [in pub struct Point]",
				"interface .Draw@3: pub trait Draw { fn draw(&self) -> String }",
				"method Draw.draw@4: fn draw(&self) -> String [in pub trait Draw]",
				"method Point.draw@8: fn draw(&self) -> String [in impl Draw for Point]",
				"const .MAX@11: pub const MAX: usize = 3",
				"macro .bail@15: macro_rules! bail { ($msg:literal $(,)?) => …; ($err:expr $(,)?) => … } // Return early with an error.",
			}},
	}
	for _, c := range cases {
		t.Run(c.path, func(t *testing.T) {
			got := symbolLines(parseString(t, c.path, c.src).Symbols())
			if !slices.Equal(got, c.want) {
				t.Errorf("symbols:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(c.want, "\n"))
			}
		})
	}
}

// A type with many members is cut, marked with "…".
func TestSymbolsCutLongTypes(t *testing.T) {
	var b strings.Builder
	b.WriteString("package p\n\ntype Big struct {\n")
	for i := range 100 {
		fmt.Fprintf(&b, "\tField%d string\n", i)
	}
	b.WriteString("}\n")
	syms := parseString(t, "big.go", b.String()).Symbols()
	sig := syms[0].Signature
	if len(sig) > maxMemberBytes+40 || !strings.HasSuffix(sig, "; … }") || !strings.Contains(sig, "Field0 string") {
		t.Fatalf("signature of a big type (%d bytes): %q", len(sig), sig)
	}
}

// ImportTargets names what each import statement imports.
func TestImportTargets(t *testing.T) {
	cases := []struct {
		path, src string
		want      []string
	}{
		{"a.go", "package p\n\nimport (\n\t\"fmt\"\n\tx \"example.com/m/pkg\"\n)\n", []string{"fmt", "example.com/m/pkg"}},
		{"a.py", "import os, a.b as ab\nfrom . import sibling\nfrom ..pkg.mod import thing, other as o\n",
			[]string{"os", "a.b", ".[sibling]", "..pkg.mod[thing other]"}},
		{"a.ts", "import { a, b as c } from \"./util\";\nimport * as ns from \"../lib\";\nexport { z } from \"./re\";\nconst r = require(\"./req\");\n",
			[]string{"./util[a b]", "../lib", "./re!", "./req"}},
		{"a.rs", "use crate::net::{Conn, dial};\nuse super::util::helper as h;\nuse std::io;\nmod parser;\npub mod inline { }\npub(crate) use crate::error::Error;\n",
			[]string{"crate::net[Conn dial]", "super::util[helper]", "std[io]", "self::parser!", "crate::error[Error]!"}},
	}
	for _, c := range cases {
		t.Run(c.path, func(t *testing.T) {
			var got []string
			for _, imp := range parseString(t, c.path, c.src).ImportTargets() {
				s := imp.Path
				if len(imp.Names) > 0 {
					s += "[" + strings.Join(imp.Names, " ") + "]"
				}
				if imp.Declares {
					s += "!" // the file's own modules or API
				}
				got = append(got, s)
			}
			if !slices.Equal(got, c.want) {
				t.Errorf("imports %q, want %q", got, c.want)
			}
		})
	}
}

// LocalNames lists parameters and locals declared before the offset, in
// the function around it, and nothing outside functions.
func TestLocalNames(t *testing.T) {
	cases := []struct {
		path, src string
		want      []string
	}{
		{"a.go", "package p\n\nfunc (s *S) f(a, b int, c *T) error {\n\td := 1\n\tvar e int\n\tfor i, v := range xs {\n\t\tx.Foo(v)\n\t}\n\t‸\n\tlate := 2\n}\n",
			[]string{"s", "a", "b", "c", "d", "e", "i", "v"}},
		{"a.py", "def f(a, b=2, *args, c: int = 3, **kw):\n    self.x = 1\n    for i, j in pairs:\n        k = 1\n    print(‸)\n", []string{"a", "b", "args", "c", "kw", "i", "j", "k"}},
		{"a.ts", "function f(x: T, { y }: O) {\n  const q = 1;\n  for (const k of ks) {}\n  ‸\n}\n", []string{"x", "y", "q", "k"}},
		{"a.rs", "fn f(a: i32, (b, c): (i32, i32)) -> i32 {\n    let s = 1;\n    ‸\n    a\n}\n", []string{"a", "b", "c", "s"}},
		{"top.go", "package p\n\nvar x = 1\n‸\n", nil},
	}
	for _, c := range cases {
		t.Run(c.path, func(t *testing.T) {
			off := strings.Index(c.src, "‸")
			src := strings.Replace(c.src, "‸", "", 1)
			if got := parseString(t, c.path, src).LocalNames(off); !slices.Equal(got, c.want) {
				t.Errorf("locals %q, want %q", got, c.want)
			}
		})
	}
}
