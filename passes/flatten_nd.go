package passes

import (
	"fmt"

	"github.com/ptorepl/ptorepl/ir"
)

// FlattenTileNdTo2D is upstream's pass of that name (#14, after
// LowerCompositeOps). Upstream rewrites every tile of rank above 2 into a
// 2-D one; ptorepl's PTO emitter already lays such a tile out as 2-D (its
// leading dimensions folded into rows), so the one rewrite that needs new
// IR is tile.batch_matmul, which the 2-D cube cannot run. Each one is
// unrolled, as upstream's lowering does in its general (non-fused) form:
// both operands seen as 2-D pages by tile.reshape, one tile.slice of each
// per batch (broadcast batch dimensions read page 0), a tile.matmul per
// page, each product written into a flat Acc tile by tile.assemble, and
// that tile reshaped to the batched result. InferTileMemorySpace then
// moves each Mat page to Left or Right.
func FlattenTileNdTo2D(p *ir.Program) (*ir.Program, error) {
	return eachFunction(p, func(fn *ir.Function) (*ir.Function, error) {
		if fn.Kind != ir.InCore {
			return fn, nil
		}
		names := newNamer(fn)
		defs := map[*ir.Var]*ir.Call{}
		ir.WalkStmt(fn.Body, nil, func(s ir.Stmt) {
			if a, ok := s.(*ir.AssignStmt); ok {
				if c, ok := a.Value.(*ir.Call); ok {
					defs[a.Var] = c
				}
			}
		})
		body, err := mapBlock(fn.Body, func(s ir.Stmt) ([]ir.Stmt, error) {
			a, ok := s.(*ir.AssignStmt)
			if !ok {
				return []ir.Stmt{s}, nil
			}
			c, ok := a.Value.(*ir.Call)
			if !ok || c.Op != ir.TileBatchMatmul && c.Op != ir.TileBatchMatmulAcc {
				return []ir.Stmt{s}, nil
			}
			return unrollBatchMatmul(names, defs, a, c)
		})
		if err != nil {
			return nil, err
		}
		return withBody(fn, body), nil
	})
}

// noBatchMatmul reports whether no function of p holds a tile.batch_matmul.
func noBatchMatmul(p *ir.Program) bool {
	found := false
	for _, fn := range p.Functions {
		if fn != nil && fn.Body != nil {
			ir.WalkStmt(fn.Body, func(e ir.Expr) {
				if c, ok := e.(*ir.Call); ok && c.Op == ir.TileBatchMatmul {
					found = true
				}
			}, nil)
		}
	}
	return !found
}

// unrollBatchMatmul rewrites a = tile.batch_matmul(lhs, rhs), or
// a = tile.batch_matmul_acc(acc, lhs, rhs): then the flat Acc tile is acc
// reshaped, and each page is accumulated by tile.matmul_acc on its row band
// and written back. An operand
// that is a tile.transpose_view of a loaded tile is paged from that tile,
// each page then seen transposed, as the 2-D cube path reads a transposed
// operand (defs maps the function's variables to the calls defining them).
func unrollBatchMatmul(names *namer, defs map[*ir.Var]*ir.Call, a *ir.AssignStmt, c *ir.Call) ([]ir.Stmt, error) {
	at := ""
	if c.Pos.Known() {
		at = c.Pos.String() + ": "
	}
	var stmts []ir.Stmt
	emit := func(name string, op *ir.OpDef, args []ir.Expr, kw ir.Kwargs) (*ir.Var, error) {
		call, err := op.NewCall(args, kw, c.Pos)
		if err != nil {
			return nil, err
		}
		v := ir.NewVar(names.fresh(name), call.Type(), a.Var.Pos)
		stmts = append(stmts, assign(v, call))
		return v, nil
	}
	// operand is one side of the product, paged: its 2-D view of stacked
	// pages, their shape, its batch dimensions, and whether each page is
	// seen transposed.
	type operand struct {
		flat       ir.Expr
		rows, cols int64
		batch      []int64
		transposed bool
	}
	var ops [2]operand
	operands := c.Args[:2]
	if c.Op == ir.TileBatchMatmulAcc {
		operands = c.Args[1:3]
	}
	for i, x := range operands {
		o := &ops[i]
		base := x
		if v, ok := ir.VarOf(x); ok && defs[v] != nil && defs[v].Op == ir.TileTransposeView {
			base, o.transposed = defs[v].Args[0], true
		}
		t, ok := base.Type().(*ir.TileType)
		if !ok {
			return nil, fmt.Errorf("%stile.batch_matmul: operand %d is not a tile", at, i)
		}
		d, ok := ir.StaticDims(t.Shape)
		if !ok {
			return nil, fmt.Errorf("%stile.batch_matmul of %s: ptorepl unrolls a batched matmul of static shapes only", at, t)
		}
		if im := ir.ImplicitTileView(t.Shape, t.Memory); t.View != nil && (t.View.BLayout != im.BLayout || t.View.SLayout != im.SLayout) {
			return nil, fmt.Errorf("%stile.batch_matmul of %s: ptorepl unrolls operands in their loaded layout, or a tile.transpose_view of one", at, t)
		}
		o.rows, o.cols, o.batch = d[len(d)-2], d[len(d)-1], d[:len(d)-2]
		o.flat = base
		if len(d) > 2 {
			var err error
			if o.flat, err = emit([]string{"bmm_lhs", "bmm_rhs"}[i], ir.TileReshape, []ir.Expr{base, intTuple(int64(numelOf(d[:len(d)-1])), o.cols)}, nil); err != nil {
				return nil, err
			}
		}
	}
	res, ok := a.Var.Type().(*ir.TileType)
	if !ok {
		return nil, fmt.Errorf("%stile.batch_matmul: the result is not a tile", at)
	}
	out, _ := ir.StaticDims(res.Shape)
	m, n := out[len(out)-2], out[len(out)-1]
	batch := out[:len(out)-2]
	pages := numelOf(batch)
	var acc ir.Expr
	var err error
	if c.Op == ir.TileBatchMatmulAcc {
		acc, err = emit("bmm_acc", ir.TileReshape, []ir.Expr{c.Args[0], intTuple(pages*m, n)}, nil)
	} else {
		acc, err = emit("bmm_acc", ir.TileCreate, []ir.Expr{intTuple(pages*m, n)},
			ir.Kwargs{{Key: "dtype", Value: res.DType}, {Key: "target_memory", Value: ir.MemAcc}})
	}
	if err != nil {
		return nil, err
	}
	for p := int64(0); p < pages; p++ {
		var page [2]ir.Expr
		for i, o := range ops {
			name := []string{"bmm_lhs_page", "bmm_rhs_page"}[i]
			idx := pageIndex(o.batch, batch)(p)
			v, err := emit(name, ir.TileSlice, []ir.Expr{o.flat, intTuple(o.rows, o.cols), intTuple(idx*o.rows, 0)}, nil)
			if err != nil {
				return nil, err
			}
			page[i] = v
			if o.transposed {
				if page[i], err = emit(name+"_t", ir.TileTransposeView, []ir.Expr{v}, nil); err != nil {
					return nil, err
				}
			}
		}
		var prod ir.Expr
		if c.Op == ir.TileBatchMatmulAcc {
			band, err := emit("bmm_acc_page", ir.TileSlice, []ir.Expr{acc, intTuple(m, n), intTuple(p*m, 0)}, nil)
			if err != nil {
				return nil, err
			}
			prod, err = emit("bmm_page", ir.TileMatmulAcc, []ir.Expr{band, page[0], page[1]}, nil)
			if err != nil {
				return nil, err
			}
		} else if prod, err = emit("bmm_page", ir.TileMatmul, page[:], nil); err != nil {
			return nil, err
		}
		if acc, err = emit("bmm_acc", ir.TileAssemble, []ir.Expr{acc, prod, intTuple(p*m, 0)}, nil); err != nil {
			return nil, err
		}
	}
	shape := make([]ir.Expr, len(out))
	for i, d := range out {
		shape[i] = ir.Int(d)
	}
	call, err := ir.TileReshape.NewCall([]ir.Expr{acc, &ir.MakeTuple{Elems: shape}}, nil, c.Pos)
	if err != nil {
		return nil, err
	}
	return append(stmts, &ir.AssignStmt{StmtBase: a.StmtBase, Var: a.Var, Value: call}), nil
}

func numelOf(dims []int64) int64 {
	n := int64(1)
	for _, d := range dims {
		n *= d
	}
	return n
}

// pageIndex maps a flat index over the broadcast batch dimensions to the
// page of an operand whose own batch dimensions are dims (right-aligned;
// a dimension of 1 repeats its one page).
func pageIndex(dims, batch []int64) func(p int64) int64 {
	return func(p int64) int64 {
		page, stride := int64(0), int64(1)
		for i := 1; i <= len(batch); i++ {
			b := batch[len(batch)-i]
			idx := p % b
			p /= b
			if i <= len(dims) {
				if d := dims[len(dims)-i]; d != 1 {
					page += idx * stride
				}
				stride *= dims[len(dims)-i]
			}
		}
		return page
	}
}

func intTuple(vals ...int64) *ir.MakeTuple {
	es := make([]ir.Expr, len(vals))
	for i, v := range vals {
		es[i] = ir.Int(v)
	}
	return tuple(es...)
}
