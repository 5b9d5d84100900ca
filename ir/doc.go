// Package ir holds ptorepl's intermediate representation: data types, types,
// expressions, statements, functions and programs, mirroring PyPTO's C++ IR
// (include/pypto/ir) closely enough that printed programs read as PyPTO.
//
// Nodes are plain Go structs with exported fields. Passes treat them as
// immutable: a transformation builds new nodes and shares the unchanged ones.
// Identity matters: a *Var is a variable, and two distinct *Var values with the
// same name are different variables.
//
// Every operator is one registration in the op registry (see OpDef). Its entry
// holds the positional arguments, the kwarg schema, the type deducer, the
// read/write effect on each argument and how it prints; later layers (PTO
// codegen, the simulator) attach their own behaviour to the same entry as
// facets.
//
// To look at a function body, use the inspector (Preorder, Nodes, WithStack:
// a node-type filter, pruning by returning false, and the stack of enclosing
// nodes) rather than a hand-written recursion, and read a call's arguments
// by their registry names (Call.Arg, ArgErr, ArgVar, ArgTuple, Aliased)
// rather than by position.
package ir
