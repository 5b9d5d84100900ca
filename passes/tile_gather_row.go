package passes

import (
	"fmt"

	"github.com/ptorepl/ptorepl/ir"
)

// Gathers into an on-chip accumulator, as upstream's conversion lowers
// them: tensor.create_l1 is a tile.create in Mat, tensor.gather_row the
// tile.gather_row of that tile (its GM source stays a tensor: the op loads
// it itself), and tensor.paged_gather a loop over the indices that reads
// each index and its block's physical number as scalars and gathers the
// physical row into the carried accumulator.

func (t *tileConv) createL1(s ir.Stmt, c *ir.Call) ([]ir.Stmt, error) {
	a, ok := s.(*ir.AssignStmt)
	if !ok {
		return nil, fmt.Errorf("a tensor.create_l1 whose result is not kept allocates nothing; assign it")
	}
	if c.Kwargs.Bool("transpose", false) {
		return nil, fmt.Errorf("tensor.create_l1 with transpose=True (the ZN layout for a transposing gather_row) does not compile yet; it runs in the simulator as written")
	}
	dt, _ := c.Kwargs.DType("dtype")
	call, err := ir.TileCreate.NewCall(c.Args[:1], ir.Kwargs{{Key: "dtype", Value: dt}, {Key: "target_memory", Value: ir.MemMat}}, c.Pos)
	if err != nil {
		return nil, err
	}
	return t.convertedTo(a, call, nil), nil
}

func (t *tileConv) gatherRow(s ir.Stmt, c *ir.Call) ([]ir.Stmt, error) {
	a, ok := s.(*ir.AssignStmt)
	if !ok {
		return nil, fmt.Errorf("tensor.gather_row writes its accumulator in place and must keep its result (kv = pl.gather_row(kv, ...))")
	}
	acc := t.tileOf(c.Args[0])
	if acc == nil {
		return nil, fmt.Errorf("tensor.gather_row into %s: the accumulator must come from pl.create_l1 in this kernel", ir.DefaultFormat.Expr(c.Args[0]))
	}
	if t.tileOf(c.Args[1]) != nil {
		return nil, fmt.Errorf("tensor.gather_row reads its source from GM, but %s is computed on chip; store it first", ir.DefaultFormat.Expr(c.Args[1]))
	}
	var kw ir.Kwargs
	if c.Kwargs.Bool("transpose", false) {
		kw = ir.Kwargs{{Key: "transpose", Value: true}}
	}
	call, err := ir.TileGatherRow.NewCall(append([]ir.Expr{acc}, c.Args[1:]...), kw, c.Pos)
	if err != nil {
		return nil, err
	}
	return t.convertedTo(a, call, nil), nil
}

// pagedGather lowers v = tensor.paged_gather(src, indices, block_table)
// to upstream's loop: pg_rows = the indices' count; for pg_i below it,
// pg_idx = indices[pg_i], pg_phys = block_table[pg_idx // block_size] *
// block_size + pg_idx % block_size, and the row src[pg_phys, col_off:]
// lands in row pg_i (column, with is_trans) of the carried accumulator.
func (t *tileConv) pagedGather(s ir.Stmt, c *ir.Call) ([]ir.Stmt, error) {
	a, ok := s.(*ir.AssignStmt)
	if !ok {
		return nil, fmt.Errorf("a tensor.paged_gather whose result is not kept computes nothing; assign it")
	}
	for i, name := range []string{"src", "indices", "block_table"} {
		if t.tileOf(c.Args[i]) != nil {
			return nil, fmt.Errorf("tensor.paged_gather reads %s from GM, but %s is computed on chip; store it first", name, ir.DefaultFormat.Expr(c.Args[i]))
		}
	}
	pos := c.Pos
	idx, _ := ir.AsTensorLike(c.Args[1].Type())
	bt, _ := ir.AsTensorLike(c.Args[2].Type())
	res, _ := a.Var.Type().(*ir.TensorType)
	space := ir.MemMat
	if v, ok := c.Kwargs.Get("space"); ok {
		space = v.(ir.MemorySpace)
	}
	trans := c.Kwargs.Bool("is_trans", false)
	bs := ir.Int(c.Kwargs.Int("block_size", 0))
	var out []ir.Stmt
	rows, err := t.emit(&out, "pg_rows", ir.TensorDim, []ir.Expr{c.Args[1], ir.Int(int64(len(idx.Shape) - 1))}, nil, pos)
	if err != nil {
		return nil, err
	}
	init, err := t.emit(&out, "paged_gather_acc", ir.TileCreate, []ir.Expr{&ir.MakeTuple{Elems: res.Shape}},
		ir.Kwargs{{Key: "dtype", Value: res.DType}, {Key: "target_memory", Value: space}}, pos)
	if err != nil {
		return nil, err
	}
	lv := ir.NewVar(t.names.fresh("pg_i"), ir.Scalar(ir.INDEX), pos)
	ia := ir.NewIterArg(t.names.fresh("paged_gather_iter"), init.Type(), init, pos)
	var body []ir.Stmt
	let := func(name string, e ir.Expr) ir.Expr {
		v := ir.NewVar(t.names.fresh(name), e.Type(), pos)
		body = append(body, assign(v, e))
		return v
	}
	// An element of a [n] or [1, n] INT32 tensor, as an INDEX.
	element := func(name string, tensor ir.Expr, rank int, at ir.Expr) (ir.Expr, error) {
		where := []ir.Expr{at}
		if rank == 2 {
			where = []ir.Expr{ir.Int(0), at}
		}
		read, err := ir.TensorRead.NewCall([]ir.Expr{tensor, &ir.MakeTuple{Elems: where}}, nil, pos)
		if err != nil {
			return nil, err
		}
		raw := let(name+"_raw", read)
		return let(name, &ir.UnaryExpr{Op: ir.OpCast, X: raw, DType: ir.INDEX, Pos: pos}), nil
	}
	bin := func(op ir.BinaryOp, x, y ir.Expr) ir.Expr {
		return &ir.BinaryExpr{Op: op, Left: x, Right: y, DType: ir.INDEX, Pos: pos}
	}
	j, err := element("pg_idx", c.Args[1], len(idx.Shape), lv)
	if err != nil {
		return nil, err
	}
	blk := let("pg_blk", bin(ir.OpFloorDiv, j, bs))
	rem := let("pg_rem", bin(ir.OpFloorMod, j, bs))
	pblk, err := element("pg_pblk", c.Args[2], len(bt.Shape), blk)
	if err != nil {
		return nil, err
	}
	phys := let("pg_phys", bin(ir.OpAdd, bin(ir.OpMul, pblk, bs), rem))
	dst := []ir.Expr{lv, ir.Int(0)}
	if trans {
		dst = []ir.Expr{ir.Int(0), lv}
	}
	var kw ir.Kwargs
	if trans {
		kw = ir.Kwargs{{Key: "transpose", Value: true}}
	}
	row, err := ir.TileGatherRow.NewCall([]ir.Expr{ia, c.Args[0], &ir.MakeTuple{Elems: dst},
		&ir.MakeTuple{Elems: []ir.Expr{phys, ir.Int(c.Kwargs.Int("col_off", 0))}},
		&ir.MakeTuple{Elems: []ir.Expr{ir.Int(1), ir.Int(c.Kwargs.Int("size", 0))}}}, kw, pos)
	if err != nil {
		return nil, err
	}
	got := let("pg_row", row)
	body = append(body, &ir.YieldStmt{StmtBase: ir.StmtBase{Pos: pos}, Values: []ir.Expr{got}})
	rv := ir.NewVar(a.Var.Name, init.Type(), a.Var.Pos)
	loop := &ir.ForStmt{StmtBase: ir.StmtBase{Pos: pos}, LoopVar: lv, Start: ir.Int(0), Stop: rows, Step: ir.Int(1),
		IterArgs: []*ir.IterArg{ia}, Body: &ir.SeqStmts{StmtBase: ir.StmtBase{Pos: pos}, Stmts: body}, ReturnVars: []*ir.Var{rv}, Kind: ir.Sequential}
	t.setTile(a.Var, rv)
	return append(out, loop), nil
}
