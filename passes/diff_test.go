package passes

import (
	"math/rand"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// applyUnified applies a unified diff to from; a correct diff gives to.
func applyUnified(t *testing.T, from, diff string) string {
	t.Helper()
	src := strings.Split(from, "\n")
	var out []string
	pos := 0
	lines := strings.Split(strings.TrimSuffix(diff, "\n"), "\n")
	for i := 2; i < len(lines); i++ {
		l := lines[i]
		if strings.HasPrefix(l, "@@") {
			var aStart int
			spec := strings.Fields(l)[1] // -a,n
			a := strings.Split(strings.TrimPrefix(spec, "-"), ",")
			aStart, _ = strconv.Atoi(a[0])
			if len(a) > 1 && a[1] == "0" {
				aStart++ // "-k,0" names the line before an insertion
			}
			for pos < aStart-1 {
				out = append(out, src[pos])
				pos++
			}
			continue
		}
		switch l[0] {
		case ' ':
			require.Equal(t, src[pos], l[1:], "context line %d", pos)
			out = append(out, src[pos])
			pos++
		case '-':
			require.Equal(t, src[pos], l[1:], "removed line %d", pos)
			pos++
		case '+':
			out = append(out, l[1:])
		}
	}
	out = append(out, src[pos:]...)
	return strings.Join(out, "\n")
}

func TestUnifiedDiff(t *testing.T) {
	require.Equal(t, "", UnifiedDiff("a", "b", "x\ny", "x\ny"))
	d := UnifiedDiff("Input", "ConvertToSSA", "a\nb\nc\nd\ne\nf\ng\nh", "a\nb\nc\nD\ne\nf\ng\nh")
	require.Equal(t, "--- Input\n+++ ConvertToSSA\n@@ -1,7 +1,7 @@\n a\n b\n c\n-d\n+D\n e\n f\n g\n", d)

	// Random edits of random texts: the diff always reproduces the target,
	// both in the exact (Myers) range and past the edit-distance bound.
	rng := rand.New(rand.NewSource(1))
	for trial := 0; trial < 200; trial++ {
		n := rng.Intn(60)
		if trial%50 == 0 {
			n = 3000
		}
		var a []string
		for i := 0; i < n; i++ {
			a = append(a, "l"+strconv.Itoa(rng.Intn(8)))
		}
		b := append([]string(nil), a...)
		edits := rng.Intn(10)
		if trial%50 == 0 {
			edits = 1500
		}
		for e := 0; e < edits; e++ {
			i := rng.Intn(len(b) + 1)
			switch rng.Intn(3) {
			case 0:
				b = append(b[:i], append([]string{"new" + strconv.Itoa(e)}, b[i:]...)...)
			case 1:
				if i < len(b) {
					b = append(b[:i], b[i+1:]...)
				}
			default:
				if i < len(b) {
					b[i] = "chg" + strconv.Itoa(e)
				}
			}
		}
		from, to := strings.Join(a, "\n"), strings.Join(b, "\n")
		d := UnifiedDiff("a", "b", from, to)
		if from == to {
			require.Empty(t, d)
			continue
		}
		require.Equal(t, to, applyUnified(t, from, d), "trial %d", trial)
	}
}
