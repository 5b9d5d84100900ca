package pl_test

import (
	"fmt"

	"github.com/ptorepl/ptorepl/ir"
	"github.com/ptorepl/ptorepl/pl"
	"github.com/ptorepl/ptorepl/tensor"
	"github.com/ptorepl/ptorepl/testprogs"
)

// The device is one option of the run: pl.Simulator() is the default,
// pl.MPI() runs every rank as a process under mpirun (in a build with
// -tags mpi; otherwise the run says how to get one).
func ExampleRunOption_On() {
	prog := testprogs.Quickstart()
	x := tensor.Ones(ir.FP32, 2, 1, 256)
	y := tensor.Zeros(ir.FP32, 2, 1, 256)
	res, err := pl.Run(prog, pl.Ranks(2).On(pl.Simulator()), x, y)
	fmt.Println(res.Status(), err, y.At(1, 0, 0))
	_, err = pl.Run(prog, pl.Ranks(2).On(pl.DeviceNamed("npu")), x, y)
	fmt.Println(err != nil)
	// Output:
	// finished <nil> 2
	// true
}
