package interp_test

import (
	"bufio"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// The committed symbol tables and documentation index must match what the
// generators produce from today's pl, pld and tensor: run `go generate
// ./interp/...` after changing their API.
func TestGeneratedFilesAreCurrent(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the generators (go run / go tool); skipped with -short")
	}
	// The scratch directory starts with "_" so that `go list ./...` (the
	// layering test, running at the same time) never sees it as a package.
	tmp, err := os.MkdirTemp("symbols", "_gencheck")
	require.NoError(t, err)
	defer os.RemoveAll(tmp)
	// yaegi extract names the package after the directory it runs in.
	dir := filepath.Join(tmp, "symbols")
	require.NoError(t, os.Mkdir(dir, 0o755))
	for _, pkg := range []string{"pl", "pld", "tensor", "display"} {
		cmd := exec.Command("go", "tool", "yaegi", "extract", "github.com/ptorepl/ptorepl/"+pkg)
		cmd.Dir = dir
		out, err := cmd.CombinedOutput()
		require.NoError(t, err, "%s", out)
		name := "github_com-ptorepl-ptorepl-" + pkg + ".go"
		fresh, err := os.ReadFile(filepath.Join(dir, name))
		require.NoError(t, err)
		committed, err := os.ReadFile(filepath.Join("symbols", name))
		require.NoError(t, err)
		require.Equal(t, string(committed), string(fresh), "symbols/%s is stale: run go generate ./interp/...", name)
	}
	docs := filepath.Join(tmp, "docs.go")
	out, err := exec.Command("go", "run", "./internal/gendoc", "-o", docs, "../pl", "../pld", "../tensor", "../display").CombinedOutput()
	require.NoError(t, err, "%s", out)
	fresh, err := os.ReadFile(docs)
	require.NoError(t, err)
	committed, err := os.ReadFile("docs_gen.go")
	require.NoError(t, err)
	require.Equal(t, string(committed), string(fresh), "docs_gen.go is stale: run go generate ./interp/...")
}

// checkedGenerators are the //go:generate directives
// TestGeneratedFilesAreCurrent reruns, by file (relative to the module).
var checkedGenerators = []string{
	"interp/doc.go: go run ./internal/gendoc -o docs_gen.go ../pl ../pld ../tensor ../display",
	"interp/symbols/symbols.go: go tool yaegi extract github.com/ptorepl/ptorepl/display",
	"interp/symbols/symbols.go: go tool yaegi extract github.com/ptorepl/ptorepl/pl",
	"interp/symbols/symbols.go: go tool yaegi extract github.com/ptorepl/ptorepl/pld",
	"interp/symbols/symbols.go: go tool yaegi extract github.com/ptorepl/ptorepl/tensor",
}

// Every //go:generate directive in the module is one the staleness test
// reruns: a new generator fails here until its output is checked too.
func TestEveryGeneratorIsChecked(t *testing.T) {
	root, err := filepath.Abs("..")
	require.NoError(t, err)
	var found []string
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if n := d.Name(); n == "testdata" || (strings.HasPrefix(n, ".") && path != root) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") {
			return nil
		}
		f, err := os.Open(path)
		if err != nil {
			return err
		}
		defer f.Close()
		rel, _ := filepath.Rel(root, path)
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			if cmd, ok := strings.CutPrefix(sc.Text(), "//go:generate "); ok {
				found = append(found, filepath.ToSlash(rel)+": "+strings.TrimSpace(cmd))
			}
		}
		return sc.Err()
	})
	require.NoError(t, err)
	sort.Strings(found)
	require.Equal(t, checkedGenerators, found, "a //go:generate directive was added or changed: make TestGeneratedFilesAreCurrent rerun it, then list it in checkedGenerators")
}
