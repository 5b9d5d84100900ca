package ir

import (
	"os/exec"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// Float literals print as upstream's printer writes them (C++ ostream at
// max_digits10, that is C's %.17g, with ".0" forced on an integral
// value): compared with C's %.17g through Python's % operator, and each
// reads back to the same double.
func TestFloatLiteralMatchesC(t *testing.T) {
	vals := []float64{0.5, 0.1, 0.3, 1.0 / 3, 1e-05, 3e-07, 2.5e-4, 1e-4, 1e20, 1e16, 1e15 + 0.5, 1234567, 2, -2.5, 100, 0.75, -0.0625, 6.02214076e23, 5e-324}
	texts := make([]string, len(vals))
	for i, v := range vals {
		texts[i] = strconv.FormatFloat(v, 'g', -1, 64)
	}
	cmd := exec.Command("/usr/bin/python3", append([]string{"-c", "import sys\nfor a in sys.argv[1:]: print('%.17g' % float(a))"}, texts...)...)
	out, err := cmd.Output()
	require.NoError(t, err, "python3 formats the reference")
	want := strings.Fields(string(out))
	require.Len(t, want, len(vals))
	for i, v := range vals {
		w := want[i]
		if !strings.ContainsAny(w, ".en") {
			w += ".0"
		}
		got := FloatLiteral(v)
		require.Equal(t, w, got, "FloatLiteral(%v)", v)
		back, err := strconv.ParseFloat(got, 64)
		require.NoError(t, err)
		require.Equal(t, v, back, "%s reads back", got)
	}
}
