package ir

import (
	"fmt"
	"reflect"
	"strings"
)

// StructuralEqual compares two IR values by structure (ir.md §9). Ignored:
// spans, variable names, function and program names, leading comments.
// Variables in definition positions (assignment targets, loop variables,
// iter-args, return variables, parameters) always map onto each other; a
// variable in a use position must be the same pointer or already mapped,
// unless autoMap lets a new pair map. A DistributedTensorType's window buffer
// compares by variable identity only, never by size.
//
// a and b may be *Program, *Function, Stmt, Expr, Type, *CommGroup or []Expr.
func StructuralEqual(a, b any, autoMap bool) bool {
	return AssertStructuralEqual(a, b, autoMap) == nil
}

// AssertStructuralEqual is StructuralEqual returning an error that names the
// field path of the first difference.
func AssertStructuralEqual(a, b any, autoMap bool) error {
	e := &equalizer{auto: autoMap, l2r: map[*Var]*Var{}, r2l: map[*Var]*Var{}}
	e.any(a, b, "")
	return e.err
}

// AssertStructuralEqualMemRefs is AssertStructuralEqual that also compares
// the MemRefs in the tile types of variable definitions (their names,
// offsets, sizes and slots), which upstream's comparison, and so the
// default, skips: a printer that loses part of a tile's MemRef, or a
// reader that rebuilds one differently, shows up here. (A tensor's GM
// MemRef prints in signatures only, as upstream's printer does.)
func AssertStructuralEqualMemRefs(a, b any, autoMap bool) error {
	e := &equalizer{auto: autoMap, memRefs: true, l2r: map[*Var]*Var{}, r2l: map[*Var]*Var{}}
	e.any(a, b, "")
	return e.err
}

type equalizer struct {
	auto     bool
	memRefs  bool // compare the MemRefs in definitions' types too
	inDef    bool // comparing a definition's type
	l2r, r2l map[*Var]*Var
	err      error
}

// typeMemRef compares the MemRefs of two types when asked to.
func (e *equalizer) typeMemRef(a, b *MemRef, path string) bool {
	if !e.memRefs || !e.inDef {
		return true
	}
	if (a == nil) != (b == nil) {
		return e.fail(path, "MemRef presence %v vs %v", a != nil, b != nil)
	}
	if a == nil {
		return true
	}
	if a.Name != b.Name || a.Size != b.Size || a.Pinned != b.Pinned || a.SlotCount != b.SlotCount {
		return e.fail(path, "MemRef %s (size %d, pinned %v, %d slots) vs %s (size %d, pinned %v, %d slots)",
			a.Name, a.Size, a.Pinned, a.SlotCount, b.Name, b.Size, b.Pinned, b.SlotCount)
	}
	return e.optExpr(a.ByteOffset, b.ByteOffset, path+".byte_offset") && e.optExpr(a.SlotIndex, b.SlotIndex, path+".slot_index")
}

func (e *equalizer) fail(path, format string, args ...any) bool {
	if e.err == nil {
		p := strings.TrimPrefix(path, ".")
		if p == "" {
			p = "<root>"
		}
		e.err = fmt.Errorf("%s: %s", p, fmt.Sprintf(format, args...))
	}
	return false
}

func isNil(x any) bool {
	if x == nil {
		return true
	}
	v := reflect.ValueOf(x)
	switch v.Kind() {
	case reflect.Ptr, reflect.Interface, reflect.Slice, reflect.Map:
		return v.IsNil()
	}
	return false
}

func (e *equalizer) any(a, b any, path string) bool {
	if isNil(a) || isNil(b) {
		if isNil(a) && isNil(b) {
			return true
		}
		return e.fail(path, "one side is nil")
	}
	switch a := a.(type) {
	case *Program:
		if b, ok := b.(*Program); ok {
			return e.program(a, b, path)
		}
		return e.fail(path, "kind %T vs %T", a, b)
	case *Function:
		if b, ok := b.(*Function); ok {
			return e.function(a, b, path)
		}
		return e.fail(path, "kind %T vs %T", a, b)
	case *CommGroup:
		if b, ok := b.(*CommGroup); ok {
			return e.group(a, b, path)
		}
		return e.fail(path, "kind %T vs %T", a, b)
	case []Expr:
		if b, ok := b.([]Expr); ok {
			return e.exprs(a, b, path)
		}
		return e.fail(path, "kind %T vs %T", a, b)
	case Stmt:
		if b, ok := b.(Stmt); ok {
			return e.stmt(a, b, path)
		}
		return e.fail(path, "kind %T vs %T", a, b)
	case Expr:
		if b, ok := b.(Expr); ok {
			return e.expr(a, b, path)
		}
		return e.fail(path, "kind %T vs %T", a, b)
	case Type:
		if b, ok := b.(Type); ok {
			return e.typ(a, b, path)
		}
		return e.fail(path, "kind %T vs %T", a, b)
	}
	return e.fail(path, "cannot compare %T", a)
}

func (e *equalizer) program(a, b *Program, path string) bool {
	if len(a.Functions) != len(b.Functions) {
		return e.fail(path+".functions", "%d vs %d functions", len(a.Functions), len(b.Functions))
	}
	for i := range a.Functions {
		if a.Functions[i].Name != b.Functions[i].Name {
			return e.fail(path+".functions", "function %q vs %q", a.Functions[i].Name, b.Functions[i].Name)
		}
	}
	if len(a.CommGroups) != len(b.CommGroups) {
		return e.fail(path+".comm_groups", "%d vs %d groups", len(a.CommGroups), len(b.CommGroups))
	}
	for i := range a.Functions {
		if !e.function(a.Functions[i], b.Functions[i], fmt.Sprintf("%s.functions[%s]", path, a.Functions[i].Name)) {
			return false
		}
	}
	for i := range a.CommGroups {
		if !e.group(a.CommGroups[i], b.CommGroups[i], fmt.Sprintf("%s.comm_groups[%d]", path, i)) {
			return false
		}
	}
	return true
}

func (e *equalizer) group(a, b *CommGroup, path string) bool {
	if !reflect.DeepEqual(append([]int64{}, a.Devices...), append([]int64{}, b.Devices...)) {
		return e.fail(path+".devices", "%v vs %v", a.Devices, b.Devices)
	}
	if len(a.Slots) != len(b.Slots) {
		return e.fail(path+".slots", "%d vs %d slots", len(a.Slots), len(b.Slots))
	}
	for i := range a.Slots {
		if !e.expr(a.Slots[i], b.Slots[i], fmt.Sprintf("%s.slots[%d]", path, i)) {
			return false
		}
	}
	return true
}

func (e *equalizer) function(a, b *Function, path string) bool {
	if a.Kind != b.Kind || a.Level != b.Level || a.Role != b.Role {
		return e.fail(path, "function type/level/role %s/%s/%s vs %s/%s/%s", a.Kind, a.Level, a.Role, b.Kind, b.Level, b.Role)
	}
	if len(a.Params) != len(b.Params) {
		return e.fail(path+".params", "%d vs %d parameters", len(a.Params), len(b.Params))
	}
	for i := range a.Params {
		if a.Direction(i) != b.Direction(i) {
			return e.fail(fmt.Sprintf("%s.param_directions[%d]", path, i), "%s vs %s", a.Direction(i), b.Direction(i))
		}
		if !e.def(a.Params[i], b.Params[i], fmt.Sprintf("%s.params[%d]", path, i)) {
			return false
		}
	}
	if len(a.ReturnTypes) != len(b.ReturnTypes) {
		return e.fail(path+".return_types", "%d vs %d", len(a.ReturnTypes), len(b.ReturnTypes))
	}
	for i := range a.ReturnTypes {
		if !e.typ(a.ReturnTypes[i], b.ReturnTypes[i], fmt.Sprintf("%s.return_types[%d]", path, i)) {
			return false
		}
	}
	if a.RuntimeBound != b.RuntimeBound {
		return e.fail(path+".requires_runtime_binding", "%v vs %v", a.RuntimeBound, b.RuntimeBound)
	}
	if a.HostPython != b.HostPython {
		return e.fail(path+".host_python", "%q vs %q", a.HostPython, b.HostPython)
	}
	return e.kwargs(a.Attrs, b.Attrs, path+".attrs") && e.optStmt(a.Body, b.Body, path+".body")
}

// def maps a defined variable pair; their types must be equal.
func (e *equalizer) def(a, b *Var, path string) bool {
	if l, ok := e.l2r[a]; ok && l != b {
		return e.fail(path, "variable %s already maps to another", a.Name)
	}
	if r, ok := e.r2l[b]; ok && r != a {
		return e.fail(path, "variable %s already maps to another", b.Name)
	}
	// A definition's type carries its storage: compare MemRefs here when
	// asked (an expression's type is deduced again on reading).
	e.inDef = true
	ok := e.typ(a.Type(), b.Type(), path+".type")
	e.inDef = false
	if !ok {
		return false
	}
	e.l2r[a], e.r2l[b] = b, a
	return true
}

// use compares variables in a use position.
func (e *equalizer) use(a, b *Var, path string) bool {
	if l, ok := e.l2r[a]; ok {
		return l == b || e.fail(path, "variable %s maps to a different variable than %s", a.Name, b.Name)
	}
	if _, ok := e.r2l[b]; ok {
		return e.fail(path, "variable %s maps to a different variable than %s", b.Name, a.Name)
	}
	if a == b {
		return true
	}
	if !e.auto {
		return e.fail(path, "variables %s and %s are not the same (no auto-mapping)", a.Name, b.Name)
	}
	if !e.typ(a.Type(), b.Type(), path+".type") {
		return false
	}
	e.l2r[a], e.r2l[b] = b, a
	return true
}

func (e *equalizer) optStmt(a, b Stmt, path string) bool {
	if a == nil || b == nil {
		if a == nil && b == nil {
			return true
		}
		// An empty block equals a missing one.
		if len(Flatten(a)) == 0 && len(Flatten(b)) == 0 {
			return true
		}
		return e.fail(path, "one side is missing")
	}
	return e.stmt(a, b, path)
}

func (e *equalizer) stmt(a, b Stmt, path string) bool {
	if _, ok := a.(*SeqStmts); ok {
		return e.block(a, b, path)
	}
	if _, ok := b.(*SeqStmts); ok {
		return e.block(a, b, path)
	}
	if reflect.TypeOf(a) != reflect.TypeOf(b) {
		return e.fail(path, "statement kind %T vs %T", a, b)
	}
	switch a := a.(type) {
	case *AssignStmt:
		b := b.(*AssignStmt)
		return e.expr(a.Value, b.Value, path+".value") && e.def(a.Var, b.Var, path+".var")
	case *EvalStmt:
		return e.expr(a.Expr, b.(*EvalStmt).Expr, path+".expr")
	case *ReturnStmt:
		return e.exprs(a.Values, b.(*ReturnStmt).Values, path+".value")
	case *YieldStmt:
		return e.exprs(a.Values, b.(*YieldStmt).Values, path+".value")
	case *IfStmt:
		b := b.(*IfStmt)
		return e.expr(a.Cond, b.Cond, path+".condition") && e.optStmt(a.Then, b.Then, path+".then_body") &&
			e.optStmt(a.Else, b.Else, path+".else_body") && e.defs(a.ReturnVars, b.ReturnVars, path+".return_vars")
	case *ScopeStmt:
		b := b.(*ScopeStmt)
		if a.Split != b.Split || a.SlotNum != b.SlotNum {
			return e.fail(path, "scope optimizations split=%s, slot_num=%d vs split=%s, slot_num=%d", a.Split, a.SlotNum, b.Split, b.SlotNum)
		}
		if a.Windowize != b.Windowize {
			return e.fail(path, "scope windowize=%v vs windowize=%v", a.Windowize, b.Windowize)
		}
		if a.Kind != b.Kind || a.Level != b.Level || a.Role != b.Role || a.NameHint != b.NameHint {
			return e.fail(path, "scope pl.at(level=%s, role=%s, name_hint=%q) vs pl.at(level=%s, role=%s, name_hint=%q)", a.Level, a.Role, a.NameHint, b.Level, b.Role, b.NameHint)
		}
		if a.SyncStart != b.SyncStart || (a.CoreNum == nil) != (b.CoreNum == nil) {
			return e.fail(path, "spmd launch core_num set %v, sync_start %v vs core_num set %v, sync_start %v", a.CoreNum != nil, a.SyncStart, b.CoreNum != nil, b.SyncStart)
		}
		if a.CoreNum != nil && !e.expr(a.CoreNum, b.CoreNum, path+".core_num") {
			return false
		}
		if a.Manual != b.Manual {
			return e.fail(path, "runtime scope manual=%v vs manual=%v", a.Manual, b.Manual)
		}
		if a.AllowEarlyResolve != b.AllowEarlyResolve {
			return e.fail(path, "scope allow_early_resolve=%v vs allow_early_resolve=%v", a.AllowEarlyResolve, b.AllowEarlyResolve)
		}
		if len(a.Deps) != len(b.Deps) || (a.TaskID == nil) != (b.TaskID == nil) {
			return e.fail(path, "scope deps (%d) and task id (%v) vs deps (%d) and task id (%v)", len(a.Deps), a.TaskID != nil, len(b.Deps), b.TaskID != nil)
		}
		for i := range a.Deps {
			if !e.expr(a.Deps[i], b.Deps[i], fmt.Sprintf("%s.deps[%d]", path, i)) {
				return false
			}
		}
		if len(a.NoDepArgs) != len(b.NoDepArgs) {
			return e.fail(path, "scope no_dep_args (%d) vs no_dep_args (%d)", len(a.NoDepArgs), len(b.NoDepArgs))
		}
		for i := range a.NoDepArgs {
			if !e.expr(a.NoDepArgs[i], b.NoDepArgs[i], fmt.Sprintf("%s.no_dep_args[%d]", path, i)) {
				return false
			}
		}
		if len(a.Dumps) != len(b.Dumps) {
			return e.fail(path, "scope dumps (%d) vs dumps (%d)", len(a.Dumps), len(b.Dumps))
		}
		for i := range a.Dumps {
			if !e.expr(a.Dumps[i], b.Dumps[i], fmt.Sprintf("%s.dumps[%d]", path, i)) {
				return false
			}
		}
		if (a.Predicate == nil) != (b.Predicate == nil) {
			return e.fail(path, "scope predicate set %v vs %v", a.Predicate != nil, b.Predicate != nil)
		}
		if a.Predicate != nil && !e.expr(a.Predicate, b.Predicate, path+".predicate") {
			return false
		}
		if a.TaskID != nil && !e.def(a.TaskID, b.TaskID, path+".task_id") {
			return false
		}
		return e.optStmt(a.Body, b.Body, path+".body")
	case *ForStmt:
		b := b.(*ForStmt)
		if a.Kind != b.Kind || a.PipelineArg != b.PipelineArg {
			return e.fail(path+".kind", "%s vs %s", a.Kind, b.Kind)
		}
		if !e.expr(a.Start, b.Start, path+".start") || !e.expr(a.Stop, b.Stop, path+".stop") || !e.expr(a.Step, b.Step, path+".step") {
			return false
		}
		if !e.def(a.LoopVar, b.LoopVar, path+".loop_var") {
			return false
		}
		if !e.iterArgs(a.IterArgs, b.IterArgs, path) {
			return false
		}
		return e.kwargs(a.Attrs, b.Attrs, path+".attrs") && e.optStmt(a.Body, b.Body, path+".body") &&
			e.defs(a.ReturnVars, b.ReturnVars, path+".return_vars")
	case *WhileStmt:
		b := b.(*WhileStmt)
		if !e.iterArgs(a.IterArgs, b.IterArgs, path) {
			return false
		}
		return e.expr(a.Cond, b.Cond, path+".condition") && e.optStmt(a.Body, b.Body, path+".body") &&
			e.defs(a.ReturnVars, b.ReturnVars, path+".return_vars")
	case *BreakStmt, *ContinueStmt:
		return true
	}
	return e.fail(path, "unknown statement %T", a)
}

// iterArgs compares a loop's iter-args: inits, then the definitions.
func (e *equalizer) iterArgs(a, b []*IterArg, path string) bool {
	if len(a) != len(b) {
		return e.fail(path+".iter_args", "%d vs %d", len(a), len(b))
	}
	for i := range a {
		p := fmt.Sprintf("%s.iter_args[%d]", path, i)
		if !e.expr(a[i].Init, b[i].Init, p+".init_value") || !e.def(&a[i].Var, &b[i].Var, p) {
			return false
		}
	}
	return true
}

// block compares statement lists, flattening nested SeqStmts.
func (e *equalizer) block(a, b Stmt, path string) bool {
	as, bs := Flatten(a), Flatten(b)
	if len(as) != len(bs) {
		return e.fail(path+".stmts", "%d vs %d statements", len(as), len(bs))
	}
	for i := range as {
		if !e.stmt(as[i], bs[i], fmt.Sprintf("%s.stmts[%d]", path, i)) {
			return false
		}
	}
	return true
}

func (e *equalizer) defs(a, b []*Var, path string) bool {
	if len(a) != len(b) {
		return e.fail(path, "%d vs %d", len(a), len(b))
	}
	for i := range a {
		if !e.def(a[i], b[i], fmt.Sprintf("%s[%d]", path, i)) {
			return false
		}
	}
	return true
}

func (e *equalizer) exprs(a, b []Expr, path string) bool {
	if len(a) != len(b) {
		return e.fail(path, "%d vs %d values", len(a), len(b))
	}
	for i := range a {
		if !e.expr(a[i], b[i], fmt.Sprintf("%s[%d]", path, i)) {
			return false
		}
	}
	return true
}

func sameIntType(a, b DataType) bool {
	return a == b || (a == INT64 || a == INDEX) && (b == INT64 || b == INDEX)
}

func (e *equalizer) expr(a, b Expr, path string) bool {
	if a == nil || b == nil {
		return (a == nil && b == nil) || e.fail(path, "one side is nil")
	}
	if reflect.TypeOf(a) != reflect.TypeOf(b) {
		return e.fail(path, "expression kind %T vs %T", a, b)
	}
	switch a := a.(type) {
	case *Var:
		return e.use(a, b.(*Var), path)
	case *IterArg:
		return e.use(&a.Var, &b.(*IterArg).Var, path)
	case *MemRef:
		b := b.(*MemRef)
		if !e.use(&a.Var, &b.Var, path) {
			return false
		}
		if a.Size != b.Size || a.Pinned != b.Pinned || a.SlotCount != b.SlotCount {
			return e.fail(path, "MemRef fields differ")
		}
		return e.optVar(a.Base, b.Base, path+".base") && e.optExpr(a.ByteOffset, b.ByteOffset, path+".byte_offset") &&
			e.optExpr(a.SlotIndex, b.SlotIndex, path+".slot_index")
	case *WindowBuffer:
		b := b.(*WindowBuffer)
		if !e.use(&a.Var, &b.Var, path) {
			return false
		}
		if a.LoadFromHost != b.LoadFromHost || a.StoreToHost != b.StoreToHost {
			return e.fail(path, "window buffer flags differ")
		}
		return e.optVar(a.Base, b.Base, path+".base") && e.expr(a.Size, b.Size, path+".size")
	case *ConstInt:
		b := b.(*ConstInt)
		if a.Value != b.Value || !sameIntType(a.DType, b.DType) {
			return e.fail(path, "constant %d:%s vs %d:%s", a.Value, a.DType.Name(), b.Value, b.DType.Name())
		}
		return true
	case *ConstFloat:
		b := b.(*ConstFloat)
		return (a.Value == b.Value && a.DType == b.DType) || e.fail(path, "constant %v vs %v", a.Value, b.Value)
	case *ConstBool:
		return a.Value == b.(*ConstBool).Value || e.fail(path, "constant %v vs %v", a.Value, b.(*ConstBool).Value)
	case *BinaryExpr:
		b := b.(*BinaryExpr)
		if a.Op != b.Op || a.DType != b.DType {
			return e.fail(path, "binary %s:%s vs %s:%s", a.Op, a.DType.Name(), b.Op, b.DType.Name())
		}
		return e.expr(a.Left, b.Left, path+".left") && e.expr(a.Right, b.Right, path+".right")
	case *UnaryExpr:
		b := b.(*UnaryExpr)
		if a.Op != b.Op || a.DType != b.DType {
			return e.fail(path, "unary %s vs %s", a.Op, b.Op)
		}
		return e.expr(a.X, b.X, path+".operand")
	case *MakeTuple:
		return e.exprs(a.Elems, b.(*MakeTuple).Elems, path+".elements")
	case *TupleGetItem:
		b := b.(*TupleGetItem)
		return (a.Index == b.Index || e.fail(path+".index", "%d vs %d", a.Index, b.Index)) && e.expr(a.Tuple, b.Tuple, path+".tuple")
	case *Call:
		b := b.(*Call)
		if a.Name() != b.Name() || (a.Fn == nil) != (b.Fn == nil) {
			return e.fail(path+".op", "%s vs %s", a.Name(), b.Name())
		}
		return e.exprs(a.Args, b.Args, path+".args") && e.kwargs(a.Kwargs, b.Kwargs, path+".kwargs") &&
			e.kwargs(a.Attrs, b.Attrs, path+".attrs") && e.typ(a.Type(), b.Type(), path+".type")
	}
	return e.fail(path, "unknown expression %T", a)
}

func (e *equalizer) optVar(a, b *Var, path string) bool {
	if a == nil || b == nil {
		return (a == nil && b == nil) || e.fail(path, "one side is nil")
	}
	return e.use(a, b, path)
}

func (e *equalizer) optExpr(a, b Expr, path string) bool {
	if a == nil || b == nil {
		return (a == nil && b == nil) || e.fail(path, "one side is nil")
	}
	return e.expr(a, b, path)
}

// kwargs compare as an order-insensitive map, by value and value type.
func (e *equalizer) kwargs(a, b Kwargs, path string) bool {
	if len(a) != len(b) {
		return e.fail(path, "%d vs %d entries", len(a), len(b))
	}
	for _, kv := range a {
		bv, ok := b.Get(kv.Key)
		if !ok {
			return e.fail(path, "key %q missing on one side", kv.Key)
		}
		p := path + "[" + kv.Key + "]"
		if ae, ok := kv.Value.(Expr); ok {
			be, ok := bv.(Expr)
			if !ok || !e.expr(ae, be, p) {
				return ok || e.fail(p, "value kind differs")
			}
			continue
		}
		if reflect.TypeOf(kv.Value) != reflect.TypeOf(bv) || !reflect.DeepEqual(kv.Value, bv) {
			return e.fail(p, "%v (%T) vs %v (%T)", kv.Value, kv.Value, bv, bv)
		}
	}
	return true
}

func (e *equalizer) dims(a, b []Expr, path string) bool {
	if len(a) != len(b) {
		return e.fail(path, "rank %d vs %d", len(a), len(b))
	}
	for i := range a {
		if !e.expr(a[i], b[i], fmt.Sprintf("%s[%d]", path, i)) {
			return false
		}
	}
	return true
}

func (e *equalizer) tensorView(a, b *TensorView, path string) bool {
	if a == nil || b == nil {
		return (a == nil && b == nil) || e.fail(path, "tensor view present on one side only")
	}
	if a.Layout != b.Layout || a.Pad != b.Pad {
		return e.fail(path, "layout/pad differ")
	}
	return e.dims(a.Stride, b.Stride, path+".stride") && e.dims(a.ValidShape, b.ValidShape, path+".valid_shape")
}

func (e *equalizer) tileView(a, b *TileView, path string) bool {
	if a == nil || b == nil {
		return (a == nil && b == nil) || e.fail(path, "tile view present on one side only")
	}
	if a.BLayout != b.BLayout || a.SLayout != b.SLayout || a.Fractal != b.Fractal || a.Pad != b.Pad {
		return e.fail(path, "tile view layout differs")
	}
	return e.dims(a.ValidShape, b.ValidShape, path+".valid_shape") && e.dims(a.Stride, b.Stride, path+".stride") &&
		e.optExpr(a.StartOffset, b.StartOffset, path+".start_offset")
}

// typ compares types; a MemRef is not compared (upstream's ladder skips it).
func (e *equalizer) typ(a, b Type, path string) bool {
	if a == nil || b == nil {
		return (a == nil && b == nil) || e.fail(path, "one side is nil")
	}
	if a.TypeName() != b.TypeName() {
		return e.fail(path, "type kind %s vs %s", a.TypeName(), b.TypeName())
	}
	switch a := a.(type) {
	case *ScalarType:
		return a.DType == b.(*ScalarType).DType || e.fail(path, "%s vs %s", a, b)
	case *TensorType:
		b := b.(*TensorType)
		return (a.DType == b.DType || e.fail(path+".dtype", "%s vs %s", a.DType.Name(), b.DType.Name())) &&
			e.dims(a.Shape, b.Shape, path+".shape") && e.tensorView(a.View, b.View, path+".tensor_view")
	case *DistributedTensorType:
		b := b.(*DistributedTensorType)
		if !(a.DType == b.DType || e.fail(path+".dtype", "%s vs %s", a.DType.Name(), b.DType.Name())) ||
			!e.dims(a.Shape, b.Shape, path+".shape") || !e.tensorView(a.View, b.View, path+".tensor_view") {
			return false
		}
		if (a.Window == nil) != (b.Window == nil) {
			return e.fail(path, "DistributedTensorType window_buffer presence mismatch")
		}
		if a.Window != nil {
			return e.use(&a.Window.Var, &b.Window.Var, path+".window_buffer")
		}
		return true
	case *TileType:
		b := b.(*TileType)
		if a.DType != b.DType || a.Memory != b.Memory {
			return e.fail(path, "%s vs %s", a, b)
		}
		return e.dims(a.Shape, b.Shape, path+".shape") && e.tileView(a.View, b.View, path+".tile_view") &&
			e.typeMemRef(a.MemRef, b.MemRef, path+".memref")
	case *TupleType:
		b := b.(*TupleType)
		if len(a.Types) != len(b.Types) {
			return e.fail(path, "%d vs %d elements", len(a.Types), len(b.Types))
		}
		for i := range a.Types {
			if !e.typ(a.Types[i], b.Types[i], fmt.Sprintf("%s.types[%d]", path, i)) {
				return false
			}
		}
		return true
	case *ArrayType:
		b := b.(*ArrayType)
		return (a.Extent == b.Extent && a.DType == b.DType) || e.fail(path, "%s vs %s", a, b)
	}
	return true // field-less singletons
}
