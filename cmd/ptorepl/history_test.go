package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// The history file keeps whole cells, backslashes and all, across
// sessions; a file from before (one physical line an entry) is read as it
// is and rewritten in the cell format.
func TestHistoryFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "hist")
	cells := []string{
		"func sq(v int) int {\n\treturn v * v\n}",
		`fmt.Println("a\nb", "\\")`,
		"raw := `x\n\\n`",
		":step",
	}
	h := openHistory(path)
	for _, c := range cells {
		h.add(c)
	}
	h.add(":step") // a repeat of the last cell is not stored twice
	raw, err := os.ReadFile(path)
	require.NoError(t, err)
	require.Equal(t, historyHeader+"\n"+`func sq(v int) int {\n`+"\t"+`return v * v\n}`+"\n", strings.Join(strings.SplitAfter(string(raw), "\n")[:2], ""))
	require.Equal(t, 1+len(cells), strings.Count(string(raw), "\n"), "one line a cell")
	require.Equal(t, cells, openHistory(path).cells)

	old := filepath.Join(t.TempDir(), "old")
	require.NoError(t, os.WriteFile(old, []byte("sq(7)\nfmt.Println(\"a\\n\")\n\n:step\n"), 0o600))
	require.Equal(t, []string{"sq(7)", `fmt.Println("a\n")`, ":step"}, openHistory(old).cells)
	raw, err = os.ReadFile(old)
	require.NoError(t, err)
	require.True(t, strings.HasPrefix(string(raw), historyHeader+"\n"), "rewritten in the cell format")
	require.Equal(t, []string{"sq(7)", `fmt.Println("a\n")`, ":step"}, openHistory(old).cells)
}

// readline sees a cell as one line; the line breaks come back on Enter.
func TestCellLineRoundTrip(t *testing.T) {
	cell := "func f() {\n\treturn\n}"
	line := toLine(cell)
	require.NotContains(t, line, "\n")
	require.Equal(t, cell, fromLine(line))
	require.Equal(t, "func f() {↵\treturn↵}", string(cellPainter{}.Paint([]rune(line), 0)))
}
