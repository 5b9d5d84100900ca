package runtime

import (
	"fmt"
	"math"
	"sync"
	"time"

	"github.com/ptorepl/ptorepl/ir"
	"github.com/ptorepl/ptorepl/tensor"
)

// SimOp is an op's simulated semantics, attached to its registry entry as
// the "sim" facet. args are the evaluated arguments.
type SimOp func(x *Exec, c *ir.Call, args []any) (any, error)

// FacetKey is the facet name simulated semantics hang under.
const FacetKey = "sim"

// Register attaches fn as op's simulated semantics.
func Register(op string, fn SimOp) { ir.MustOp(op).SetFacet(FacetKey, fn) }

// commCtx is the value of pld.system.get_comm_ctx: the domain is the world.
type commCtx struct{ world int }

// Exec runs functions on one rank (Rank -1 is the host).
type Exec struct {
	s    *sim
	Rank int
	fn   *ir.Function
	env  map[string]any // pre-SSA IR names variables Python-style: by name
	wg   *sync.WaitGroup
	errs chan error
}

// runHost executes the host orchestrator; dispatches start rank goroutines,
// which the host joins at the end.
func (s *sim) runHost(f *ir.Function, args []*tensor.Tensor) error {
	if len(args) != len(f.Params) {
		return fmt.Errorf("%s takes %d host tensors (%s), given %d", f.Name, len(f.Params), paramNames(f), len(args))
	}
	x := &Exec{s: s, Rank: -1, fn: f, env: map[string]any{}, wg: &sync.WaitGroup{}, errs: make(chan error, s.world*4+4)}
	for i, p := range f.Params {
		if args[i] == nil {
			return fmt.Errorf("%s: host tensor %s is nil", f.Name, p.Name)
		}
		r, err := hostRegion(args[i], p)
		if err != nil {
			return fmt.Errorf("%s: %w", f.Name, err)
		}
		x.env[p.Name] = r
		x.bindDims(p.Type(), r.shape)
	}
	// The host counts as live while it runs: ranks it has not dispatched
	// yet may still wake the ones already waiting.
	s.mu.Lock()
	s.live++
	s.mu.Unlock()
	_, _, err := x.stmt(f.Body)
	s.hostDone()
	x.wg.Wait()
	close(x.errs)
	// The first failure wins; errAborted only means "another rank failed".
	var first error
	for e := range x.errs {
		if first == nil || first == errAborted {
			first = e
		}
	}
	s.mu.Lock()
	failed := s.failed
	s.mu.Unlock()
	if failed != nil {
		return failed
	}
	if err != nil {
		return err
	}
	if first != nil && first != errAborted {
		return first
	}
	return nil
}

func paramNames(f *ir.Function) string {
	s := ""
	for i, p := range f.Params {
		if i > 0 {
			s += ", "
		}
		s += p.Name
	}
	return s
}

// hostRegion wraps a host tensor, checking its dtype and static dims.
func hostRegion(t *tensor.Tensor, p *ir.Var) (*region, error) {
	dims, dt, ok := ir.ShapeOf(p.Type())
	if ok {
		if dt != t.DType() {
			return nil, fmt.Errorf("host tensor %s: expected dtype %s, given %s", p.Name, dt, t.DType())
		}
		if len(dims) != t.Dim() {
			return nil, fmt.Errorf("host tensor %s: expected rank %d (%s), given shape %v", p.Name, len(dims), ir.ShapeString(dims), t.Shape())
		}
		for i, d := range dims {
			if v, c := ir.ConstValue(d); c && int(v) != t.Shape()[i] {
				return nil, fmt.Errorf("host tensor %s: expected shape %s, given %v", p.Name, ir.ShapeString(dims), t.Shape())
			}
		}
	}
	return &region{dt: t.DType(), shape: t.Shape(), strides: rowMajor(t.Shape()), bytes: t.Bytes()}, nil
}

// bindDims binds symbolic dims (NR) to the sizes of the value bound to them.
func (x *Exec) bindDims(t ir.Type, shape []int) {
	dims, _, ok := ir.ShapeOf(t)
	if !ok || len(dims) != len(shape) {
		return
	}
	for i, d := range dims {
		if v, isVar := d.(*ir.Var); isVar {
			if _, bound := x.env[v.Name]; !bound {
				x.env[v.Name] = int64(shape[i])
			}
		}
	}
}

// dispatch runs fn on rank r in its own goroutine.
func (x *Exec) dispatch(fn *ir.Function, r int, args []any) {
	x.s.mu.Lock()
	x.s.live++
	x.s.mu.Unlock()
	x.wg.Add(1)
	go func() {
		defer x.wg.Done()
		defer x.s.rankDone()
		rx := &Exec{s: x.s, Rank: r}
		_, err := rx.call(fn, args)
		if err != nil {
			x.s.mu.Lock()
			if err != errAborted {
				x.s.fail(err)
			}
			x.s.mu.Unlock()
			x.errs <- err
		}
	}()
}

// call runs fn with evaluated arguments on this rank.
func (x *Exec) call(fn *ir.Function, args []any) (out []any, err error) {
	if len(args) != len(fn.Params) {
		return nil, fmt.Errorf("%s takes %d arguments, given %d", fn.Name, len(fn.Params), len(args))
	}
	inner := &Exec{s: x.s, Rank: x.Rank, fn: fn, env: map[string]any{}, wg: x.wg, errs: x.errs}
	defer func() {
		// A simulator bug must come back as an error naming the function.
		if r := recover(); r != nil {
			err = fmt.Errorf("rank %d, %s: %v", x.Rank, fn.Name, r)
		}
	}()
	for i, p := range fn.Params {
		inner.env[p.Name] = args[i]
		if r, ok := args[i].(*region); ok {
			inner.bindDims(p.Type(), r.shape)
		}
	}
	vals, _, err := inner.stmt(fn.Body)
	return vals, err
}

// stmt executes s; returned reports a return statement (with its values).
// A yield's values come back the same way, with returned false.
func (x *Exec) stmt(s ir.Stmt) (vals []any, returned bool, err error) {
	switch s := s.(type) {
	case nil:
		return nil, false, nil
	case *ir.SeqStmts:
		for _, c := range s.Stmts {
			v, ret, err := x.stmt(c)
			if err != nil || ret {
				return v, ret, err
			}
			if _, y := c.(*ir.YieldStmt); y {
				return v, false, nil
			}
		}
		return nil, false, nil
	case *ir.AssignStmt:
		v, err := x.expr(s.Value)
		if err != nil {
			return nil, false, err
		}
		x.env[s.Var.Name] = v
		return nil, false, nil
	case *ir.EvalStmt:
		_, err := x.expr(s.Expr)
		return nil, false, err
	case *ir.ReturnStmt, *ir.YieldStmt:
		var es []ir.Expr
		if r, ok := s.(*ir.ReturnStmt); ok {
			es = r.Values
		} else {
			es = s.(*ir.YieldStmt).Values
		}
		out := make([]any, len(es))
		for i, e := range es {
			v, err := x.expr(e)
			if err != nil {
				return nil, false, err
			}
			out[i] = v
		}
		_, isRet := s.(*ir.ReturnStmt)
		return out, isRet, nil
	case *ir.IfStmt:
		c, err := x.expr(s.Cond)
		if err != nil {
			return nil, false, err
		}
		body := s.Else
		if truthy(c) {
			body = s.Then
		}
		vals, ret, err := x.stmt(body)
		if err != nil || ret {
			return vals, ret, err
		}
		for i, rv := range s.ReturnVars {
			if i < len(vals) {
				x.env[rv.Name] = vals[i]
			}
		}
		return nil, false, nil
	case *ir.ForStmt:
		return x.forStmt(s)
	}
	return nil, false, fmt.Errorf("the simulator cannot run statement %T", s)
}

func (x *Exec) forStmt(s *ir.ForStmt) ([]any, bool, error) {
	bounds := make([]int64, 3)
	for i, e := range []ir.Expr{s.Start, s.Stop, s.Step} {
		v, err := x.expr(e)
		if err != nil {
			return nil, false, err
		}
		n, err := toInt(v)
		if err != nil {
			return nil, false, fmt.Errorf("for %s: bound: %w", s.LoopVar.Name, err)
		}
		bounds[i] = n
	}
	if bounds[2] == 0 {
		return nil, false, fmt.Errorf("for %s: step is zero", s.LoopVar.Name)
	}
	for _, ia := range s.IterArgs {
		v, err := x.expr(ia.Init)
		if err != nil {
			return nil, false, err
		}
		x.env[ia.Name] = v
	}
	for i := bounds[0]; (bounds[2] > 0 && i < bounds[1]) || (bounds[2] < 0 && i > bounds[1]); i += bounds[2] {
		if err := x.s.ctx.Err(); err != nil {
			return nil, false, err
		}
		x.env[s.LoopVar.Name] = i
		vals, ret, err := x.stmt(s.Body)
		if err != nil || ret {
			return vals, ret, err
		}
		for k, ia := range s.IterArgs {
			if k < len(vals) {
				x.env[ia.Name] = vals[k]
			}
		}
	}
	for k, rv := range s.ReturnVars {
		if k < len(s.IterArgs) {
			x.env[rv.Name] = x.env[s.IterArgs[k].Name]
		}
	}
	return nil, false, nil
}

func truthy(v any) bool {
	switch v := v.(type) {
	case bool:
		return v
	case int64:
		return v != 0
	case float64:
		return v != 0
	}
	return false
}

func toInt(v any) (int64, error) {
	switch v := v.(type) {
	case int64:
		return v, nil
	case float64:
		return int64(v), nil
	case bool:
		if v {
			return 1, nil
		}
		return 0, nil
	}
	return 0, fmt.Errorf("expected an integer, got %T", v)
}

func toFloat(v any) (float64, error) {
	switch v := v.(type) {
	case int64:
		return float64(v), nil
	case float64:
		return v, nil
	case bool:
		if v {
			return 1, nil
		}
		return 0, nil
	}
	return 0, fmt.Errorf("expected a number, got %T", v)
}

func (x *Exec) expr(e ir.Expr) (any, error) {
	switch e := e.(type) {
	case *ir.Var:
		return x.lookup(e.Name)
	case *ir.IterArg:
		return x.lookup(e.Name)
	case *ir.WindowBuffer:
		return x.lookup(e.Base.Name)
	case *ir.ConstInt:
		return e.Value, nil
	case *ir.ConstFloat:
		return e.Value, nil
	case *ir.ConstBool:
		return e.Value, nil
	case *ir.MakeTuple:
		out := make([]any, len(e.Elems))
		for i, el := range e.Elems {
			v, err := x.expr(el)
			if err != nil {
				return nil, err
			}
			out[i] = v
		}
		return out, nil
	case *ir.TupleGetItem:
		t, err := x.expr(e.Tuple)
		if err != nil {
			return nil, err
		}
		l, ok := t.([]any)
		if !ok || e.Index < 0 || e.Index >= len(l) {
			return nil, fmt.Errorf("tuple index %d out of range", e.Index)
		}
		return l[e.Index], nil
	case *ir.BinaryExpr:
		return x.binary(e)
	case *ir.UnaryExpr:
		v, err := x.expr(e.X)
		if err != nil {
			return nil, err
		}
		return unary(e, v)
	case *ir.Call:
		return x.callExpr(e)
	}
	return nil, fmt.Errorf("the simulator cannot evaluate %T", e)
}

func (x *Exec) lookup(name string) (any, error) {
	v, ok := x.env[name]
	if !ok {
		return nil, fmt.Errorf("variable %s has no value on rank %d", name, x.Rank)
	}
	return v, nil
}

func (x *Exec) callExpr(c *ir.Call) (any, error) {
	args := make([]any, len(c.Args))
	for i, a := range c.Args {
		v, err := x.expr(a)
		if err != nil {
			return nil, err
		}
		args[i] = v
	}
	if c.Fn != nil {
		fn := x.s.prog.Function(c.Fn.Name)
		if fn == nil {
			return nil, fmt.Errorf("call of unknown function %s", c.Fn.Name)
		}
		if dev, ok := c.Attrs.Get("device"); ok {
			if x.Rank >= 0 {
				return nil, fmt.Errorf("%s: device= dispatch is only valid in the host orchestrator", fn.Name)
			}
			var r int64
			switch d := dev.(type) {
			case ir.Expr:
				v, err := x.expr(d)
				if err != nil {
					return nil, err
				}
				if r, err = toInt(v); err != nil {
					return nil, err
				}
			case int64:
				r = d
			}
			if r < 0 || int(r) >= x.s.world {
				return nil, fmt.Errorf("%s: device=%d is outside the world of %d ranks", fn.Name, r, x.s.world)
			}
			x.dispatch(fn, int(r), args)
			return nil, nil
		}
		out, err := x.call(fn, args)
		if err != nil {
			return nil, err
		}
		if len(out) == 1 {
			return out[0], nil
		}
		return out, nil
	}
	f, ok := c.Op.Facet(FacetKey)
	if !ok {
		return nil, x.errAt(c, fmt.Errorf("the simulator has no semantics for %s", c.Op.Name))
	}
	start := time.Now()
	x.s.mu.Lock()
	x.s.ops++
	x.s.mu.Unlock()
	v, err := f.(SimOp)(x, c, args)
	if err != nil {
		return nil, x.errAt(c, err)
	}
	x.s.timeline.record(x.Rank, c, x.fnName(), start, time.Now(), args)
	return v, nil
}

func (x *Exec) fnName() string {
	if x.fn == nil {
		return ""
	}
	return x.fn.Name
}

// errAt positions an op's error at the cell line that built the op.
func (x *Exec) errAt(c *ir.Call, err error) error {
	if err == errAborted {
		return err
	}
	if _, ok := err.(*DeadlockError); ok {
		return err
	}
	where := fmt.Sprintf("rank %d", x.Rank)
	if x.Rank < 0 {
		where = "host"
	}
	if c.Pos.Known() {
		return fmt.Errorf("%s: %s (%s, %s): %w", c.Pos, c.Op.Name, where, x.fnName(), err)
	}
	return fmt.Errorf("%s (%s, %s): %w", c.Op.Name, where, x.fnName(), err)
}

func (x *Exec) binary(e *ir.BinaryExpr) (any, error) {
	l, err := x.expr(e.Left)
	if err != nil {
		return nil, err
	}
	r, err := x.expr(e.Right)
	if err != nil {
		return nil, err
	}
	li, lInt := l.(int64)
	ri, rInt := r.(int64)
	if lb, ok := l.(bool); ok {
		li, lInt = b2i(lb), true
	}
	if rb, ok := r.(bool); ok {
		ri, rInt = b2i(rb), true
	}
	if lInt && rInt && !e.DType.IsFloat() {
		v, err := intBinary(e.Op, li, ri)
		if err != nil {
			return nil, err
		}
		if b, isBool := v.(bool); isBool {
			return b, nil
		}
		if e.DType == ir.INT32 {
			return int64(int32(v.(int64))), nil
		}
		return v, nil
	}
	lf, err := toFloat(l)
	if err != nil {
		return nil, err
	}
	rf, err := toFloat(r)
	if err != nil {
		return nil, err
	}
	return floatBinary(e.Op, lf, rf)
}

func b2i(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

func floorDiv(a, b int64) int64 {
	q := a / b
	if (a%b != 0) && ((a < 0) != (b < 0)) {
		q--
	}
	return q
}

func intBinary(op ir.BinaryOp, a, b int64) (any, error) {
	switch op {
	case ir.OpAdd:
		return a + b, nil
	case ir.OpSub:
		return a - b, nil
	case ir.OpMul:
		return a * b, nil
	case ir.OpFloorDiv, ir.OpFloorMod:
		if b == 0 {
			return nil, fmt.Errorf("integer division by zero")
		}
		if op == ir.OpFloorDiv {
			return floorDiv(a, b), nil
		}
		return a - floorDiv(a, b)*b, nil
	case ir.OpFloatDiv:
		if b == 0 {
			return nil, fmt.Errorf("division by zero")
		}
		return float64(a) / float64(b), nil
	case ir.OpMin:
		return min(a, b), nil
	case ir.OpMax:
		return max(a, b), nil
	case ir.OpPow:
		return int64(math.Pow(float64(a), float64(b))), nil
	case ir.OpEq:
		return a == b, nil
	case ir.OpNe:
		return a != b, nil
	case ir.OpLt:
		return a < b, nil
	case ir.OpLe:
		return a <= b, nil
	case ir.OpGt:
		return a > b, nil
	case ir.OpGe:
		return a >= b, nil
	case ir.OpAnd:
		return a != 0 && b != 0, nil
	case ir.OpOr:
		return a != 0 || b != 0, nil
	case ir.OpXor:
		return (a != 0) != (b != 0), nil
	case ir.OpBitAnd:
		return a & b, nil
	case ir.OpBitOr:
		return a | b, nil
	case ir.OpBitXor:
		return a ^ b, nil
	case ir.OpShl:
		return a << uint(b), nil
	}
	return nil, fmt.Errorf("unsupported integer operator %d", op)
}

func floatBinary(op ir.BinaryOp, a, b float64) (any, error) {
	switch op {
	case ir.OpAdd:
		return a + b, nil
	case ir.OpSub:
		return a - b, nil
	case ir.OpMul:
		return a * b, nil
	case ir.OpFloatDiv:
		return a / b, nil
	case ir.OpFloorDiv:
		return math.Floor(a / b), nil
	case ir.OpFloorMod:
		return a - math.Floor(a/b)*b, nil
	case ir.OpMin:
		return math.Min(a, b), nil
	case ir.OpMax:
		return math.Max(a, b), nil
	case ir.OpPow:
		return math.Pow(a, b), nil
	case ir.OpEq:
		return a == b, nil
	case ir.OpNe:
		return a != b, nil
	case ir.OpLt:
		return a < b, nil
	case ir.OpLe:
		return a <= b, nil
	case ir.OpGt:
		return a > b, nil
	case ir.OpGe:
		return a >= b, nil
	}
	return nil, fmt.Errorf("unsupported float operator %d", op)
}

func unary(e *ir.UnaryExpr, v any) (any, error) {
	if e.Op == ir.OpCast {
		f, err := toFloat(v)
		if err != nil {
			return nil, err
		}
		if e.DType.IsFloat() {
			return roundTo(f, e.DType), nil
		}
		if e.DType == ir.BOOL {
			return f != 0, nil
		}
		return int64(roundTo(f, e.DType)), nil
	}
	if e.Op == ir.OpBitNot {
		n, err := toInt(v)
		return ^n, err
	}
	switch x := v.(type) {
	case int64:
		switch e.Op {
		case ir.OpNeg:
			return -x, nil
		case ir.OpNot:
			return x == 0, nil
		case ir.OpAbs:
			if x < 0 {
				return -x, nil
			}
			return x, nil
		}
	case bool:
		if e.Op == ir.OpNot {
			return !x, nil
		}
	case float64:
		switch e.Op {
		case ir.OpNeg:
			return -x, nil
		case ir.OpAbs:
			return math.Abs(x), nil
		case ir.OpNot:
			return x == 0, nil
		}
	}
	return nil, fmt.Errorf("unsupported unary operator on %T", v)
}
