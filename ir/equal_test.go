package ir

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func wbuf(name string, size int64) *WindowBuffer {
	return NewWindowBuffer(NewVar(name, PtrT, Span{}), IntOf(size, INT64), false, false, Span{})
}

// The seed #1346 facts (tests/ut/ir/core/test_comm_group_schema.py), plus the
// window-buffer identity of distributed tensor types.
func TestEqualitySeed1346(t *testing.T) {
	data := wbuf("data", 256)
	other := wbuf("data", 256)
	base := NewVar("buf", PtrT, Span{})
	small := NewWindowBuffer(base, IntOf(64, INT64), false, false, Span{})
	big := NewWindowBuffer(base, IntOf(128, INT64), false, false, Span{})
	view := func(wb *WindowBuffer) *DistributedTensorType {
		return &DistributedTensorType{Shape: Dims(128, 128).Elems, DType: FP16, Window: wb}
	}
	cases := []struct {
		name     string
		a, b     any
		plain    bool // equal without auto-mapping
		autoEq   bool // equal with auto-mapping
		errorHas string
	}{
		{"groups sharing one buffer", &CommGroup{Slots: []*WindowBuffer{data}}, &CommGroup{Slots: []*WindowBuffer{data}}, true, true, ""},
		{"look-alike buffers", &CommGroup{Slots: []*WindowBuffer{data}}, &CommGroup{Slots: []*WindowBuffer{other}}, false, true, "not the same"},
		{"all devices vs [0, 1]", &CommGroup{Slots: []*WindowBuffer{data}}, &CommGroup{Devices: []int64{0, 1}, Slots: []*WindowBuffer{data}}, false, false, "devices"},
		{"one base, sizes 64 and 128", small, big, false, false, "not the same"},
		{"views of one allocation", view(data), view(data), true, true, ""},
		{"views of different allocations", view(data), view(other), false, true, "window_buffer"},
		{"window presence", view(data), view(nil), false, false, "window_buffer presence mismatch"},
		{"tensor vs distributed tensor", &TensorType{Shape: Dims(4).Elems, DType: FP32}, &DistributedTensorType{Shape: Dims(4).Elems, DType: FP32}, false, false, "TensorType vs DistributedTensorType"},
		{"INT64 vs INDEX constant", IntOf(3, INT64), Int(3), true, true, ""},
		{"INT32 vs INDEX constant", IntOf(3, INT32), Int(3), false, false, "constant"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			require.Equal(t, tc.plain, StructuralEqual(tc.a, tc.b, false))
			require.Equal(t, tc.autoEq, StructuralEqual(tc.a, tc.b, true))
			if !tc.plain {
				err := AssertStructuralEqual(tc.a, tc.b, false)
				require.ErrorContains(t, err, tc.errorHas)
			}
			if tc.name == "one base, sizes 64 and 128" {
				require.ErrorContains(t, AssertStructuralEqual(tc.a, tc.b, true), "size: constant 64:INT64 vs 128:INT64")
			}
			if tc.plain {
				require.Equal(t, StructuralHash(tc.a, false), StructuralHash(tc.b, false), "equal implies equal hash")
			}
			if tc.autoEq {
				require.Equal(t, StructuralHash(tc.a, true), StructuralHash(tc.b, true), "equal implies equal hash")
			}
		})
	}
}

// kernel builds `x -> load -> add -> store` with fresh variables each call,
// so two calls are alpha-equivalent but share no pointers.
func kernel(t *testing.T, op string) *Function {
	f, err := NewFunction("k", InCore, LevelNone, RoleNone, Span{})
	require.NoError(t, err)
	x := NewVar("x", &TensorType{Shape: Dims(1, 64).Elems, DType: FP32}, Span{})
	y := NewVar("y", &TensorType{Shape: Dims(1, 64).Elems, DType: FP32}, Span{})
	f.Params, f.Dirs = []*Var{x, y}, []ParamDirection{In, Out}
	load := MustCall("tile.load", []Expr{x, Dims(0, 0), Dims(1, 64), Dims(1, 64)}, Kwargs{{"target_memory", MemVec}}, Span{})
	tv := NewVar("t", load.Type(), Span{})
	sum := MustCall(op, []Expr{tv, tv}, nil, Span{})
	sv := NewVar("s", sum.Type(), Span{})
	st := MustCall("tile.store", []Expr{sv, Dims(0, 0), y}, nil, Span{})
	f.Body = Seq(&AssignStmt{Var: tv, Value: load}, &AssignStmt{Var: sv, Value: sum}, &ReturnStmt{Values: []Expr{st}})
	f.ReturnTypes = []Type{y.Type()}
	return f
}

func TestEqualityAlphaEquivalence(t *testing.T) {
	a, b, c := kernel(t, "tile.add"), kernel(t, "tile.add"), kernel(t, "tile.mul")
	require.True(t, StructuralEqual(a, b, false), "definitions auto-map")
	require.Equal(t, StructuralHash(a, false), StructuralHash(b, false))
	require.False(t, StructuralEqual(a, c, false))
	err := AssertStructuralEqual(a, c, false)
	require.ErrorContains(t, err, "body.stmts[1].value.op: tile.add vs tile.mul")
	require.NotEqual(t, StructuralHash(a, false), StructuralHash(c, false))

	pa, pb := NewProgram("A"), NewProgram("B")
	require.NoError(t, pa.AddFunction(a))
	require.NoError(t, pb.AddFunction(b))
	require.True(t, StructuralEqual(pa, pb, false), "program names are ignored")
	b.Name = "k2"
	require.False(t, StructuralEqual(pa, pb, false), "function names key the function map")
}

// A use of a variable defined elsewhere needs the same pointer, unless auto-mapping.
func TestEqualityFreeVariables(t *testing.T) {
	x1 := NewVar("x", Scalar(INT32), Span{})
	x2 := NewVar("x", Scalar(INT32), Span{})
	e1 := &BinaryExpr{Op: OpAdd, Left: x1, Right: x1, DType: INT32}
	e2 := &BinaryExpr{Op: OpAdd, Left: x2, Right: x2, DType: INT32}
	e3 := &BinaryExpr{Op: OpAdd, Left: x2, Right: NewVar("y", Scalar(INT32), Span{}), DType: INT32}
	require.True(t, StructuralEqual(e1, e1, false))
	require.False(t, StructuralEqual(e1, e2, false))
	require.True(t, StructuralEqual(e1, e2, true))
	require.False(t, StructuralEqual(e1, e3, true), "the mapping is a bijection")
	require.Equal(t, StructuralHash(e1, true), StructuralHash(e2, true))
}

// MemRefs in a definition's tile type: the default comparison skips them,
// as upstream's does; the MemRef-aware one sees a different buffer or slot.
func TestEqualityMemRefs(t *testing.T) {
	base := NewVar("ping", PtrT, Span{})
	def := func(slot int64) *AssignStmt {
		m := NewMemRef(base, Int(0), 1024, Span{})
		m.SlotCount, m.SlotIndex = 2, Int(slot)
		tt := NewTileType([]Expr{Int(16), Int(16)}, FP32, MemVec, nil)
		tt.MemRef = m
		v := NewVar("t", tt, Span{})
		return &AssignStmt{Var: v, Value: Int(0)}
	}
	a, b := def(0), def(1)
	require.NoError(t, AssertStructuralEqual(a, b, true))
	require.NoError(t, AssertStructuralEqualMemRefs(a, def(0), true))
	err := AssertStructuralEqualMemRefs(a, b, true)
	require.Error(t, err)
	require.Contains(t, err.Error(), "memref.slot_index")
}
