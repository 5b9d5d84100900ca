// Package pto emits PTO-MLIR text for the InCore functions of a program: the
// text PyPTO hands to PTOAS (spec: shared/spec/pto.md).
//
// Each InCore (or AIC/AIV) function becomes one module:
//
//	module attributes {pto.target_arch = "a2a3"} {
//	  func.func @kernel(%arg0: !pto.ptr<f16>, ..., %arg4: !pto.ptr<i64>) {
//	    %c0_index = arith.constant 0 : index   // hoisted, deduplicated constants
//	    %data_view = pto.make_tensor_view ...  // local views, made when first needed
//	    ...                                    // the body
//	    return
//	  }
//	  func.func private @CommRemoteOffset_f16(...) // #1548 helpers, one per dtype, at module end
//	}
//
// # Structure
//
// The core walks statements (sequences, assignments, scf.for with iter_args,
// scf.if with results, yield and return) and lowers scalar expressions to the
// arith dialect itself. Every op call is dispatched through the op's registry
// entry: each op this package knows carries an [Emitter] under the "pto" facet
// ([FacetKey]), registered in this package's init functions, one file per op
// family (ops_dist.go, ops_comm.go, ops_tile.go, ops_system.go). An op without
// an emitter is an error naming the op and the function, never a panic.
//
// Emitters do not print text directly: they build operations (name, operands
// with types, attributes, regions, plus the op's custom assembly), and one
// printer writes either PyPTO's custom form or, with [Options].Generic, MLIR's
// generic form. The generic form of the registered dialects (builtin, func,
// arith, scf, math) is exactly what MLIR 16 accepts: the package tests run
// mlir-opt-16 --allow-unregistered-dialect over it.
//
// # Values and names
//
// Tensors (TensorType and DistributedTensorType parameters) have no SSA value
// in the body: a tensor variable is an alias of a parameter's pointer, and ops
// address it through views. Local tensor views are made once per parameter and
// placed after the hoisted constants, so they dominate every use; peer views
// (the §3 remote prologue) are made at each remote op. Tile variables get a
// pto.alloc_tile at their definition (with `addr = ` from their MemRef once
// AllocateMemoryAddr placed it); ops on tiles are destination-passing
// (`ins(...) outs(...)`). A CommCtx variable is an alias of the ctx parameter
// bound to its DistributedTensor: the k-th DistributedTensor parameter binds
// to the k-th CommCtx parameter (MaterializeDistTensorCtx adds them).
//
// SSA names: parameters are %argN; constants %c<v>_<type> (%cn1_i32 for -1);
// a variable's value is %<name> when that name is free, and otherwise, like
// every unnamed temporary, a number (%0, %1, ...).
//
// # Choices not fixed by the spec
//
//   - Elementwise tile ops map to PTO-ISA instruction names: tile.add/sub/mul/
//     div/maximum/minimum → pto.tadd/tsub/tmul/tdiv/tmax/tmin, and the scalar
//     forms tile.adds/subs/muls/divs → pto.tadds/tsubs/tmuls/tdivs, all as
//     `pto.tadd ins(%a, %b : T, T) outs(%r : T)`. tile.cast → pto.tcvt with an
//     rmode attribute; tile.fillpad(_inplace) → pto.tfillpad (in place for the
//     _inplace form: the result aliases its source).
//   - pto.alloc_tile carries valid_row/valid_col operands only for a dynamic
//     valid dim, whose type then says v_row=?/v_col=?; static valid dims are
//     printed in the type alone. The tile_buf type is a function of the IR
//     tile type, so iter_args, yields and results of one IR type agree.
//   - tile.set_validshape allocates a second tile handle at its MemRef's
//     address (InitMemRef gives it the source's) with the new valid dims; it
//     needs an address.
//   - tile.alloc emits nothing: addresses reach PTO through the tiles' MemRefs.
//   - FloorDiv on integers is arith.floordivsi (divui when unsigned); FloorMod
//     is arith.remsi (remui), which equals Python's % for the non-negative
//     operands rank arithmetic produces.
//   - Tensor-valued loop iter_args and if results carry no SSA value: they are
//     aliases of the tensor they are initialised from.
package pto
