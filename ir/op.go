package ir

import (
	"fmt"
	"sort"
	"strings"
	"sync"
)

// ArgSpec describes one positional argument of an op.
type ArgSpec struct {
	Name   string
	Effect Effect // the default effect on this argument (Read for most)
	// Peer marks an argument the op addresses on the peer rank (a put's
	// dst, a get's src, a remote store's target): its effect lands in, or
	// comes from, another rank's window.
	Peer bool
	// Signal marks a signal cell: its accesses are synchronisation, ordered
	// by the signal protocol itself, not window data.
	Signal bool
	// IndexList marks an index tuple the DSL also takes as one scalar
	// (pl.read(t, i) is pl.read(t, [i])).
	IndexList bool
	// Memory is the on-chip memory the op reads this tile from (a matmul's
	// Left and Right operands); a tile given in Mat is moved there by
	// InferTileMemorySpace, as upstream's input memory constraints do. The
	// zero value (DDR, which no tile is in) asks for nothing.
	Memory MemorySpace
	// AlsoIn are other memories the op reads this tile from as it is (a
	// store takes Vec or Acc): no move is inserted for them.
	AlsoIn []MemorySpace
	// Int32 marks an argument whose bare integer literal PyPTO's IR
	// builders make an INT32 constant (a peer, a signal value, a seed).
	Int32 bool
	// Keyword marks a trailing optional argument the DSL takes by keyword
	// only, so it prints as name=value (gather_row's valid_shape, whose
	// positional slot in Python is transpose).
	Keyword bool
	// Default is the value upstream's DSL function passes when a call
	// leaves this argument out (an initialize_pipe's consumer buffers are
	// 0), as the DSL stores it; nil when the argument is required.
	Default any
	// CopyOf names the argument whose value upstream's DSL function passes
	// for this one when a call leaves it out (a load's valid_shape is its
	// shapes).
	CopyOf string
	// MemSpace marks an argument that is a memory space held as an integer
	// constant and printed pl.Mem.X, as upstream's tile.alloc takes its
	// first argument.
	MemSpace bool
	// DTypeOf names the DataType kwarg whose type an integer constant given
	// here takes, as upstream's DSL function makes it (ci's start is a
	// constant of its dtype).
	DTypeOf string
}

// KwargKind is the value kind of a kwarg, which also decides how it prints.
type KwargKind int

// Kwarg kinds.
const (
	KwInt          KwargKind = iota // int64, printed in decimal
	KwAtomic                        // int64 0/1, printed pl.AtomicType.None_/Add
	KwBool                          // bool, printed True/False
	KwString                        // string, printed single-quoted
	KwFloat                         // float64
	KwDType                         // DataType, printed pl.FP32 (an int is accepted)
	KwMemory                        // MemorySpace, printed pl.Mem.Vec
	KwPad                           // PadValue
	KwTileLayout                    // TileLayout
	KwTensorLayout                  // TensorLayout
	KwPipe                          // PipeType, printed pl.PipeType.MTE2
)

var kwKindNames = []string{"int", "AtomicType", "bool", "str", "float", "DataType", "MemorySpace", "PadValue", "TileLayout", "TensorLayout", "PipeType"}

func (k KwargKind) String() string { return enumName("KwargKind", kwKindNames, int(k)) }

// KwargSpec describes one kwarg of an op.
type KwargSpec struct {
	Name     string
	Kind     KwargKind
	Required bool
	Hidden   bool // stored but never printed (alloc's name, remote_load's padding flag)
	// FromRegion marks a kwarg the enclosing region sets (aiv_shard's
	// split, from its pl.split_aiv region): not printed inside one.
	FromRegion bool
	// Default is the value upstream's DSL function stores when a call
	// omits the kwarg (its Python default argument), as this kind stores
	// it; nil when the kwarg has none. Readers of PyPTO source fill it in.
	Default any
	// OnlyTrue marks a bool kwarg stored only when true, as upstream's DSL
	// passes it (div's high_precision: absent unless asked for), so a call
	// that writes it false equals and prints as one that omits it.
	OnlyTrue bool
	// Names are the DSL's string spellings of an int kwarg, which store as
	// their number (a cast's mode="rint" is 1), as upstream resolves them.
	Names map[string]int64
	// PrintName prints the kwarg as its quoted name from Names (a cast's
	// mode='round'), as upstream's printer prints a cast's mode.
	PrintName bool
}

// OpDef is an op's one registry entry. Everything about an op hangs off it:
// the core fields below, and facets other layers attach (PTO emission,
// simulated semantics) through SetFacet.
type OpDef struct {
	Name     string // IR name: "tile.load", "pld.system.notify"
	Category string
	Doc      string
	Args     []ArgSpec
	// MinArgs and MaxArgs bound the positional arity; MaxArgs < 0 is unbounded.
	// Both default to len(Args) when zero.
	MinArgs, MaxArgs int
	Kwargs           []KwargSpec
	// Deduce checks the arguments and returns the result type.
	Deduce func(c *DeduceCtx) (Type, error)
	// Effects decides per-argument effects from the call's kwargs (e.g. atomic);
	// nil means the static ArgSpec effects.
	Effects func(args []Expr, kw Kwargs) []Effect
	// OutMemory is stamped onto a tile result that lacks a memory space.
	OutMemory MemorySpace
	// CompactArgs: optional trailing arguments given by keyword take the
	// first free positions, so one left out leaves no gap (mgather's
	// scratch and valid_shape, upstream's positional layout); KeywordAt
	// then names each position of a call for printing.
	CompactArgs bool
	KeywordAt   func(c *Call, i int) (string, bool)
	// PrintName overrides the printed callee ("pl.tile.and_"); PrintAs may pick
	// one per call. Default: names starting "pld." print bare, others as "pl.<name>".
	PrintName string
	PrintAs   func(c *Call) string
	// ResultAlias names the argument whose storage the result is: a store
	// rebinds its output tensor, a collective its target, an in-place tile
	// op its tile. Empty when the result is a new value.
	ResultAlias string
	// MemRefFrom names the argument whose MemRef InitMemRef gives the
	// result, as upstream's registration says (set_output_memory_inherit_input
	// for views, set_output_reuses_input(i) for in-place ops): the result
	// lands in that argument's buffer. Empty: the result gets a MemRef of
	// its own, even where ResultAlias says it rebinds an argument (a
	// collective's target, a scalar write).
	MemRefFrom string
	// RetargetableMemory marks an op whose target_memory kwarg
	// InferTileMemorySpace may rewrite to the memory its result is used in
	// (upstream's HasRetargetableMemoryKwarg): a tile.create a matmul_acc
	// accumulates into is created in Acc.
	RetargetableMemory bool
	// ReadsAcc marks a tile op that takes a cube result in Acc memory as it
	// is (a cast is the fixpipe's conversion on the way out of Acc); other
	// vector ops read Vec, so ConvertTensorToTileOps moves an Acc operand
	// there first.
	ReadsAcc bool
	// Promotes marks a tensor op whose two operands may have different
	// element types, the result taking the promoted one (PromoteDTypes):
	// its lowering casts the narrower operand up, as the tile op takes one.
	Promotes bool
	// Broadcasts marks a binary tensor op whose operand shapes may differ
	// and broadcast as NumPy's do; ConvertTensorToTileOps lowers such a
	// pair through RowExpandForm, or reports that it cannot.
	Broadcasts bool
	// StoreUnit is the unit the op writes global memory through, "dma"
	// (MTE3) or "scalar"; a kernel must not mix the two on one tensor.
	StoreUnit string
	// Acquire marks an op after which a rank must see what peers published
	// before it (a signal wait): the caches need invalidating.
	Acquire bool
	// Deferred marks a wait that blocks nothing: it registers a completion
	// condition of the running task (pld.system.defer_wait), whose kernel
	// goes on and whose task completes once the condition holds. It
	// consumes no credits, so any number of tasks may wait on one
	// publication.
	Deferred bool
	// TileForm is the tile op ConvertTensorToTileOps lowers this tensor op to.
	TileForm *OpDef
	// TileScratch, with TileForm, is the scratch tile the lowering passes
	// as the tile form's last argument (a row reduction's tmp_tile, a
	// high-precision rsqrt's tmp), as upstream's conversion allocates it:
	// its name and shape for call c whose first operand became tile in.
	// ok is false when this call needs none.
	TileScratch func(c *Call, in *TileType) (name string, shape []Expr, ok bool)
	// KwargForms are the ops this op's spelling names when a call passes
	// the given keyword, as upstream's one DSL function dispatches on its
	// kwargs (pl.gather(x, mask_pattern=...) is tensor.gather_mask).
	KwargForms map[string]*OpDef
	// ScalarTileForm, with TileForm, is the tile op a call whose rhs is a
	// scalar lowers to (tensor.maximum(t, 2.0) is tile.maximums, as
	// upstream's conversion dispatches it).
	ScalarTileForm *OpDef
	// RowExpandForm, with TileForm, is the tile op a call broadcasting an
	// [M, 1] column against an [M, N] operand lowers to (tensor.sub(x, m)
	// is tile.row_expand_sub(x, m), as upstream's conversion detects it).
	// The tile op takes the wide operand first; RowExpandCommutes lets the
	// column be the lhs too (add and mul swap their operands).
	RowExpandForm     *OpDef
	RowExpandCommutes bool
	// PositionalKwarg names a kwarg the DSL spelling takes as its next
	// positional argument after the op's first one, as upstream's Python
	// signature does (pl.reinterpret_view(x, pl.INT32) is dtype=pl.INT32).
	PositionalKwarg string
	// ConstArgKwarg names the kwarg a compile-time integer given for the
	// first argument stands for (sync_set(4, ...) is event_id=4; a
	// runtime value stays the argument).
	ConstArgKwarg string
	// PipeRole is what the op does to a cross-core pipe (upstream's
	// CrossCoreRole): a push, a pop, a free or a setup; PipeNone for
	// every other op.
	PipeRole PipeRole
	// TypedByTarget marks an op whose result type the call cannot deduce
	// and takes from its binding's declared type (a tpop's tile, as
	// upstream's parser takes it from the annotation): see WithType.
	TypedByTarget bool
	// Class is what the op does to the machine (timeline, reports).
	Class OpClass
	// HostSafe marks an op a host orchestrator runs without first joining
	// the ranks it dispatched: it only sets up (windows, contexts, views)
	// and touches nothing they write.
	HostSafe bool
	// Collective is, for a host builtin, the device collective whose body
	// each device runs.
	Collective *OpDef
	// AliasOf is the op this one is another spelling of (tensor.get_block_idx
	// of tile.get_block_idx): a layer's behaviour it does not set is the
	// aliased op's (Facet), and ConvertTensorToTileOps calls the aliased op
	// in its place.
	AliasOf *OpDef

	mu     sync.RWMutex
	facets map[string]any
}

// SetFacet attaches a layer's behaviour (a PTO emitter, a simulator rule) to the op.
func (d *OpDef) SetFacet(key string, v any) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.facets == nil {
		d.facets = map[string]any{}
	}
	d.facets[key] = v
}

// Facet returns the behaviour a layer attached under key.
func (d *OpDef) Facet(key string) (any, bool) {
	d.mu.RLock()
	v, ok := d.facets[key]
	d.mu.RUnlock()
	if !ok && d.AliasOf != nil {
		return d.AliasOf.Facet(key)
	}
	return v, ok
}

// Kwarg finds a kwarg spec by name.
func (d *OpDef) Kwarg(name string) (KwargSpec, bool) {
	for _, k := range d.Kwargs {
		if k.Name == name {
			return k, true
		}
	}
	return KwargSpec{}, false
}

// nameOf is the name a PrintName kwarg's value prints as.
func (k KwargSpec) nameOf(v any) (string, bool) {
	n, isInt := v.(int64)
	if !k.PrintName || !isInt {
		return "", false
	}
	for name, x := range k.Names {
		if x == n {
			return name, true
		}
	}
	return "", false
}

// KwargDefault is the default of kwarg name (nil when it has none).
func (d *OpDef) KwargDefault(name string) any {
	k, _ := d.Kwarg(name)
	return k.Default
}

// Callee is the printed callee with the default "pl" prefix.
func (d *OpDef) Callee(c *Call) string { return d.calleeWith("pl", c) }

func (d *OpDef) calleeWith(prefix string, c *Call) string {
	name := d.PrintName
	if d.PrintAs != nil && c != nil {
		if n := d.PrintAs(c); n != "" {
			name = n
		}
	}
	if name == "" {
		if strings.HasPrefix(d.Name, "pld.") {
			return d.Name
		}
		return prefix + "." + d.Name
	}
	if strings.HasPrefix(name, "pl.") {
		return prefix + name[2:]
	}
	return name
}

// AliasedArg is the index of the ResultAlias argument, or -1.
func (d *OpDef) AliasedArg() int {
	if d == nil {
		return -1
	}
	return d.argIndex(d.ResultAlias)
}

// argIndex is the index of the argument named name, or -1.
func (d *OpDef) argIndex(name string) int {
	if name == "" {
		return -1
	}
	for i, a := range d.Args {
		if a.Name == name {
			return i
		}
	}
	return -1
}

// MemRefArg is the index of the MemRefFrom argument, or -1.
func (d *OpDef) MemRefArg() int {
	if d == nil {
		return -1
	}
	return d.argIndex(d.MemRefFrom)
}

// ArgSpecAt is the spec of positional argument i (a zero spec past the
// declared ones).
func (d *OpDef) ArgSpecAt(i int) ArgSpec {
	if d != nil && i >= 0 && i < len(d.Args) {
		return d.Args[i]
	}
	return ArgSpec{}
}

// KeywordOf is the keyword call argument i prints under, or "" when it
// prints positionally.
func (c *Call) KeywordOf(i int) string {
	if c.Op == nil {
		return ""
	}
	if c.Op.KeywordAt != nil {
		if name, ok := c.Op.KeywordAt(c, i); ok {
			return name
		}
		return ""
	}
	if s := c.Op.ArgSpecAt(i); s.Keyword {
		return s.Name
	}
	return ""
}

// typedConsts gives an integer constant in an argument with DTypeOf the
// type of that kwarg (copying args, which belong to the caller).
func (d *OpDef) typedConsts(args []Expr, kw Kwargs) []Expr {
	out, copied := args, false
	for i, a := range args {
		if i >= len(d.Args) || d.Args[i].DTypeOf == "" {
			continue
		}
		c, isConst := a.(*ConstInt)
		dt, hasDType := kw.DType(d.Args[i].DTypeOf)
		if !isConst || !hasDType || c.DType == dt {
			continue
		}
		if !copied {
			out, copied = append([]Expr(nil), args...), true
		}
		out[i] = &ConstInt{Value: c.Value, DType: dt, Pos: c.Pos}
	}
	return out
}

// ArgName names positional argument i for messages.
func (d *OpDef) ArgName(i int) string {
	if i < len(d.Args) {
		return d.Args[i].Name
	}
	return fmt.Sprintf("arg%d", i)
}

var (
	registryMu sync.RWMutex
	registry   = map[string]*OpDef{}
)

// RegisterOp adds an op to the registry. It panics on a duplicate name or an
// inconsistent entry: registration happens at init, so that is a programming error.
func RegisterOp(d *OpDef) *OpDef {
	if d.MinArgs == 0 && d.MaxArgs == 0 {
		d.MinArgs, d.MaxArgs = len(d.Args), len(d.Args)
	}
	if d.Deduce == nil {
		panic("ir: op " + d.Name + " has no type deducer")
	}
	if d.OutMemory == 0 {
		// MemDDR is never a stamped output space; treat zero as "none".
		d.OutMemory = MemNone
	}
	registryMu.Lock()
	defer registryMu.Unlock()
	if _, dup := registry[d.Name]; dup {
		panic("ir: op " + d.Name + " registered twice")
	}
	registry[d.Name] = d
	return d
}

// LookupOp finds an op by its IR name.
func LookupOp(name string) (*OpDef, bool) {
	registryMu.RLock()
	defer registryMu.RUnlock()
	d, ok := registry[name]
	return d, ok
}

// MustOp finds an op or panics; for ops this package registers itself.
func MustOp(name string) *OpDef {
	d, ok := LookupOp(name)
	if !ok {
		panic("ir: no op " + name)
	}
	return d
}

// Ops lists every registered op, sorted by name.
func Ops() []*OpDef {
	registryMu.RLock()
	defer registryMu.RUnlock()
	out := make([]*OpDef, 0, len(registry))
	for _, d := range registry {
		out = append(out, d)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// NewCall builds a call of a registered op, following upstream's
// OpRegistry::Create: look the op up, validate kwargs against its schema, run
// the deducer, stamp the output memory space. Errors are *TypeError (or a plain
// error for an unknown op) positioned at pos.
func NewCall(name string, args []Expr, kwargs Kwargs, pos Span) (*Call, error) {
	d, ok := LookupOp(name)
	if !ok {
		return nil, fmt.Errorf("Operator '%s' not found in registry", name)
	}
	return d.NewCall(args, kwargs, pos)
}

// NewCall builds a call of this op; see the package-level NewCall.
func (d *OpDef) NewCall(args []Expr, kwargs Kwargs, pos Span) (*Call, error) {
	fail := func(arg, expected, given string) error {
		return &TypeError{Op: d.Name, Arg: arg, Expected: expected, Given: given, Pos: pos}
	}
	if n := len(args); n < d.MinArgs || (d.MaxArgs >= 0 && n > d.MaxArgs) {
		return nil, fail("", arityText(d), fmt.Sprintf("%d", n))
	}
	for i, a := range args {
		if a == nil {
			return nil, fail(d.ArgName(i), "an expression", "nil")
		}
	}
	kw, err := d.checkKwargs(kwargs, pos)
	if err != nil {
		return nil, err
	}
	args = d.typedConsts(args, kw)
	t, err := d.Deduce(&DeduceCtx{Op: d, Args: args, Kwargs: kw, Pos: pos})
	if err != nil {
		if te, ok := err.(*TypeError); ok {
			return nil, te.WithPos(pos)
		}
		return nil, err
	}
	if tile, ok := t.(*TileType); ok && tile.Memory == MemNone && d.OutMemory != MemNone {
		c := *tile
		c.Memory = d.OutMemory
		t = &c
	}
	return &Call{Op: d, Args: args, Kwargs: kw, T: t, Pos: pos}, nil
}

// WithType gives a call of a TypedByTarget op the result type t its
// binding declares (a tile without a memory space takes the op's output
// memory). Other calls come back as they are: their type is deduced.
func (c *Call) WithType(t Type) (*Call, error) {
	if c.Op == nil || !c.Op.TypedByTarget {
		return c, nil
	}
	tt, ok := t.(*TileType)
	if !ok {
		return nil, &TypeError{Op: c.Op.Name, Expected: "a tile type for the tile it takes, such as pl.Tile[[M, N], pl.FP32]", Given: Describe(t), Pos: c.Pos}
	}
	if tt.Memory == MemNone && c.Op.OutMemory != MemNone {
		cp := *tt
		cp.Memory = c.Op.OutMemory
		tt = &cp
	}
	out := *c
	out.T = tt
	return &out, nil
}

// MustCall is NewCall for callers that built arguments known to be valid
// (passes re-creating ops); an error is a compiler bug and panics.
func MustCall(name string, args []Expr, kwargs Kwargs, pos Span) *Call {
	c, err := NewCall(name, args, kwargs, pos)
	if err != nil {
		panic(err)
	}
	return c
}

func arityText(d *OpDef) string {
	switch {
	case d.MaxArgs < 0:
		return fmt.Sprintf("at least %d positional arguments", d.MinArgs)
	case d.MinArgs == 0 && d.MaxArgs == 0:
		return "no positional arguments"
	case d.MinArgs == d.MaxArgs:
		names := make([]string, 0, len(d.Args))
		for _, a := range d.Args {
			names = append(names, a.Name)
		}
		return fmt.Sprintf("%d positional argument%s (%s)", d.MinArgs, plural(d.MinArgs), strings.Join(names, ", "))
	default:
		return fmt.Sprintf("%d to %d positional arguments", d.MinArgs, d.MaxArgs)
	}
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// checkKwargs validates kwargs against the schema, normalising Go ints to
// int64 and ints to DataType where the schema says so.
func (d *OpDef) checkKwargs(kwargs Kwargs, pos Span) (Kwargs, error) {
	out := make(Kwargs, 0, len(kwargs))
	for _, kv := range kwargs {
		spec, ok := d.Kwarg(kv.Key)
		if !ok {
			return nil, &TypeError{Op: d.Name, Kwarg: kv.Key, Expected: "one of " + kwNames(d), Given: fmt.Sprintf("unknown kwarg '%s'", kv.Key), Pos: pos}
		}
		val := kv.Value
		if name, isStr := val.(string); isStr && spec.Names != nil {
			n, known := spec.Names[name]
			if !known {
				return nil, &TypeError{Op: d.Name, Kwarg: kv.Key, Expected: "an int or one of " + NamesList(spec.Names), Given: fmt.Sprintf("%q", name), Pos: pos}
			}
			val = n
		}
		v, ok := coerceKwarg(spec.Kind, val)
		if !ok {
			return nil, &TypeError{Op: d.Name, Kwarg: kv.Key, Expected: spec.Kind.String(), Given: fmt.Sprintf("%v (%T)", kv.Value, kv.Value), Pos: pos}
		}
		if b, isBool := v.(bool); spec.OnlyTrue && isBool && !b {
			continue
		}
		out = append(out, Kwarg{kv.Key, v})
	}
	for _, spec := range d.Kwargs {
		if spec.Required && !out.Has(spec.Name) {
			return nil, &TypeError{Op: d.Name, Kwarg: spec.Name, Expected: "a value (required)", Given: "nothing", Pos: pos}
		}
	}
	return out, nil
}

// NamesList lists a kwarg's string spellings in the order of their
// numbers, quoted: "eq", "ne", ...
func NamesList(names map[string]int64) string {
	out := make([]string, 0, len(names))
	for k := range names {
		out = append(out, k)
	}
	sort.Slice(out, func(i, j int) bool { return names[out[i]] < names[out[j]] })
	for i, k := range out {
		out[i] = fmt.Sprintf("%q", k)
	}
	return strings.Join(out, ", ")
}

func kwNames(d *OpDef) string {
	if len(d.Kwargs) == 0 {
		return "no kwargs"
	}
	names := make([]string, len(d.Kwargs))
	for i, k := range d.Kwargs {
		names[i] = "'" + k.Name + "'"
	}
	return strings.Join(names, ", ")
}

func coerceKwarg(kind KwargKind, v any) (any, bool) {
	switch kind {
	case KwInt, KwAtomic:
		switch x := v.(type) {
		case int64:
			return x, true
		case int:
			return int64(x), true
		case int32:
			return int64(x), true
		case AtomicType:
			return int64(x), true
		case NotifyOp:
			return int64(x), true
		case WaitCmp:
			return int64(x), true
		case ReduceOp:
			return int64(x), true
		}
	case KwBool:
		b, ok := v.(bool)
		return b, ok
	case KwString:
		s, ok := v.(string)
		return s, ok
	case KwFloat:
		switch x := v.(type) {
		case float64:
			return x, true
		case float32:
			return float64(x), true
		case int:
			return float64(x), true
		}
	case KwDType:
		switch x := v.(type) {
		case DataType:
			return x, true
		case int:
			if DataType(x).Valid() {
				return DataType(x), true
			}
		case int64:
			if DataType(x).Valid() {
				return DataType(x), true
			}
		}
	case KwMemory:
		m, ok := v.(MemorySpace)
		return m, ok
	case KwPad:
		p, ok := v.(PadValue)
		return p, ok
	case KwTileLayout:
		l, ok := v.(TileLayout)
		return l, ok
	case KwTensorLayout:
		l, ok := v.(TensorLayout)
		return l, ok
	case KwPipe:
		switch x := v.(type) {
		case PipeType:
			return x, x >= PipeMTE1 && x <= PipeALL
		case int64:
			return PipeType(x), x >= int64(PipeMTE1) && x <= int64(PipeALL)
		}
	}
	return nil, false
}

// CallEffects returns the effect of c on each of its arguments.
func CallEffects(c *Call) []Effect {
	if c.Op == nil {
		return nil
	}
	if c.Op.Effects != nil {
		return c.Op.Effects(c.Args, c.Kwargs)
	}
	out := make([]Effect, len(c.Args))
	for i := range c.Args {
		if i < len(c.Op.Args) {
			out[i] = c.Op.Args[i].Effect
		} else {
			out[i] = Read
		}
	}
	return out
}
