// Package dsl holds what the user-facing DSL packages pl and pld share: the
// function builder that records statements, conversion of Go values to IR
// expressions, rebinding of reassigned names, and the source position of the
// DSL call that built each node.
//
// Cells run one at a time, so the builder that is currently recording (the
// innermost prog.InCore/Orchestration/Host callback) is package state.
package dsl

import (
	"fmt"
	"runtime"
	"strings"
	"sync"

	"github.com/ptorepl/ptorepl/ir"
)

// Error is a DSL usage error (not an op type error): it carries the position
// of the offending call.
type Error struct {
	Msg string
	Pos ir.Span
	Err error // the error raised, when it came from below the DSL (a pass, a run)
}

// Unwrap gives errors.As/Is the raised error.
func (e *Error) Unwrap() error { return e.Err }

func (e *Error) Error() string {
	if e.Pos.Known() {
		return e.Pos.String() + ": " + e.Msg
	}
	return e.Msg
}

// Failf panics with a positioned *Error. DSL calls report misuse by panicking,
// like regexp.MustCompile: cells have no error plumbing, and the interactive
// session turns the panic into one clean error that names the cell line.
func Failf(format string, args ...any) {
	panic(&Error{Msg: fmt.Sprintf(format, args...), Pos: Caller()})
}

// Raise panics with err, positioning a *ir.TypeError at the caller if it has no position.
func Raise(err error) {
	if te, ok := err.(*ir.TypeError); ok {
		panic(te.WithPos(Caller()))
	}
	if de, ok := err.(*Error); ok {
		if !de.Pos.Known() {
			de.Pos = Caller()
		}
		panic(de)
	}
	// Any other error (a pass rejecting the program, say) is raised as a
	// DSL error at the call, so a cell shows it as an error, not a crash.
	panic(&Error{Msg: err.Error(), Pos: Caller(), Err: err})
}

var (
	locMu   sync.Mutex
	locFile string
	locLine int
)

// SetLocation tells the DSL which cell line is executing. The interactive
// session calls it before each statement, because interpreted frames are
// invisible to runtime.Callers.
func SetLocation(file string, line int) {
	locMu.Lock()
	locFile, locLine = file, line
	locMu.Unlock()
}

// ClearLocation forgets the interpreted location.
func ClearLocation() { SetLocation("", 0) }

// internalPrefixes are packages whose frames are skipped when looking for the
// user's call site.
var internalPrefixes = []string{
	"github.com/ptorepl/ptorepl/pl.",
	"github.com/ptorepl/ptorepl/pld.",
	"github.com/ptorepl/ptorepl/internal/dsl.",
	"github.com/ptorepl/ptorepl/ir.",
	"runtime.",
	"reflect.",
}

// Caller returns the position of the first frame outside the DSL: the user's
// call. Inside the interpreter it returns the location the session set.
func Caller() ir.Span {
	// While a session evaluates a cell, every DSL call comes from the cell
	// (only pl and pld build IR) and the session keeps the current line, so
	// there is no need to unwind the interpreter's stack.
	locMu.Lock()
	file, line := locFile, locLine
	locMu.Unlock()
	if line > 0 {
		return ir.Span{File: file, Line: line}
	}
	// Most calls decide within a few frames (the DSL, reflect, then either
	// user code or the interpreter), so look at 8 first: unwinding the
	// interpreter's deep stack is most of a DSL call's cost in a cell.
	for _, depth := range []int{8, 64} {
		pcs := make([]uintptr, depth)
		n := runtime.Callers(2, pcs)
		if span, decided := scanFrames(pcs[:n]); decided || n < depth {
			if span.Known() {
				return span
			}
			break
		}
	}
	locMu.Lock()
	defer locMu.Unlock()
	if locLine > 0 {
		return ir.Span{File: locFile, Line: locLine}
	}
	return ir.Span{}
}

// scanFrames finds the user's frame: the first outside the DSL. decided is
// false when the frames ran out first; an interpreter frame means the call
// came from a cell (a zero span: the session's location applies).
func scanFrames(pcs []uintptr) (span ir.Span, decided bool) {
	frames := runtime.CallersFrames(pcs)
	for {
		fr, more := frames.Next()
		name := fr.Function
		if strings.HasPrefix(name, "github.com/traefik/yaegi") {
			return ir.Span{}, true
		}
		internal := false
		for _, p := range internalPrefixes {
			if strings.HasPrefix(name, p) {
				internal = true
				break
			}
		}
		if !internal && name != "" {
			return ir.Span{File: shortFile(fr.File), Line: fr.Line}, true
		}
		if !more {
			return ir.Span{}, false
		}
	}
}

func shortFile(path string) string {
	if i := strings.LastIndex(path, "/"); i >= 0 {
		return path[i+1:]
	}
	return path
}

// Location is the interpreted location the session last set.
func Location() (file string, line int) {
	locMu.Lock()
	defer locMu.Unlock()
	return locFile, locLine
}
