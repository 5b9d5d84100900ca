package ir

import (
	"fmt"
	"sort"
)

// Function is one function of a program.
type Function struct {
	Name        string
	Params      []*Var
	Dirs        []ParamDirection
	Kind        FunctionType
	Level       Level
	Role        Role
	Attrs       Kwargs
	ReturnTypes []Type
	Body        Stmt
	Pos         Span
	// A HOST-level SubWorker is a host callback, as upstream keeps it: its
	// body is host Python (HostPython, kept and printed, never run here), or
	// `...` (RuntimeBound: an abstract callback point the run must bind).
	// Either way Body is empty and a run calls the Go callback bound to the
	// function's name (runtime.RunOptions.Callbacks).
	HostPython   string
	RuntimeBound bool
}

// IsHostCallback reports whether f is a host callback: a body ptorepl does
// not execute, run by the callback a run binds to its name.
func (f *Function) IsHostCallback() bool { return f.RuntimeBound || f.HostPython != "" }

// DeriveLevelRole fills in the level and role a function type implies, as
// upstream's Function constructor does. An explicit value that disagrees is an
// error whose message contains "which implies level=".
func DeriveLevelRole(kind FunctionType, level Level, role Role) (Level, Role, error) {
	var wantL Level
	var wantR Role
	switch kind {
	case Orchestration, Graph:
		wantL, wantR = LevelChip, Orchestrator
	case InCore:
		wantL, wantR = LevelChipDie, SubWorker
	case AIC:
		wantL, wantR = LevelAIC, SubWorker
	case AIV:
		wantL, wantR = LevelAIV, SubWorker
	case Group:
		wantL, wantR = LevelCoreGroup, SubWorker
	default:
		return level, role, nil
	}
	if (level != LevelNone && level != wantL) || (role != RoleNone && role != wantR) {
		return level, role, fmt.Errorf("function type %s, which implies level=%s and role=%s, conflicts with level=%s, role=%s",
			kind, wantL, wantR, level, role)
	}
	return wantL, wantR, nil
}

// NewFunction makes an empty function with derived level and role.
func NewFunction(name string, kind FunctionType, level Level, role Role, pos Span) (*Function, error) {
	l, r, err := DeriveLevelRole(kind, level, role)
	if err != nil {
		return nil, fmt.Errorf("function %q: %w", name, err)
	}
	return &Function{Name: name, Kind: kind, Level: l, Role: r, Pos: pos}, nil
}

// IsHostOrchestrator reports whether f is a host orchestrator (level HOST, role Orchestrator).
func (f *Function) IsHostOrchestrator() bool { return f.Level == LevelHost && f.Role == Orchestrator }

// Direction is the direction of parameter i (In when unset).
func (f *Function) Direction(i int) ParamDirection {
	if i < len(f.Dirs) {
		return f.Dirs[i]
	}
	return In
}

// Clone returns a shallow copy whose slices may be replaced independently.
func (f *Function) Clone() *Function {
	g := *f
	g.Params = append([]*Var(nil), f.Params...)
	g.Dirs = append([]ParamDirection(nil), f.Dirs...)
	g.ReturnTypes = append([]Type(nil), f.ReturnTypes...)
	g.Attrs = append(Kwargs(nil), f.Attrs...)
	return &g
}

// CommGroup is a set of devices sharing window buffers (seed #1297 form).
// Devices are ascending; an empty list means all devices. Slots are the
// window buffers in allocation order.
type CommGroup struct {
	Devices []int64
	Slots   []*WindowBuffer
}

// InferCommGroups, when set, infers the comm groups of a program that
// records none: one before the pass that records them, the program as
// written included. Package passes sets it to its inference, so that a
// device runs every stage with the comm domains the program's windows
// will have (a peer index names a rank of the window's domain); ir cannot
// import passes, and devices read it through here.
var InferCommGroups func(*Program) ([]*CommGroup, error)

// Program is a set of functions (kept sorted by name, as upstream's map) and
// the comm groups a pass inferred.
type Program struct {
	Name       string
	Functions  []*Function
	CommGroups []*CommGroup
}

// NewProgram makes an empty program.
func NewProgram(name string) *Program { return &Program{Name: name} }

// Function looks a function up by name.
func (p *Program) Function(name string) *Function {
	for _, f := range p.Functions {
		if f.Name == name {
			return f
		}
	}
	return nil
}

// AddFunction adds f, keeping functions sorted by name.
func (p *Program) AddFunction(f *Function) error {
	if p.Function(f.Name) != nil {
		return fmt.Errorf("program %s already has a function named %q", p.Name, f.Name)
	}
	p.Functions = append(p.Functions, f)
	sort.SliceStable(p.Functions, func(i, j int) bool { return p.Functions[i].Name < p.Functions[j].Name })
	return nil
}

// ReplaceFunction swaps the function of the same name for f.
func (p *Program) ReplaceFunction(f *Function) {
	for i, g := range p.Functions {
		if g.Name == f.Name {
			p.Functions[i] = f
			return
		}
	}
	_ = p.AddFunction(f)
}

// Clone returns a shallow copy of the program (functions shared).
func (p *Program) Clone() *Program {
	q := *p
	q.Functions = append([]*Function(nil), p.Functions...)
	q.CommGroups = append([]*CommGroup(nil), p.CommGroups...)
	return &q
}

// Kwarg is one keyword argument or attribute.
type Kwarg struct {
	Key   string
	Value any
}

// Kwargs are keyword arguments in stored order. Values are int64, bool,
// string, float64, DataType, MemorySpace, TileLayout, TensorLayout, PadValue,
// []ArgDirection or Expr.
type Kwargs []Kwarg

// Get returns the value stored under key.
func (k Kwargs) Get(key string) (any, bool) {
	for _, kv := range k {
		if kv.Key == key {
			return kv.Value, true
		}
	}
	return nil, false
}

// Has reports whether key is present.
func (k Kwargs) Has(key string) bool { _, ok := k.Get(key); return ok }

// Int returns an integer kwarg, or def when absent.
func (k Kwargs) Int(key string, def int64) int64 {
	if v, ok := k.Get(key); ok {
		if i, ok := v.(int64); ok {
			return i
		}
	}
	return def
}

// Bool returns a boolean kwarg, or def when absent.
func (k Kwargs) Bool(key string, def bool) bool {
	if v, ok := k.Get(key); ok {
		if b, ok := v.(bool); ok {
			return b
		}
	}
	return def
}

// String returns a string kwarg, or def when absent.
func (k Kwargs) String(key, def string) string {
	if v, ok := k.Get(key); ok {
		if s, ok := v.(string); ok {
			return s
		}
	}
	return def
}

// DType returns a DataType kwarg.
func (k Kwargs) DType(key string) (DataType, bool) {
	if v, ok := k.Get(key); ok {
		if d, ok := v.(DataType); ok {
			return d, true
		}
	}
	return 0, false
}

// With returns a copy with key set to v (replacing or appending).
func (k Kwargs) With(key string, v any) Kwargs {
	out := make(Kwargs, 0, len(k)+1)
	found := false
	for _, kv := range k {
		if kv.Key == key {
			kv.Value = v
			found = true
		}
		out = append(out, kv)
	}
	if !found {
		out = append(out, Kwarg{key, v})
	}
	return out
}

// Without returns a copy without key.
func (k Kwargs) Without(key string) Kwargs {
	var out Kwargs
	for _, kv := range k {
		if kv.Key != key {
			out = append(out, kv)
		}
	}
	return out
}

// AddressesPlanned reports whether AllocateMemoryAddr has placed fn's
// on-chip buffers. InitMemRef leaves every buffer at offset 0, upstream's
// placeholder (a slice sits at its offset inside its buffer), so a plan
// shows as a buffer that starts elsewhere. A function with one buffer per
// memory space reads as unplanned, which places it the same.
func AddressesPlanned(fn *Function) bool {
	start := map[*Var]int64{} // each buffer's lowest constant offset
	see := func(v *Var) {
		tt, ok := v.Type().(*TileType)
		if !ok || tt.MemRef == nil || tt.MemRef.Base == nil || tt.Memory == MemDDR {
			return
		}
		off, ok := ConstValue(tt.MemRef.ByteOffset)
		if !ok {
			return
		}
		if s, seen := start[tt.MemRef.Base]; !seen || off < s {
			start[tt.MemRef.Base] = off
		}
	}
	for _, p := range fn.Params {
		see(p)
	}
	WalkStmt(fn.Body, nil, func(s Stmt) {
		switch x := s.(type) {
		case *AssignStmt:
			see(x.Var)
		case *IfStmt:
			for _, v := range x.ReturnVars {
				see(v)
			}
		case *ForStmt, *WhileStmt:
			ias, rvs := LoopCarried(x)
			for _, ia := range ias {
				see(&ia.Var)
			}
			for _, v := range rvs {
				see(v)
			}
		}
	})
	for _, s := range start {
		if s != 0 {
			return true
		}
	}
	return false
}
