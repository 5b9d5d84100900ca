package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestRunScript(t *testing.T) {
	var out, errOut bytes.Buffer
	code := run([]string{"run", "testdata/hello.go"}, nil, &out, &errOut)
	require.Equal(t, 0, code, errOut.String())
	require.Contains(t, out.String(), "built k\n")
	require.Contains(t, out.String(), "class Hello:")
	require.Contains(t, out.String(), "return pl.tile.store(pl.tile.add(t, t), [0, 0], y)")
}

func TestRunScriptStopsAtError(t *testing.T) {
	var out, errOut bytes.Buffer
	code := run([]string{"run", "testdata/broken.go"}, nil, &out, &errOut)
	require.Equal(t, 1, code)
	require.Contains(t, errOut.String(), "error: cell[2]:")
	require.NotContains(t, out.String(), "never")
}

func TestScriptedStdin(t *testing.T) {
	in := strings.NewReader("a := 2\nfunc sq(v int) int {\n\treturn v * v\n}\nsq(a)\n:print a\npanic(\"x\")\nsq(3)\n:nosuch\n:quit\nsq(4)\n")
	var out, errOut bytes.Buffer
	code := run(nil, in, &out, &errOut)
	require.Equal(t, 1, code, "a failing cell makes the exit status non-zero")
	require.Equal(t, "4\n2\n9\n", out.String())
	require.Contains(t, errOut.String(), "error: cell[")
	require.Contains(t, errOut.String(), "panic: x")
	require.Contains(t, errOut.String(), "unknown command :nosuch")
}

func TestSplitScript(t *testing.T) {
	cells := splitScript("a := 1\n// %%\nb := 2\n//%% title\n\n// %%\nc := 3\n")
	require.Equal(t, []string{"a := 1\n", "\nb := 2\n", "\nc := 3\n"}, cells)
}

func TestVersion(t *testing.T) {
	var out bytes.Buffer
	require.Equal(t, 0, run([]string{"version"}, nil, &out, &out))
	require.True(t, strings.HasPrefix(out.String(), "ptorepl "))
}
