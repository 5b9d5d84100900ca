package ir

import (
	"encoding/json"
	"fmt"
	"strconv"
)

// UnmarshalProgram reads a program written by MarshalProgram. Malformed input
// — missing or mistyped fields, unknown kinds or ops, dangling references —
// is an error, never a panic.
func UnmarshalProgram(data []byte) (*Program, error) {
	var top map[string]json.RawMessage
	if err := json.Unmarshal(data, &top); err != nil {
		return nil, fmt.Errorf("ir: not a serialized program: %w", err)
	}
	r := &reader{ids: map[int]Expr{}}
	var format string
	var version int
	if err := r.field(top, "format", &format); err != nil || format != serialFormat {
		return nil, fmt.Errorf("ir: not a serialized program (format %q)", format)
	}
	if err := r.field(top, "version", &version); err != nil || version != serialVersion {
		return nil, fmt.Errorf("ir: unsupported serialization version %d", version)
	}
	p, err := r.program(top["program"])
	if err != nil {
		return nil, fmt.Errorf("ir: %w", err)
	}
	return p, nil
}

type reader struct {
	ids map[int]Expr
}

type raw = map[string]json.RawMessage

func (r *reader) field(o raw, key string, dst any) error {
	v, ok := o[key]
	if !ok {
		return fmt.Errorf("missing field %q", key)
	}
	if err := json.Unmarshal(v, dst); err != nil {
		return fmt.Errorf("field %q: %w", key, err)
	}
	return nil
}

func object(m json.RawMessage, what string) (raw, error) {
	var o raw
	if len(m) == 0 || string(m) == "null" {
		return nil, fmt.Errorf("%s: missing", what)
	}
	if err := json.Unmarshal(m, &o); err != nil || o == nil {
		return nil, fmt.Errorf("%s: want an object", what)
	}
	return o, nil
}

func list(m json.RawMessage, what string) ([]json.RawMessage, error) {
	var l []json.RawMessage
	if err := json.Unmarshal(m, &l); err != nil {
		return nil, fmt.Errorf("%s: want a list", what)
	}
	return l, nil
}

func (r *reader) program(m json.RawMessage) (*Program, error) {
	o, err := object(m, "program")
	if err != nil {
		return nil, err
	}
	p := &Program{}
	if err := r.field(o, "name", &p.Name); err != nil {
		return nil, err
	}
	fns, err := list(o["functions"], "functions")
	if err != nil {
		return nil, err
	}
	for _, fm := range fns {
		f, err := r.function(fm)
		if err != nil {
			return nil, err
		}
		if err := p.AddFunction(f); err != nil {
			return nil, err
		}
	}
	groups, err := list(o["comm_groups"], "comm_groups")
	if err != nil {
		return nil, err
	}
	for i, gm := range groups {
		g, err := object(gm, "comm group")
		if err != nil {
			return nil, err
		}
		cg := &CommGroup{}
		if err := r.field(g, "devices", &cg.Devices); err != nil {
			return nil, fmt.Errorf("comm group %d: %w", i, err)
		}
		if len(cg.Devices) == 0 {
			cg.Devices = nil
		}
		slots, err := list(g["slots"], "slots")
		if err != nil {
			return nil, err
		}
		for _, sm := range slots {
			e, err := r.expr(sm)
			if err != nil {
				return nil, err
			}
			wb, ok := e.(*WindowBuffer)
			if !ok {
				return nil, fmt.Errorf("comm group %d: slot is %T, want WindowBuffer", i, e)
			}
			cg.Slots = append(cg.Slots, wb)
		}
		p.CommGroups = append(p.CommGroups, cg)
	}
	return p, nil
}

func readSpan(m json.RawMessage) Span {
	var parts []json.RawMessage
	if json.Unmarshal(m, &parts) != nil || len(parts) != 3 {
		return Span{}
	}
	var s Span
	if json.Unmarshal(parts[0], &s.File) != nil || json.Unmarshal(parts[1], &s.Line) != nil || json.Unmarshal(parts[2], &s.Col) != nil {
		return Span{}
	}
	return s
}

func (r *reader) function(m json.RawMessage) (*Function, error) {
	o, err := object(m, "function")
	if err != nil {
		return nil, err
	}
	f := &Function{Pos: readSpan(o["span"])}
	var kind, level, role int
	var dirs []int
	for _, x := range []struct {
		k string
		v any
	}{{"name", &f.Name}, {"kind", &kind}, {"level", &level}, {"role", &role}, {"directions", &dirs}} {
		if err := r.field(o, x.k, x.v); err != nil {
			return nil, fmt.Errorf("function: %w", err)
		}
	}
	if kind < 0 || kind > int(Graph) || (level != int(LevelNone) && level != int(LevelUndefined) && (level < 0 || level > int(LevelGlobal))) ||
		role < int(RoleNone) || role > int(SubWorker) {
		return nil, fmt.Errorf("function %s: bad kind/level/role %d/%d/%d", f.Name, kind, level, role)
	}
	f.Kind, f.Level, f.Role = FunctionType(kind), Level(level), Role(role)
	params, err := r.exprs(o["params"], "params")
	if err != nil {
		return nil, err
	}
	if len(dirs) != len(params) {
		return nil, fmt.Errorf("function %s: %d directions for %d parameters", f.Name, len(dirs), len(params))
	}
	for i, pe := range params {
		v, ok := pe.(*Var)
		if !ok {
			return nil, fmt.Errorf("function %s: parameter %d is %T, want Var", f.Name, i, pe)
		}
		if dirs[i] < int(In) || dirs[i] > int(InOut) {
			return nil, fmt.Errorf("function %s: bad direction %d", f.Name, dirs[i])
		}
		f.Params = append(f.Params, v)
		f.Dirs = append(f.Dirs, ParamDirection(dirs[i]))
	}
	rts, err := list(o["return_types"], "return_types")
	if err != nil {
		return nil, err
	}
	for _, tm := range rts {
		t, err := r.typ(tm)
		if err != nil {
			return nil, err
		}
		f.ReturnTypes = append(f.ReturnTypes, t)
	}
	if f.Attrs, err = r.kwargs(o["attrs"]); err != nil {
		return nil, err
	}
	if f.Body, err = r.stmt(o["body"]); err != nil {
		return nil, err
	}
	if _, ok := o["requires_runtime_binding"]; ok {
		if err := r.field(o, "requires_runtime_binding", &f.RuntimeBound); err != nil {
			return nil, fmt.Errorf("function %s: %w", f.Name, err)
		}
	}
	if _, ok := o["host_python"]; ok {
		if err := r.field(o, "host_python", &f.HostPython); err != nil {
			return nil, fmt.Errorf("function %s: %w", f.Name, err)
		}
	}
	return f, nil
}

func (r *reader) exprs(m json.RawMessage, what string) ([]Expr, error) {
	l, err := list(m, what)
	if err != nil {
		return nil, err
	}
	out := []Expr{}
	for _, em := range l {
		e, err := r.expr(em)
		if err != nil {
			return nil, err
		}
		if e == nil {
			return nil, fmt.Errorf("%s: null element", what)
		}
		out = append(out, e)
	}
	return out, nil
}

func (r *reader) vars(m json.RawMessage, what string) ([]*Var, error) {
	es, err := r.exprs(m, what)
	if err != nil {
		return nil, err
	}
	var out []*Var
	for _, e := range es {
		v, ok := e.(*Var)
		if !ok {
			return nil, fmt.Errorf("%s: %T, want Var", what, e)
		}
		out = append(out, v)
	}
	return out, nil
}

// oneVar reads a required expression that must be a Var.
func (r *reader) oneVar(m json.RawMessage, what string) (*Var, error) {
	e, err := r.mustExpr(m, what)
	if err != nil {
		return nil, err
	}
	v, ok := e.(*Var)
	if !ok {
		return nil, fmt.Errorf("%s: %T, want Var", what, e)
	}
	return v, nil
}

func (r *reader) mustExpr(m json.RawMessage, what string) (Expr, error) {
	e, err := r.expr(m)
	if err == nil && e == nil {
		err = fmt.Errorf("%s: missing", what)
	}
	return e, err
}

func (r *reader) stmt(m json.RawMessage) (Stmt, error) {
	if len(m) == 0 || string(m) == "null" {
		return nil, nil
	}
	o, err := object(m, "statement")
	if err != nil {
		return nil, err
	}
	var kind string
	if err := r.field(o, "stmt", &kind); err != nil {
		return nil, err
	}
	base := StmtBase{Pos: readSpan(o["span"])}
	if c, ok := o["comments"]; ok {
		if err := json.Unmarshal(c, &base.Leading); err != nil {
			return nil, fmt.Errorf("comments: %w", err)
		}
	}
	switch kind {
	case "Seq":
		l, err := list(o["stmts"], "stmts")
		if err != nil {
			return nil, err
		}
		s := &SeqStmts{StmtBase: base}
		for _, sm := range l {
			c, err := r.stmt(sm)
			if err != nil {
				return nil, err
			}
			if c == nil {
				return nil, fmt.Errorf("null statement in block")
			}
			s.Stmts = append(s.Stmts, c)
		}
		return s, nil
	case "Assign":
		val, err := r.mustExpr(o["value"], "assign value")
		if err != nil {
			return nil, err
		}
		v, err := r.oneVar(o["var"], "assign var")
		if err != nil {
			return nil, err
		}
		return &AssignStmt{StmtBase: base, Var: v, Value: val}, nil
	case "Eval":
		e, err := r.mustExpr(o["expr"], "eval expr")
		return &EvalStmt{StmtBase: base, Expr: e}, err
	case "Return", "Yield":
		vals, err := r.exprs(o["values"], "values")
		if err != nil {
			return nil, err
		}
		if kind == "Return" {
			return &ReturnStmt{StmtBase: base, Values: vals}, nil
		}
		return &YieldStmt{StmtBase: base, Values: vals}, nil
	case "If":
		s := &IfStmt{StmtBase: base}
		if s.Cond, err = r.mustExpr(o["condition"], "if condition"); err != nil {
			return nil, err
		}
		if s.Then, err = r.stmt(o["then"]); err != nil {
			return nil, err
		}
		if s.Else, err = r.stmt(o["else"]); err != nil {
			return nil, err
		}
		if s.ReturnVars, err = r.vars(o["return_vars"], "return_vars"); err != nil {
			return nil, err
		}
		return s, nil
	case "Scope":
		s := &ScopeStmt{StmtBase: base}
		var k, level, role int
		for _, f := range []struct {
			k string
			p any
		}{{"kind", &k}, {"level", &level}, {"role", &role}, {"name_hint", &s.NameHint}} {
			if err := r.field(o, f.k, f.p); err != nil {
				return nil, err
			}
		}
		if k != int(ScopeInCore) && k != int(ScopeCluster) && k != int(ScopeHierarchy) && k != int(ScopeSpmd) && k != int(ScopeRuntime) && k != int(ScopeSplitAiv) {
			return nil, fmt.Errorf("scope: bad scope kind %d", k)
		}
		// An Spmd launch, a cluster and a runtime scope have no level.
		spmdNone := (k == int(ScopeSpmd) || k == int(ScopeRuntime) || k == int(ScopeCluster) || k == int(ScopeSplitAiv)) && level == int(LevelNone)
		if (!spmdNone && level < int(LevelAIV)) || level > int(LevelGlobal) || role < int(RoleNone) || role > int(SubWorker) {
			return nil, fmt.Errorf("scope: bad level %d or role %d", level, role)
		}
		s.Kind, s.Level, s.Role = ScopeKind(k), Level(level), Role(role)
		for _, f := range []struct {
			k string
			p *int
		}{{"split", (*int)(&s.Split)}, {"slot_num", &s.SlotNum}} {
			if _, ok := o[f.k]; ok {
				if err := r.field(o, f.k, f.p); err != nil {
					return nil, err
				}
			}
		}
		if s.Split < SplitNone || s.Split > SplitLeftRight || s.SlotNum < 0 {
			return nil, fmt.Errorf("scope: bad split %d or slot_num %d", s.Split, s.SlotNum)
		}
		if m, ok := o["core_num"]; ok {
			if s.CoreNum, err = r.expr(m); err != nil {
				return nil, err
			}
		}
		if _, ok := o["sync_start"]; ok {
			if err := r.field(o, "sync_start", &s.SyncStart); err != nil {
				return nil, err
			}
		}
		if (s.Kind == ScopeSpmd) != (s.CoreNum != nil) {
			return nil, fmt.Errorf("scope: an Spmd scope, and only it, has a core_num")
		}
		if _, ok := o["manual"]; ok {
			if err := r.field(o, "manual", &s.Manual); err != nil {
				return nil, err
			}
		}
		if _, ok := o["windowize"]; ok {
			if err := r.field(o, "windowize", &s.Windowize); err != nil {
				return nil, err
			}
		}
		if _, ok := o["allow_early_resolve"]; ok {
			if err := r.field(o, "allow_early_resolve", &s.AllowEarlyResolve); err != nil {
				return nil, err
			}
		}
		if _, ok := o["deps"]; ok {
			if s.Deps, err = r.exprs(o["deps"], "deps"); err != nil {
				return nil, err
			}
		}
		if _, ok := o["no_dep_args"]; ok {
			if s.NoDepArgs, err = r.exprs(o["no_dep_args"], "no_dep_args"); err != nil {
				return nil, err
			}
		}
		if _, ok := o["dumps"]; ok {
			if s.Dumps, err = r.exprs(o["dumps"], "dumps"); err != nil {
				return nil, err
			}
		}
		if m, ok := o["predicate"]; ok {
			if s.Predicate, err = r.expr(m); err != nil {
				return nil, err
			}
		}
		if _, ok := o["task_id"]; ok {
			if s.TaskID, err = r.oneVar(o["task_id"], "task_id"); err != nil {
				return nil, err
			}
		}
		if s.Body, err = r.stmt(o["body"]); err != nil {
			return nil, err
		}
		return s, nil
	case "For":
		s := &ForStmt{StmtBase: base}
		var k int
		if err := r.field(o, "kind", &k); err != nil || k < 0 || k > int(Pipeline) {
			return nil, fmt.Errorf("for: bad loop kind")
		}
		s.Kind = LoopKind(k)
		if err := r.field(o, "stage", &s.PipelineArg); err != nil {
			return nil, err
		}
		for _, x := range []struct {
			k string
			p *Expr
		}{{"start", &s.Start}, {"stop", &s.Stop}, {"step", &s.Step}} {
			if *x.p, err = r.mustExpr(o[x.k], "for "+x.k); err != nil {
				return nil, err
			}
		}
		if s.LoopVar, err = r.oneVar(o["loop_var"], "loop_var"); err != nil {
			return nil, err
		}
		if s.IterArgs, err = r.iterArgs(o["iter_args"]); err != nil {
			return nil, err
		}
		if s.Body, err = r.stmt(o["body"]); err != nil {
			return nil, err
		}
		if s.ReturnVars, err = r.vars(o["return_vars"], "return_vars"); err != nil {
			return nil, err
		}
		if s.Attrs, err = r.kwargs(o["attrs"]); err != nil {
			return nil, err
		}
		return s, nil
	case "While":
		s := &WhileStmt{StmtBase: base}
		if s.IterArgs, err = r.iterArgs(o["iter_args"]); err != nil {
			return nil, err
		}
		if s.Cond, err = r.mustExpr(o["condition"], "while condition"); err != nil {
			return nil, err
		}
		if s.Body, err = r.stmt(o["body"]); err != nil {
			return nil, err
		}
		if s.ReturnVars, err = r.vars(o["return_vars"], "return_vars"); err != nil {
			return nil, err
		}
		return s, nil
	case "Break":
		return &BreakStmt{StmtBase: base}, nil
	case "Continue":
		return &ContinueStmt{StmtBase: base}, nil
	}
	return nil, fmt.Errorf("unknown statement kind %q", kind)
}

// iterArgs reads a loop's iter_args list.
func (r *reader) iterArgs(m json.RawMessage) ([]*IterArg, error) {
	es, err := r.exprs(m, "iter_args")
	if err != nil {
		return nil, err
	}
	var out []*IterArg
	for _, e := range es {
		ia, ok := e.(*IterArg)
		if !ok {
			return nil, fmt.Errorf("iter_args: %T, want IterArg", e)
		}
		out = append(out, ia)
	}
	return out, nil
}

func parseInt(m json.RawMessage, what string) (int64, error) {
	var s string
	if err := json.Unmarshal(m, &s); err != nil {
		return 0, fmt.Errorf("%s: want a decimal string", what)
	}
	v, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		return 0, fmt.Errorf("%s: %w", what, err)
	}
	return v, nil
}

func parseFloat(m json.RawMessage, what string) (float64, error) {
	var s string
	if err := json.Unmarshal(m, &s); err != nil {
		return 0, fmt.Errorf("%s: want a number string", what)
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return 0, fmt.Errorf("%s: %w", what, err)
	}
	return v, nil
}

func readDType(o raw, r *reader) (DataType, error) {
	var c int
	if err := r.field(o, "dtype", &c); err != nil {
		return 0, err
	}
	if c < 0 || c > 255 || !DataType(c).Valid() {
		return 0, fmt.Errorf("unknown dtype code %d", c)
	}
	return DataType(c), nil
}

func (r *reader) expr(m json.RawMessage) (Expr, error) {
	if len(m) == 0 || string(m) == "null" {
		return nil, nil
	}
	o, err := object(m, "expression")
	if err != nil {
		return nil, err
	}
	if ref, ok := o["ref"]; ok {
		var id int
		if err := json.Unmarshal(ref, &id); err != nil {
			return nil, fmt.Errorf("bad ref")
		}
		e, ok := r.ids[id]
		if !ok {
			return nil, fmt.Errorf("reference to unknown node %d", id)
		}
		return e, nil
	}
	var id int
	var kind string
	if err := r.field(o, "id", &id); err != nil {
		return nil, err
	}
	if _, dup := r.ids[id]; dup {
		return nil, fmt.Errorf("node id %d defined twice", id)
	}
	if err := r.field(o, "type", &kind); err != nil {
		return nil, err
	}
	f, err := object(o["fields"], kind+" fields")
	if err != nil {
		return nil, err
	}
	pos := readSpan(o["span"])
	e, err := r.node(kind, f, pos)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", kind, err)
	}
	r.ids[id] = e
	return e, nil
}

func (r *reader) varFields(f raw, pos Span) (Var, error) {
	var name string
	if err := r.field(f, "name", &name); err != nil {
		return Var{}, err
	}
	t, err := r.typ(f["type"])
	if err != nil {
		return Var{}, err
	}
	return Var{Name: name, T: t, Pos: pos, id: varCounter.Add(1)}, nil
}

func (r *reader) baseVar(f raw) (*Var, error) {
	e, err := r.expr(f["base"])
	if err != nil || e == nil {
		return nil, err
	}
	v, ok := e.(*Var)
	if !ok {
		return nil, fmt.Errorf("base is %T, want Var", e)
	}
	return v, nil
}

func (r *reader) node(kind string, f raw, pos Span) (Expr, error) {
	switch kind {
	case "Var":
		v, err := r.varFields(f, pos)
		return &v, err
	case "IterArg":
		v, err := r.varFields(f, pos)
		if err != nil {
			return nil, err
		}
		init, err := r.mustExpr(f["init"], "init")
		return &IterArg{Var: v, Init: init}, err
	case "MemRef":
		var name string
		if err := r.field(f, "name", &name); err != nil {
			return nil, err
		}
		m := &MemRef{Var: Var{Name: name, T: MemRefT, Pos: pos, id: varCounter.Add(1)}}
		var err error
		if m.Base, err = r.baseVar(f); err != nil {
			return nil, err
		}
		if m.ByteOffset, err = r.expr(f["byte_offset"]); err != nil {
			return nil, err
		}
		if m.SlotIndex, err = r.expr(f["slot_index"]); err != nil {
			return nil, err
		}
		size, err := parseInt(f["size"], "size")
		if err != nil || size < 0 {
			return nil, fmt.Errorf("bad size")
		}
		m.Size = uint64(size)
		if err := r.field(f, "pinned", &m.Pinned); err != nil {
			return nil, err
		}
		return m, r.field(f, "slot_count", &m.SlotCount)
	case "WindowBuffer":
		base, err := r.baseVar(f)
		if err != nil {
			return nil, err
		}
		if base == nil {
			return nil, fmt.Errorf("missing base")
		}
		size, err := r.mustExpr(f["size"], "size")
		if err != nil {
			return nil, err
		}
		wb := NewWindowBuffer(base, size, false, false, pos)
		if err := r.field(f, "load_from_host", &wb.LoadFromHost); err != nil {
			return nil, err
		}
		return wb, r.field(f, "store_to_host", &wb.StoreToHost)
	case "ConstInt":
		v, err := parseInt(f["value"], "value")
		if err != nil {
			return nil, err
		}
		dt, err := readDType(f, r)
		return &ConstInt{Value: v, DType: dt, Pos: pos}, err
	case "ConstFloat":
		v, err := parseFloat(f["value"], "value")
		if err != nil {
			return nil, err
		}
		dt, err := readDType(f, r)
		return &ConstFloat{Value: v, DType: dt, Pos: pos}, err
	case "ConstBool":
		c := &ConstBool{Pos: pos}
		return c, r.field(f, "value", &c.Value)
	case "BinaryExpr", "UnaryExpr":
		var op int
		if err := r.field(f, "op", &op); err != nil {
			return nil, err
		}
		dt, err := readDType(f, r)
		if err != nil {
			return nil, err
		}
		if kind == "UnaryExpr" {
			if op < 0 || op > int(OpCast) {
				return nil, fmt.Errorf("bad unary op %d", op)
			}
			x, err := r.mustExpr(f["operand"], "operand")
			return &UnaryExpr{Op: UnaryOp(op), X: x, DType: dt, Pos: pos}, err
		}
		if op < 0 || op > int(OpShr) {
			return nil, fmt.Errorf("bad binary op %d", op)
		}
		l, err := r.mustExpr(f["left"], "left")
		if err != nil {
			return nil, err
		}
		rr, err := r.mustExpr(f["right"], "right")
		return &BinaryExpr{Op: BinaryOp(op), Left: l, Right: rr, DType: dt, Pos: pos}, err
	case "MakeTuple":
		es, err := r.exprs(f["elements"], "elements")
		return &MakeTuple{Elems: es, Pos: pos}, err
	case "TupleGetItem":
		t := &TupleGetItem{Pos: pos}
		if err := r.field(f, "index", &t.Index); err != nil {
			return nil, err
		}
		var err error
		t.Tuple, err = r.mustExpr(f["tuple"], "tuple")
		return t, err
	case "Call":
		c := &Call{Pos: pos}
		if fn, ok := f["function"]; ok {
			var name string
			if err := json.Unmarshal(fn, &name); err != nil || name == "" {
				return nil, fmt.Errorf("bad function name")
			}
			c.Fn = &GlobalVar{Name: name}
		} else {
			var name string
			if err := r.field(f, "op", &name); err != nil {
				return nil, err
			}
			d, ok := LookupOp(name)
			if !ok {
				return nil, fmt.Errorf("Operator '%s' not found in registry", name)
			}
			c.Op = d
		}
		var err error
		if c.Args, err = r.exprs(f["args"], "args"); err != nil {
			return nil, err
		}
		if c.Kwargs, err = r.kwargs(f["kwargs"]); err != nil {
			return nil, err
		}
		if c.Attrs, err = r.kwargs(f["attrs"]); err != nil {
			return nil, err
		}
		c.T, err = r.typ(f["type"])
		return c, err
	}
	return nil, fmt.Errorf("unknown expression kind")
}

func (r *reader) dimList(m json.RawMessage, what string) ([]Expr, error) {
	es, err := r.exprs(m, what)
	if len(es) == 0 {
		es = nil
	}
	return es, err
}

func (r *reader) optMemRef(m json.RawMessage) (*MemRef, error) {
	e, err := r.expr(m)
	if err != nil || e == nil {
		return nil, err
	}
	mr, ok := e.(*MemRef)
	if !ok {
		return nil, fmt.Errorf("memref is %T", e)
	}
	return mr, nil
}

func (r *reader) typ(m json.RawMessage) (Type, error) {
	o, err := object(m, "type")
	if err != nil {
		return nil, err
	}
	var kind string
	if err := r.field(o, "type_kind", &kind); err != nil {
		return nil, err
	}
	switch kind {
	case "UnknownType":
		return Unknown, nil
	case "Ptr":
		return PtrT, nil
	case "MemRefType":
		return MemRefT, nil
	case "WindowBufferType":
		return WindowBufT, nil
	case "CommCtxType", "CommCtx":
		// The wrapper name upstream prints since #2487 reads as the same type.
		return CommCtxT, nil
	case "PrefetchAsyncContextType":
		return PrefetchCtxT, nil
	case "AsyncEventType":
		return AsyncEventT, nil
	case "AsyncSessionType":
		return AsyncSessionT, nil
	case "ScalarType":
		dt, err := readDType(o, r)
		return Scalar(dt), err
	case "TupleType":
		l, err := list(o["types"], "types")
		if err != nil {
			return nil, err
		}
		t := &TupleType{}
		for _, tm := range l {
			x, err := r.typ(tm)
			if err != nil {
				return nil, err
			}
			t.Types = append(t.Types, x)
		}
		return t, nil
	case "ArrayType":
		dt, err := readDType(o, r)
		if err != nil {
			return nil, err
		}
		n, err := parseInt(o["extent"], "extent")
		return &ArrayType{Extent: n, DType: dt}, err
	case "TensorType", "DistributedTensorType", "TileType":
	default:
		return nil, fmt.Errorf("unknown type kind %q", kind)
	}
	dt, err := readDType(o, r)
	if err != nil {
		return nil, err
	}
	shape, err := r.dimList(o["shape"], "shape")
	if err != nil {
		return nil, err
	}
	mr, err := r.optMemRef(o["memref"])
	if err != nil {
		return nil, err
	}
	if kind == "TileType" {
		var mem int
		if err := r.field(o, "memory_space", &mem); err != nil || mem < int(MemNone) || mem > int(MemRightScale) {
			return nil, fmt.Errorf("tile: bad memory space")
		}
		t := &TileType{Shape: shape, DType: dt, MemRef: mr, Memory: MemorySpace(mem)}
		if vm, ok := o["tile_view"]; ok && string(vm) != "null" {
			vo, err := object(vm, "tile_view")
			if err != nil {
				return nil, err
			}
			v := &TileView{}
			var bl, sl, pad int
			for _, x := range []struct {
				k string
				p any
			}{{"blayout", &bl}, {"slayout", &sl}, {"fractal", &v.Fractal}, {"pad", &pad}} {
				if err := r.field(vo, x.k, x.p); err != nil {
					return nil, err
				}
			}
			v.BLayout, v.SLayout, v.Pad = TileLayout(bl), TileLayout(sl), PadValue(pad)
			if v.ValidShape, err = r.dimList(vo["valid_shape"], "valid_shape"); err != nil {
				return nil, err
			}
			if v.Stride, err = r.dimList(vo["stride"], "stride"); err != nil {
				return nil, err
			}
			if v.StartOffset, err = r.expr(vo["start_offset"]); err != nil {
				return nil, err
			}
			t.View = v
		}
		return t, nil
	}
	var view *TensorView
	if vm, ok := o["tensor_view"]; ok && string(vm) != "null" {
		vo, err := object(vm, "tensor_view")
		if err != nil {
			return nil, err
		}
		view = &TensorView{}
		var layout, pad int
		if err := r.field(vo, "layout", &layout); err != nil {
			return nil, err
		}
		if err := r.field(vo, "pad", &pad); err != nil {
			return nil, err
		}
		view.Layout, view.Pad = TensorLayout(layout), PadValue(pad)
		if view.Stride, err = r.dimList(vo["stride"], "stride"); err != nil {
			return nil, err
		}
		if view.ValidShape, err = r.dimList(vo["valid_shape"], "valid_shape"); err != nil {
			return nil, err
		}
	}
	if kind == "TensorType" {
		return &TensorType{Shape: shape, DType: dt, MemRef: mr, View: view}, nil
	}
	t := &DistributedTensorType{Shape: shape, DType: dt, MemRef: mr, View: view}
	if wm, ok := o["window_buffer"]; ok {
		e, err := r.mustExpr(wm, "window_buffer")
		if err != nil {
			return nil, err
		}
		wb, ok := e.(*WindowBuffer)
		if !ok {
			return nil, fmt.Errorf("window_buffer is %T", e)
		}
		t.Window = wb
	}
	return t, nil
}

func (r *reader) kwargs(m json.RawMessage) (Kwargs, error) {
	l, err := list(m, "kwargs")
	if err != nil {
		return nil, err
	}
	var out Kwargs
	for _, km := range l {
		o, err := object(km, "kwarg")
		if err != nil {
			return nil, err
		}
		var key, kind string
		if err := r.field(o, "key", &key); err != nil {
			return nil, err
		}
		if err := r.field(o, "kind", &kind); err != nil {
			return nil, err
		}
		v, err := r.kwargValue(kind, o["value"])
		if err != nil {
			return nil, fmt.Errorf("kwarg %q: %w", key, err)
		}
		out = append(out, Kwarg{key, v})
	}
	return out, nil
}

func (r *reader) kwargValue(kind string, m json.RawMessage) (any, error) {
	var n int
	intVal := func() error { return json.Unmarshal(m, &n) }
	switch kind {
	case "int":
		return parseInt(m, "value")
	case "float":
		return parseFloat(m, "value")
	case "bool":
		var b bool
		return b, json.Unmarshal(m, &b)
	case "str":
		var s string
		return s, json.Unmarshal(m, &s)
	case "dtype":
		if err := intVal(); err != nil || n < 0 || n > 255 || !DataType(n).Valid() {
			return nil, fmt.Errorf("bad dtype")
		}
		return DataType(n), nil
	case "memory_space":
		return MemorySpace(n), intVal()
	case "pad":
		return PadValue(n), intVal()
	case "tile_layout":
		return TileLayout(n), intVal()
	case "tensor_layout":
		return TensorLayout(n), intVal()
	case "pipe":
		return PipeType(n), intVal()
	case "arg_directions":
		var ds []int
		if err := json.Unmarshal(m, &ds); err != nil {
			return nil, err
		}
		out := []ArgDirection{}
		for _, d := range ds {
			out = append(out, ArgDirection(d))
		}
		return out, nil
	case "expr":
		return r.mustExpr(m, "value")
	}
	return nil, fmt.Errorf("unknown kwarg kind %q", kind)
}
