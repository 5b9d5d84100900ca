// Package notebooks holds the teaching notebooks; its test executes each one
// top to bottom with Jupyter's nbconvert against the ptorepl kernel.
package notebooks

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestNotebooksExecute(t *testing.T) {
	if _, err := os.Stat("/usr/bin/jupyter"); err != nil {
		t.Fatal("/usr/bin/jupyter is missing: the test command installs Debian's jupyter-nbconvert")
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "ptorepl")
	out, err := exec.Command("go", "build", "-o", bin, "../cmd/ptorepl").CombinedOutput()
	require.NoError(t, err, "%s", out)
	env := append(os.Environ(), "JUPYTER_DATA_DIR="+filepath.Join(dir, "jupyter"))
	cmd := exec.Command(bin, "kernel", "install", "--user", "--name", "ptorepl")
	cmd.Env = env
	out, err = cmd.CombinedOutput()
	require.NoError(t, err, "%s", out)

	books, _ := filepath.Glob("*.ipynb")
	require.GreaterOrEqual(t, len(books), 6)
	for _, nb := range books {
		t.Run(nb, func(t *testing.T) {
			cmd := exec.Command("/usr/bin/jupyter", "nbconvert", "--to", "notebook", "--execute",
				"--ExecutePreprocessor.timeout=120", "--output-dir", dir, nb)
			cmd.Env = env
			out, err := cmd.CombinedOutput()
			require.NoError(t, err, "%s", out)
			raw, err := os.ReadFile(filepath.Join(dir, nb))
			require.NoError(t, err)
			var doc struct {
				Cells []struct {
					CellType string `json:"cell_type"`
					Outputs  []struct {
						OutputType string `json:"output_type"`
						Name       string `json:"name"`
						Evalue     string `json:"evalue"`
					} `json:"outputs"`
				} `json:"cells"`
			}
			require.NoError(t, json.Unmarshal(raw, &doc))
			executed := 0
			for i, c := range doc.Cells {
				if c.CellType != "code" {
					continue
				}
				executed++
				for _, o := range c.Outputs {
					require.NotEqual(t, "error", o.OutputType, "cell %d: %s", i, o.Evalue)
					require.NotEqual(t, "stderr", o.Name, "cell %d wrote to stderr", i)
				}
			}
			require.Positive(t, executed)
		})
	}
}
