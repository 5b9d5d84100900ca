package ir

import (
	"hash/fnv"
	"math"
	"reflect"
	"sort"
)

// StructuralHash hashes an IR value consistently with StructuralEqual: equal
// values hash equal. Variables defined inside the value hash by the order in
// which they are first met, so alpha-equivalent programs hash alike; a free
// variable hashes by its identity unless autoMap is set.
func StructuralHash(node any, autoMap bool) uint64 {
	h := &hasher{auto: autoMap, order: map[*Var]uint64{}}
	h.any(node)
	return h.seed
}

type hasher struct {
	seed  uint64
	auto  bool
	order map[*Var]uint64
}

// mix is the Boost-style combine upstream uses.
func (h *hasher) mix(v uint64) {
	h.seed ^= v + 0x9e3779b9 + (h.seed << 6) + (h.seed >> 2)
}

func (h *hasher) str(s string) {
	f := fnv.New64a()
	f.Write([]byte(s))
	h.mix(f.Sum64())
}

func (h *hasher) def(v *Var) {
	if _, ok := h.order[v]; !ok {
		h.order[v] = uint64(len(h.order) + 1)
	}
	h.mix(h.order[v])
	h.typ(v.Type())
}

func (h *hasher) use(v *Var) {
	if n, ok := h.order[v]; ok {
		h.mix(n)
		return
	}
	if h.auto {
		h.order[v] = uint64(len(h.order) + 1)
		h.mix(h.order[v])
		return
	}
	h.mix(v.ID() | 1<<62)
}

func (h *hasher) any(x any) {
	switch x := x.(type) {
	case *Program:
		h.str("Program")
		for _, f := range x.Functions {
			h.str(f.Name)
			h.function(f)
		}
		for _, g := range x.CommGroups {
			h.group(g)
		}
	case *Function:
		h.function(x)
	case *CommGroup:
		h.group(x)
	case []Expr:
		for _, e := range x {
			h.expr(e)
		}
	case Stmt:
		h.stmt(x)
	case Expr:
		h.expr(x)
	case Type:
		h.typ(x)
	}
}

func (h *hasher) group(g *CommGroup) {
	h.str("CommGroup")
	for _, d := range g.Devices {
		h.mix(uint64(d))
	}
	h.mix(uint64(len(g.Devices)))
	for _, wb := range g.Slots {
		h.expr(wb)
	}
}

func (h *hasher) function(f *Function) {
	h.mix(uint64(f.Kind))
	h.mix(uint64(f.Level + 2))
	h.mix(uint64(f.Role + 2))
	for i, p := range f.Params {
		h.mix(uint64(f.Direction(i)))
		h.def(p)
	}
	for _, t := range f.ReturnTypes {
		h.typ(t)
	}
	h.kwargs(f.Attrs)
	if f.RuntimeBound {
		h.mix(1)
	}
	for _, c := range []byte(f.HostPython) {
		h.mix(uint64(c))
	}
	if f.Body != nil {
		h.stmt(f.Body)
	}
}

func (h *hasher) stmt(s Stmt) {
	for _, c := range Flatten(s) {
		h.str(reflect.TypeOf(c).String())
		switch c := c.(type) {
		case *AssignStmt:
			h.expr(c.Value)
			h.def(c.Var)
		case *EvalStmt:
			h.expr(c.Expr)
		case *ReturnStmt:
			h.any(c.Values)
		case *YieldStmt:
			h.any(c.Values)
		case *IfStmt:
			h.expr(c.Cond)
			h.stmt(c.Then)
			if c.Else != nil {
				h.stmt(c.Else)
			}
			for _, v := range c.ReturnVars {
				h.def(v)
			}
		case *ScopeStmt:
			h.mix(uint64(c.Kind))
			h.mix(uint64(c.Level))
			h.mix(uint64(c.Role))
			h.str(c.NameHint)
			h.mix(uint64(c.Split))
			h.mix(uint64(c.SlotNum))
			if c.Windowize {
				h.mix(6)
			}
			if c.CoreNum != nil {
				h.expr(c.CoreNum)
			}
			if c.SyncStart {
				h.mix(1)
			}
			if c.Manual {
				h.mix(2)
			}
			if c.AllowEarlyResolve {
				h.mix(3)
			}
			for _, d := range c.Deps {
				h.expr(d)
			}
			if len(c.NoDepArgs) > 0 {
				h.mix(5)
				for _, d := range c.NoDepArgs {
					h.expr(d)
				}
			}
			if len(c.Dumps) > 0 {
				h.mix(7)
				for _, d := range c.Dumps {
					h.expr(d)
				}
			}
			if c.Predicate != nil {
				h.mix(4)
				h.expr(c.Predicate)
			}
			if c.TaskID != nil {
				h.def(c.TaskID)
			}
			h.stmt(c.Body)
		case *ForStmt:
			h.mix(uint64(c.Kind))
			h.expr(c.Start)
			h.expr(c.Stop)
			h.expr(c.Step)
			h.def(c.LoopVar)
			for _, ia := range c.IterArgs {
				h.expr(ia.Init)
				h.def(&ia.Var)
			}
			h.kwargs(c.Attrs)
			h.stmt(c.Body)
			for _, v := range c.ReturnVars {
				h.def(v)
			}
		case *WhileStmt:
			for _, ia := range c.IterArgs {
				h.expr(ia.Init)
				h.def(&ia.Var)
			}
			h.expr(c.Cond)
			h.stmt(c.Body)
			for _, v := range c.ReturnVars {
				h.def(v)
			}
		}
	}
}

func (h *hasher) expr(e Expr) {
	if e == nil {
		h.mix(0)
		return
	}
	switch x := e.(type) {
	case *Var:
		h.use(x)
	case *IterArg:
		h.use(&x.Var)
	case *MemRef:
		h.use(&x.Var)
		h.mix(x.Size)
	case *WindowBuffer:
		h.use(&x.Var)
		if x.Base != nil {
			h.use(x.Base)
		}
		h.expr(x.Size)
	case *ConstInt:
		h.str("ConstInt")
		h.mix(uint64(x.Value))
		if x.DType != INDEX && x.DType != INT64 {
			h.mix(uint64(x.DType))
		}
	case *ConstFloat:
		h.mix(math.Float64bits(x.Value))
		h.mix(uint64(x.DType))
	case *ConstBool:
		if x.Value {
			h.mix(1)
		} else {
			h.mix(2)
		}
	case *BinaryExpr:
		h.mix(uint64(x.Op) + 100)
		h.expr(x.Left)
		h.expr(x.Right)
	case *UnaryExpr:
		h.mix(uint64(x.Op) + 200)
		h.expr(x.X)
	case *MakeTuple:
		h.str("Tuple")
		h.any(x.Elems)
	case *TupleGetItem:
		h.mix(uint64(x.Index))
		h.expr(x.Tuple)
	case *Call:
		h.str(x.Name())
		h.any(x.Args)
		h.kwargs(x.Kwargs)
		h.kwargs(x.Attrs)
	}
}

// kwargs hash order-insensitively.
func (h *hasher) kwargs(k Kwargs) {
	keys := make([]string, 0, len(k))
	for _, kv := range k {
		keys = append(keys, kv.Key)
	}
	sort.Strings(keys)
	for _, key := range keys {
		h.str(key)
		v, _ := k.Get(key)
		if e, ok := v.(Expr); ok {
			h.expr(e)
			continue
		}
		h.str(reflect.TypeOf(v).String())
	}
}

func (h *hasher) typ(t Type) {
	if t == nil {
		return
	}
	h.str(t.TypeName())
	switch t := t.(type) {
	case *ScalarType:
		h.mix(uint64(t.DType))
	case *TensorType:
		h.mix(uint64(t.DType))
		h.any(t.Shape)
	case *DistributedTensorType:
		h.mix(uint64(t.DType))
		h.any(t.Shape)
		if t.Window != nil {
			h.mix(1)
			h.use(&t.Window.Var)
		} else {
			h.mix(0)
		}
	case *TileType:
		h.mix(uint64(t.DType))
		h.mix(uint64(t.Memory + 2))
		h.any(t.Shape)
	case *TupleType:
		for _, x := range t.Types {
			h.typ(x)
		}
	}
}
