//go:build cgo

package pyfront_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/ptorepl/ptorepl/pyfront"
)

// TestSplitParse: a file parsed in two halves and joined gives exactly
// the nodes of the whole parse (kinds, fields, positions, shape), at many
// split lines of the benchmark's program, the pass goldens and the
// authoring files; and the big program does split.
func TestSplitParse(t *testing.T) {
	_, big := bigText(t)
	files := map[string][]byte{"big.py": []byte(big)}
	for _, pat := range []string{"../passes/testdata/*.stages.py", "testdata/authoring/*.py", "../printer/testdata/*.py"} {
		names, _ := filepath.Glob(pat)
		for _, n := range names {
			b, err := os.ReadFile(n)
			if err != nil {
				t.Fatal(err)
			}
			files[n] = b
		}
	}
	for name, src := range files {
		tried, joined, err := pyfront.SplitAgrees(src, 16)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		t.Logf("%s: %d split lines tried, %d joined", name, tried, joined)
		if name == "big.py" && joined < tried/2 {
			t.Fatalf("big.py: only %d of %d split lines joined", joined, tried)
		}
	}
}

// TestSplitAfterAmbiguousLine: tree-sitter reads a starred `*a.b` as
// list_splat(a.b) at the end of the input but as attribute(list_splat(a),
// b) before another statement, so no split may end its first half on a
// line holding one (a fuzzer's find: the first case).
func TestSplitAfterAmbiguousLine(t *testing.T) {
	for _, line := range []string{"*A0.A00", "A = *b.c", "await *A.b", "A = yield *b.c", "A = **b.c", "A = *b.c, d"} {
		for _, src := range []string{
			"@pl.jit\ndef gather_sum(A:A.A):\n" + line + "\nd#0000000000000000000000000000000000000000000000000000000000000",
			"x = 1\n" + line + "\nd = 1\n",
		} {
			if _, _, err := pyfront.SplitAgrees([]byte(src), 3); err != nil {
				t.Errorf("%q: %v", src, err)
			}
		}
	}
}
