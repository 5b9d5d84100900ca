package pl_test

import (
	"strings"
	"testing"

	"github.com/ptorepl/ptorepl/pl"
)

// TestDynamicOneNameOneVariable: pl.Dynamic called twice with one name
// gives one dimension, so a program using both prints one declaration
// (and reads back as itself).
func TestDynamicOneNameOneVariable(t *testing.T) {
	a, b := pl.Dynamic("DYN_ONCE"), pl.Dynamic("DYN_ONCE")
	if a != b {
		t.Fatalf("pl.Dynamic(%q) twice gave two variables", "DYN_ONCE")
	}
	if pl.Dynamic("DYN_OTHER") == a {
		t.Fatal("two names gave one variable")
	}
	prog := pl.NewProgram("Dyn")
	prog.InCore("k", func(f *pl.Func) {
		f.In("x", pl.Tensor(pl.Dims(a, 4), pl.FP32))
		f.In("y", pl.Tensor(pl.Dims(b, 4), pl.FP32))
	})
	text := prog.String()
	if n := strings.Count(text, `DYN_ONCE = pl.dynamic("DYN_ONCE")`); n != 1 {
		t.Fatalf("the program declares DYN_ONCE %d times, want once:\n%s", n, text)
	}
}
