package ir

import (
	"fmt"
	"strings"
)

// TypeError is raised when an op is built with arguments its deducer rejects.
// It names the op, the argument, what was expected and what was given, and the
// source position of the DSL call that built it.
type TypeError struct {
	Op       string // "pld.system.notify"
	Arg      string // "target", or "" for the call as a whole
	Kwarg    string // set instead of Arg when a kwarg is at fault
	Expected string
	Given    string
	Pos      Span
}

func (e *TypeError) Error() string {
	var b strings.Builder
	if e.Pos.Known() {
		b.WriteString(e.Pos.String())
		b.WriteString(": ")
	}
	b.WriteString(e.Op)
	switch {
	case e.Kwarg != "":
		fmt.Fprintf(&b, ": kwarg '%s'", e.Kwarg)
	case e.Arg != "":
		fmt.Fprintf(&b, ": argument '%s'", e.Arg)
	}
	fmt.Fprintf(&b, ": expected %s, given %s", e.Expected, e.Given)
	return b.String()
}

// WithPos returns a copy of the error positioned at pos, unless it already has one.
func (e *TypeError) WithPos(pos Span) *TypeError {
	if e.Pos.Known() || !pos.Known() {
		return e
	}
	c := *e
	c.Pos = pos
	return &c
}

// Describe renders a value for an error message: types and expressions in
// PyPTO syntax, everything else with %v.
func Describe(v any) string {
	switch v := v.(type) {
	case nil:
		return "nothing"
	case Type:
		return v.String()
	case *MakeTuple:
		return DefaultFormat.Expr(v)
	case Expr:
		t := v.Type()
		s := DefaultFormat.Expr(v)
		if _, unk := t.(*UnknownType); unk {
			return s
		}
		return s + " of type " + t.String()
	case string:
		return v
	case int64, int:
		return fmt.Sprintf("%d", v)
	}
	return fmt.Sprintf("%v", v)
}
