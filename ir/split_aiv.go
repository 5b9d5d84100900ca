package ir

// Explicit AIV-split regions (upstream's SplitAivScopeStmt): `for aiv_id in
// pl.split_aiv(2, mode=pl.SplitMode.UP_DOWN):` runs its body on each of the
// two vector lanes of a core, aiv_id being the lane. Inside it,
// pl.aiv_shard(x) is this lane's half of a cube result (rows for UP_DOWN,
// columns for LEFT_RIGHT, the whole tile for NONE) crossing to the vector
// core, and pl.aic_gather(x) joins the lanes' halves back into one tile
// for the cube. The region is a ScopeStmt of kind ScopeSplitAiv whose
// Split is its mode and whose body starts by binding the lane index.

// SplitAivRegion is the region `for idx in pl.split_aiv(2, mode=mode):`
// over body.
func SplitAivRegion(idx *Var, mode SplitMode, body []Stmt, pos Span) *ScopeStmt {
	bind := &AssignStmt{StmtBase: StmtBase{Pos: idx.Pos}, Var: idx, Value: TileGetSubblockIdx.MustCall(nil, nil, idx.Pos)}
	return &ScopeStmt{StmtBase: StmtBase{Pos: pos}, Kind: ScopeSplitAiv, Level: LevelNone, Role: RoleNone, Split: mode,
		Body: &SeqStmts{StmtBase: StmtBase{Pos: pos}, Stmts: append([]Stmt{bind}, body...)}}
}

// SplitAivIn is the region SplitAivRegion makes, as a statement of a body
// that is a core context or not: outside one (not an InCore function or
// scope, not an Spmd launch's kernel) the region is wrapped in an InCore
// scope of its own, as upstream's DSL does.
func SplitAivIn(coreContext bool, idx *Var, mode SplitMode, body []Stmt, pos Span) Stmt {
	region := SplitAivRegion(idx, mode, body, pos)
	if coreContext {
		return region
	}
	return &ScopeStmt{StmtBase: region.StmtBase, Kind: ScopeInCore, Level: LevelCoreGroup, Role: RoleNone,
		Body: &SeqStmts{StmtBase: region.StmtBase, Stmts: []Stmt{region}}}
}

// SplitAivLoopForm is the lane variable of region s and the statements
// after its binding; idx is nil when the body does not start by binding
// it (the printer then names it aiv_id and prints the whole body).
func SplitAivLoopForm(s *ScopeStmt) (idx *Var, rest []Stmt) {
	stmts := Flatten(s.Body)
	if len(stmts) > 0 {
		if a, ok := stmts[0].(*AssignStmt); ok {
			if c, ok := a.Value.(*Call); ok && c.Op == TileGetSubblockIdx {
				return a.Var, stmts[1:]
			}
		}
	}
	return nil, stmts
}

// SplitAxis is the dimension a split code halves (-1 for none).
func SplitAxis(split int64) int {
	switch SplitMode(split) {
	case SplitUpDown:
		return 0
	case SplitLeftRight:
		return 1
	}
	return -1
}

// splitReshape types aiv_shard (halve) and aic_gather: the split axis
// halved (rounded up: lane 1 holds the spare cell of an odd extent) or
// doubled, the valid extent with it; split 0 keeps the shape.
func splitReshape(halve, tile bool) func(c *DeduceCtx) (Type, error) {
	return func(c *DeduceCtx) (Type, error) {
		var shape, valid []Expr
		var dt DataType
		if tile {
			t, err := c.Tile(0)
			if err != nil {
				return nil, err
			}
			shape, dt = t.Shape, t.DType
			if t.View != nil {
				valid = t.View.ValidShape
			}
		} else {
			t, err := c.Tensor(0)
			if err != nil {
				return nil, err
			}
			shape, dt = t.Shape, t.DType
			if t.View != nil {
				valid = t.View.ValidShape
			}
		}
		split, err := c.IntIn("split", 0, 2, "pl.SplitMode: 0 (NONE), 1 (UP_DOWN) or 2 (LEFT_RIGHT), from the enclosing pl.split_aiv region")
		if err != nil {
			return nil, err
		}
		shape = append([]Expr(nil), shape...)
		valid = append([]Expr(nil), valid...)
		if axis := SplitAxis(split); axis >= 0 {
			if len(shape) != 2 {
				return nil, c.Fail(0, "a 2-D value (the split halves rows or columns)", c.Args[0])
			}
			resize := func(e Expr) Expr {
				n, ok := ConstValue(e)
				switch {
				case !ok && halve:
					return &BinaryExpr{Op: OpFloorDiv, Left: e, Right: Int(2), DType: INDEX, Pos: c.Pos}
				case !ok:
					return &BinaryExpr{Op: OpMul, Left: e, Right: Int(2), DType: INDEX, Pos: c.Pos}
				case halve:
					return Int((n + 1) / 2)
				}
				return Int(n * 2)
			}
			shape[axis] = resize(shape[axis])
			if axis < len(valid) {
				valid[axis] = resize(valid[axis])
			}
		}
		if len(valid) > 0 && SameDims(valid, shape) {
			valid = nil
		}
		if !tile {
			t := &TensorType{Shape: shape, DType: dt}
			if len(valid) > 0 {
				t.View = &TensorView{ValidShape: valid}
			}
			return t, nil
		}
		mem := MemVec
		if !halve {
			mem = MemMat
		}
		var view *TileView
		if len(valid) > 0 {
			v := ImplicitTileView(shape, mem)
			v.ValidShape = valid
			view = &v
		}
		return NewTileType(shape, dt, mem, view), nil
	}
}

func init() {
	splitKw := []KwargSpec{{Name: "split", Kind: KwInt, FromRegion: true}}
	TileAivShard = RegisterOp(&OpDef{
		Name: "tile.aiv_shard", Class: ClassMemory, Category: "CrossCoreOp", ReadsAcc: true,
		Doc: "This vector lane's half of a cube result crossing to the vector core (rows for split 1, columns for " +
			"2, the whole tile for 0), in Vec.",
		Args: []ArgSpec{{Name: "tile"}}, Kwargs: append(splitKw, KwargSpec{Name: "lane_stride", Kind: KwInt}),
		Deduce: splitReshape(true, true),
	})
	TileAicGather = RegisterOp(&OpDef{
		Name: "tile.aic_gather", Class: ClassMemory, Category: "CrossCoreOp",
		Doc:  "The two vector lanes' halves joined along the split axis into one tile for the cube, in Mat.",
		Args: []ArgSpec{{Name: "tile"}}, Kwargs: splitKw,
		Deduce: splitReshape(false, true),
	})
	TensorAivShard = RegisterOp(&OpDef{
		Name: "tensor.aiv_shard", Class: ClassMemory, Category: "CrossCoreOp", TileForm: TileAivShard,
		Doc:  "tile.aiv_shard of a tensor value (a matmul's result): this lane's half.",
		Args: []ArgSpec{{Name: "tensor"}}, Kwargs: splitKw,
		Deduce: splitReshape(true, false),
	})
	TensorAicGather = RegisterOp(&OpDef{
		Name: "tensor.aic_gather", Class: ClassMemory, Category: "CrossCoreOp", TileForm: TileAicGather,
		Doc:  "tile.aic_gather of a tensor value: the lanes' halves joined.",
		Args: []ArgSpec{{Name: "tensor"}}, Kwargs: splitKw,
		Deduce: splitReshape(false, false),
	})
}
