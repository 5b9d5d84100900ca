//go:build cgo

package interp

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ptorepl/ptorepl/ir"
	"github.com/ptorepl/ptorepl/pl"
)

// FuzzPythonPipeline: whatever PyPTO Python reads, the whole pipeline takes
// without a crash: every program it holds compiles at two ranks (or says
// why not), generates PTO and its manifest, and runs on the simulator, as
// written and compiled, to an answer, a reported deadlock or a clear error.
// A recovered panic ("internal error", "simulator failure") is a bug, and
// so is a run that does not stop when cancelled.
func FuzzPythonPipeline(f *testing.F) {
	for _, glob := range []string{"../pyfront/testdata/authoring/*.py", "../passes/testdata/*.stages.py"} {
		files, _ := filepath.Glob(glob)
		for _, p := range files {
			b, err := os.ReadFile(p)
			if err != nil {
				continue
			}
			// A stages golden holds one printed program per pass; the
			// first (the input) seeds.
			src, _, _ := strings.Cut(strings.TrimPrefix(string(b), "# ==== "), "\n# ==== ")
			if _, body, ok := strings.Cut(src, "\n"); ok && strings.HasSuffix(p, ".stages.py") {
				src = body
			}
			f.Add(src)
		}
	}
	f.Fuzz(func(t *testing.T, src string) {
		if len(src) > 1<<14 {
			return // the reader has its own fuzzer for size; here, the pipeline
		}
		mod, err := pl.ParsePython(src)
		if err != nil {
			noCrash(t, "read", err, src)
			return
		}
		for _, name := range mod.Names() {
			if mod.IsFactory(name) {
				continue
			}
			prog, err := mod.Program(name)
			if err != nil {
				noCrash(t, "program "+name, err, src)
				continue
			}
			runs := map[string]*ir.Program{"run as written": prog.IR()}
			if c, err := pl.CompileIR(prog.IR(), pl.Ranks(2)); err != nil {
				noCrash(t, "compile "+name, err, src)
			} else {
				_, err := c.PTOText()
				noCrash(t, "PTO of "+name, err, src)
				_, err = c.ManifestText()
				noCrash(t, "manifest of "+name, err, src)
				runs["run compiled"] = c.Final()
			}
			for what, p := range runs {
				// A long loop may run past its budget; then it must stop
				// when cancelled.
				ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
				done := make(chan error, 1)
				go func() {
					_, _, _, _, err := RunRandom(ctx, p, 2)
					done <- err
				}()
				select {
				case err := <-done:
					if ctx.Err() == nil {
						noCrash(t, what+" of "+name, err, src)
					}
				case <-time.After(15 * time.Second):
					t.Fatalf("%s of %s did not stop 10 s after it was cancelled\n%s", what, name, src)
				}
				cancel()
			}
		}
	})
}

// noCrash fails when err is a recovered panic rather than a diagnosis.
func noCrash(t *testing.T, what string, err error, src string) {
	t.Helper()
	if err == nil {
		return
	}
	msg := err.Error()
	for _, bug := range []string{"internal error", "simulator failure", "runtime error", "goroutine "} {
		if strings.Contains(msg, bug) {
			t.Fatalf("%s: %v\nsource:\n%s", what, err, src)
		}
	}
}
