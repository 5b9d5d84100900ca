//go:build cgo

package pyfront

import (
	sitter "github.com/tree-sitter/go-tree-sitter"
	python "github.com/tree-sitter/tree-sitter-python/bindings/go"
)

// pythonLang is the grammar; field ids are looked up once (by name each
// lookup costs a C string and two more cgo calls).
var pythonLang = sitter.NewLanguage(python.Language())

var (
	fldAlternative = pythonLang.FieldIdForName("alternative")
	fldArgument    = pythonLang.FieldIdForName("argument")
	fldArguments   = pythonLang.FieldIdForName("arguments")
	fldAttribute   = pythonLang.FieldIdForName("attribute")
	fldBody        = pythonLang.FieldIdForName("body")
	fldCondition   = pythonLang.FieldIdForName("condition")
	fldConsequence = pythonLang.FieldIdForName("consequence")
	fldDefinition  = pythonLang.FieldIdForName("definition")
	fldFunction    = pythonLang.FieldIdForName("function")
	fldKey         = pythonLang.FieldIdForName("key")
	fldLeft        = pythonLang.FieldIdForName("left")
	fldName        = pythonLang.FieldIdForName("name")
	fldObject      = pythonLang.FieldIdForName("object")
	fldOperator    = pythonLang.FieldIdForName("operator")
	fldParameters  = pythonLang.FieldIdForName("parameters")
	fldReturnType  = pythonLang.FieldIdForName("return_type")
	fldRight       = pythonLang.FieldIdForName("right")
	fldType        = pythonLang.FieldIdForName("type")
	fldValue       = pythonLang.FieldIdForName("value")
)
