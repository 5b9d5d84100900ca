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

// TestSplitAfterAmbiguousLine: tree-sitter reads `*A0.A00` as
// list_splat(A0.A00) at the end of the input but as
// attribute(list_splat(A0), A00) before another statement, so no split may
// end its first half on such a line (a fuzzer's find).
func TestSplitAfterAmbiguousLine(t *testing.T) {
	src := []byte("@pl.jit\ndef gather_sum(A:A.A):\n*A0.A00\nd#0000000000000000000000000000000000000000000000000000000000000")
	if _, _, err := pyfront.SplitAgrees(src, 3); err != nil {
		t.Fatal(err)
	}
}
