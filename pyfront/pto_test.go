//go:build cgo

package pyfront_test

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ptorepl/ptorepl/internal/mlirtool"
	"github.com/ptorepl/ptorepl/ir"
	"github.com/ptorepl/ptorepl/passes"
	"github.com/ptorepl/ptorepl/pl"
	"github.com/ptorepl/ptorepl/pto"
	"github.com/ptorepl/ptorepl/testprogs"
)

// TestScalarElementPTO: pl.read / pl.write on GM tensors (upstream's
// barrier example surfaces its signal row so) lower to pto.load_scalar and
// pto.store_scalar, and the generic form verifies with mlir-opt.
func TestScalarElementPTO(t *testing.T) {
	mod, err := pl.LoadPython(filepath.Join("testdata", "authoring", "ring.py"))
	if err != nil {
		t.Fatal(err)
	}
	prog, err := mod.Program("arrivals")
	if err != nil {
		t.Fatal(err)
	}
	lowered, err := passes.Lower(prog.IR())
	if err != nil {
		t.Fatal(err)
	}
	for _, generic := range []bool{false, true} {
		mods, err := pto.Emit(lowered, pto.Options{Generic: generic})
		if err != nil {
			t.Fatal(err)
		}
		var all strings.Builder
		for _, m := range mods {
			all.WriteString(m.Text)
		}
		text := all.String()
		if !generic {
			for _, want := range []string{"pto.load_scalar %arg1[", "pto.store_scalar %v, %arg0["} {
				if !strings.Contains(text, want) {
					t.Fatalf("missing %q in\n%s", want, text)
				}
			}
			continue
		}
		bin, ok := mlirtool.Opt()
		if !ok {
			t.Fatal(mlirtool.Missing)
		}
		if err := mlirtool.Verify(bin, text); err != nil {
			t.Fatalf("%v\n%s", err, text)
		}
	}
}

// TestRegionAndAllToAllVPTO: the kernels of slices.py (slices become
// region loads, assembles region stores) and the lowered all_to_all_v (a
// scalar count read, a Set notify, a static [MAX_RECV, SIZE] put) emit PTO
// whose generic form verifies with mlir-opt.
func TestRegionAndAllToAllVPTO(t *testing.T) {
	mod, err := pl.LoadPython(filepath.Join("testdata", "authoring", "slices.py"))
	if err != nil {
		t.Fatal(err)
	}
	progs := map[string]*ir.Program{"AllToAllV": testprogs.AllToAllV(4, 3).IR()}
	for _, name := range mod.Names() {
		p, err := mod.Program(name)
		if err != nil {
			t.Fatal(err)
		}
		progs[name] = p.IR()
	}
	// The unary, row, column and cube emitters too.
	jit, err := pl.LoadPython(filepath.Join("testdata", "authoring", "jit_samples.py"))
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"activations", "row_softmax", "col_ops", "split_k", "swap_halves", "plus_quarter", "plus_half"} {
		p, err := jit.Program(name)
		if err != nil {
			t.Fatal(err)
		}
		progs[name] = p.IR()
	}
	// The element, array, scatter, partial-combine, sort, compare and
	// random emitters.
	for file, names := range map[string][]string{"tile_elements.py": {"TileElements"}, "local_array.py": {"Histogram"},
		"mscatter.py": {"Mscatter"}, "part_ops.py": {"PartOps"}, "valid_shapes.py": {"RuntimePrefix"}, "sort.py": {"SortRow"}, "compare.py": {"Compare", "TensorCompare"}, "random.py": {"RandomTiles", "RandomTensor"}, "reinterpret.py": {"Reinterpret", "ReinterpretTensor"}, "init_cond.py": {"InitCond", "InitCondCreate", "InitCondTensor"},
		"vec_into_cube.py": {"VecIntoCube", "CubeRoundTrip", "TileOperands"}, "gather.py": {"GatherRows", "GatherLocal", "GatherMiddle", "GatherFirst"}, "gather_compare.py": {"Thresholds"},
		"gather_row.py": {"GatherRowValid", "GatherRowLoop", "PagedGatherMat", "PagedGatherVec"}, "tile_subscript.py": {"TileSubscript"},
		"split_aiv.py": {"ShardRows", "GatherBack", "shard_columns", "lanes_by_index"},
		"syncall.py":   {"SyncAllRotate", "SyncAllSoft"}, "crosscore_sync.py": {"lanes_then_cube"}, "pipes.py": {"TwoPipes", "Broadcast"}, "memref_slots.py": {"PingPong"},
		"bitwise.py": {"BitwiseTiles", "BitwiseTensors", "ScalarTiles", "TensorScalarMax"}, "select_ops.py": {"SelectOps", "Triangles"}, "control_flow.py": {"ControlFlow", "Search", "TensorCarry"}, "gemv.py": {"Gemv"}, "extract.py": {"Extract"}, "broadcast.py": {"RowBroadcast"}, "batch_matmul.py": {"BatchTiles", "SharedWeights", "BatchSplitK", "BatchTilesAcc"}, "trig.py": {"Trig"}, "mgather.py": {"Mgather"}, "gatherb.py": {"Gatherb"}, "gather_nd.py": {"GatherND"}, "precision.py": {"TilePrecision", "TensorPrecision"}, "matmul_valid.py": {"ValidProducts"}, "mgather_mat.py": {"MatGather"}, "sels_carrier.py": {"SelsCarrier"}, "row_expand_packed.py": {"PackedRowAdd"}, "prefetch.py": {"WarmThenScale", "OtherSession"}, "ragged_tail.py": {"ragged_tail"}, "load_layouts.py": {"ColumnScale", "RowTimesMatrix"}} {
		m, err := pl.LoadPython(filepath.Join("testdata", "authoring", file))
		if err != nil {
			t.Fatal(err)
		}
		for _, name := range names {
			p, err := m.Program(name)
			if err != nil {
				t.Fatal(err)
			}
			progs[name] = p.IR()
		}
	}
	// A split-over-files model: split-K accumulators carried in Acc tiles
	// through scf.for and scf.if.
	splitk, err := pl.LoadPython(filepath.Join("testdata", "authoring", "splitk", "model.py"))
	if err != nil {
		t.Fatal(err)
	}
	if p, err := splitk.Program("model"); err != nil {
		t.Fatal(err)
	} else {
		progs["splitk"] = p.IR()
	}
	// tensor.expand_clone along each dimension and none.
	expand, err := pl.LoadPython(filepath.Join("testdata", "authoring", "expand_clone.py"))
	if err != nil {
		t.Fatal(err)
	}
	for _, dim := range []int{-1, 0, 1, 2} {
		p, err := expand.Call("build_expand", 3, 4, 16, dim)
		if err != nil {
			t.Fatal(err)
		}
		progs[fmt.Sprintf("expand_clone(%d)", dim)] = p.IR()
	}
	bin, ok := mlirtool.Opt()
	if !ok {
		t.Fatal(mlirtool.Missing)
	}
	for name, p := range progs {
		lowered, err := passes.Lower(p)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		mods, err := pto.Emit(lowered, pto.Options{Generic: true})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		for _, m := range mods {
			if err := mlirtool.Verify(bin, m.Text); err != nil {
				t.Fatalf("%s: %v\n%s", name, err, m.Text)
			}
		}
	}
}
