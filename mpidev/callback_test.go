//go:build mpi

package mpidev_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/ptorepl/ptorepl/ir"
	"github.com/ptorepl/ptorepl/pl"
	"github.com/ptorepl/ptorepl/runtime"
	"github.com/ptorepl/ptorepl/tensor"
)

// callbackSource: every rank adds its rank to its row of x into f, then
// the host's SubWorker `summarize` (bound at run time) reads all of f and
// writes g.
const callbackSource = `
import pypto.language as pl
import pypto.language.distributed as pld

NR = pl.dynamic("NR")


@pl.program
class Summarized:
    @pl.function(type=pl.FunctionType.InCore)
    def bump(
        self,
        x: pl.Tensor[[1, 8], pl.FP32],
        y: pl.Out[pl.Tensor[[1, 8], pl.FP32]],
        me: pl.Scalar[pl.INT32],
    ) -> pl.Tensor[[1, 8], pl.FP32]:
        t = pl.load(x, [0, 0], [1, 8])
        t = pl.add(t, pl.cast(me, target_type=pl.FP32))
        return pl.store(t, [0, 0], y)

    @pl.function(type=pl.FunctionType.Orchestration)
    def per_device(
        self,
        x: pl.Tensor[[1, 8], pl.FP32],
        y: pl.Out[pl.Tensor[[1, 8], pl.FP32]],
        me: pl.Scalar[pl.INT32],
    ) -> pl.Tensor[[1, 8], pl.FP32]:
        return self.bump(x, y, me)

    @pl.function(level=pl.Level.HOST, role=pl.Role.SubWorker)
    def summarize(f: pl.Tensor[[NR, 1, 8], pl.FP32], g: pl.Out[pl.Tensor[[1, 2], pl.FP32]]):
        ...

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host(
        self,
        x: pl.Tensor[[NR, 1, 8], pl.FP32],
        f: pl.Out[pl.Tensor[[NR, 1, 8], pl.FP32]],
        g: pl.Out[pl.Tensor[[1, 2], pl.FP32]],
    ):
        for r in pl.range(pld.world_size()):
            self.per_device(x[r], f[r], r, device=r)
        self.summarize(f, g)
`

// A host callback runs on the MPI device as on the simulator: once per
// call (in the launching process, where the user's Go function lives),
// after every rank's writes reached the host, and what it writes comes
// back to every rank's host; its error or panic stops the run with the
// same text.
func TestHostCallbackOnMPI(t *testing.T) {
	mod, err := pl.ParsePythonNamed("summarized.py", callbackSource)
	if err != nil {
		t.Fatal(err)
	}
	prog, err := mod.Program("Summarized")
	if err != nil {
		t.Fatal(err)
	}
	d := device(t)
	for _, n := range []int{2, 3, 4} {
		for _, form := range []string{"written", "compiled"} {
			t.Run(fmt.Sprintf("P=%d/%s", n, form), func(t *testing.T) {
				p := prog.IR()
				if form == "compiled" {
					c, err := pl.CompileIR(p, pl.Ranks(n))
					if err != nil {
						t.Fatalf("compile: %v", err)
					}
					p = c.Final()
				}
				calls := 0
				opts := func(fail string) runtime.RunOptions {
					return runtime.RunOptions{Ranks: n, Callbacks: map[string]runtime.Callback{"summarize": func(a []*tensor.Tensor) error {
						calls++
						switch fail {
						case "error":
							return errors.New("the sums look wrong")
						case "panic":
							panic("the sums look wrong")
						}
						f, g := a[0], a[1]
						sum, rows := 0.0, 0
						for r := 0; r < n; r++ {
							for j := 0; j < 8; j++ {
								sum += f.At(r, 0, j)
							}
							if f.At(r, 0, 0) != 0 {
								rows++
							}
						}
						g.Set(sum, 0, 0)
						g.Set(float64(rows), 0, 1)
						return nil
					}}}
				}
				args := func() []*tensor.Tensor {
					return []*tensor.Tensor{tensor.Full(ir.FP32, 1, n, 1, 8), tensor.Zeros(ir.FP32, n, 1, 8), tensor.Zeros(ir.FP32, 1, 2)}
				}
				want, got := args(), args()
				if _, err := runtime.Default().Run(context.Background(), p, want, opts("")); err != nil {
					t.Fatalf("simulator: %v", err)
				}
				if _, err := d.Run(context.Background(), p, got, opts("")); err != nil {
					t.Fatalf("mpi: %v", err)
				}
				if calls != 2 {
					t.Errorf("the callback ran %d times in two runs, want once per run", calls)
				}
				// Every row is 1 + its rank: the callback saw all of them.
				wantSum := float64(8 * (n + n*(n-1)/2))
				if g := got[2]; g.At(0, 0) != wantSum || g.At(0, 1) != float64(n) {
					t.Errorf("mpi: the callback wrote %v, want [%v %d]", g, wantSum, n)
				}
				for i := range want {
					if string(want[i].Bytes()) != string(got[i].Bytes()) {
						t.Errorf("host tensor %d differs\nsim: %v\nmpi: %v", i, want[i], got[i])
					}
				}
				for fail, msg := range map[string]string{"error": "host callback summarize: the sums look wrong", "panic": "host callback summarize: panic: the sums look wrong"} {
					_, serr := runtime.Default().Run(context.Background(), p, args(), opts(fail))
					_, merr := d.Run(context.Background(), p, args(), opts(fail))
					if serr == nil || merr == nil || !strings.Contains(merr.Error(), msg) {
						t.Fatalf("a callback's %s: simulator %v, mpi %v", fail, serr, merr)
					}
					if serr.Error() != merr.Error() {
						t.Errorf("a callback's %s differs\nsim: %v\nmpi: %v", fail, serr, merr)
					}
				}
			})
		}
	}
}
