package ir

// pythonKeywords are Python's reserved words. The printer's output must
// parse as Python, so the DSL refuses them as names, and the Python reader
// reports one met where a name belongs as the unexpected text.
var pythonKeywords = map[string]bool{
	"False": true, "None": true, "True": true, "and": true, "as": true, "assert": true, "async": true,
	"await": true, "break": true, "class": true, "continue": true, "def": true, "del": true, "elif": true,
	"else": true, "except": true, "finally": true, "for": true, "from": true, "global": true, "if": true,
	"import": true, "in": true, "is": true, "lambda": true, "nonlocal": true, "not": true, "or": true,
	"pass": true, "raise": true, "return": true, "try": true, "while": true, "with": true, "yield": true,
}

// IsPythonKeyword reports whether name is one of Python's reserved words.
func IsPythonKeyword(name string) bool { return pythonKeywords[name] }
