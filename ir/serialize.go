package ir

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
)

// Serialization: a Program as JSON, modelled on upstream's MessagePack form
// (docs/serialization.md). Every expression node is written once as
// {"id": n, "type": "<kind>", "fields": {...}}; a later occurrence of the same
// pointer is {"ref": n}, so shared variables and window buffers stay shared.

const (
	serialFormat  = "ptorepl-ir"
	serialVersion = 1
)

// MarshalProgram writes p in the documented JSON format.
func MarshalProgram(p *Program) ([]byte, error) {
	w := &writer{ids: map[Expr]int{}}
	body, err := w.program(p)
	if err != nil {
		return nil, err
	}
	return json.MarshalIndent(map[string]any{"format": serialFormat, "version": serialVersion, "program": body}, "", " ")
}

// RoundTripCheck marshals p, reads it back, requires the result to be
// structurally equal, and requires re-marshalling to give the same bytes.
func RoundTripCheck(p *Program) error {
	a, err := MarshalProgram(p)
	if err != nil {
		return fmt.Errorf("marshal: %w", err)
	}
	q, err := UnmarshalProgram(a)
	if err != nil {
		return fmt.Errorf("unmarshal: %w", err)
	}
	if err := AssertStructuralEqual(p, q, false); err != nil {
		// Free variables of p become new variables in q; they map only under auto-mapping.
		if err2 := AssertStructuralEqual(p, q, true); err2 != nil {
			return fmt.Errorf("round trip changed the program: %w", err2)
		}
	}
	b, err := MarshalProgram(q)
	if err != nil {
		return fmt.Errorf("re-marshal: %w", err)
	}
	if !bytes.Equal(a, b) {
		return fmt.Errorf("re-marshalled bytes differ")
	}
	return nil
}

type obj = map[string]any

type writer struct {
	ids  map[Expr]int
	next int
}

func span(s Span) any {
	if !s.Known() {
		return nil
	}
	return []any{s.File, s.Line, s.Col}
}

func (w *writer) program(p *Program) (obj, error) {
	var fns []any
	for _, f := range p.Functions {
		o, err := w.function(f)
		if err != nil {
			return nil, err
		}
		fns = append(fns, o)
	}
	var groups []any
	for _, g := range p.CommGroups {
		var slots []any
		for _, s := range g.Slots {
			e, err := w.expr(s)
			if err != nil {
				return nil, err
			}
			slots = append(slots, e)
		}
		groups = append(groups, obj{"devices": nonNilInts(g.Devices), "slots": nonNil(slots)})
	}
	return obj{"name": p.Name, "functions": nonNil(fns), "comm_groups": nonNil(groups)}, nil
}

func nonNil(xs []any) []any {
	if xs == nil {
		return []any{}
	}
	return xs
}

func nonNilInts(xs []int64) []int64 {
	if xs == nil {
		return []int64{}
	}
	return xs
}

func (w *writer) function(f *Function) (obj, error) {
	params, err := w.exprList(varsAsExprs(f.Params))
	if err != nil {
		return nil, err
	}
	var dirs []any
	for i := range f.Params {
		dirs = append(dirs, int(f.Direction(i)))
	}
	var rts []any
	for _, t := range f.ReturnTypes {
		o, err := w.typ(t)
		if err != nil {
			return nil, err
		}
		rts = append(rts, o)
	}
	attrs, err := w.kwargs(f.Attrs)
	if err != nil {
		return nil, err
	}
	body, err := w.stmt(f.Body)
	if err != nil {
		return nil, err
	}
	o := obj{"name": f.Name, "kind": int(f.Kind), "level": int(f.Level), "role": int(f.Role), "params": params,
		"directions": nonNil(dirs), "return_types": nonNil(rts), "attrs": attrs, "body": body, "span": span(f.Pos)}
	if f.RuntimeBound {
		o["requires_runtime_binding"] = true
	}
	if f.HostPython != "" {
		o["host_python"] = f.HostPython
	}
	return o, nil
}

func varsAsExprs(vs []*Var) []Expr {
	out := make([]Expr, len(vs))
	for i, v := range vs {
		out[i] = v
	}
	return out
}

func (w *writer) exprList(es []Expr) ([]any, error) {
	out := []any{}
	for _, e := range es {
		o, err := w.expr(e)
		if err != nil {
			return nil, err
		}
		out = append(out, o)
	}
	return out, nil
}

func (w *writer) stmt(s Stmt) (any, error) {
	if s == nil {
		return nil, nil
	}
	o := obj{"span": span(s.Span())}
	if c := s.Comments(); len(c) > 0 {
		o["comments"] = c
	}
	var err error
	set := func(key string, v any, e error) {
		if err == nil {
			o[key], err = v, e
		}
	}
	switch s := s.(type) {
	case *SeqStmts:
		o["stmt"] = "Seq"
		var list []any
		for _, c := range s.Stmts {
			x, e := w.stmt(c)
			if e != nil {
				return nil, e
			}
			list = append(list, x)
		}
		o["stmts"] = nonNil(list)
	case *AssignStmt:
		o["stmt"] = "Assign"
		x, e := w.expr(s.Value)
		set("value", x, e)
		x, e = w.expr(s.Var)
		set("var", x, e)
	case *EvalStmt:
		o["stmt"] = "Eval"
		x, e := w.expr(s.Expr)
		set("expr", x, e)
	case *ReturnStmt:
		o["stmt"] = "Return"
		x, e := w.exprList(s.Values)
		set("values", x, e)
	case *YieldStmt:
		o["stmt"] = "Yield"
		x, e := w.exprList(s.Values)
		set("values", x, e)
	case *IfStmt:
		o["stmt"] = "If"
		x, e := w.expr(s.Cond)
		set("condition", x, e)
		y, e := w.stmt(s.Then)
		set("then", y, e)
		y, e = w.stmt(s.Else)
		set("else", y, e)
		x2, e := w.exprList(varsAsExprs(s.ReturnVars))
		set("return_vars", x2, e)
	case *ScopeStmt:
		o["stmt"] = "Scope"
		o["kind"] = int(s.Kind)
		o["level"] = int(s.Level)
		o["role"] = int(s.Role)
		o["name_hint"] = s.NameHint
		if s.Split != SplitNone {
			o["split"] = int(s.Split)
		}
		if s.SlotNum != 0 {
			o["slot_num"] = s.SlotNum
		}
		if s.Windowize {
			o["windowize"] = true
		}
		if s.CoreNum != nil {
			x, e := w.expr(s.CoreNum)
			set("core_num", x, e)
		}
		if s.SyncStart {
			o["sync_start"] = true
		}
		if s.Manual {
			o["manual"] = true
		}
		if s.AllowEarlyResolve {
			o["allow_early_resolve"] = true
		}
		if len(s.Deps) > 0 {
			x, e := w.exprList(s.Deps)
			set("deps", x, e)
		}
		if len(s.NoDepArgs) > 0 {
			x, e := w.exprList(s.NoDepArgs)
			set("no_dep_args", x, e)
		}
		if len(s.Dumps) > 0 {
			x, e := w.exprList(s.Dumps)
			set("dumps", x, e)
		}
		if s.Predicate != nil {
			x, e := w.expr(s.Predicate)
			set("predicate", x, e)
		}
		if s.TaskID != nil {
			x, e := w.expr(s.TaskID)
			set("task_id", x, e)
		}
		y, e := w.stmt(s.Body)
		set("body", y, e)
	case *ForStmt:
		o["stmt"] = "For"
		o["kind"] = int(s.Kind)
		o["stage"] = s.PipelineArg
		for _, kv := range []struct {
			k string
			e Expr
		}{{"start", s.Start}, {"stop", s.Stop}, {"step", s.Step}, {"loop_var", s.LoopVar}} {
			x, e := w.expr(kv.e)
			set(kv.k, x, e)
		}
		ias := make([]Expr, len(s.IterArgs))
		for i, ia := range s.IterArgs {
			ias[i] = ia
		}
		x, e := w.exprList(ias)
		set("iter_args", x, e)
		y, e := w.stmt(s.Body)
		set("body", y, e)
		x, e = w.exprList(varsAsExprs(s.ReturnVars))
		set("return_vars", x, e)
		a, e := w.kwargs(s.Attrs)
		set("attrs", a, e)
	case *WhileStmt:
		o["stmt"] = "While"
		ias := make([]Expr, len(s.IterArgs))
		for i, ia := range s.IterArgs {
			ias[i] = ia
		}
		x, e := w.exprList(ias)
		set("iter_args", x, e)
		c, e := w.expr(s.Cond)
		set("condition", c, e)
		y, e := w.stmt(s.Body)
		set("body", y, e)
		x, e = w.exprList(varsAsExprs(s.ReturnVars))
		set("return_vars", x, e)
	case *BreakStmt:
		o["stmt"] = "Break"
	case *ContinueStmt:
		o["stmt"] = "Continue"
	default:
		return nil, fmt.Errorf("cannot serialize statement %T", s)
	}
	return o, err
}

func (w *writer) expr(e Expr) (any, error) {
	if e == nil {
		return nil, nil
	}
	if id, ok := w.ids[e]; ok {
		return obj{"ref": id}, nil
	}
	f := obj{}
	var kind string
	var err error
	sub := func(key string, x Expr) {
		if err == nil {
			f[key], err = w.expr(x)
		}
	}
	// subVar writes an optional *Var field: a nil one is null, never a
	// typed nil inside a non-nil Expr (the reader takes null for none).
	subVar := func(key string, v *Var) {
		if v == nil {
			f[key] = nil
			return
		}
		sub(key, v)
	}
	varFields := func(v *Var) {
		f["name"] = v.Name
		if err == nil {
			f["type"], err = w.typ(v.Type())
		}
	}
	switch x := e.(type) {
	case *Var:
		kind = "Var"
		varFields(x)
	case *IterArg:
		kind = "IterArg"
		varFields(&x.Var)
		sub("init", x.Init)
	case *MemRef:
		kind = "MemRef"
		f["name"] = x.Name
		subVar("base", x.Base)
		sub("byte_offset", x.ByteOffset)
		sub("slot_index", x.SlotIndex)
		f["size"], f["pinned"], f["slot_count"] = strconv.FormatUint(x.Size, 10), x.Pinned, x.SlotCount
	case *WindowBuffer:
		kind = "WindowBuffer"
		subVar("base", x.Base)
		sub("size", x.Size)
		f["load_from_host"], f["store_to_host"] = x.LoadFromHost, x.StoreToHost
	case *ConstInt:
		kind = "ConstInt"
		f["value"], f["dtype"] = strconv.FormatInt(x.Value, 10), int(x.DType)
	case *ConstFloat:
		kind = "ConstFloat"
		f["value"], f["dtype"] = strconv.FormatFloat(x.Value, 'g', -1, 64), int(x.DType)
	case *ConstBool:
		kind = "ConstBool"
		f["value"] = x.Value
	case *BinaryExpr:
		kind = "BinaryExpr"
		f["op"], f["dtype"] = int(x.Op), int(x.DType)
		sub("left", x.Left)
		sub("right", x.Right)
	case *UnaryExpr:
		kind = "UnaryExpr"
		f["op"], f["dtype"] = int(x.Op), int(x.DType)
		sub("operand", x.X)
	case *MakeTuple:
		kind = "MakeTuple"
		f["elements"], err = w.exprList(x.Elems)
	case *TupleGetItem:
		kind = "TupleGetItem"
		f["index"] = x.Index
		sub("tuple", x.Tuple)
	case *Call:
		kind = "Call"
		if x.Fn != nil {
			f["function"] = x.Fn.Name
		} else if x.Op != nil {
			f["op"] = x.Op.Name
		} else {
			return nil, fmt.Errorf("call without op or function")
		}
		if f["args"], err = w.exprList(x.Args); err == nil {
			if f["kwargs"], err = w.kwargs(x.Kwargs); err == nil {
				if f["attrs"], err = w.kwargs(x.Attrs); err == nil {
					f["type"], err = w.typ(x.Type())
				}
			}
		}
	default:
		return nil, fmt.Errorf("cannot serialize expression %T", e)
	}
	if err != nil {
		return nil, err
	}
	w.next++
	w.ids[e] = w.next
	return obj{"id": w.next, "type": kind, "fields": f, "span": span(e.Span())}, nil
}

func (w *writer) dims(ds []Expr) (any, error) { return w.exprList(ds) }

func (w *writer) typ(t Type) (any, error) {
	o := obj{"type_kind": t.TypeName()}
	var err error
	set := func(key string, v any, e error) {
		if err == nil {
			o[key], err = v, e
		}
	}
	switch t := t.(type) {
	case *ScalarType:
		o["dtype"] = int(t.DType)
	case *TensorType:
		o["dtype"] = int(t.DType)
		x, e := w.dims(t.Shape)
		set("shape", x, e)
		x, e = w.memref(t.MemRef)
		set("memref", x, e)
		x, e = w.tensorView(t.View)
		set("tensor_view", x, e)
	case *DistributedTensorType:
		o["dtype"] = int(t.DType)
		x, e := w.dims(t.Shape)
		set("shape", x, e)
		x, e = w.memref(t.MemRef)
		set("memref", x, e)
		x, e = w.tensorView(t.View)
		set("tensor_view", x, e)
		if t.Window != nil {
			x, e = w.expr(t.Window)
			set("window_buffer", x, e)
		}
	case *TileType:
		o["dtype"], o["memory_space"] = int(t.DType), int(t.Memory)
		x, e := w.dims(t.Shape)
		set("shape", x, e)
		x, e = w.memref(t.MemRef)
		set("memref", x, e)
		if t.View != nil {
			v := obj{"blayout": int(t.View.BLayout), "slayout": int(t.View.SLayout), "fractal": t.View.Fractal, "pad": int(t.View.Pad)}
			v["valid_shape"], err = w.dims(t.View.ValidShape)
			if err == nil {
				v["stride"], err = w.dims(t.View.Stride)
			}
			if err == nil {
				v["start_offset"], err = w.expr(t.View.StartOffset)
			}
			o["tile_view"] = v
		}
	case *TupleType:
		var ts []any
		for _, x := range t.Types {
			y, e := w.typ(x)
			if e != nil {
				return nil, e
			}
			ts = append(ts, y)
		}
		o["types"] = nonNil(ts)
	case *ArrayType:
		o["dtype"], o["extent"] = int(t.DType), strconv.FormatInt(t.Extent, 10)
	}
	return o, err
}

func (w *writer) memref(m *MemRef) (any, error) {
	if m == nil {
		return nil, nil
	}
	return w.expr(m)
}

func (w *writer) tensorView(v *TensorView) (any, error) {
	if v == nil {
		return nil, nil
	}
	stride, err := w.dims(v.Stride)
	if err != nil {
		return nil, err
	}
	valid, err := w.dims(v.ValidShape)
	return obj{"stride": stride, "layout": int(v.Layout), "valid_shape": valid, "pad": int(v.Pad)}, err
}

// kwargs keep order and value kind.
func (w *writer) kwargs(k Kwargs) (any, error) {
	out := []any{}
	for _, kv := range k {
		o := obj{"key": kv.Key}
		switch v := kv.Value.(type) {
		case int64:
			o["kind"], o["value"] = "int", strconv.FormatInt(v, 10)
		case bool:
			o["kind"], o["value"] = "bool", v
		case string:
			o["kind"], o["value"] = "str", v
		case float64:
			o["kind"], o["value"] = "float", strconv.FormatFloat(v, 'g', -1, 64)
		case DataType:
			o["kind"], o["value"] = "dtype", int(v)
		case MemorySpace:
			o["kind"], o["value"] = "memory_space", int(v)
		case PadValue:
			o["kind"], o["value"] = "pad", int(v)
		case TileLayout:
			o["kind"], o["value"] = "tile_layout", int(v)
		case TensorLayout:
			o["kind"], o["value"] = "tensor_layout", int(v)
		case PipeType:
			o["kind"], o["value"] = "pipe", int(v)
		case []ArgDirection:
			ds := []int{}
			for _, d := range v {
				ds = append(ds, int(d))
			}
			o["kind"], o["value"] = "arg_directions", ds
		case Expr:
			x, err := w.expr(v)
			if err != nil {
				return nil, err
			}
			o["kind"], o["value"] = "expr", x
		default:
			return nil, fmt.Errorf("kwarg %q: cannot serialize %T", kv.Key, kv.Value)
		}
		out = append(out, o)
	}
	return out, nil
}
