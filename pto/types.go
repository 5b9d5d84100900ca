package pto

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/ptorepl/ptorepl/ir"
)

// MLIR spellings of types.

// elemType is the PTO element type string of d, as used inside !pto types
// (pto.md §1: f16 f32 bf16 i8 i16 i32 i64 ui8 ... i1 index).
func elemType(d ir.DataType) (string, error) {
	switch d {
	case ir.BOOL:
		return "i1", nil
	case ir.INT4:
		return "i4", nil
	case ir.INT8:
		return "i8", nil
	case ir.INT16:
		return "i16", nil
	case ir.INT32:
		return "i32", nil
	case ir.INT64:
		return "i64", nil
	case ir.INDEX:
		return "index", nil
	case ir.UINT4:
		return "ui4", nil
	case ir.UINT8:
		return "ui8", nil
	case ir.UINT16:
		return "ui16", nil
	case ir.UINT32:
		return "ui32", nil
	case ir.UINT64:
		return "ui64", nil
	case ir.FP16:
		return "f16", nil
	case ir.FP32:
		return "f32", nil
	case ir.BF16:
		return "bf16", nil
	case ir.FP8E4M3FN:
		return "f8E4M3FN", nil
	case ir.FP8E5M2:
		return "f8E5M2", nil
	}
	return "", fmt.Errorf("element type %s has no PTO-MLIR spelling", d)
}

// scalarType is the MLIR type of a scalar SSA value of dtype d. The arith
// dialect works on signless integers, so unsigned scalars are iN too.
func scalarType(d ir.DataType) (string, error) {
	if d.IsUnsignedInt() {
		return "i" + strconv.Itoa(d.Bits()), nil
	}
	if d == ir.FP8E4M3FN || d == ir.FP8E5M2 {
		return "", fmt.Errorf("scalar of type %s has no MLIR arith type", d)
	}
	return elemType(d)
}

func ptrType(elem string) string { return "!pto.ptr<" + elem + ">" }

// ctxType is the type of a CommCtx value: a pointer to the u64 CommContext slots.
const ctxType = "!pto.ptr<i64>"

// tensorViewType prints every dim as '?' (pto.md §2).
func tensorViewType(rank int, elem string) string {
	return "!pto.tensor_view<" + strings.Repeat("?x", rank) + elem + ">"
}

// partitionType prints static extents as numbers and dynamic ones as '?'.
func partitionType(sizes []ir.Expr, elem string) string {
	var b strings.Builder
	b.WriteString("!pto.partition_tensor_view<")
	for _, s := range sizes {
		if v, ok := ir.ConstValue(s); ok {
			b.WriteString(strconv.FormatInt(v, 10))
		} else {
			b.WriteString("?")
		}
		b.WriteString("x")
	}
	b.WriteString(elem + ">")
	return b.String()
}

// memLoc is the loc= of a tile_buf.
func memLoc(m ir.MemorySpace) (string, error) {
	switch m {
	case ir.MemVec:
		return "vec", nil
	case ir.MemMat:
		return "mat", nil
	case ir.MemLeft:
		return "left", nil
	case ir.MemRight:
		return "right", nil
	case ir.MemAcc:
		return "acc", nil
	case ir.MemBias:
		return "bias", nil
	case ir.MemScalarLoc:
		return "scalar", nil
	case ir.MemLeftScale:
		return "left_scale", nil
	case ir.MemRightScale:
		return "right_scale", nil
	case ir.MemNone:
		return "", fmt.Errorf("has no memory space (run InferTileMemorySpace before PTO codegen)")
	}
	return "", fmt.Errorf("lives in %s, which is not an on-chip memory space", m.Name())
}

// tileRowsCols flattens a tile shape to 2-D: rows are the product of all but
// the last dim, cols the last dim. A dim that is not static is -1.
func tileRowsCols(shape []ir.Expr) (rows, cols int64) {
	if len(shape) == 0 {
		return 1, 1
	}
	rows = 1
	for _, d := range shape[:len(shape)-1] {
		v, ok := ir.ConstValue(d)
		if !ok || rows < 0 {
			rows = -1
			continue
		}
		rows *= v
	}
	cols = -1
	if v, ok := ir.ConstValue(shape[len(shape)-1]); ok {
		cols = v
	}
	return rows, cols
}

// tileValidShape is the tile's valid shape: its view's, or its full shape.
func tileValidShape(t *ir.TileType) []ir.Expr {
	if t.View != nil && len(t.View.ValidShape) > 0 {
		return t.View.ValidShape
	}
	return t.Shape
}

func dimText(v int64) string {
	if v < 0 {
		return "?"
	}
	return strconv.FormatInt(v, 10)
}

// tileBufType is the !pto.tile_buf of a tile type (pto.md §6). It depends on
// the IR type alone, so iter_args, yields and results of one IR type agree.
func tileBufType(t *ir.TileType) (string, error) {
	elem, err := elemType(t.DType)
	if err != nil {
		return "", err
	}
	loc, err := memLoc(t.Memory)
	if err != nil {
		return "", err
	}
	if len(t.Shape) == 0 {
		return "", fmt.Errorf("is a rank-0 tile")
	}
	rows, cols := tileRowsCols(t.Shape)
	if rows < 0 || cols < 0 {
		return "", fmt.Errorf("has the dynamic shape %s (on-chip tiles need a static shape)", ir.ShapeString(t.Shape))
	}
	vr, vc := tileRowsCols(tileValidShape(t))
	view := t.EffectiveView()
	return fmt.Sprintf("!pto.tile_buf<loc=%s, dtype=%s, rows=%d, cols=%d, v_row=%s, v_col=%s, blayout=%s, slayout=%s, fractal=%d, pad=%d>",
		loc, elem, rows, cols, dimText(vr), dimText(vc), view.BLayout.Name(), view.SLayout.Name(), view.Fractal, int(view.Pad)), nil
}

// mlirType is the type of an SSA value holding an IR value of type t.
func mlirType(t ir.Type) (string, error) {
	switch t := t.(type) {
	case *ir.ScalarType:
		return scalarType(t.DType)
	case *ir.TileType:
		s, err := tileBufType(t)
		if err != nil {
			return "", fmt.Errorf("tile %s %s", t, err)
		}
		return s, nil
	case *ir.CommCtxType:
		return ctxType, nil
	case *ir.AsyncHandleType:
		return handleType(t), nil
	}
	return "", fmt.Errorf("values of type %s have no PTO-MLIR type", t)
}

// formatFloat prints a float the way MLIR's lexer accepts (always with a '.').
func formatFloat(v float64) string {
	s := strconv.FormatFloat(v, 'e', -1, 64)
	mant, exp, _ := strings.Cut(s, "e")
	if !strings.Contains(mant, ".") {
		mant += ".0"
	}
	return mant + "e" + exp
}
