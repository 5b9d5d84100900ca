package interp_test

import (
	"os"
	"os/exec"
	"path/filepath"
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
	tmp, err := os.MkdirTemp("symbols", "gencheck")
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
