package ir

import "fmt"

// DeduceCtx is what a type deducer sees: the op, its arguments and kwargs.
// Its helpers check one argument each and return a *TypeError naming it.
type DeduceCtx struct {
	Op     *OpDef
	Args   []Expr
	Kwargs Kwargs
	Pos    Span
}

// N is the number of positional arguments.
func (c *DeduceCtx) N() int { return len(c.Args) }

// Fail reports that argument i is not what the op expected. given may be a
// Type, an Expr, a string or a number.
func (c *DeduceCtx) Fail(i int, expected string, given any) error {
	return &TypeError{Op: c.Op.Name, Arg: c.Op.ArgName(i), Expected: expected, Given: describeGiven(given), Pos: c.Pos}
}

// FailKwarg reports a bad kwarg value.
func (c *DeduceCtx) FailKwarg(name, expected string, given any) error {
	return &TypeError{Op: c.Op.Name, Kwarg: name, Expected: expected, Given: describeGiven(given), Pos: c.Pos}
}

// FailCall reports a problem with the call as a whole.
func (c *DeduceCtx) FailCall(expected string, given any) error {
	return &TypeError{Op: c.Op.Name, Expected: expected, Given: describeGiven(given), Pos: c.Pos}
}

func describeGiven(g any) string {
	if e, ok := g.(Expr); ok {
		if _, isTuple := e.(*MakeTuple); !isTuple {
			return e.Type().String()
		}
	}
	return Describe(g)
}

// Dist requires argument i to be a DistributedTensor (matched exactly).
func (c *DeduceCtx) Dist(i int) (*DistributedTensorType, error) {
	t, ok := c.Args[i].Type().(*DistributedTensorType)
	if !ok {
		return nil, c.Fail(i, "a pld.DistributedTensor (window-bound)", c.Args[i])
	}
	return t, nil
}

// Tensor requires argument i to be exactly a plain Tensor (a DistributedTensor is rejected).
func (c *DeduceCtx) Tensor(i int) (*TensorType, error) {
	t, ok := c.Args[i].Type().(*TensorType)
	if !ok {
		return nil, c.Fail(i, "a pl.Tensor", c.Args[i])
	}
	return t, nil
}

// TensorLike requires argument i to be a Tensor or a DistributedTensor.
func (c *DeduceCtx) TensorLike(i int) (TensorLike, error) {
	t, ok := AsTensorLike(c.Args[i].Type())
	if !ok {
		return t, c.Fail(i, "a pl.Tensor or pld.DistributedTensor", c.Args[i])
	}
	return t, nil
}

// Tile requires argument i to be a Tile.
func (c *DeduceCtx) Tile(i int) (*TileType, error) {
	t, ok := c.Args[i].Type().(*TileType)
	if !ok {
		return nil, c.Fail(i, "a pl.Tile", c.Args[i])
	}
	return t, nil
}

// Scalar requires argument i to be a scalar and returns its dtype.
func (c *DeduceCtx) Scalar(i int) (DataType, error) {
	t, ok := c.Args[i].Type().(*ScalarType)
	if !ok {
		return 0, c.Fail(i, "a scalar", c.Args[i])
	}
	return t.DType, nil
}

// IntScalar requires argument i to be an integer scalar.
func (c *DeduceCtx) IntScalar(i int) (DataType, error) {
	t, ok := c.Args[i].Type().(*ScalarType)
	if !ok || !t.DType.IsInt() {
		return 0, c.Fail(i, "an integer scalar", c.Args[i])
	}
	return t.DType, nil
}

// Tuple requires argument i to be a tuple literal ([a, b]) of rank elements
// (any rank when rank < 0) and returns its elements.
func (c *DeduceCtx) Tuple(i, rank int) ([]Expr, error) {
	m, ok := c.Args[i].(*MakeTuple)
	if !ok {
		return nil, c.Fail(i, "a tuple such as [0, 0]", c.Args[i])
	}
	if rank >= 0 && len(m.Elems) != rank {
		return nil, c.Fail(i, fmt.Sprintf("a tuple of %d elements (the tensor's rank)", rank), fmt.Sprintf("%s with %d elements", Describe(m), len(m.Elems)))
	}
	for _, e := range m.Elems {
		if st, ok := e.Type().(*ScalarType); !ok || !st.DType.IsInt() {
			return nil, c.Fail(i, "a tuple of integer scalars", fmt.Sprintf("%s (element %s)", Describe(m), Describe(e)))
		}
	}
	return m.Elems, nil
}

// KwInt returns an int kwarg that the schema guarantees is int64.
func (c *DeduceCtx) KwInt(name string, def int64) int64 { return c.Kwargs.Int(name, def) }

// IntIn requires an int kwarg to lie in [lo, hi].
func (c *DeduceCtx) IntIn(name string, lo, hi int64, meaning string) (int64, error) {
	v := c.Kwargs.Int(name, lo)
	if v < lo || v > hi {
		return v, c.FailKwarg(name, meaning, fmt.Sprintf("int %d", v))
	}
	return v, nil
}

// StrIn requires a string kwarg to be one of choices.
func (c *DeduceCtx) StrIn(name string, choices []string) (string, error) {
	v := c.Kwargs.String(name, "")
	for _, ch := range choices {
		if v == ch {
			return v, nil
		}
	}
	return v, c.FailKwarg(name, "one of "+quoteList(choices), fmt.Sprintf("'%s'", v))
}

func quoteList(s []string) string {
	out := ""
	for i, x := range s {
		if i > 0 {
			out += ", "
		}
		out += "'" + x + "'"
	}
	return out
}

// SameDims reports whether two shapes are structurally equal dim by dim.
func SameDims(a, b []Expr) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !dimEqual(a[i], b[i]) {
			return false
		}
	}
	return true
}

// BroadcastDims is the shape NumPy's broadcasting gives operands of
// shapes a and b: aligned at their last dimensions, each pair equal or
// one of them 1. ok is false when they do not broadcast.
func BroadcastDims(a, b []Expr) (out []Expr, ok bool) {
	n := max(len(a), len(b))
	out = make([]Expr, n)
	for i := 1; i <= n; i++ {
		var da, db Expr
		if i <= len(a) {
			da = a[len(a)-i]
		}
		if i <= len(b) {
			db = b[len(b)-i]
		}
		switch {
		case da == nil || isOne(db):
			out[n-i] = da
			if da == nil {
				out[n-i] = db
			}
		case db == nil || isOne(da):
			out[n-i] = db
			if db == nil {
				out[n-i] = da
			}
		case dimEqual(da, db):
			out[n-i] = da
		default:
			return nil, false
		}
	}
	return out, true
}

func isOne(e Expr) bool {
	c, ok := e.(*ConstInt)
	return ok && c.Value == 1
}

func dimEqual(a, b Expr) bool {
	ca, okA := a.(*ConstInt)
	cb, okB := b.(*ConstInt)
	if okA && okB {
		return ca.Value == cb.Value
	}
	if okA != okB {
		return false
	}
	return StructuralEqual(a, b, false)
}

// ShapeString prints a shape as "[1, 256]".
func ShapeString(shape []Expr) string { return DefaultFormat.Dims(shape) }
