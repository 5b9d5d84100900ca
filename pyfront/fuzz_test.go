//go:build cgo

package pyfront_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ptorepl/ptorepl/printer"
	"github.com/ptorepl/ptorepl/pyfront"
)

// FuzzParse: any input either reads or fails with a positioned message;
// no panic, no hang, no reader bug ("internal error"). What reads prints,
// and the print reads back.
func FuzzParse(f *testing.F) {
	seeds, _ := filepath.Glob("testdata/authoring/*.py")
	tests, _ := filepath.Glob("testdata/pytests/test_*.py") // parametrize marks, hooks, cases
	seeds = append(seeds, tests...)
	for _, s := range seeds {
		if b, err := os.ReadFile(s); err == nil {
			f.Add(string(b))
		}
	}
	if b, err := os.ReadFile("../passes/testdata/quickstart.stages.py"); err == nil {
		for _, st := range stages(string(b)) {
			f.Add(st[1])
		}
	}
	for _, c := range badInputs {
		f.Add(c.src)
	}
	f.Fuzz(func(t *testing.T, src string) {
		// A split parse joins into the whole parse's tree, or falls back.
		if _, _, err := pyfront.SplitAgrees([]byte(src), 3); err != nil {
			t.Fatalf("split parse: %v", err)
		}
		mod, err := pyfront.Parse("fuzz.py", []byte(src))
		if err != nil {
			if strings.Contains(err.Error(), "internal error") {
				t.Fatalf("reader bug: %v", err)
			}
			return
		}
		for _, n := range append(mod.Names(), mod.Tests()...) {
			if mod.IsFactory(n) {
				continue
			}
			p, err := mod.Program(n)
			if err != nil {
				// An entry that cannot be built fails alone, with a
				// positioned message.
				if strings.Contains(err.Error(), "internal error") {
					t.Fatalf("reader bug: %v", err)
				}
				continue
			}
			text := printer.Program(p)
			if _, err := pyfront.Parse("again.py", []byte(text)); err != nil && strings.Contains(err.Error(), "internal error") {
				t.Fatalf("reader bug on printed text: %v\n%s", err, text)
			}
		}
	})
}
