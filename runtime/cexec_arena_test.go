package runtime_test

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/ptorepl/ptorepl/checker"
	"github.com/ptorepl/ptorepl/ir"
	"github.com/ptorepl/ptorepl/pl"
	"github.com/ptorepl/ptorepl/pld"
	"github.com/ptorepl/ptorepl/tensor"
)

// The simulated on-chip buffer: after AllocateMemoryAddr every FP32 vector
// tile lives at its planned address, so an address plan that gives two live
// tiles overlapping bytes corrupts the result as it would on the device,
// and the checker names both tiles with the lines that defined them.

// twoRowSum is y = x[0, :] + x[1, :] per rank through two tiles a and b.
func twoRowSum() *pl.Program {
	const W = 64
	NR := pl.Dynamic("NR")
	prog := pl.NewProgram("TwoRowSum")
	k := prog.InCore("kernel", func(f *pl.Func) {
		x := f.In("x", pl.Tensor(pl.Dims(2, W), pl.FP32))
		y := f.Out("y", pl.Tensor(pl.Dims(1, W), pl.FP32))
		a := f.Let("a", pl.Load(x, pl.Dims(0, 0), pl.Dims(1, W)))
		b := f.Let("b", pl.Load(x, pl.Dims(1, 0), pl.Dims(1, W)))
		f.Set(y, pl.Store(f.Let("c", pl.Add(a, b)), pl.Dims(0, 0), y))
	})
	prog.Host("host", func(f *pl.Func) {
		x := f.In("x", pl.Tensor(pl.Dims(NR, 2, W), pl.FP32))
		y := f.Out("y", pl.Tensor(pl.Dims(NR, 1, W), pl.FP32))
		f.For("r", pl.Range(pld.WorldSize()), func(r pl.Expr) {
			f.Do(f.Dispatch(k, r, pl.Index(x, r), pl.Index(y, r)))
		})
	})
	return prog
}

// assignOf finds the assignment defining name in the program.
func assignOf(t *testing.T, p *ir.Program, name string) *ir.AssignStmt {
	t.Helper()
	var found *ir.AssignStmt
	for _, f := range p.Functions {
		ir.WalkStmt(f.Body, nil, func(s ir.Stmt) {
			if a, ok := s.(*ir.AssignStmt); ok && a.Var.Name == name {
				found = a
			}
		})
	}
	if found == nil {
		t.Fatalf("no assignment of %s", name)
	}
	return found
}

func placedAt(t *testing.T, a *ir.AssignStmt) (*ir.TileType, int64) {
	t.Helper()
	tt, ok := a.Var.Type().(*ir.TileType)
	if !ok || tt.MemRef == nil {
		t.Fatalf("%s is not a tile with a MemRef: %v", a.Var.Name, a.Var.Type())
	}
	off, ok := ir.ConstValue(tt.MemRef.ByteOffset)
	if !ok || off < 0 {
		t.Fatalf("%s has no planned address", a.Var.Name)
	}
	return tt, off
}

func TestWrongAddressPlanCorruptsAndIsReported(t *testing.T) {
	const n, W = 2, 64
	x := tensor.Randn(5, n, 2, W)
	want := tensor.Zeros(ir.FP32, n, 1, W)
	twice := tensor.Zeros(ir.FP32, n, 1, W) // what a clobbered a gives: b + b
	xv, wv, tv := x.ViewFloat32(), want.ViewFloat32(), twice.ViewFloat32()
	for r := 0; r < n; r++ {
		for j := 0; j < W; j++ {
			wv[r*W+j] = xv[r*2*W+j] + xv[r*2*W+W+j]
			tv[r*W+j] = xv[r*2*W+W+j] + xv[r*2*W+W+j]
		}
	}
	run := func(p *ir.Program) (*tensor.Tensor, *checker.Report) {
		y := tensor.Zeros(ir.FP32, n, 1, W)
		_, rep, err := checker.Run(context.Background(), p, []*tensor.Tensor{x, y}, checker.Options{Ranks: n})
		if err != nil {
			t.Fatal(err)
		}
		return y, rep
	}

	c, err := pl.TryCompile(twoRowSum(), pl.Ranks(n))
	if err != nil {
		t.Fatal(err)
	}
	final := c.Final()
	defA, defB := assignOf(t, final, "a"), assignOf(t, final, "b")
	_, offA := placedAt(t, defA)
	ttB, offB := placedAt(t, defB)
	if offA == offB {
		t.Fatalf("AllocateMemoryAddr gave a and b one address (%d)", offA)
	}

	// The planner's own plan: the right sum, no finding.
	y, rep := run(final)
	if !bytes.Equal(y.Bytes(), want.Bytes()) {
		t.Fatalf("with the planner's addresses y = %s, want %s", y, want)
	}
	if got := rep.Of(checker.KindTileOverlap); len(got) != 0 {
		t.Fatalf("a correct plan reported overlaps: %v", got)
	}

	// The wrong plan: b at a's address while a is still to be read.
	wrong := *ttB
	wrong.MemRef = ir.NewMemRef(ttB.MemRef.Base, ir.Int(offA), ttB.MemRef.Size, ttB.MemRef.Pos)
	defB.Var.T = &wrong
	y, rep = run(final)
	if bytes.Equal(y.Bytes(), want.Bytes()) {
		t.Fatal("the overlapping plan did not change the result")
	}
	if !bytes.Equal(y.Bytes(), twice.Bytes()) {
		t.Fatalf("with b over a, y = %s, want b + b = %s", y, twice)
	}
	got := rep.Of(checker.KindTileOverlap)
	if len(got) != 1 {
		t.Fatalf("want one tile-overlap finding, got %d:\n%s", len(got), rep)
	}
	text := got[0].String()
	for _, frag := range []string{"tiles a and b overlap", "a (defined at " + defA.Pos.String(), "b (defined at " + defB.Pos.String()} {
		if !strings.Contains(text, frag) {
			t.Errorf("the finding does not say %q:\n%s", frag, text)
		}
	}
	if !defA.Pos.Known() || !strings.Contains(defA.Pos.String(), "cexec_arena_test.go") {
		t.Errorf("a's definition is not positioned in this file: %q", defA.Pos)
	}
	t.Log(text)
}
