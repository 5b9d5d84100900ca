// Package pyfront reads PyPTO Python source into ptorepl IR.
//
// Two source forms become the IR the Go builder makes:
//
//   - the printed form, what package printer writes at every pipeline stage:
//     an @pl.program class of @pl.function methods with typed assignments,
//     pl.range(..., init_values=...) loops with pl.yield_, memrefs, window
//     buffers and the comm-domain comments of host orchestrators;
//   - the authoring form of upstream's examples: @pl.jit.incore, @pl.jit and
//     @pl.jit.host functions, module-level constants, keyword arguments,
//     x[r] indexing, device=r dispatch, and factories (a def that defines and
//     returns a @pl.program class, its parameters closure constants).
//
// In either form, a call of an @pl.inline (or @pl.jit.inline) helper reads
// as the helper's body spliced at the call site (inline.go).
//
// Everything else in a file (imports, argparse, torch code, def main, the
// __main__ guard) is skipped: never executed, never an error.
//
// The Python grammar is tree-sitter-python, a maintained grammar that knows
// variable annotations; this package only walks its syntax tree, copied out
// of C in one call per parse (node.go) from a parser that allocates on a
// reusable arena (alloc.go); a large file parses in two halves at once
// (split.go). Every error is one *Error positioned at file:line:col; a
// syntax error names what is missing or unexpected (syntax.go).
package pyfront
