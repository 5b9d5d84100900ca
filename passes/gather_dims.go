package passes

import (
	"fmt"

	"github.com/ptorepl/ptorepl/ir"
)

// gatherOuterDim lowers a rank-3 tensor.gather along its first or middle
// dimension as upstream's conversion does: one loop over the I0*I1 rows of
// the result, each loading the input plane the row reads from (inp[:, i1, :]
// for dim 0, inp[i0, :, :] for dim 1) seen as one flat row, turning the
// index row into flat offsets (idx * S2 + k) and gathering [1, I2]. The
// flat offsets are INT32, which tgather pairs with 32-bit sources only, so
// FP32 and INT32 inputs are lowered and 16-bit ones refused, as upstream
// refuses them.
func (t *tileConv) gatherOuterDim(a *ir.AssignStmt, c *ir.Call, in, idx ir.TensorLike, dim int64) ([]ir.Stmt, error) {
	if in.DType != ir.FP32 && in.DType != ir.INT32 {
		return nil, fmt.Errorf("tensor.gather: a rank-3 gather on dim %d uses an INT32 flat index that only matches tgather's "+
			"32-bit form; given input dtype %s (FP32 and INT32 lower)", dim, in.DType.Name())
	}
	if t.tileOf(c.Args[0]) != nil || t.tileOf(c.Args[1]) != nil {
		return nil, fmt.Errorf("tensor.gather: a rank-3 gather on dim %d reads its input and index from GM tensors; "+
			"given an operand already on chip", dim)
	}
	var s, ix [3]int64
	for i := 0; i < 3; i++ {
		var ok1, ok2 bool
		s[i], ok1 = ir.ConstValue(in.Shape[i])
		ix[i], ok2 = ir.ConstValue(idx.Shape[i])
		if !ok1 || !ok2 {
			return nil, fmt.Errorf("tensor.gather: a rank-3 gather on dim %d needs static shapes, given input %s and index %s",
				dim, ir.DefaultFormat.Dims(in.Shape), ir.DefaultFormat.Dims(idx.Shape))
		}
	}
	pos := c.Pos
	var out, body []ir.Stmt
	bind := func(out *[]ir.Stmt, name string, op *ir.OpDef, args []ir.Expr, kw ir.Kwargs) (*ir.Var, error) {
		return t.emit(out, name, op, args, kw, pos)
	}
	i32 := func(v int64) ir.Expr { return &ir.ConstInt{Value: v, DType: ir.INT32} }
	vec := ir.Kwargs{{Key: "target_memory", Value: ir.MemVec}}
	rows := ix[0] * ix[1]
	// k = 0 .. I2-1, the column each flat offset adds.
	cols, err := bind(&out, "gather_range", ir.TileCi, []ir.Expr{i32(0), ir.Dims(1, ix[2])},
		ir.Kwargs{{Key: "dtype", Value: ir.INT32}, {Key: "descending", Value: false}})
	if err != nil {
		return nil, err
	}
	init, err := bind(&out, "gather_acc_init", ir.TileCreate, []ir.Expr{ir.Dims(rows, ix[2])},
		ir.Kwargs{{Key: "dtype", Value: in.DType}, {Key: "target_memory", Value: ir.MemVec}})
	if err != nil {
		return nil, err
	}
	lv := ir.NewVar(t.names.fresh("gather_lv"), ir.Scalar(ir.INDEX), pos)
	ia := ir.NewIterArg(t.names.fresh("gather_ia"), init.Type(), init, pos)
	i0 := &ir.BinaryExpr{Op: ir.OpFloorDiv, Left: lv, Right: ir.Int(ix[1]), DType: ir.INDEX}
	i1 := &ir.BinaryExpr{Op: ir.OpFloorMod, Left: lv, Right: ir.Int(ix[1]), DType: ir.INDEX}
	// The plane the row reads: every input row at i1 (dim 0), or the
	// input's i0-th matrix (dim 1).
	zero := ir.Int(0)
	planeAt, planeShape, planeRows := tuple(zero, i1, zero), ir.Dims(s[0], 1, s[2]), s[0]
	if dim == 1 {
		planeAt, planeShape, planeRows = tuple(i0, zero, zero), ir.Dims(1, s[1], s[2]), s[1]
	}
	raw, err := bind(&body, "gather_inp_raw", ir.TileLoad, []ir.Expr{c.Args[0], planeAt, planeShape, planeShape}, vec)
	if err != nil {
		return nil, err
	}
	plane, err := bind(&body, "gather_inp_2d", ir.TileReshape, []ir.Expr{raw, ir.Dims(planeRows, s[2])}, nil)
	if err != nil {
		return nil, err
	}
	flatIn, err := bind(&body, "gather_inp_flat", ir.TileReshape, []ir.Expr{plane, ir.Dims(1, planeRows*s[2])}, nil)
	if err != nil {
		return nil, err
	}
	idxShape := ir.Dims(1, 1, ix[2])
	idxRaw, err := bind(&body, "gather_idx_raw", ir.TileLoad, []ir.Expr{c.Args[1], tuple(i0, i1, zero), idxShape, idxShape}, vec)
	if err != nil {
		return nil, err
	}
	idxRow, err := bind(&body, "gather_idx_row", ir.TileReshape, []ir.Expr{idxRaw, ir.Dims(1, ix[2])}, nil)
	if err != nil {
		return nil, err
	}
	scaled, err := bind(&body, "gather_idx_s", ir.TileMuls, []ir.Expr{idxRow, i32(s[2])}, nil)
	if err != nil {
		return nil, err
	}
	flatIdx, err := bind(&body, "gather_fidx", ir.TileAdd, []ir.Expr{scaled, cols}, nil)
	if err != nil {
		return nil, err
	}
	tmp, err := bind(&body, "gather_row_tmp", ir.TileCreate, []ir.Expr{ir.Dims(1, ix[2])},
		ir.Kwargs{{Key: "dtype", Value: ir.INT32}, {Key: "target_memory", Value: ir.MemVec}})
	if err != nil {
		return nil, err
	}
	got, err := bind(&body, "gather_row", ir.TileGather, []ir.Expr{flatIn, flatIdx, tmp}, nil)
	if err != nil {
		return nil, err
	}
	acc, err := bind(&body, "gather_asmbl", ir.TileAssemble, []ir.Expr{ia, got, tuple(lv, zero)}, nil)
	if err != nil {
		return nil, err
	}
	body = append(body, &ir.YieldStmt{StmtBase: ir.StmtBase{Pos: pos}, Values: []ir.Expr{acc}})
	rv := ir.NewVar(t.names.fresh("gather_out_2d"), init.Type(), a.Var.Pos)
	out = append(out, &ir.ForStmt{StmtBase: ir.StmtBase{Pos: pos}, LoopVar: lv, Start: ir.Int(0), Stop: ir.Int(rows), Step: ir.Int(1),
		IterArgs: []*ir.IterArg{ia}, Body: &ir.SeqStmts{StmtBase: ir.StmtBase{Pos: pos}, Stmts: body}, ReturnVars: []*ir.Var{rv}, Kind: ir.Sequential})
	// The result seen in the index's shape again.
	call, err := ir.TileReshape.NewCall([]ir.Expr{rv, tuple(idx.Shape...)}, nil, pos)
	if err != nil {
		return nil, err
	}
	return t.convertedTo(a, call, out), nil
}
