package ir

import "fmt"

// Span is a source position: the file (or cell) and line that built a node.
// The zero Span means "unknown" and is ignored by equality, like upstream.
type Span struct {
	File string
	Line int
	Col  int
}

// Known reports whether the span carries a position.
func (s Span) Known() bool { return s.Line > 0 }

func (s Span) String() string {
	if !s.Known() {
		return ""
	}
	f := s.File
	if f == "" {
		f = "<input>"
	}
	if s.Col > 0 {
		return fmt.Sprintf("%s:%d:%d", f, s.Line, s.Col)
	}
	return fmt.Sprintf("%s:%d", f, s.Line)
}
