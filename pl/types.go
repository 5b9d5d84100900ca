package pl

import (
	"github.com/ptorepl/ptorepl/internal/dsl"
	"github.com/ptorepl/ptorepl/ir"
)

// Expr is an IR expression: a variable, constant, or op call.
type Expr = ir.Expr

// Type is an IR type, as returned by Tensor, Tile and Scalar.
type Type = ir.Type

// DataType is an element type (pl.FP32); DataType.Bytes() is its byte width.
type DataType = ir.DataType

// Shape is a list of dimensions built by Dims.
type Shape = dsl.Shape

// Element types.
const (
	BOOL  = ir.BOOL
	INT4  = ir.INT4
	INT8  = ir.INT8
	INT16 = ir.INT16
	INT32 = ir.INT32
	INT64 = ir.INT64
	INDEX = ir.INDEX
	UINT8 = ir.UINT8
	FP16  = ir.FP16
	BF16  = ir.BF16
	FP32  = ir.FP32
	// TASK_ID is the dtype of a task id (pl.submit, InCoreTask) and of
	// arrays of them (ArrayCreate).
	TASK_ID = ir.TASK_ID
)

// Function types for Program.Function.
const (
	Opaque        = ir.Opaque
	Orchestration = ir.Orchestration
	InCore        = ir.InCore
	AIC           = ir.AIC
	AIV           = ir.AIV
	Group         = ir.Group
)

// MemorySpace is where a tile lives on chip. PyPTO: pl.MemorySpace.
type MemorySpace = ir.MemorySpace

// Memory spaces.
const (
	DDR   = ir.MemDDR
	Vec   = ir.MemVec
	Mat   = ir.MemMat
	Acc   = ir.MemAcc
	Left  = ir.MemLeft
	Right = ir.MemRight
)

// Dims builds a shape (or an offsets tuple) from ints and expressions:
// pl.Dims(1, 256), pl.Dims(NR, 1), pl.Dims(my_rank, 0). PyPTO: [1, 256].
func Dims(dims ...any) Shape { return dsl.Dims(dims...) }

// Dynamic declares a symbolic dimension. PyPTO: NR = pl.dynamic("NR").
// Every call with one name gives the same dimension.
func Dynamic(name string) Expr {
	dsl.CheckName("pl.Dynamic", "name", name)
	return dsl.Dynamic(name, dsl.Caller())
}

// Tensor is the type of a tensor in global memory. PyPTO: pl.Tensor[[1, 256], pl.FP32].
func Tensor(shape Shape, dt DataType) Type {
	checkDType("pl.Tensor", dt)
	dsl.CheckDims("pl.Tensor", shape)
	return &ir.TensorType{Shape: shape.Dims, DType: dt}
}

// Tile is the type of an on-chip tile. PyPTO: pl.Tile[[1, 256], pl.FP32].
func Tile(shape Shape, dt DataType) Type {
	checkDType("pl.Tile", dt)
	dsl.CheckDims("pl.Tile", shape)
	return ir.NewTileType(shape.Dims, dt, ir.MemNone, nil)
}

// TileIn is a tile type in a given memory space. PyPTO: pl.Tile[[16, 16], pl.FP16, pl.Mem.Vec].
func TileIn(shape Shape, dt DataType, mem ir.MemorySpace) Type {
	checkDType("pl.TileIn", dt)
	dsl.CheckDims("pl.TileIn", shape)
	return ir.NewTileType(shape.Dims, dt, mem, nil)
}

// Scalar is the type of a scalar. PyPTO: pl.Scalar[pl.INT32].
func Scalar(dt DataType) Type {
	checkDType("pl.Scalar", dt)
	return ir.Scalar(dt)
}

func checkDType(what string, dt DataType) {
	if !dt.Valid() {
		dsl.Failf("%s: unknown element type code %d", what, int(dt))
	}
}

// Const is a constant of an explicit type. PyPTO: pl.const(1, pl.INT32).
func Const(v any, dt DataType) Expr {
	switch x := v.(type) {
	case int:
		if dt.IsFloat() {
			return &ir.ConstFloat{Value: float64(x), DType: dt, Pos: dsl.Caller()}
		}
		return &ir.ConstInt{Value: int64(x), DType: dt, Pos: dsl.Caller()}
	case int64:
		return &ir.ConstInt{Value: x, DType: dt, Pos: dsl.Caller()}
	case float64:
		return &ir.ConstFloat{Value: x, DType: dt, Pos: dsl.Caller()}
	case bool:
		return &ir.ConstBool{Value: x, Pos: dsl.Caller()}
	}
	dsl.Failf("pl.Const: want an int, float or bool, got %v (%T)", v, v)
	return nil
}

// Catch runs fn and returns the DSL error it raised, if any. Compiled Go code
// uses it where a cell would simply see the error.
func Catch(fn func()) (err error) {
	defer func() {
		if r := recover(); r != nil {
			dsl.Reset()
			if e, ok := r.(error); ok {
				err = e
				return
			}
			panic(r)
		}
	}()
	fn()
	return nil
}
