package main

import "strings"

// vocabulary holds, per language, the words that are not the program's own
// identifiers: keywords and the built-in names every file may use without
// defining them (predeclared types, constants and functions). Recall
// ignores them: a context does not need to show `return` or `len`.
var vocabulary = map[string]map[string]bool{
	"go": set(`break case chan const continue default defer else fallthrough for func go goto if
		import interface map package range return select struct switch type var
		any bool byte comparable complex64 complex128 error float32 float64 int int8 int16 int32 int64
		rune string uint uint8 uint16 uint32 uint64 uintptr true false iota nil
		append cap clear close complex copy delete imag len make max min new panic print println real recover`),
	"python": set(`False None True and as assert async await break class continue def del elif else except
		finally for from global if import in is lambda nonlocal not or pass raise return try while with yield
		match case self cls
		abs all any bool bytes callable chr dict dir enumerate filter float format getattr hasattr hash id
		int isinstance issubclass iter len list map max min next object open ord print property range repr
		reversed round set setattr slice sorted staticmethod classmethod str sum super tuple type vars zip
		Exception ValueError TypeError KeyError IndexError AttributeError RuntimeError NotImplementedError
		StopIteration OSError`),
	"javascript": set(jsWords),
	"typescript": set(jsWords + ` abstract as asserts declare enum implements interface is keyof
		module namespace never private protected public readonly satisfies type unique unknown any
		boolean number string symbol object bigint infer override`),
	"rust": set(`as async await break const continue crate dyn else enum extern false fn for if impl in
		let loop match mod move mut pub ref return self Self static struct super trait true type unsafe use
		where while union macro_rules
		bool char str i8 i16 i32 i64 i128 isize u8 u16 u32 u64 u128 usize f32 f64
		Some None Ok Err Option Result Vec String Box`),
}

const jsWords = `break case catch class const continue debugger default delete do else export extends
	false finally for function if import in instanceof let new null return static super switch this throw
	true try typeof var void while with yield async await of undefined arguments
	Object Array String Number Boolean Promise Error Map Set JSON Math console`

func set(words string) map[string]bool {
	s := make(map[string]bool)
	for _, w := range strings.Fields(words) {
		s[w] = true
	}
	return s
}
