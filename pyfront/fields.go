//go:build cgo

package pyfront

import (
	sitter "github.com/tree-sitter/go-tree-sitter"
	python "github.com/tree-sitter/tree-sitter-python/bindings/go"
)

// pythonLang is the grammar. Its symbol names and field ids are read once
// here, so walking a tree never calls into C.
var pythonLang = sitter.NewLanguage(python.Language())

// symbolNames maps a node's symbol id to its kind ("call", "identifier").
var symbolNames = func() []string {
	n := pythonLang.NodeKindCount()
	out := make([]string, n)
	for i := range out {
		out[i] = pythonLang.NodeKindForId(uint16(i))
	}
	return out
}()

var (
	fldAlternative  = pythonLang.FieldIdForName("alternative")
	fldArgument     = pythonLang.FieldIdForName("argument")
	fldArguments    = pythonLang.FieldIdForName("arguments")
	fldAttribute    = pythonLang.FieldIdForName("attribute")
	fldBody         = pythonLang.FieldIdForName("body")
	fldCondition    = pythonLang.FieldIdForName("condition")
	fldConsequence  = pythonLang.FieldIdForName("consequence")
	fldDefinition   = pythonLang.FieldIdForName("definition")
	fldFunction     = pythonLang.FieldIdForName("function")
	fldKey          = pythonLang.FieldIdForName("key")
	fldLeft         = pythonLang.FieldIdForName("left")
	fldName         = pythonLang.FieldIdForName("name")
	fldObject       = pythonLang.FieldIdForName("object")
	fldOperator     = pythonLang.FieldIdForName("operator")
	fldParameters   = pythonLang.FieldIdForName("parameters")
	fldReturnType   = pythonLang.FieldIdForName("return_type")
	fldRight        = pythonLang.FieldIdForName("right")
	fldSubscript    = pythonLang.FieldIdForName("subscript")
	fldSuperclasses = pythonLang.FieldIdForName("superclasses")
	fldType         = pythonLang.FieldIdForName("type")
	fldValue        = pythonLang.FieldIdForName("value")
	fldAlias        = pythonLang.FieldIdForName("alias")
)
