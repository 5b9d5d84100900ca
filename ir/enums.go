package ir

import "fmt"

// enumName returns names[v] or a numeric fallback.
func enumName(kind string, names []string, v int) string {
	if v >= 0 && v < len(names) && names[v] != "" {
		return names[v]
	}
	return fmt.Sprintf("%s(%d)", kind, v)
}

// MemorySpace is where a tile lives (upstream MemorySpace).
type MemorySpace int

// Memory spaces. MemNone marks a tile whose space is not resolved yet.
const (
	MemNone       MemorySpace = -1
	MemDDR        MemorySpace = 0
	MemVec        MemorySpace = 1
	MemMat        MemorySpace = 2
	MemLeft       MemorySpace = 3
	MemRight      MemorySpace = 4
	MemAcc        MemorySpace = 5
	MemBias       MemorySpace = 6
	MemScalarLoc  MemorySpace = 7
	MemLeftScale  MemorySpace = 8
	MemRightScale MemorySpace = 9
)

var memNames = []string{"DDR", "Vec", "Mat", "Left", "Right", "Acc", "Bias", "ScalarLocal", "LeftScale", "RightScale"}

// Name is the upstream enumerator name ("Vec").
func (m MemorySpace) Name() string { return enumName("MemorySpace", memNames, int(m)) }

// String is the printed form ("pl.Mem.Vec").
func (m MemorySpace) String() string { return "pl.Mem." + m.Name() }

// Lower is the lower-case name used in generated names ("vec" in mem_vec_0).
func (m MemorySpace) Lower() string {
	n := m.Name()
	out := []byte(n)
	for i, c := range out {
		if c >= 'A' && c <= 'Z' {
			out[i] = c + 32
		}
	}
	return string(out)
}

// TileLayout is a tile's block or scatter layout.
type TileLayout int

// Tile layouts.
const (
	NoneBox TileLayout = iota
	RowMajor
	ColMajor
)

var tileLayoutNames = []string{"none_box", "row_major", "col_major"}

// Name is the upstream spelling.
func (l TileLayout) Name() string { return enumName("TileLayout", tileLayoutNames, int(l)) }

// String is the printed form ("pl.TileLayout.row_major").
func (l TileLayout) String() string { return "pl.TileLayout." + l.Name() }

// TensorLayout is a GM tensor layout.
type TensorLayout int

// Tensor layouts.
const (
	LayoutND TensorLayout = iota
	LayoutDN
	LayoutNZ
	LayoutMXAZZ
	LayoutMXBNN
)

var tensorLayoutNames = []string{"ND", "DN", "NZ", "MX_A_ZZ", "MX_B_NN"}

// Name is the upstream spelling.
func (l TensorLayout) Name() string { return enumName("TensorLayout", tensorLayoutNames, int(l)) }

// String is the printed form ("pl.TensorLayout.ND").
func (l TensorLayout) String() string { return "pl.TensorLayout." + l.Name() }

// PipeType names a core's pipeline (upstream's PipeType), for explicit
// synchronisation between pipes and cores.
type PipeType int

// Pipes: the memory-transfer engines, the matrix, vector and scalar units,
// the fixpipe, and all of them.
const (
	PipeMTE1 PipeType = iota
	PipeMTE2
	PipeMTE3
	PipeM
	PipeV
	PipeS
	PipeFIX
	PipeALL
)

var pipeNames = []string{"MTE1", "MTE2", "MTE3", "M", "V", "S", "FIX", "ALL"}

// Name is the upstream spelling.
func (p PipeType) Name() string { return enumName("PipeType", pipeNames, int(p)) }

// String is the printed form ("pl.PipeType.MTE2").
func (p PipeType) String() string { return "pl.PipeType." + p.Name() }

// PadValue fills the invalid region of a tile.
type PadValue int

// Pad values; PadNull means "no padding".
const (
	PadNull PadValue = iota
	PadZero
	PadMax
	PadMin
)

var padNames = []string{"null", "zero", "max", "min"}

// Name is the upstream spelling.
func (p PadValue) Name() string { return enumName("PadValue", padNames, int(p)) }

// String is the printed form ("pl.PadValue.zero").
func (p PadValue) String() string { return "pl.PadValue." + p.Name() }

// ParamDirection is a function parameter's direction.
type ParamDirection int

// Parameter directions.
const (
	In ParamDirection = iota
	Out
	InOut
)

var dirNames = []string{"In", "Out", "InOut"}

func (d ParamDirection) String() string { return enumName("ParamDirection", dirNames, int(d)) }

// ArgDirection is a call-site argument direction (attrs["arg_directions"]).
type ArgDirection int

// Call-site argument directions.
const (
	ArgInput ArgDirection = iota
	ArgOutput
	ArgInOut
	ArgOutputExisting
	ArgNoDep
	ArgScalar
)

var argDirNames = []string{"input", "output", "inout", "output_existing", "no_dep", "scalar"}

// Name is the printed name ("output_existing").
func (d ArgDirection) Name() string { return enumName("ArgDirection", argDirNames, int(d)) }

// String is the printed form ("pl.adir.input").
func (d ArgDirection) String() string { return "pl.adir." + d.Name() }

// FunctionType is a function's kind.
type FunctionType int

// Function types.
const (
	Opaque FunctionType = iota
	Orchestration
	InCore
	AIC
	AIV
	Group
	Spmd
	Inline
	Graph
)

var funcTypeNames = []string{"Opaque", "Orchestration", "InCore", "AIC", "AIV", "Group", "Spmd", "Inline", "Graph"}

func (t FunctionType) String() string { return enumName("FunctionType", funcTypeNames, int(t)) }

// Level is a function's hierarchy level. LevelNone means "not given".
type Level int

// Levels.
const (
	LevelNone      Level = -1
	LevelAIV       Level = 0
	LevelAIC       Level = 1
	LevelCoreGroup Level = 2
	LevelChipDie   Level = 3
	LevelChip      Level = 4
	LevelHost      Level = 5
	LevelCluster0  Level = 6
	LevelCluster1  Level = 7
	LevelCluster2  Level = 8
	LevelGlobal    Level = 9
	LevelUndefined Level = 255
)

var levelNames = []string{"AIV", "AIC", "CORE_GROUP", "CHIP_DIE", "CHIP", "HOST", "CLUSTER_0", "CLUSTER_1", "CLUSTER_2", "GLOBAL"}

func (l Level) String() string {
	if l == LevelUndefined {
		return "UNDEFINED"
	}
	return enumName("Level", levelNames, int(l))
}

// Role is a function's role. RoleNone means "not given".
type Role int

// Roles.
const (
	RoleNone     Role = -1
	Orchestrator Role = 0
	SubWorker    Role = 1
)

var roleNames = []string{"Orchestrator", "SubWorker"}

func (r Role) String() string { return enumName("Role", roleNames, int(r)) }

// LoopKind is a for loop's kind.
type LoopKind int

// Loop kinds.
const (
	Sequential LoopKind = iota
	Parallel
	Unroll
	Pipeline
)

var loopKindNames = []string{"range", "parallel", "unroll", "pipeline"}

// DSLName is the pl.* spelling of the loop ("range").
func (k LoopKind) DSLName() string { return enumName("LoopKind", loopKindNames, int(k)) }

func (k LoopKind) String() string {
	return enumName("LoopKind", []string{"Sequential", "Parallel", "Unroll", "Pipeline"}, int(k))
}

// Comm enums: their integer values are an append-only ABI stored in int kwargs.

// NotifyOp selects how a notify updates a signal cell.
type NotifyOp int

// Notify operations.
const (
	NotifyAtomicAdd NotifyOp = 0
	NotifySet       NotifyOp = 1
)

func (o NotifyOp) String() string { return enumName("NotifyOp", []string{"AtomicAdd", "Set"}, int(o)) }

// WaitCmp is the comparison a wait blocks on.
type WaitCmp int

// Wait comparisons.
const (
	WaitEq WaitCmp = 0
	WaitGe WaitCmp = 1
)

func (c WaitCmp) String() string { return enumName("WaitCmp", []string{"Eq", "Ge"}, int(c)) }

// AtomicType is the atomic mode of a store.
type AtomicType int

// Atomic types.
const (
	AtomicNone AtomicType = 0
	AtomicAdd  AtomicType = 1
)

func (a AtomicType) String() string {
	return enumName("AtomicType", []string{"pl.AtomicType.None_", "pl.AtomicType.Add"}, int(a))
}

// ReduceOp is a collective's reduction.
type ReduceOp int

// Reduce operations.
const (
	ReduceSum  ReduceOp = 0
	ReduceMax  ReduceOp = 1
	ReduceMin  ReduceOp = 2
	ReduceProd ReduceOp = 3
)

func (o ReduceOp) String() string {
	return enumName("ReduceOp", []string{"Sum", "Max", "Min", "Prod"}, int(o))
}

// Effect is what an op does to one of its arguments.
type Effect int

// Argument effects.
const (
	Read Effect = iota
	Write
	ReadWrite
	NoAccess
)

func (e Effect) String() string {
	return enumName("Effect", []string{"Read", "Write", "ReadWrite", "NoAccess"}, int(e))
}

// Reads reports whether the effect reads the argument.
func (e Effect) Reads() bool { return e == Read || e == ReadWrite }

// Writes reports whether the effect writes the argument.
func (e Effect) Writes() bool { return e == Write || e == ReadWrite }
