// Package pl is the Go mirror of PyPTO's DSL module pypto.language: cells call
// it to build programs, and every call corresponds to a PyPTO DSL call, so the
// printed program maps back to what the user typed, line for line.
//
// Programs are built with closures:
//
//	prog := pl.NewProgram("Demo")
//	prog.InCore("kernel", func(f *pl.Func) {
//		x := f.In("x", pl.Tensor(pl.Dims(1, 64), pl.FP32))
//		t := f.Let("t", pl.Load(x, pl.Dims(0, 0), pl.Dims(1, 64)))
//		...
//	})
//
// Go cannot see the left-hand side of :=, so bindings that should print with
// a name go through the function builder: x := f.Let("x", expr). Reassignment
// is f.Set(x, expr), as plain reassignment in PyPTO; the ConvertToSSA pass
// turns it into iter-args and pl.yield_.
//
// DSL calls report misuse and type errors by panicking with an error that
// names the op, the argument, what was expected and given, and the source line
// (the interactive session turns that panic into one clean error). Compiled Go
// callers can use Catch.
//
// The package is Yaegi-safe: no generics, no method expressions, and no
// variadic interface parameters filled with user types.
package pl
