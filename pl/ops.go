package pl

import (
	"fmt"
	"strings"

	"github.com/ptorepl/ptorepl/internal/dsl"
	"github.com/ptorepl/ptorepl/ir"
)

func kw(kv ...any) ir.Kwargs {
	out := make(ir.Kwargs, 0, len(kv)/2)
	for i := 0; i+1 < len(kv); i += 2 {
		out = append(out, ir.Kwarg{Key: kv[i].(string), Value: kv[i+1]})
	}
	return out
}

func arg(v any, op, name string) ir.Expr { return dsl.Expr(v, op+" argument '"+name+"'") }

func isTile(e ir.Expr) bool   { _, ok := e.Type().(*ir.TileType); return ok }
func isScalar(e ir.Expr) bool { _, ok := e.Type().(*ir.ScalarType); return ok }
func isTensor(e ir.Expr) bool { _, ok := ir.AsTensorLike(e.Type()); return ok }

// Load loads a tile of shape at offsets from tensor t into Vec memory.
// PyPTO: pl.load(t, offsets, shape) → pl.tile.load(t, offsets, shape, shape, target_memory=pl.Mem.Vec).
func Load(t, offsets, shape any) Expr {
	// Arguments are checked in order, so an error names the first bad one.
	x, o := arg(t, "pl.Load", "tensor"), dsl.TupleArg(offsets, "pl.Load offsets")
	s := dsl.TupleArg(shape, "pl.Load shape")
	valid := &ir.MakeTuple{Elems: append([]ir.Expr(nil), s.Elems...)}
	return dsl.Call(ir.TileLoad, []ir.Expr{x, o, s, valid}, kw("target_memory", ir.MemVec))
}

// LoadTo loads a tile of shape at offsets from tensor t into memory mem
// (pl.Mat for the cube path). PyPTO: pl.load(t, offsets, shape,
// target_memory=mem).
func LoadTo(t, offsets, shape any, mem MemorySpace) Expr {
	x, o := arg(t, "pl.LoadTo", "tensor"), dsl.TupleArg(offsets, "pl.LoadTo offsets")
	sh := dsl.TupleArg(shape, "pl.LoadTo shape")
	valid := &ir.MakeTuple{Elems: append([]ir.Expr(nil), sh.Elems...)}
	return dsl.Call(ir.TileLoad, []ir.Expr{x, o, sh, valid}, kw("target_memory", mem))
}

// Store stores tile into tensor t at offsets; the result is t's new value.
// PyPTO: t = pl.store(tile, offsets, t).
func Store(tile, offsets, t any) Expr {
	return dsl.Call(ir.TileStore, []ir.Expr{arg(tile, "pl.Store", "tile"), dsl.TupleArg(offsets, "pl.Store offsets"), arg(t, "pl.Store", "output_tensor")}, nil)
}

// Read reads one element of a tensor or tile. PyPTO: pl.read(t, idx).
func Read(t, indices any) Expr {
	x := arg(t, "pl.Read", "tensor")
	op := ir.TensorRead
	if isTile(x) {
		op = ir.TileRead
	}
	return dsl.Call(op, []ir.Expr{x, dsl.TupleArg(indices, "pl.Read indices")}, nil)
}

// Write writes one element; the result is t's new value. PyPTO: t = pl.write(t, idx, v).
func Write(t, indices, value any) Expr {
	x := arg(t, "pl.Write", "tensor")
	op := ir.TensorWrite
	if isTile(x) {
		op = ir.TileWrite
	}
	return dsl.Call(op, []ir.Expr{x, dsl.TupleArg(indices, "pl.Write indices"), arg(value, "pl.Write", "value")}, nil)
}

// Create makes a tensor in global memory. PyPTO: pl.create_tensor(shape,
// dtype=dt), which stores its default layout=pl.TensorLayout.ND too.
func Create(shape any, dt DataType) Expr {
	return dsl.Call(ir.TensorCreate, []ir.Expr{dsl.TupleArg(shape, "pl.Create shape")}, kw("dtype", dt, "layout", ir.LayoutND))
}

// CreateTile makes an uninitialised Vec tile. PyPTO: pl.tile.create(shape, dtype=dt, target_memory=pl.Mem.Vec).
func CreateTile(shape any, dt DataType) Expr {
	return dsl.Call(ir.TileCreate, []ir.Expr{dsl.TupleArg(shape, "pl.CreateTile shape")}, kw("dtype", dt, "target_memory", ir.MemVec))
}

// Full makes a tensor filled with value. PyPTO: pl.create_tensor(shape, dtype=dt, init_value=v).
func Full(shape any, dt DataType, value float64) Expr {
	return dsl.Call(ir.TensorCreate, []ir.Expr{dsl.TupleArg(shape, "pl.Full shape")}, kw("dtype", dt, "layout", ir.LayoutND, "init_value", value))
}

// CreateL1 makes an on-chip (L1) accumulator of a static shape for
// GatherRow and PagedGather to fill and a matmul to read; typed as a
// tensor, it is a Mat tile in a kernel. PyPTO: pl.create_l1(shape, dt).
func CreateL1(shape any, dt DataType) Expr {
	return dsl.Call(ir.TensorCreateL1, []ir.Expr{dsl.TupleArg(shape, "pl.CreateL1 shape")}, kw("dtype", dt))
}

// GatherRow copies the window shapes of the GM tensor src at srcOffset
// into the accumulator acc (from CreateL1, or a tile) at dstOffset; the
// result is acc after the write, so bind it back. PyPTO:
// acc = pl.gather_row(acc, src, dst_offset, src_offset, shapes).
func GatherRow(acc, src, dstOffset, srcOffset, shapes any) Expr {
	return gatherRow("pl.GatherRow", acc, src, dstOffset, srcOffset, shapes, nil)
}

// GatherRowValid is GatherRow moving only the valid part of the window,
// whose extents may be runtime values. PyPTO: pl.gather_row(acc, src,
// dst_offset, src_offset, shapes, valid_shape=valid).
func GatherRowValid(acc, src, dstOffset, srcOffset, shapes, valid any) Expr {
	return gatherRow("pl.GatherRowValid", acc, src, dstOffset, srcOffset, shapes, valid)
}

func gatherRow(name string, acc, src, dstOffset, srcOffset, shapes, valid any) Expr {
	a := arg(acc, name, "acc")
	op := ir.TensorGatherRow
	if isTile(a) {
		op = ir.TileGatherRow
	}
	args := []ir.Expr{a, arg(src, name, "src"), dsl.TupleArg(dstOffset, name+" dstOffset"),
		dsl.TupleArg(srcOffset, name+" srcOffset"), dsl.TupleArg(shapes, name+" shapes")}
	if valid != nil {
		args = append(args, dsl.TupleArg(valid, name+" valid"))
	}
	return dsl.Call(op, args, nil)
}

// PagedGather gathers rows of a paged GM pool into an on-chip buffer
// [maxIndices, size] in space (pl.Mat or pl.Vec): row i is
// src[table[j / blockSize] * blockSize + j % blockSize, colOff : colOff+size]
// for j = indices[i]. PyPTO: pl.paged_gather(src, indices, block_table,
// block_size=, size=, col_off=, max_indices=, space=).
func PagedGather(src, indices, table any, blockSize, size, colOff, maxIndices int, space MemorySpace) Expr {
	return dsl.Call(ir.TensorPagedGather, []ir.Expr{arg(src, "pl.PagedGather", "src"), arg(indices, "pl.PagedGather", "indices"),
		arg(table, "pl.PagedGather", "block_table")}, kw("block_size", int64(blockSize), "size", int64(size), "col_off", int64(colOff),
		"max_indices", int64(maxIndices), "space", space))
}

// View reinterprets a tensor with a new shape. PyPTO: pl.tensor.view(t, shape).
func View(t, shape any) Expr {
	return dsl.Call(ir.TensorViewOp, []ir.Expr{arg(t, "pl.View", "input"), dsl.TupleArg(shape, "pl.View shape")}, nil)
}

// Slice is a view of shape at offset. PyPTO: pl.slice(t, shape, offset).
func Slice(t, shape, offset any) Expr {
	x := arg(t, "pl.Slice", "input")
	op := ir.TensorSlice
	if isTile(x) {
		op = ir.TileSlice
	}
	return dsl.Call(op, []ir.Expr{x, dsl.TupleArg(shape, "pl.Slice shape"), dsl.TupleArg(offset, "pl.Slice offset")}, nil)
}

// Assemble writes source into target at offset; the result is the target
// after the write, so bind it back (f.Set(y, pl.Assemble(y, part, offs))).
// Into a tile it is tile.assemble, on chip. PyPTO: pl.assemble(target,
// source, offset), or y[a:b, c:d] = part; pl.tile.assemble for tiles.
func Assemble(target, source, offset any) Expr {
	t := arg(target, "pl.Assemble", "target")
	op := ir.TensorAssemble
	if isTile(t) {
		op = ir.TileAssemble
	}
	return dsl.Call(op, []ir.Expr{t, arg(source, "pl.Assemble", "source"), dsl.TupleArg(offset, "pl.Assemble offset")}, nil)
}

// TransposeView is the same on-chip tile seen transposed (its last two
// dims swapped, no data moved), as the right operand of a matmul by a
// tile's transpose. PyPTO: pl.tile.transpose_view(t).
func TransposeView(t any) Expr {
	return dsl.Call(ir.TileTransposeView, []ir.Expr{arg(t, "pl.TransposeView", "input")}, nil)
}

// Dim is the extent of dimension axis of a tensor (negative counts from
// the end), an INDEX scalar. PyPTO: pl.tensor.dim(t, axis).
func Dim(t any, axis int) Expr {
	return dsl.Call(ir.TensorDim, []ir.Expr{arg(t, "pl.Dim", "tensor"), ir.Int(int64(axis))}, nil)
}

// Index selects row r of a tensor, dropping the leading dimension.
// PyPTO: x[r], which is pl.tensor.slice(x, [1, ...], [r, 0, ...], [], [0]).
func Index(t, r any) Expr {
	x := arg(t, "pl.Index", "input")
	tl, ok := ir.AsTensorLike(x.Type())
	if !ok || len(tl.Shape) < 1 {
		dsl.Raise(&ir.TypeError{Op: "pl.Index", Arg: "input", Expected: "a tensor of rank >= 1", Given: ir.Describe(x)})
	}
	shape := append([]ir.Expr{ir.Int(1)}, tl.Shape[1:]...)
	offs := []ir.Expr{arg(r, "pl.Index", "index")}
	for range tl.Shape[1:] {
		offs = append(offs, ir.Int(0))
	}
	return dsl.Call(ir.TensorSlice, []ir.Expr{x, &ir.MakeTuple{Elems: shape}, &ir.MakeTuple{Elems: offs}, &ir.MakeTuple{}, ir.Dims(0)}, nil)
}

// Cast converts a scalar, tile or tensor to dt. PyPTO: pl.cast(x, dt).
func Cast(x any, dt DataType) Expr {
	e := arg(x, "pl.Cast", "x")
	switch {
	case isScalar(e):
		return &ir.UnaryExpr{Op: ir.OpCast, X: e, DType: dt, Pos: dsl.Caller()}
	case isTile(e):
		return dsl.Call(ir.TileCast, []ir.Expr{e}, kw("target_type", dt, "mode", ir.CastModes["round"]))
	}
	return dsl.Call(ir.TensorCast, []ir.Expr{e}, kw("target_type", dt, "mode", ir.CastModes["round"]))
}

// Abs is the elementwise absolute value of a tile or tensor. PyPTO: pl.abs(t).
func Abs(x any) Expr { return unary("Abs", ir.TileAbs, ir.TensorAbs, x) }

// Relu is elementwise max(x, 0) of a tile or tensor. PyPTO: pl.relu(t).
func Relu(x any) Expr { return unary("Relu", ir.TileRelu, ir.TensorRelu, x) }

// Exp is elementwise e^x of a floating-point tile or tensor. PyPTO: pl.exp(t).
func Exp(x any) Expr { return unary("Exp", ir.TileExp, ir.TensorExp, x) }

// Sin is the elementwise sine of an FP32 tile or tensor of radians;
// compiled, LowerCompositeOps expands it into upstream's FP32 range
// reduction and polynomial. PyPTO: pl.sin(t).
func Sin(x any) Expr { return unary("Sin", ir.TileSin, ir.TensorSin, x) }

// Cos is the elementwise cosine, like Sin. PyPTO: pl.cos(t).
func Cos(x any) Expr { return unary("Cos", ir.TileCos, ir.TensorCos, x) }

// Log is the elementwise natural logarithm of a floating-point tile or
// tensor. PyPTO: pl.log(t).
func Log(x any) Expr { return unary("Log", ir.TileLog, ir.TensorLog, x) }

// Sqrt is the elementwise square root of a floating-point tile or tensor.
// PyPTO: pl.sqrt(t).
func Sqrt(x any) Expr { return unary("Sqrt", ir.TileSqrt, ir.TensorSqrt, x) }

// Recip is elementwise 1/x of a floating-point tile or tensor. PyPTO: pl.recip(t).
func Recip(x any) Expr { return unary("Recip", ir.TileRecip, ir.TensorRecip, x) }

// RowSum folds each row into its sum, [rows, cols] to [rows, 1]: of a
// tile with tmp a scratch tile as large as it, or of a tensor with tmp nil
// (ConvertTensorToTileOps allocates the scratch). PyPTO: pl.row_sum(t, tmp),
// pl.row_sum(tensor).
func RowSum(t, tmp any) Expr { return reduction("RowSum", ir.TileRowSum, ir.TensorRowSum, t, tmp) }

// RowMax folds each row into its maximum, like RowSum. PyPTO: pl.row_max(t, tmp).
func RowMax(t, tmp any) Expr { return reduction("RowMax", ir.TileRowMax, ir.TensorRowMax, t, tmp) }

// RowMin folds each row into its minimum, like RowSum. PyPTO: pl.row_min(t, tmp).
func RowMin(t, tmp any) Expr { return reduction("RowMin", ir.TileRowMin, ir.TensorRowMin, t, tmp) }

// RowExpandAdd adds column v [rows, 1] to every element of its row of t
// (tiles or tensors). Of tiles, v may also be a packed 32-byte block per
// row, [rows, 32 / element bytes], its element j % width added to column
// j. PyPTO: pl.row_expand_add(t, v).
func RowExpandAdd(t, v any) Expr {
	return byOperand("RowExpandAdd", ir.TileRowExpandAdd, ir.TensorRowExpandAdd, t, v)
}

// RowExpandAddTmp is RowExpandAdd of tiles with the optional scratch tile
// TROWEXPANDADD takes. PyPTO: pl.tile.row_expand_add(t, v, tmp=tmp).
func RowExpandAddTmp(t, v, tmp any) Expr {
	return dsl.Call(ir.TileRowExpandAdd, []ir.Expr{arg(t, "pl.RowExpandAddTmp", "tile"), arg(v, "pl.RowExpandAddTmp", "row_vec"),
		arg(tmp, "pl.RowExpandAddTmp", "tmp")}, nil)
}

// RowExpandSub subtracts column v from every element of its row of t.
// PyPTO: pl.row_expand_sub(t, v).
func RowExpandSub(t, v any) Expr {
	return byOperand("RowExpandSub", ir.TileRowExpandSub, ir.TensorRowExpandSub, t, v)
}

// RowExpandMul multiplies every element of a row of t by its entry of
// column v. PyPTO: pl.row_expand_mul(t, v).
func RowExpandMul(t, v any) Expr {
	return byOperand("RowExpandMul", ir.TileRowExpandMul, ir.TensorRowExpandMul, t, v)
}

// RowExpandDiv divides every element of a row of t by its entry of column
// v. PyPTO: pl.row_expand_div(t, v).
func RowExpandDiv(t, v any) Expr {
	return byOperand("RowExpandDiv", ir.TileRowExpandDiv, ir.TensorRowExpandDiv, t, v)
}

// RowExpandMax is max(t, v) with column v broadcast along each row.
// PyPTO: pl.row_expand_max(t, v).
func RowExpandMax(t, v any) Expr {
	return byOperand("RowExpandMax", ir.TileRowExpandMax, ir.TensorRowExpandMax, t, v)
}

// RowExpandMin is min(t, v) with column v broadcast along each row.
// PyPTO: pl.row_expand_min(t, v).
func RowExpandMin(t, v any) Expr {
	return byOperand("RowExpandMin", ir.TileRowExpandMin, ir.TensorRowExpandMin, t, v)
}

// RowExpandExpdif is exp(t - v) with column v broadcast along each row
// (a softmax's numerator). PyPTO: pl.row_expand_expdif(t, v).
func RowExpandExpdif(t, v any) Expr {
	return byOperand("RowExpandExpdif", ir.TileRowExpandExpdif, ir.TensorRowExpandExpdif, t, v)
}

// ColExpand repeats row v [1, cols] into every row of target's shape.
// PyPTO: pl.col_expand(target, v).
func ColExpand(target, v any) Expr {
	return byOperand("ColExpand", ir.TileColExpand, ir.TensorColExpand, target, v)
}

// RowExpand is column v [rows, 1] repeated into every column of target's
// shape (a tile or tensor). PyPTO: pl.row_expand(target, v).
func RowExpand(target, v any) Expr {
	return byOperand("RowExpand", ir.TileRowExpand, ir.TensorRowExpand, target, v)
}

// ColExpandAdd adds row v [1, cols] to every row of t. PyPTO: pl.col_expand_add(t, v).
func ColExpandAdd(t, v any) Expr {
	return byOperand("ColExpandAdd", ir.TileColExpandAdd, ir.TensorColExpandAdd, t, v)
}

// ColExpandSub subtracts row v from every row of t. PyPTO: pl.col_expand_sub(t, v).
func ColExpandSub(t, v any) Expr {
	return byOperand("ColExpandSub", ir.TileColExpandSub, ir.TensorColExpandSub, t, v)
}

// ColExpandMul multiplies every row of t by row v. PyPTO: pl.col_expand_mul(t, v).
func ColExpandMul(t, v any) Expr {
	return byOperand("ColExpandMul", ir.TileColExpandMul, ir.TensorColExpandMul, t, v)
}

// ColExpandDiv divides every row of t by row v. PyPTO: pl.col_expand_div(t, v).
func ColExpandDiv(t, v any) Expr {
	return byOperand("ColExpandDiv", ir.TileColExpandDiv, ir.TensorColExpandDiv, t, v)
}

// ColExpandMax is max(t, v) with row v broadcast down each column.
// PyPTO: pl.col_expand_max(t, v).
func ColExpandMax(t, v any) Expr {
	return byOperand("ColExpandMax", ir.TileColExpandMax, ir.TensorColExpandMax, t, v)
}

// ColExpandMin is min(t, v) with row v broadcast down each column.
// PyPTO: pl.col_expand_min(t, v).
func ColExpandMin(t, v any) Expr {
	return byOperand("ColExpandMin", ir.TileColExpandMin, ir.TensorColExpandMin, t, v)
}

// ColExpandExpdif is exp(t - v) with row v broadcast down each column.
// PyPTO: pl.col_expand_expdif(t, v).
func ColExpandExpdif(t, v any) Expr {
	return byOperand("ColExpandExpdif", ir.TileColExpandExpdif, ir.TensorColExpandExpdif, t, v)
}

// Rsqrt is elementwise 1/sqrt(x) of a floating-point tile or tensor.
// PyPTO: pl.rsqrt(t).
func Rsqrt(x any) Expr { return unary("Rsqrt", ir.TileRsqrt, ir.TensorRsqrt, x) }

// HighPrecision is the call e (a Div of two tiles or tensors, a Log, Recip
// or tensor Rsqrt) in PTOAS's high-precision mode, for FP16 and FP32
// elements. PyPTO: pl.div(a, b, high_precision=True).
func HighPrecision(e Expr) Expr {
	c, ok := e.(*ir.Call)
	if ok && c.Op != nil {
		if _, takes := c.Op.Kwarg("high_precision"); takes {
			kw := append(ir.Kwargs{}, c.Kwargs...)
			if !kw.Has("high_precision") {
				kw = append(kw, ir.Kwarg{Key: "high_precision", Value: true})
			}
			return dsl.Call(c.Op, c.Args, kw)
		}
	}
	dsl.Raise(&ir.TypeError{Op: "pl.HighPrecision", Arg: "e", Expected: "a call of an op with a high-precision mode (div of tiles or tensors, log, recip, tensor rsqrt)", Given: ir.Describe(e)})
	return nil
}

// Fmod is the elementwise remainder of a / b with a's sign, as torch.fmod,
// of tiles or tensors; b may be a scalar (fmods). PyPTO: pl.fmod(a, b).
func Fmod(a, b any) Expr {
	l := arg(a, "pl.Fmod", "lhs")
	r := arg(b, "pl.Fmod", "rhs")
	op, scalar := ir.TensorFmod, ir.TensorFmods
	if isTile(l) {
		op, scalar = ir.TileFmod, ir.TileFmods
	}
	if isScalar(r) {
		op = scalar
	}
	return dsl.Call(op, []ir.Expr{l, r}, nil)
}

// Arange is the integer sequence start, start+1, ... (start, start-1, ...
// when descending) as a one-row tensor of shape [1, n] and integer type
// dt; in a kernel it becomes tile.ci. PyPTO: pl.arange(start, shape,
// dtype=dt, descending=...).
func Arange(start, shape any, dt DataType, descending bool) Expr {
	return dsl.Call(ir.TensorCi, []ir.Expr{arg(start, "pl.Arange", "start"), dsl.TupleArg(shape, "pl.Arange shape")},
		ir.Kwargs{{Key: "dtype", Value: dt}, {Key: "descending", Value: descending}})
}

// byOperand calls an op's tile form on a tile, its tensor form otherwise.
func byOperand(name string, tile, tensor *ir.OpDef, a, b any) Expr {
	if isTile(arg(a, "pl."+name, tile.Args[0].Name)) {
		return tileOp2(name, tile, a, b)
	}
	return tileOp2(name, tensor, a, b)
}

// reduction is a row or column fold: the tile form with its scratch tile,
// or the tensor form when the operand is a tensor and tmp is nil.
func reduction(name string, tile, tensor *ir.OpDef, t, tmp any) Expr {
	x := arg(t, "pl."+name, "tile")
	if tmp == nil && !isTile(x) {
		return dsl.Call(tensor, []ir.Expr{x}, nil)
	}
	return tileOp2(name, tile, x, tmp)
}

// Reshape sees a tile's or tensor's elements, in order, with another shape
// of as many elements; no data moves. PyPTO: pl.reshape(t, shape).
func Reshape(t, shape any) Expr {
	x := arg(t, "pl.Reshape", "tile")
	op := ir.TensorReshape
	if isTile(x) {
		op = ir.TileReshape
	}
	return dsl.Call(op, []ir.Expr{x, dsl.TupleArg(shape, "pl.Reshape shape")}, nil)
}

// Move copies a tile into another on-chip memory (pl.Mem.Left, ...).
// PyPTO: pl.move(t, target_memory=mem).
func Move(t any, mem MemorySpace) Expr {
	return dsl.Call(ir.TileMove, []ir.Expr{arg(t, "pl.Move", "tile")}, kw("target_memory", mem))
}

// Matmul multiplies a Left tile [M, K] by a Right tile [K, N] into an Acc
// tile [M, N]; of two 2-D tensors it is tensor.matmul, an [M, N] tensor of
// their dtype (in a kernel ConvertTensorToTileOps makes it the cube path).
// PyPTO: pl.matmul(lhs, rhs).
func Matmul(lhs, rhs any) Expr {
	l := arg(lhs, "pl.Matmul", "lhs")
	if isTile(l) {
		return tileOp2("Matmul", ir.TileMatmul, l, rhs)
	}
	return dsl.Call(ir.TensorMatmul, []ir.Expr{l, arg(rhs, "pl.Matmul", "rhs")}, nil)
}

// MatmulOut is Matmul with the result's element type given (FP16 operands
// accumulated into FP32). PyPTO: pl.matmul(lhs, rhs, out_dtype=dt).
func MatmulOut(lhs, rhs any, dt DataType) Expr {
	l := arg(lhs, "pl.MatmulOut", "lhs")
	op := ir.TensorMatmul
	if isTile(l) {
		op = ir.TileMatmul
	}
	return dsl.Call(op, []ir.Expr{l, arg(rhs, "pl.MatmulOut", "rhs")}, kw("out_dtype", dt))
}

// MatmulAcc adds lhs @ rhs to acc (bind the result back to acc): of an
// Acc tile it is tile.matmul_acc, in place; of tensors it is
// tensor.matmul_acc, acc [M, N] FP32 (INT32 for integer operands). PyPTO:
// acc = pl.matmul_acc(acc, lhs, rhs).
func MatmulAcc(acc, lhs, rhs any) Expr { return matmulAcc("pl.MatmulAcc", acc, lhs, rhs, nil) }

// MatmulAccInit is MatmulAcc whose accumulator is overwritten by lhs @ rhs
// where initCond (a BOOL scalar, such as pl.Eq(k0, 0)) holds: split-K
// without a peeled first step. PyPTO: pl.matmul_acc(acc, lhs, rhs,
// init_cond=k0 == 0).
func MatmulAccInit(acc, lhs, rhs, initCond any) Expr {
	return matmulAcc("pl.MatmulAccInit", acc, lhs, rhs, initCond)
}

// matmulAcc is tile.matmul_acc of an Acc tile, tensor.matmul_acc
// otherwise, with init_cond when it is not nil.
func matmulAcc(fn string, acc, lhs, rhs, initCond any) Expr {
	a := arg(acc, fn, "acc")
	op := ir.TensorMatmulAcc
	if isTile(a) {
		op = ir.TileMatmulAcc
	}
	args := []ir.Expr{a, arg(lhs, fn, "lhs"), arg(rhs, fn, "rhs")}
	if initCond != nil {
		args = append(args, arg(initCond, fn, "init_cond"))
	}
	return dsl.Call(op, args, nil)
}

// Concat lays src1's columns after src0's: [rows, c0] and [rows, c1] give
// [rows, c0 + c1]. PyPTO: pl.concat(src0, src1).
func Concat(src0, src1 any) Expr { return tileOp2("Concat", ir.TileConcat, src0, src1) }

// tileOp2 calls a two-tile op.
func tileOp2(name string, op *ir.OpDef, a, b any) Expr {
	return dsl.Call(op, []ir.Expr{arg(a, "pl."+name, op.Args[0].Name), arg(b, "pl."+name, op.Args[1].Name)}, nil)
}

// unary picks an op's tile or tensor form by operand type.
func unary(name string, tile, tensor *ir.OpDef, x any) Expr {
	e := arg(x, "pl."+name, "input")
	if isTile(e) {
		return dsl.Call(tile, []ir.Expr{e}, nil)
	}
	if _, ok := ir.AsTensorLike(e.Type()); !ok {
		dsl.Raise(&ir.TypeError{Op: "pl." + name, Arg: "input", Expected: "a tile or tensor", Given: ir.Describe(e)})
	}
	return dsl.Call(tensor, []ir.Expr{e}, nil)
}

// elementwise picks tile.X / tensor.X (or the scalar-rhs form Xs) by operand
// type; on two scalars it builds the binary expression op.
func elementwise(name string, binop ir.BinaryOp, a, b any) Expr {
	l := arg(a, "pl."+name, "lhs")
	r := arg(b, "pl."+name, "rhs")
	var kind string
	var forms elementwiseForms
	switch {
	case isTile(l):
		kind, forms = "tile", tileElementwise[binop]
	case isTensor(l):
		kind, forms = "tensor", tensorElementwise[binop]
	case isScalar(l) && isScalar(r):
		return binary(binop, l, r)
	default:
		dsl.Raise(&ir.TypeError{Op: "pl." + name, Arg: "lhs", Expected: "a tile, tensor or scalar", Given: ir.Describe(l)})
	}
	op := forms.op
	if isScalar(r) {
		if forms.scalar == nil {
			dsl.Raise(&ir.TypeError{Op: "pl." + name, Arg: "rhs", Expected: "a " + kind, Given: ir.Describe(r)})
		}
		op = forms.scalar
	}
	return dsl.Call(op, []ir.Expr{l, r}, nil)
}

// elementwiseForms is the op for two tiles (or tensors) and the one for a
// scalar rhs (nil: none).
type elementwiseForms struct{ op, scalar *ir.OpDef }

var (
	tileElementwise = map[ir.BinaryOp]elementwiseForms{
		ir.OpAdd: {ir.TileAdd, ir.TileAdds}, ir.OpSub: {ir.TileSub, ir.TileSubs},
		ir.OpMul: {ir.TileMul, ir.TileMuls}, ir.OpFloatDiv: {ir.TileDiv, ir.TileDivs},
		ir.OpMax: {ir.TileMaximum, ir.TileMaximums}, ir.OpMin: {ir.TileMinimum, ir.TileMinimums},
	}
	tensorElementwise = map[ir.BinaryOp]elementwiseForms{
		ir.OpAdd: {ir.TensorAdd, ir.TensorAdds}, ir.OpSub: {ir.TensorSub, ir.TensorSubs},
		ir.OpMul: {ir.TensorMul, ir.TensorMuls}, ir.OpFloatDiv: {ir.TensorDiv, ir.TensorDivs},
		ir.OpMax: {ir.TensorMaximum, ir.TensorMaximum}, ir.OpMin: {ir.TensorMinimum, ir.TensorMinimum},
	}
)

// Add is a + b: elementwise on tiles/tensors (adds for a scalar b), or scalar addition.
// Tensor operands broadcast as NumPy's do ([M, N] + [M, 1] adds the column
// to every column; compiled, that pair is tile.row_expand_add); tiles take
// one shape.
func Add(a, b any) Expr { return elementwise("Add", ir.OpAdd, a, b) }

// Sub is a - b, like Add.
func Sub(a, b any) Expr { return elementwise("Sub", ir.OpSub, a, b) }

// Mul is a * b, like Add.
func Mul(a, b any) Expr { return elementwise("Mul", ir.OpMul, a, b) }

// Div is a / b, like Add (true division on scalars).
func Div(a, b any) Expr { return elementwise("Div", ir.OpFloatDiv, a, b) }

// Maximum is the elementwise maximum of two tiles or tensors, or of a tile
// and a scalar (maximums). PyPTO: pl.maximum(a, b).
func Maximum(a, b any) Expr { return elementwise("Maximum", ir.OpMax, a, b) }

// Minimum is the elementwise minimum, like Maximum. PyPTO: pl.minimum(a, b).
func Minimum(a, b any) Expr { return elementwise("Minimum", ir.OpMin, a, b) }

func binary(op ir.BinaryOp, l, r ir.Expr) Expr {
	for i, e := range []ir.Expr{l, r} {
		if !isScalar(e) {
			dsl.Raise(&ir.TypeError{Op: "scalar " + op.String(), Arg: []string{"lhs", "rhs"}[i], Expected: "a scalar", Given: ir.Describe(e)})
		}
	}
	dt := ir.PromoteScalar(l, r)
	if op.IsCompare() || op.IsLogical() {
		if op.IsLogical() {
			for i, e := range []ir.Expr{l, r} {
				if e.Type().(*ir.ScalarType).DType != ir.BOOL {
					dsl.Raise(&ir.TypeError{Op: "scalar " + op.String(), Arg: []string{"lhs", "rhs"}[i], Expected: "a BOOL scalar", Given: ir.Describe(e)})
				}
			}
		}
		dt = ir.BOOL
	}
	if op == ir.OpFloatDiv && !dt.IsFloat() {
		dt = ir.FP32
	}
	return &ir.BinaryExpr{Op: op, Left: l, Right: r, DType: dt, Pos: dsl.Caller()}
}

func scalarOp(name string, op ir.BinaryOp, a, b any) Expr {
	return binary(op, arg(a, "pl."+name, "lhs"), arg(b, "pl."+name, "rhs"))
}

// FloorDiv is a // b on scalars.
func FloorDiv(a, b any) Expr { return scalarOp("FloorDiv", ir.OpFloorDiv, a, b) }

// Mod is a % b on scalars.
func Mod(a, b any) Expr { return scalarOp("Mod", ir.OpFloorMod, a, b) }

// Min is min(a, b) on scalars. PyPTO: pl.min(a, b).
func Min(a, b any) Expr { return scalarOp("Min", ir.OpMin, a, b) }

// Max is max(a, b) on scalars. PyPTO: pl.max(a, b).
func Max(a, b any) Expr { return scalarOp("Max", ir.OpMax, a, b) }

// Eq is a == b.
func Eq(a, b any) Expr { return scalarOp("Eq", ir.OpEq, a, b) }

// Ne is a != b.
func Ne(a, b any) Expr { return scalarOp("Ne", ir.OpNe, a, b) }

// Lt is a < b.
func Lt(a, b any) Expr { return scalarOp("Lt", ir.OpLt, a, b) }

// Le is a <= b.
func Le(a, b any) Expr { return scalarOp("Le", ir.OpLe, a, b) }

// Gt is a > b.
func Gt(a, b any) Expr { return scalarOp("Gt", ir.OpGt, a, b) }

// Ge is a >= b.
func Ge(a, b any) Expr { return scalarOp("Ge", ir.OpGe, a, b) }

// And is a and b on BOOL scalars; on integer tiles or tensors it is the
// elementwise bitwise AND, b a tile, tensor or integer scalar (ands).
// PyPTO: a and b, pl.and_(a, b).
func And(a, b any) Expr {
	if l := arg(a, "pl.And", "lhs"); isTile(l) || isTensor(l) {
		return bitwise("And", ir.TileAnd, ir.TileAnds, ir.TensorAnd, ir.TensorAnds, l, b, nil)
	}
	return scalarOp("And", ir.OpAnd, a, b)
}

// Or is a or b, or the elementwise bitwise OR, like And. PyPTO: a or b,
// pl.or_(a, b).
func Or(a, b any) Expr {
	if l := arg(a, "pl.Or", "lhs"); isTile(l) || isTensor(l) {
		return bitwise("Or", ir.TileOr, ir.TileOrs, ir.TensorOr, ir.TensorOrs, l, b, nil)
	}
	return scalarOp("Or", ir.OpOr, a, b)
}

// Not is not a on a BOOL scalar, or the elementwise bitwise complement of
// an integer tile or tensor. PyPTO: not a, pl.not_(x).
func Not(a any) Expr {
	e := arg(a, "pl.Not", "x")
	if isTile(e) || isTensor(e) {
		return unary("Not", ir.TileNot, ir.TensorNot, e)
	}
	if st, ok := e.Type().(*ir.ScalarType); !ok || st.DType != ir.BOOL {
		dsl.Raise(&ir.TypeError{Op: "pl.Not", Arg: "x", Expected: "a BOOL scalar", Given: ir.Describe(e)})
	}
	return &ir.UnaryExpr{Op: ir.OpNot, X: e, DType: ir.BOOL, Pos: dsl.Caller()}
}

// Neg is -a on a scalar, or elementwise on a tile or tensor (PyPTO:
// pl.neg(t)).
func Neg(a any) Expr {
	e := arg(a, "pl.Neg", "x")
	st, ok := e.Type().(*ir.ScalarType)
	if !ok {
		if _, isT := ir.AsTensorLike(e.Type()); isT || isTile(e) {
			return unary("Neg", ir.TileNeg, ir.TensorNeg, e)
		}
		dsl.Raise(&ir.TypeError{Op: "pl.Neg", Arg: "x", Expected: "a scalar, tile or tensor", Given: ir.Describe(e)})
	}
	return &ir.UnaryExpr{Op: ir.OpNeg, X: e, DType: st.DType, Pos: dsl.Caller()}
}

// Comm signal ops of seed PR #1301, on a one-slot INT32 signal tensor.

// CommNotify notifies a signal slot; op is "atomic_add" or "set".
// PyPTO: pl.tile.comm_notify(signal, value, op='atomic_add').
func CommNotify(signal, value any, op string) Expr {
	return dsl.Call(ir.TileCommNotify, []ir.Expr{arg(signal, "pl.CommNotify", "signal"), dsl.Int32Expr(value, "pl.CommNotify value")}, kw("op", op))
}

// CommWait blocks until the local slot compares true; cmp is eq, ne, gt, ge, lt or le.
// PyPTO: pl.tile.comm_wait(signal, v, cmp='ge').
func CommWait(signal, value any, cmp string) Expr {
	return dsl.Call(ir.TileCommWait, []ir.Expr{arg(signal, "pl.CommWait", "signal"), dsl.Int32Expr(value, "pl.CommWait cmp_value")}, kw("cmp", cmp))
}

// CommTest tests the local slot without blocking; the result is a BOOL scalar.
// PyPTO: ok = pl.tile.comm_test(signal, v, cmp='eq').
func CommTest(signal, value any, cmp string) Expr {
	return dsl.Call(ir.TileCommTest, []ir.Expr{arg(signal, "pl.CommTest", "signal"), dsl.Int32Expr(value, "pl.CommTest cmp_value")}, kw("cmp", cmp))
}

// Fence waits until every earlier global-memory write of this rank (stores
// into windows, remote_store, put) is visible before the rank goes on.
// pl.Compile's InsertCommFence adds the fences a kernel needs; write one by
// hand only in code the pipeline does not see. Under the default
// sequentially consistent simulator it changes nothing; in the relaxed
// memory mode (pl.Ranks(n).Relaxed()) it drains the rank's write buffer.
// PyPTO: pl.system.fence().
func Fence() Expr { return dsl.Call(ir.SystemFence, nil, nil) }

// CacheInvalidate drops every cached line of global memory on this rank,
// so later reads see what peers published. PyPTO: pl.system.cacheinvalid().
func CacheInvalidate() Expr { return dsl.Call(ir.SystemCacheinvalid, nil, nil) }

// CacheInvalidateRegion drops the cached lines of the region of t at
// offsets with shape. PyPTO: pl.system.cacheinvalid(t, shapes, offsets).
func CacheInvalidateRegion(t, shape, offsets any) Expr {
	return dsl.Call(ir.SystemCacheinvalid, []ir.Expr{arg(t, "pl.CacheInvalidateRegion", "tensor"),
		dsl.TupleArg(shape, "pl.CacheInvalidateRegion shapes"), dsl.TupleArg(offsets, "pl.CacheInvalidateRegion offsets")}, nil)
}

// BlockIdx is the running kernel's block index in its Spmd launch (0
// outside one). PyPTO: pl.tile.get_block_idx().
func BlockIdx() Expr { return dsl.Call(ir.TileGetBlockIdx, nil, nil) }

// BlockNum is the number of blocks of the Spmd launch running the kernel
// (1 outside one). PyPTO: pl.tile.get_block_num().
func BlockNum() Expr { return dsl.Call(ir.TileGetBlockNum, nil, nil) }

// PrefetchContext makes a context for asynchronous prefetches into L2,
// backed by the runtime's SDMA workspace. PyPTO:
// pl.prefetch.make_context().
func PrefetchContext() Expr { return dsl.Call(ir.PrefetchMakeContext, nil, nil) }

// Prefetch starts pulling src (a tensor whose dimensions but the last are
// 1, all static) into L2 and is its completion event. It blocks nothing
// and changes no value: a kernel computes the same with or without it.
// PyPTO: pl.prefetch.async_prefetch(src, ctx).
func Prefetch(src, ctx any) Expr {
	return dsl.Call(ir.PrefetchAsyncPrefetch, []ir.Expr{arg(src, "pl.Prefetch", "src"), arg(ctx, "pl.Prefetch", "ctx")}, nil)
}

// PrefetchSession is the session a context's prefetch events complete in.
// PyPTO: pl.prefetch.session(ctx).
func PrefetchSession(ctx any) Expr {
	return dsl.Call(ir.PrefetchSession, []ir.Expr{arg(ctx, "pl.PrefetchSession", "ctx")}, nil)
}

// PrefetchWait waits until the prefetch of event has landed and is a BOOL
// done flag. PyPTO: pl.prefetch.wait(event, session).
func PrefetchWait(event, session any) Expr {
	return dsl.Call(ir.PrefetchWait, []ir.Expr{arg(event, "pl.PrefetchWait", "event"), arg(session, "pl.PrefetchWait", "session")}, nil)
}

// ExpandClone writes a rank-3 input broadcast into target (a 1 expanded in
// at most one dimension, or a plain copy) and is the written target: bind
// it back (f.Set(y, pl.ExpandClone(x, y))). PyPTO: pl.expand_clone(input,
// target).
func ExpandClone(input, target any) Expr {
	return dsl.Call(ir.TensorExpandClone, []ir.Expr{arg(input, "pl.ExpandClone", "input"), arg(target, "pl.ExpandClone", "target")}, nil)
}

// Gather reads input along dim at index, as torch.gather: out[b, k] =
// input[b, index[b, k]] for dim -1 of a rank-2 input (the form a kernel
// compiles, one tile.gather per row). PyPTO: pl.gather(input, dim=dim,
// index=index).
func Gather(input any, dim int, index any) Expr {
	return dsl.Call(ir.TensorGather, []ir.Expr{arg(input, "pl.Gather", "input"), arg(index, "pl.Gather", "index")},
		ir.Kwargs{{Key: "dim", Value: int64(dim)}})
}

// Transpose swaps two axes of a tile or tensor, moving the data (a tensor's
// lowering adds the scratch tile pto.ttrans needs). PyPTO: pl.transpose(t,
// axis1, axis2).
func Transpose(x any, axis1, axis2 int) Expr {
	e := arg(x, "pl.Transpose", "input")
	op := ir.TensorTranspose
	if isTile(e) {
		op = ir.TileTranspose
	}
	return dsl.Call(op, []ir.Expr{e, ir.Int(int64(axis1)), ir.Int(int64(axis2))}, nil)
}

// PartAdd is a + b where both are valid, and the valid one where only one
// is, of tiles or tensors. PyPTO: pl.part_add(a, b).
func PartAdd(a, b any) Expr { return byOperand("PartAdd", ir.TilePartAdd, ir.TensorPartAdd, a, b) }

// PartMul is a * b where both are valid, the valid one elsewhere.
// PyPTO: pl.part_mul(a, b).
func PartMul(a, b any) Expr { return byOperand("PartMul", ir.TilePartMul, ir.TensorPartMul, a, b) }

// PartMax is max(a, b) where both are valid, the valid one elsewhere.
// PyPTO: pl.part_max(a, b).
func PartMax(a, b any) Expr { return byOperand("PartMax", ir.TilePartMax, ir.TensorPartMax, a, b) }

// PartMin is min(a, b) where both are valid, the valid one elsewhere.
// PyPTO: pl.part_min(a, b).
func PartMin(a, b any) Expr { return byOperand("PartMin", ir.TilePartMin, ir.TensorPartMin, a, b) }

// Mgather gathers from the tensor mem into a fresh Vec tile by the INT32
// index tile idx: coalesce "elem" reads mem's elements at idx's flat
// indices, "row" reads whole rows (mem's last dimension) at the indices of
// a [1, R] or [R, 1] idx. gatherOOB ("undefined", "clamp", "wrap",
// "zero"; "" is undefined) says what an index outside mem reads.
// PyPTO: pl.tile.mgather(mem, idx, coalesce="elem", gather_oob="clamp").
func Mgather(mem, idx any, coalesce, gatherOOB string) Expr {
	return dsl.Call(ir.TileMgather, []ir.Expr{arg(mem, "pl.Mgather", "mem"), arg(idx, "pl.Mgather", "idx")}, mgatherKwargs("pl.Mgather", coalesce, gatherOOB))
}

// mgatherKwargs are mgather's coalesce and gather_oob kwargs from their
// spellings.
func mgatherKwargs(op, coalesce, gatherOOB string) ir.Kwargs {
	kw := ir.Kwargs{}
	for _, k := range []struct {
		key, val string
		names    map[string]int64
	}{{"coalesce", coalesce, ir.MgatherCoalesce}, {"gather_oob", gatherOOB, ir.MgatherOOB}} {
		if k.val == "" {
			continue
		}
		v, ok := k.names[k.val]
		if !ok {
			dsl.Raise(&ir.TypeError{Op: op, Kwarg: k.key, Expected: "one of " + nameList(k.names), Given: fmt.Sprintf("%q", k.val)})
		}
		kw = append(kw, ir.Kwarg{Key: k.key, Value: v})
	}
	return kw
}

// MgatherMat gathers from the tensor mem into a fresh Mat tile (a cube
// operand) by the GM INT32 index tensor idx: coalesce "row" takes a
// [1, R] idx and reads whole rows, "elem" the output's [M, N] element
// indices, staged through scratch (a GM tensor of mem's element type, nil
// in row mode). validShape (pl.Dims(r, c), or nil for the whole tile)
// narrows what is gathered and written; gatherOOB as for Mgather. PyPTO:
// pl.tile.mgather(mem, idx, coalesce="elem", target_memory=pl.Mem.Mat,
// scratch=scratch, valid_shape=[r, c]).
func MgatherMat(mem, idx, scratch any, coalesce, gatherOOB string, validShape any) Expr {
	args := []ir.Expr{arg(mem, "pl.MgatherMat", "mem"), arg(idx, "pl.MgatherMat", "idx")}
	if scratch != nil {
		args = append(args, arg(scratch, "pl.MgatherMat", "scratch"))
	}
	if validShape != nil {
		args = append(args, dsl.TupleArg(validShape, "pl.MgatherMat valid_shape"))
	}
	kw := append(mgatherKwargs("pl.MgatherMat", coalesce, gatherOOB), ir.Kwarg{Key: "target_memory", Value: ir.MemMat})
	return dsl.Call(ir.TileMgather, args, kw)
}

// Gatherb gathers 32-byte blocks of the tile src at the UINT32 byte
// offsets of the tile offset (one block per offset, 8 offsets a row at
// least), read as outputDType (src's when it is 0). PyPTO:
// pl.tile.gatherb(src, offset, output_dtype=pl.FP32).
func Gatherb(src, offset any, outputDType DataType) Expr {
	var kw ir.Kwargs
	if outputDType != 0 {
		kw = ir.Kwargs{{Key: "output_dtype", Value: outputDType}}
	}
	return dsl.Call(ir.TileGatherb, []ir.Expr{arg(src, "pl.Gatherb", "src"), arg(offset, "pl.Gatherb", "offset")}, kw)
}

// nameList is a kwarg's spellings, in value order.
func nameList(names map[string]int64) string {
	out := make([]string, len(names))
	for n, v := range names {
		out[v] = fmt.Sprintf("%q", n)
	}
	return strings.Join(out, ", ")
}

// Mscatter stores src's elements into t at the flat indices idx (an INT32
// tile shaped like src) holds: t.flat[idx[i, j]] = src[i, j]; bind the
// result back to t. PyPTO: pl.mscatter(src, idx, t).
func Mscatter(src, idx, t any) Expr {
	return dsl.Call(ir.TileMscatter, []ir.Expr{arg(src, "pl.Mscatter", "src"), arg(idx, "pl.Mscatter", "idx"), arg(t, "pl.Mscatter", "output_tensor")}, nil)
}

// Sort32 sorts each 32-element block of src's rows in descending order,
// with idx's entries alongside: value/index pairs, the last dimension
// doubled. PyPTO: pl.sort32(src, idx).
func Sort32(src, idx any) Expr { return byOperand("Sort32", ir.TileSort32, ir.TensorSort32, src, idx) }

// MrgsortRuns merges every four consecutive sorted runs of blockLen
// elements of src's rows (value/index pairs) into one.
// PyPTO: pl.mrgsort(src, block_len=blockLen).
func MrgsortRuns(src, blockLen any) Expr {
	return byOperand("MrgsortRuns", ir.TileMrgsortFormat1, ir.TensorMrgsortFormat1, src, blockLen)
}

// MrgsortMerge merges two to four sorted rows of value/index pairs into
// one; tiles merge into tmp (the destination), tensors into a row their
// lowering allocates (tmp nil). PyPTO: pl.mrgsort(a, b[, c[, d]], tmp=tmp).
func MrgsortMerge(srcs []Expr, tmp any) Expr {
	if len(srcs) < 2 || len(srcs) > 4 {
		dsl.Failf("pl.MrgsortMerge: expected two to four sorted sources, given %d", len(srcs))
	}
	args := make([]ir.Expr, len(srcs))
	for i, s := range srcs {
		args[i] = arg(s, "pl.MrgsortMerge", fmt.Sprintf("src%d", i))
	}
	if isTile(args[0]) {
		return dsl.Call(ir.TileMrgsortFormat2, append(args, arg(tmp, "pl.MrgsortMerge", "tmp")), nil)
	}
	return dsl.Call(ir.TensorMrgsortFormat2, args, nil)
}

// Cmp compares a with b (a tile or tensor like it, or a scalar) by
// cmpType (0 eq, 1 ne, 2 lt, 3 le, 4 gt, 5 ge): on tiles a packed
// predicate mask for Sel, on tensors 1 where it holds and 0 elsewhere.
// PyPTO: pl.cmp(a, b, cmp_type=cmpType) (pl.tile.cmps for a tile and a
// scalar).
func Cmp(a, b any, cmpType int) Expr {
	l := arg(a, "pl.Cmp", "lhs")
	r := arg(b, "pl.Cmp", "rhs")
	op := ir.TensorCmp
	if isTile(l) {
		op = ir.TileCmp
		if isScalar(r) {
			op = ir.TileCmps
		}
	}
	return dsl.Call(op, []ir.Expr{l, r}, ir.Kwargs{{Key: "cmp_type", Value: int64(cmpType)}})
}

// Sel is lhs where mask (from Cmp on tiles) has its bit set, rhs
// elsewhere; tmp is the [1, 32] UINT8 scratch tile the instruction needs.
// PyPTO: pl.tile.sel(mask, lhs, rhs, tmp).
func Sel(mask, lhs, rhs, tmp any) Expr {
	return dsl.Call(ir.TileSel, []ir.Expr{arg(mask, "pl.Sel", "mask"), arg(lhs, "pl.Sel", "lhs"), arg(rhs, "pl.Sel", "rhs"), arg(tmp, "pl.Sel", "tmp")}, nil)
}

// Explicit cross-core pipes between the cube (AIC) and vector (AIV)
// functions of a Group (see docs/dsl.md). The split code says how the two
// vector lanes divide a tile (0 whole, 1 rows, 2 columns); id picks one
// of several pipes.

// TpushToAic pushes a vector tile into the vector-to-cube pipe id. PyPTO:
// pl.tpush_to_aic(tile, split=split, id=id).
func TpushToAic(tile any, split, id int) Expr {
	return dsl.Call(ir.TileTpushToAic, []ir.Expr{arg(tile, "pl.TpushToAic", "tile")}, kw("split", int64(split), "id", int64(id)))
}

// TpushToAiv pushes a cube tile into the cube-to-vector pipe id. PyPTO:
// pl.tpush_to_aiv(tile, split=split, id=id).
func TpushToAiv(tile any, split, id int) Expr {
	return dsl.Call(ir.TileTpushToAiv, []ir.Expr{arg(tile, "pl.TpushToAiv", "tile")}, kw("split", int64(split), "id", int64(id)))
}

// TpopFromAiv takes the oldest tile of the vector-to-cube pipe id, of
// type t (in Mat unless t says). PyPTO:
// x: pl.Tile[...] = pl.tpop_from_aiv(split=split, id=id).
func TpopFromAiv(t Type, split, id int) Expr {
	return tpop(ir.TileTpopFromAiv, t, split, id)
}

// TpopFromAic takes the oldest tile of the cube-to-vector pipe id, of
// type t (in Vec unless t says). PyPTO:
// x: pl.Tile[...] = pl.tpop_from_aic(split=split, id=id).
func TpopFromAic(t Type, split, id int) Expr {
	return tpop(ir.TileTpopFromAic, t, split, id)
}

func tpop(op *ir.OpDef, t Type, split, id int) Expr {
	c, err := dsl.Call(op, nil, kw("split", int64(split), "id", int64(id))).WithType(t)
	if err != nil {
		dsl.Raise(err)
	}
	return c
}

// TfreeToAiv gives the slot of a tile popped by the cube back to the
// vector lanes. PyPTO: pl.tfree_to_aiv(tile).
func TfreeToAiv(tile any) Expr {
	return dsl.Call(ir.SystemTfreeToAiv, []ir.Expr{arg(tile, "pl.TfreeToAiv", "tile")}, nil)
}

// TfreeToAic gives the slot of a tile popped by a vector lane back to the
// cube. PyPTO: pl.tfree_to_aic(tile).
func TfreeToAic(tile any) Expr {
	return dsl.Call(ir.SystemTfreeToAic, []ir.Expr{arg(tile, "pl.TfreeToAic", "tile")}, nil)
}

// ReserveBuffer reserves the named ring of a pipe this function consumes,
// size bytes at base (-1: the compiler places it); the result is its base.
// PyPTO: pl.reserve_buffer(name=name, size=size, base=base).
func ReserveBuffer(name string, size, base int) Expr {
	return dsl.Call(ir.SystemReserveBuffer, nil, kw("name", name, "size", int64(size), "base", int64(base)))
}

// ImportPeerBuffer is the base of the ring peerFunc reserved under name.
// PyPTO: pl.import_peer_buffer(name=name, peer_func=peerFunc).
func ImportPeerBuffer(name, peerFunc string) Expr {
	return dsl.Call(ir.SystemImportPeerBuffer, nil, kw("name", name, "peer_func", peerFunc))
}

// AicInitializePipe sets up pipe id on the cube side: the consumer buffers
// (0 for a direction this side does not consume), the direction (1 cube to
// vector, 2 vector to cube, 3 both), the slot size in bytes and the slot
// count (0: the default). PyPTO: pl.aic_initialize_pipe(c2v, v2c,
// dir_mask=, slot_size=, slot_num=, id=).
func AicInitializePipe(c2v, v2c any, dirMask, slotSize, slotNum, id int) Expr {
	return initPipe(ir.SystemAicInitializePipe, "pl.AicInitializePipe", c2v, v2c, dirMask, slotSize, slotNum, id)
}

// AivInitializePipe is AicInitializePipe on the vector side. PyPTO:
// pl.aiv_initialize_pipe(c2v, v2c, dir_mask=, slot_size=, slot_num=, id=).
func AivInitializePipe(c2v, v2c any, dirMask, slotSize, slotNum, id int) Expr {
	return initPipe(ir.SystemAivInitializePipe, "pl.AivInitializePipe", c2v, v2c, dirMask, slotSize, slotNum, id)
}

func initPipe(op *ir.OpDef, name string, c2v, v2c any, dirMask, slotSize, slotNum, id int) Expr {
	bufs := make([]ir.Expr, 2)
	for i, b := range []any{c2v, v2c} {
		if n, ok := b.(int); ok {
			bufs[i] = &ir.ConstInt{Value: int64(n), DType: ir.INT32, Pos: dsl.Caller()}
			continue
		}
		bufs[i] = arg(b, name, []string{"c2v", "v2c"}[i])
	}
	k := kw("dir_mask", int64(dirMask), "slot_size", int64(slotSize))
	if slotNum > 0 {
		k = append(k, kw("slot_num", int64(slotNum))...)
	}
	return dsl.Call(op, bufs, append(k, kw("id", int64(id))...))
}
