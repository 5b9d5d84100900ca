package pl_test

import (
	"fmt"
	"strings"

	"github.com/ptorepl/ptorepl/pl"
)

// printedCalls prints the lines of prog's printed form that call op.
func printedCalls(prog *pl.Program, op string) {
	for _, line := range strings.Split(prog.String(), "\n") {
		if strings.Contains(line, op+"(") {
			fmt.Println(strings.TrimSpace(line))
		}
	}
}

func ExampleMgatherMat() {
	prog := pl.NewProgram("MatGather")
	prog.InCore("kernel", func(f *pl.Func) {
		table := f.In("table", pl.Tensor(pl.Dims(64, 16), pl.FP32))
		picks := f.In("picks", pl.Tensor(pl.Dims(1, 16), pl.INT32))
		flat := f.In("flat", pl.Tensor(pl.Dims(1024), pl.FP32))
		where := f.In("where", pl.Tensor(pl.Dims(16, 16), pl.INT32))
		scratch := f.InOut("scratch", pl.Tensor(pl.Dims(256), pl.FP32))
		f.Let("rows", pl.MgatherMat(table, picks, nil, "row", "wrap", pl.Dims(12, 16)))
		f.Let("elems", pl.MgatherMat(flat, where, scratch, "elem", "", nil))
	})
	printedCalls(prog, "pl.tile.mgather")
	// Output:
	// rows: pl.Tile[[16, 16], pl.FP32, pl.Mem.Mat, pl.TileView(valid_shape=[12, 16])] = pl.tile.mgather(table, picks, valid_shape=[12, 16], coalesce=0, gather_oob=2, target_memory=pl.Mem.Mat)
	// elems: pl.Tile[[16, 16], pl.FP32, pl.Mem.Mat] = pl.tile.mgather(flat, where, scratch=scratch, coalesce=1, target_memory=pl.Mem.Mat)
}

func ExampleRowExpandAddTmp() {
	prog := pl.NewProgram("RowAdd")
	prog.InCore("kernel", func(f *pl.Func) {
		x := f.In("x", pl.Tensor(pl.Dims(16, 32), pl.FP32))
		packed := f.In("packed", pl.Tensor(pl.Dims(16, 8), pl.FP32))
		t := f.Let("t", pl.Load(x, pl.Dims(0, 0), pl.Dims(16, 32)))
		p := f.Let("p", pl.Load(packed, pl.Dims(0, 0), pl.Dims(16, 8)))
		tmp := f.Let("tmp", pl.CreateTile(pl.Dims(16, 32), pl.FP32))
		f.Let("sum", pl.RowExpandAdd(t, p))
		f.Let("sum2", pl.RowExpandAddTmp(t, p, tmp))
	})
	printedCalls(prog, "pl.tile.row_expand_add")
	// Output:
	// sum: pl.Tile[[16, 32], pl.FP32, pl.Mem.Vec] = pl.tile.row_expand_add(t, p)
	// sum2: pl.Tile[[16, 32], pl.FP32, pl.Mem.Vec] = pl.tile.row_expand_add(t, p, tmp)
}
