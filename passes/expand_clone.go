package passes

import (
	"fmt"

	"github.com/ptorepl/ptorepl/ir"
)

// expandClone lowers `out = tensor.expand_clone(input, target)` as
// upstream's conversion does, by the dimension it broadcasts:
//
//   - none: load the input, store it into the target;
//   - 0 ([1, N, K] to [B, N, K]): load the input once, store it at
//     [i, 0, 0] for each i, the target carried by the loop;
//   - 1 ([B, 1, K] to [B, N, K]): for each i, load row [i, 0, :] and
//     tile.col_expand it into an [N, K] tile stored at [i, 0, 0];
//   - 2 ([B, N, 1] to [B, N, K]): load the input, tile.row_expand it into
//     a [B*N, K] tile, store it.
//
// ptorepl's tiles are 2-D where upstream's are 3-D until FlattenTileNdTo2D:
// each load is reshaped to its 2-D view, each stored tile back to 3-D.
func (t *tileConv) expandClone(s ir.Stmt, c *ir.Call) ([]ir.Stmt, error) {
	a, ok := s.(*ir.AssignStmt)
	if !ok {
		return nil, fmt.Errorf("tensor.expand_clone: assign its result (it rebinds the target)")
	}
	in, ok1 := ir.AsTensorLike(c.Args[0].Type())
	tg, ok2 := ir.AsTensorLike(c.Args[1].Type())
	if !ok1 || !ok2 {
		return nil, fmt.Errorf("tensor.expand_clone: the input and the target must be tensors")
	}
	if t.tileOf(c.Args[0]) != nil {
		return nil, fmt.Errorf("tensor.expand_clone reads its input from a GM tensor; given one computed on chip, store it first")
	}
	dim, err := ir.ExpandCloneDim(in.Shape, tg.Shape)
	if err != nil {
		return nil, fmt.Errorf("tensor.expand_clone: %v", err)
	}
	var sh [3]int64
	for i, d := range tg.Shape {
		v, ok := ir.ConstValue(d)
		if !ok {
			return nil, fmt.Errorf("tensor.expand_clone: the target's shape must be static to size its tiles, given %s", ir.DefaultFormat.Dims(tg.Shape))
		}
		sh[i] = v
	}
	pos := c.Pos
	zero := ir.Int(0)
	vec := ir.Kwargs{{Key: "target_memory", Value: ir.MemVec}}
	var out []ir.Stmt
	bind := func(out *[]ir.Stmt, name string, op *ir.OpDef, args []ir.Expr, kw ir.Kwargs) (*ir.Var, error) {
		return t.emit(out, name, op, args, kw, pos)
	}
	// load reads the input region at offsets into a tile of shape.
	load := func(out *[]ir.Stmt, offsets *ir.MakeTuple, shape []int64) (*ir.Var, error) {
		s := ir.Dims(shape...)
		return bind(out, "expand_clone_input", ir.TileLoad, []ir.Expr{c.Args[0], offsets, s, s}, vec)
	}
	store := func(tile, at, target ir.Expr) (*ir.Call, error) {
		return ir.TileStore.NewCall([]ir.Expr{tile, at, target}, nil, pos)
	}
	create := func(out *[]ir.Stmt, name string, rows, cols int64) (*ir.Var, error) {
		return bind(out, name, ir.TileCreate, []ir.Expr{ir.Dims(rows, cols)},
			ir.Kwargs{{Key: "dtype", Value: in.DType}, {Key: "target_memory", Value: ir.MemVec}})
	}
	// loop stores body's tile at [i, 0, 0] of the target for each i < B,
	// the target carried, and binds the result to a.Var.
	loop := func(body func(i ir.Expr, stmts *[]ir.Stmt) (ir.Expr, error)) ([]ir.Stmt, error) {
		lv := ir.NewVar(t.names.fresh("i"), ir.Scalar(ir.INDEX), pos)
		ia := ir.NewIterArg(t.names.fresh("expand_clone_acc"), c.Args[1].Type(), c.Args[1], pos)
		var stmts []ir.Stmt
		tile, err := body(lv, &stmts)
		if err != nil {
			return nil, err
		}
		st, err := store(tile, tuple(lv, zero, zero), ia)
		if err != nil {
			return nil, err
		}
		sv := ir.NewVar(t.names.fresh("expand_clone_store"), st.Type(), pos)
		stmts = append(stmts, assign(sv, st), &ir.YieldStmt{StmtBase: ir.StmtBase{Pos: pos}, Values: []ir.Expr{sv}})
		return append(out, &ir.ForStmt{StmtBase: ir.StmtBase{Pos: pos}, LoopVar: lv, Start: zero, Stop: ir.Int(sh[0]), Step: ir.Int(1),
			IterArgs: []*ir.IterArg{ia}, Body: &ir.SeqStmts{StmtBase: ir.StmtBase{Pos: pos}, Stmts: stmts}, ReturnVars: []*ir.Var{a.Var}, Kind: ir.Sequential}), nil
	}
	switch dim {
	case -1, 2:
		tile, err := load(&out, tuple(zero, zero, zero), []int64{sh[0], sh[1], 1})
		if dim < 0 {
			tile, err = load(&out, tuple(zero, zero, zero), sh[:])
		}
		if err != nil {
			return nil, err
		}
		var res ir.Expr = tile
		if dim == 2 {
			col, err := bind(&out, "expand_clone_d2_col", ir.TileReshape, []ir.Expr{tile, ir.Dims(sh[0]*sh[1], 1)}, nil)
			if err != nil {
				return nil, err
			}
			target, err := create(&out, "expand_clone_d2_target", sh[0]*sh[1], sh[2])
			if err != nil {
				return nil, err
			}
			row, err := bind(&out, "expand_clone_d2_row", ir.TileRowExpand, []ir.Expr{target, col}, nil)
			if err != nil {
				return nil, err
			}
			if res, err = bind(&out, "expand_clone_d2_3d", ir.TileReshape, []ir.Expr{row, ir.Dims(sh[:]...)}, nil); err != nil {
				return nil, err
			}
		}
		st, err := store(res, tuple(zero, zero, zero), c.Args[1])
		if err != nil {
			return nil, err
		}
		return append(out, assign(a.Var, st)), nil
	case 0:
		tile, err := load(&out, tuple(zero, zero, zero), []int64{1, sh[1], sh[2]})
		if err != nil {
			return nil, err
		}
		return loop(func(ir.Expr, *[]ir.Stmt) (ir.Expr, error) { return tile, nil })
	default: // 1
		return loop(func(i ir.Expr, stmts *[]ir.Stmt) (ir.Expr, error) {
			row3, err := load(stmts, tuple(i, zero, zero), []int64{1, 1, sh[2]})
			if err != nil {
				return nil, err
			}
			row, err := bind(stmts, "expand_clone_d1_row", ir.TileReshape, []ir.Expr{row3, ir.Dims(1, sh[2])}, nil)
			if err != nil {
				return nil, err
			}
			target, err := create(stmts, "expand_clone_d1_target", sh[1], sh[2])
			if err != nil {
				return nil, err
			}
			col, err := bind(stmts, "expand_clone_d1_col", ir.TileColExpand, []ir.Expr{target, row}, nil)
			if err != nil {
				return nil, err
			}
			return bind(stmts, "expand_clone_d1_3d", ir.TileReshape, []ir.Expr{col, ir.Dims(1, sh[1], sh[2])}, nil)
		})
	}
}
