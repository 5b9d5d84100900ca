package main

import (
	"bytes"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// `ptorepl run --relaxed` and the REPL's `:run -relaxed` run on the weak
// memory model: the hand-written protocols, which have no fences, get the
// relaxed mode's findings; the same runs without the flag do not.
func TestRunRelaxed(t *testing.T) {
	var sc, rx, errOut bytes.Buffer
	require.Equal(t, 0, run([]string{"run", "--entry", "ring_put", "--ranks", "3", ringPy}, nil, &sc, &errOut), errOut.String())
	require.Equal(t, 0, run([]string{"run", "--relaxed", "--entry", "ring_put", "--ranks", "3", ringPy}, nil, &rx, &errOut), errOut.String())
	require.NotContains(t, sc.String(), "signal-overtakes-data")
	require.Contains(t, rx.String(), "error [signal-overtakes-data]")
	require.Contains(t, rx.String(), "a `pl.system.fence()` is needed between line 80:5 and line 81:5")

	var out bytes.Buffer
	src, err := os.ReadFile("testdata/quickstart.go")
	require.NoError(t, err)
	code := run(nil, strings.NewReader(string(src)+"\n:run -ranks 2 -relaxed\n:run -ranks 2\n"), &out, &errOut)
	require.Equal(t, 0, code, errOut.String())
	parts := strings.Split(out.String(), "ran Quickstart on 2 ranks")
	require.Len(t, parts, 3, out.String())
	require.Contains(t, parts[1], "error [signal-overtakes-data]", "the relaxed run")
	require.NotContains(t, parts[2], "signal-overtakes-data", "the sequentially consistent run")

}
